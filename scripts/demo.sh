#!/usr/bin/env bash
# `make demo`: a tour of the package on the default model, each part timed:
# fm (availability, the tier router falling back from a private cloud that
# is down to the on-device model with `fm respond --policy`, the JSON Schema
# of a type and what it costs in the context), then the examples' programs:
# typed answers, a tool call and a streamed typed report (vinyl collection),
# receipts checked and merged with a regex reader, a flashcards feature on a
# held session, a nested coaching report streamed from YAML templates, ticket
# triage and a coach chat with a tool through the tier router. Each
# program marks its answers by the eval's rules (FoundationModelsEval's
# CutShort and the example's task scorer): ✓ complete (✓ right where it
# knows the truth), ✗ cut short: <field> "…", or ✗ wrong: <why>.
#
# Each program is built (release) just before its part: on a fresh machine
# the first answer comes after one build, fm's, which compiles nearly all
# the package; each example after it adds a minute or less.
#
# usage: SWIFT=swift demo.sh   (run from the repository root, after scripts/setup.sh
#                               and with its env.sh sourced, as `make demo` does)
set -euo pipefail
swift="${SWIFT:-swift}"

if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then bold=$'\033[1m' dim=$'\033[2m' plain=$'\033[0m'; else bold='' dim='' plain=''; fi
now() { echo "${EPOCHREALTIME/./}"; }   # microseconds (bash 5)
seconds() { local us=$(( $(now) - $1 )); printf '%d.%d' $((us / 1000000)) $((us % 1000000 / 100000)); }
start=$(now)
part_start=$start
say() { part_start=$(now); printf '\n%s== %s%s\n' "$bold" "$*" "$plain"; }
took() { printf '%s(%s s)%s\n' "$dim" "$(seconds "$part_start")" "$plain"; }

# build PRODUCT: the program, in release mode, with its own timing line.
build() {
    local t0
    t0=$(now)
    printf '\n%s-- building %s (release)%s\n' "$dim" "$1" "$plain"
    "$swift" build -c release --product "$1"
    printf '%s(built in %s s)%s\n' "$dim" "$(seconds "$t0")" "$plain"
}
# measured CORPUS MODE: what EVAL.md measured for a feature on the default
# model (its "All fields right" table, the row of the run named for the
# default model, the column of MODE), so the tour says how often such
# answers are right instead of presenting them as fact.
eval_label="Qwen2.5-Coder-1.5B"
measured() {
    local corpus="$1" mode="$2" cell
    cell="$(awk -F'|' -v corpus="$corpus" -v label="$eval_label" -v mode="$mode" '
        /^## All fields right/ { table = 1; next }
        table && /^## / { exit }
        table && /^\| corpus \|/ { for (i = 1; i <= NF; i++) { h = $i; gsub(/^ +| +$/, "", h); if (h == mode) column = i }; next }
        table && column {
            c = $2; r = $3; gsub(/^ +| +$/, "", c); gsub(/^ +| +$/, "", r)
            if (c == corpus && r == label) { v = $column; gsub(/^ +| +$/, "", v); print v; exit }
        }' EVAL.md 2>/dev/null)"
    if [ -n "$cell" ] && [ "$cell" != "–" ]; then
        printf '%s(measured by make eval on this model: %s %s all right, EVAL.md)%s\n' "$dim" "$corpus" "$cell" "$plain"
    fi
}

bin="$("$swift" build -c release --show-bin-path)"
fm="$bin/fm"

build fm
say "fm availability: the default model, loaded in process by llama.cpp"
"$fm" availability
took

# A private cloud that is down: the server's URL answers nothing (port 9 on
# this machine, where nothing listens), so the router's cloudFree policy
# walks down to the on-device model and says which tier served.
say "Tier router: cloudFree with the private cloud down falls back to on-device"
FOUNDATION_MODELS_PCC_URL="http://127.0.0.1:9/v1" FOUNDATION_MODELS_PCC_MODEL=qwen2.5-coder-1.5b "$fm" respond --policy cloudFree --greedy --max-tokens 40 \
    --instructions "Answer in one sentence." "What is the capital of Australia?" 2>&1
took

say "fm schema AlbumRecommendation: the JSON Schema guided generation enforces"
"$fm" schema AlbumRecommendation
"$fm" tokens --type AlbumRecommendation "Recommend three albums from my shelves."
took

build vinyl-collection
say "Typed answers, a tool call, a streamed typed report: Examples/VinylCollection"
measured crates "guided (ours)"
"$bin/vinyl-collection"
took

build receipt-extraction
say "Typed answers checked against arithmetic and a regex reader: Examples/ReceiptExtraction"
measured receipts "the example's pipeline"
"$bin/receipt-extraction"
took

build flashcards
say "A session held and prewarmed, a state enum: Examples/Flashcards"
measured flashcards "the example's pipeline"
"$bin/flashcards"
took

build coaching-report
say "A nested report streamed from YAML prompt templates: Examples/CoachingReport"
"$bin/coaching-report"
took

# The same private cloud that is down (above): both .cloudFree features
# walk down to the device, and each answer names the tier that served it.
build ticket-triage
say "Ticket triage and a coach chat with a tool through the tier router: Examples/TicketTriage"
measured tickets "the example's pipeline"
FOUNDATION_MODELS_PCC_URL="http://127.0.0.1:9/v1" FOUNDATION_MODELS_PCC_MODEL=qwen2.5-coder-1.5b "$bin/ticket-triage"
took

printf '\n%sTour done in %s s (builds included).%s Next: %s chat --transcript chat.json\n' "$bold" "$(seconds "$start")" "$plain" "$fm"
