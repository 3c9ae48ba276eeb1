#!/usr/bin/env bash
# The session's own instructions per request and per generated token, counted
# by callgrind (`fm-bench own-work`, Sources/fm-bench/OwnWork.swift), into
# their section of OUTPUT.md. `make callgrind` runs it after building fm-bench
# and the llama.cpp that valgrind can run.
#
# Usage: scripts/callgrind.sh FM_BENCH OUTPUT.md
#
# The model is random weights in a tiny Qwen2 shape (hidden 256, 2 layers)
# around Qwen2.5's real tokenizer and its 151,936-token vocabulary
# (scripts/gpu/random_model.py, seeded: the same file everywhere), written
# once into the setup cache: a decode step is cheap, so the session's own
# work per token is a visible part of the count, and its vocabulary is the
# size the per-token work scans on the models users run.
# Environment: FOUNDATION_MODELS_FAST_MODEL (its tokenizer), from env.sh.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FM_BENCH="${1:?usage: scripts/callgrind.sh FM_BENCH OUTPUT.md}"
OUTPUT="${2:?usage: scripts/callgrind.sh FM_BENCH OUTPUT.md}"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/swift-foundation-models"

die() { echo "callgrind.sh: error: $*" >&2; exit 1; }

command -v valgrind >/dev/null 2>&1 || die "valgrind is not installed (Debian: apt-get install valgrind)"
command -v objcopy >/dev/null 2>&1 || die "objcopy is not installed (Debian: apt-get install binutils)"
[ -f "$CACHE/env-cpu-baseline.sh" ] || die "no x86-64-v3 build of llama.cpp: run scripts/setup.sh --gpu=cpu-baseline --llama-only"
BASELINE_LIB="$(. "$CACHE/env-cpu-baseline.sh" && echo "$LLAMA_PREFIX/lib")"
[ -n "${FOUNDATION_MODELS_FAST_MODEL:-}" ] && [ -f "$FOUNDATION_MODELS_FAST_MODEL" ] \
    || die "FOUNDATION_MODELS_FAST_MODEL is not a file (run make setup and source env.sh)"

# The model, keyed by the generator's checksum and the tokenizer's source.
GENERATOR="$ROOT/scripts/gpu/random_model.py"
KEY="$(cat "$GENERATOR" <(basename "$FOUNDATION_MODELS_FAST_MODEL") | sha256sum | cut -c1-12)"
MODEL_DIR="$CACHE/models/random-qwen2.5-tiny-$KEY"
MODEL="$MODEL_DIR/tiny.gguf"
if [ ! -f "$MODEL_DIR/.stamp" ]; then
    GGUF_PY="$(. "$CACHE/env-cpu-baseline.sh" && echo "$LLAMA_PREFIX/../src/gguf-py")"
    [ -d "$GGUF_PY" ] || die "llama.cpp's gguf-py is not at $GGUF_PY"
    PYTHON="$("$ROOT/scripts/gguf_env.sh")"
    rm -rf "$MODEL_DIR"
    mkdir -p "$MODEL_DIR"
    echo "callgrind.sh: writing the tiny random-weight model into $MODEL_DIR" >&2
    PYTHONPATH="$GGUF_PY" "$PYTHON" "$GENERATOR" tokenizer "$FOUNDATION_MODELS_FAST_MODEL" "$MODEL_DIR/tokenizer.gguf" >&2
    PYTHONPATH="$GGUF_PY" "$PYTHON" "$GENERATOR" model "$MODEL_DIR/tokenizer.gguf" tiny "$MODEL" >&2
    rm -f "$MODEL_DIR/tokenizer.gguf"
    touch "$MODEL_DIR/.stamp"
fi

FM_CALLGRIND_LIBRARY_PATH="$BASELINE_LIB" "$FM_BENCH" own-work "$MODEL" --output "$OUTPUT"
