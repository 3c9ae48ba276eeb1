#!/usr/bin/env bash
# Prepares, on this machine, what scripts/gpu/bench.sh needs on a GPU
# machine that has CUDA but no Swift toolchain and no network, in .gpu/
# (ignored by git; it travels with the device tool's `carry`, 64 MiB at most):
#   fm-bench.xz             fm-bench, release, with the Swift standard library
#                           linked in (--static-swift-stdlib), stripped
#   llama.cpp-src.tar.xz    the pinned llama.cpp source that setup.sh verified
#                           and unpacked, without docs, models, tests and the
#                           other GPU vendors' backends
#   llama.cpp-src.sha256    the sdist's checksum, for setup.sh's stamp
#   qwen2.5-tokenizer.gguf  the installed fast model's tokenizer (random
#                           weights are generated there around it)
# Run after `make setup`. The release build is relinked with the static
# standard library; the next plain release build relinks it back.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/swift-foundation-models"
# shellcheck disable=SC1091
. "$CACHE/env.sh"
KIT="$ROOT/.gpu"
mkdir -p "$KIT"
EXCLUDE="$(git rev-parse --git-path info/exclude)"
grep -qx '/.gpu/' "$EXCLUDE" 2>/dev/null || echo '/.gpu/' >> "$EXCLUDE"

SDIST_SHA256="$(sed -n 's/^LLAMA_SDIST_SHA256=//p' scripts/setup.sh)"
SRC="$(ls -d "$CACHE"/llama.cpp/b*-"${SDIST_SHA256:0:12}"/src | head -1)"
[ "$(cat "$SRC/.stamp")" = "$SDIST_SHA256" ] || { echo "prepare: $SRC is not setup.sh's verified source (run make setup)" >&2; exit 1; }

echo "prepare: fm-bench (release, static Swift standard library)"
swift build -c release --product fm-bench --static-swift-stdlib
strip -o "$KIT/fm-bench" .build/release/fm-bench
xz -T0 -6 -f "$KIT/fm-bench"

echo "prepare: llama.cpp source from $SRC"
others=()
for backend in "$SRC"/ggml/src/ggml-*/; do
    name="$(basename "$backend")"
    case "$name" in ggml-cpu|ggml-cuda|ggml-vulkan|ggml-blas|ggml-rpc|ggml-hip|ggml-musa) ;; *) others+=(--exclude="./ggml/src/$name") ;; esac
done
tar -C "$SRC" -cJf "$KIT/llama.cpp-src.tar.xz" \
    --exclude=./docs --exclude=./models --exclude=./tests --exclude=./benches --exclude=./examples \
    --exclude=./media --exclude=./.devops --exclude=./.github --exclude=./.stamp "${others[@]}" .
echo "$SDIST_SHA256" > "$KIT/llama.cpp-src.sha256"

echo "prepare: the tokenizer of $FOUNDATION_MODELS_FAST_MODEL"
PYTHONPATH="$SRC/gguf-py" python3 scripts/gpu/random_model.py tokenizer "$FOUNDATION_MODELS_FAST_MODEL" "$KIT/qwen2.5-tokenizer.gguf"
ls -la "$KIT"
du -sh "$KIT"
