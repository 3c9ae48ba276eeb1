#!/usr/bin/env bash
# `make eval`'s tool-use runs (Makefile, "eval"): the tools corpus on MODEL
# in process, then the same items through `fm serve` on the same model, then
# through llama-server rendering the conversation with the model's own chat
# template (`--jinja`): the reference, what the model does with tools
# without our rendering. Each server is started here on a free loopback
# port and stopped when its run ends, so EVAL.md's Tools section sets the
# three side by side. The runs are written to OUTPUT_DIR as tools.json,
# tools-serve.json and tools-reference.json once all three are done
# (tools.json last: `make eval` takes it to mean the step is complete),
# each recording REVISION, the source revision fm was built from.
#   scripts/eval-tools.sh FM_BINARY MODEL LABEL OUTPUT_DIR [REVISION]
# LLAMA_SERVER (env.sh, `make setup`) names llama-server.
set -euo pipefail
fm="$1" model="$2" label="$3" out="$4"
revision=()
[ -n "${5:-}" ] && revision=(--revision "$5")
name="$(basename "$model" .gguf)"

"$fm" eval tools --model "$model" --label "$label" "${revision[@]}" --json "$out/tools.json.part" > /dev/null

log="$(mktemp)"
server=""
stop() {
    [ -n "$server" ] && { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
    server=""
}
trap 'stop; rm -f "$log"' EXIT

# Waits until the server started as $server answers at $1/health.
await() {
    for _ in $(seq 1 1200); do
        curl -sf "$1/health" > /dev/null 2>&1 && return 0
        kill -0 "$server" 2>/dev/null || { echo "eval-tools: the server exited:" >&2; cat "$log" >&2; exit 1; }
        sleep 0.1
    done
    echo "eval-tools: the server did not answer within 120 s" >&2; cat "$log" >&2; exit 1
}

"$fm" serve --port 0 --model "$model" > "$log" 2>&1 &
server=$!
url=""
for _ in $(seq 1 600); do
    url="$(grep -o 'listening on http://[^ ]*' "$log" | head -1 | sed 's/^listening on //')" || true
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || { echo "eval-tools: fm serve exited:" >&2; cat "$log" >&2; exit 1; }
    sleep 0.1
done
[ -n "$url" ] || { echo "eval-tools: fm serve did not start within 60 s" >&2; cat "$log" >&2; exit 1; }
"$fm" eval tools --server "$url" --server-model "$name" --label "$label" "${revision[@]}" --json "$out/tools-serve.json.part" > /dev/null
stop

if [ -z "${LLAMA_SERVER:-}" ] || [ ! -x "$LLAMA_SERVER" ]; then
    echo "eval-tools: no llama-server for the reference run (LLAMA_SERVER); make setup installs it" >&2
    exit 1
fi
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$LLAMA_SERVER" --model "$model" --jinja --host 127.0.0.1 --port "$port" --ctx-size 8192 --parallel 1 > "$log" 2>&1 &
server=$!
await "http://127.0.0.1:$port"
"$fm" eval tools --server "http://127.0.0.1:$port" --server-model "$name" \
    --server-mode "llama-server --jinja" --label "$label" "${revision[@]}" --json "$out/tools-reference.json.part" > /dev/null
stop
mv "$out/tools-serve.json.part" "$out/tools-serve.json"
mv "$out/tools-reference.json.part" "$out/tools-reference.json"
mv "$out/tools.json.part" "$out/tools.json"
