#!/usr/bin/env bash
# `make demo`: a tour of the package on the default model, each part timed:
# typed answers, a tool call and a streamed typed report (the vinyl-collection
# example's program), receipts checked and merged with a regex reader, a
# flashcards feature on a held session, a nested coaching report streamed
# from YAML templates, ticket triage and a coach chat with a tool through the
# tier router, then the tier router falling back
# from a private cloud that is down to the on-device model (fm respond
# --policy), then the JSON Schema of a type and what it costs in the context
# (fm schema, fm tokens).
#
# usage: demo.sh BIN-DIRECTORY   (where `swift build` put fm and the examples' programs)
set -euo pipefail
bin="${1:?usage: demo.sh BIN-DIRECTORY}"
fm="$bin/fm"

if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then bold=$'\033[1m' dim=$'\033[2m' plain=$'\033[0m'; else bold='' dim='' plain=''; fi
now() { echo "${EPOCHREALTIME/./}"; }   # microseconds (bash 5)
seconds() { local us=$(( $(now) - $1 )); printf '%d.%d' $((us / 1000000)) $((us % 1000000 / 100000)); }
start=$(now)
part_start=$start
say() { part_start=$(now); printf '\n%s== %s%s\n' "$bold" "$*" "$plain"; }
took() { printf '%s(%s s)%s\n' "$dim" "$(seconds "$part_start")" "$plain"; }

say "fm availability: the default model, loaded in process by llama.cpp"
"$fm" availability
took

say "Typed answers, a tool call, a streamed typed report: Examples/VinylCollection"
"$bin/vinyl-collection"
took

say "Typed answers checked against arithmetic and a regex reader: Examples/ReceiptExtraction"
"$bin/receipt-extraction"
took

say "A session held and prewarmed, a state enum: Examples/Flashcards"
"$bin/flashcards"
took

say "A nested report streamed from YAML prompt templates: Examples/CoachingReport"
"$bin/coaching-report"
took

# The same private cloud that is down (below): both .cloudFree features
# walk down to the device, and each answer names the tier that served it.
say "Ticket triage and a coach chat with a tool through the tier router: Examples/TicketTriage"
FOUNDATION_MODELS_PCC_URL="http://127.0.0.1:9/v1" FOUNDATION_MODELS_PCC_MODEL=qwen2.5-coder-1.5b "$bin/ticket-triage"
took

# A private cloud that is down: the server's URL answers nothing (port 9 on
# this machine, where nothing listens), so the router's cloudFree policy
# walks down to the on-device model and says which tier served.
say "Tier router: cloudFree with the private cloud down falls back to on-device"
FOUNDATION_MODELS_PCC_URL="http://127.0.0.1:9/v1" FOUNDATION_MODELS_PCC_MODEL=qwen2.5-coder-1.5b "$fm" respond --policy cloudFree --greedy --max-tokens 40 \
    --instructions "Answer in one sentence." "Which ticket queue handles a refund for a double charge?" 2>&1
took

say "fm schema AlbumRecommendation: the JSON Schema guided generation enforces"
"$fm" schema AlbumRecommendation
"$fm" tokens --type AlbumRecommendation "Recommend three albums from my shelves."
took

printf '\n%sTour done in %s s.%s Next: %s chat --transcript chat.json\n' "$bold" "$(seconds "$start")" "$plain" "$fm"
