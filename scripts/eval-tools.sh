#!/usr/bin/env bash
# `make eval`'s tool-use runs (Makefile, "eval"): the tools corpus on MODEL
# in process, then the same items through `fm serve` on the same model,
# started here on a free loopback port and stopped when the run ends, so
# EVAL.md's Tools section sets the two paths side by side.
#   scripts/eval-tools.sh FM_BINARY MODEL LABEL OUTPUT_DIR
set -euo pipefail
fm="$1" model="$2" label="$3" out="$4"

"$fm" eval tools --model "$model" --label "$label" --json "$out/tools.json" > /dev/null

log="$(mktemp)"
"$fm" serve --port 0 --model "$model" > "$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$log"' EXIT
url=""
for _ in $(seq 1 600); do
    url="$(grep -o 'listening on http://[^ ]*' "$log" | head -1 | sed 's/^listening on //')" || true
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || { echo "eval-tools: fm serve exited:" >&2; cat "$log" >&2; exit 1; }
    sleep 0.1
done
[ -n "$url" ] || { echo "eval-tools: fm serve did not start within 60 s" >&2; cat "$log" >&2; exit 1; }
name="$(basename "$model" .gguf)"
"$fm" eval tools --server "$url" --server-model "$name" --label "$label" --json "$out/tools-serve.json" > /dev/null
