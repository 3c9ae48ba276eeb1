#!/usr/bin/env bash
# The GPU benchmark: runs on a machine with an NVIDIA GPU, CUDA's compiler,
# Python with numpy, and neither Swift nor network (the `device` tool's
# machines), from the repository root, with .gpu/ from scripts/gpu/prepare.sh:
#
#   bash scripts/gpu/bench.sh        results in $OUT (default ./gpu-results)
#
# 1. builds llama.cpp b11434 with CUDA through scripts/setup.sh --gpu=cuda
#    --llama-only --tools (the same build `make setup` makes where nvcc is
#    installed), from the source prepare.sh packed;
# 2. meanwhile writes random-weight Qwen2 models of the 7B and 0.5B shapes
#    around the real Qwen2.5 tokenizer (scripts/gpu/random_model.py);
# 3. runs fm-bench (the Swift benchmark, built on the other machine) on the
#    GPU beside the references on the same GPU: throughput against llama-bench,
#    typed answers, sessions at once against llama-server -np 8 and a bare
#    batched llama_decode loop; 7B first, then 0.5B, then the 0.5B's
#    throughput with the prompt's last token in a step of its own, with one
#    sequence and with flash attention on and off, and greedy picking on the
#    host against in llama.cpp's graph (backend_sampling.c).
# Every step runs under a timeout and the whole under a deadline
# (GPU_BENCH_BUDGET seconds, default 500), so the results come back even
# when a step hangs. At most 8 files in $OUT.
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
KIT="$ROOT/.gpu"
OUT="${OUT:-$ROOT/gpu-results}"
WORK="${GPU_BENCH_WORK:-/tmp/fm-gpu}"
mkdir -p "$OUT" "$WORK"
START=$(date +%s)
DEADLINE=$((START + ${GPU_BENCH_BUDGET:-500}))
exec > >(tee -a "$OUT/log.txt") 2>&1

note() { echo "[$(date -u +%H:%M:%S) +$(( $(date +%s) - START ))s] $*"; }
remaining() { echo $(( DEADLINE - $(date +%s) )); }
# run SECONDS COMMAND...: under a timeout that also keeps to the deadline.
run() {
    local wanted=$1; shift
    local left; left=$(( $(remaining) - 5 ))
    local limit=$(( wanted < left ? wanted : left ))
    if [ "$limit" -lt 15 ]; then note "skipped (no time left): $*"; return 124; fi
    note "\$ $* (at most ${limit}s)"
    local began; began=$(date +%s)
    timeout -k 5 "$limit" "$@"; local status=$?
    note "exit $status after $(( $(date +%s) - began ))s"
    return $status
}

note "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
for file in fm-bench.xz llama.cpp-src.tar.xz llama.cpp-src.sha256 qwen2.5-tokenizer.gguf; do
    [ -f "$KIT/$file" ] || { note "missing $KIT/$file: run scripts/gpu/prepare.sh first"; exit 1; }
done

# 1. llama.cpp with CUDA, through setup.sh, from the packed source placed
#    where setup.sh keeps its verified, unpacked source.
export XDG_CACHE_HOME="$WORK/cache"
CACHE="$XDG_CACHE_HOME/swift-foundation-models"
SHA="$(cat "$KIT/llama.cpp-src.sha256")"
SRC="$CACHE/llama.cpp/b11434-${SHA:0:12}-cuda/src"
mkdir -p "$SRC"
python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$KIT/llama.cpp-src.tar.xz" "$SRC" \
    && echo "$SHA" > "$SRC/.stamp"

# 2. the models, while llama.cpp compiles (numpy on one core)
M7="$WORK/random-qwen2.5-7b-q4_0.gguf"
M05="$WORK/random-qwen2.5-0.5b-q4_0.gguf"
( export PYTHONPATH="$SRC/gguf-py"
  python3 "$ROOT/scripts/gpu/random_model.py" model "$KIT/qwen2.5-tokenizer.gguf" 7b "$M7" \
  && python3 "$ROOT/scripts/gpu/random_model.py" model "$KIT/qwen2.5-tokenizer.gguf" 0.5b "$M05" ) > "$WORK/models.log" 2>&1 &
MODELS=$!

BUILD_START=$(date +%s)
export FM_SETUP_JOBS=$(nproc) CUDA_ARCHITECTURES="${CUDA_ARCHITECTURES:-90}"
run "${GPU_BENCH_BUILD:-330}" "$ROOT/scripts/setup.sh" --gpu=cuda --llama-only --tools
BUILD_STATUS=$?
note "llama.cpp CUDA build: exit $BUILD_STATUS in $(( $(date +%s) - BUILD_START ))s"
if [ "$BUILD_STATUS" != 0 ]; then
    tail -40 "$CACHE"/llama.cpp/*-cuda/build.log 2>/dev/null
    exit 1
fi
# shellcheck disable=SC1091
. "$CACHE/env-cuda.sh"
echo "devices: $FOUNDATION_MODELS_GPU_DEVICES"

python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' \
    "$KIT/fm-bench.xz" "$WORK/fm-bench" && chmod +x "$WORK/fm-bench"
FMB="$WORK/fm-bench"
ldd "$FMB" | grep -E "llama|ggml|not found"
"$FMB" devices | tee -a "$OUT/gpu.txt"

# The measurements' settings: every layer on the GPU (our default where a
# GPU backend is built in; llama-server's through its environment variable),
# 8 CPU threads as llama-bench and llama-server get, one round each, and no
# loop stopping (random weights repeat themselves).
export LLAMA_ARG_N_GPU_LAYERS=999
export FOUNDATION_MODELS_THREADS=8
export FM_BENCH_ROUNDS="${FM_BENCH_ROUNDS:-1}"
export FOUNDATION_MODELS_REPETITION=off

wait_for_model() {  # wait_for_model FILE
    while [ ! -s "$1" ] || ! grep -q "$(basename "$1")" "$WORK/models.log"; do
        kill -0 $MODELS 2>/dev/null || break
        [ "$(remaining)" -gt 30 ] || break
        sleep 1
    done
    cat "$WORK/models.log"
    grep -q "$(basename "$1")" "$WORK/models.log"
}

measure() {  # measure LABEL MODEL CONCURRENCY_SECONDS
    local label=$1 model=$2 seconds=$3
    export FOUNDATION_MODELS_MODEL="$model"
    note "== $label: throughput against llama-bench"
    echo "### $label" >> "$OUT/throughput.md"
    run 120 "$FMB" throughput "$model" >> "$OUT/throughput.md"
    note "== $label: typed answers"
    echo "### $label" >> "$OUT/typed.md"
    run 60 "$FMB" typed 3 >> "$OUT/typed.md"
    note "== $label: sessions at once against llama-server -np 8 and llama.cpp alone"
    echo "### $label" >> "$OUT/concurrency.md"
    run "$seconds" "$FMB" concurrency >> "$OUT/concurrency.md"
}

if wait_for_model "$M7"; then measure "7B shape" "$M7" 200; else note "no 7B model"; fi
if wait_for_model "$M05"; then measure "0.5B shape" "$M05" 120; else note "no 0.5B model"; fi
# Where one session's time goes on the small shape: the same throughput
# with the prompt's last token in a step of its own (the CPU's way,
# ContextSlot.promptEndsAlone), with one sequence instead of two (a smaller
# KV cache to attend over), and with flash attention forced on and off.
if [ -s "$M05" ]; then
    for variant in FM_BENCH_PROMPT_ENDS_ALONE=1 FOUNDATION_MODELS_CONTEXTS=1 FOUNDATION_MODELS_FLASH_ATTENTION=on FOUNDATION_MODELS_FLASH_ATTENTION=off; do
        note "== 0.5B shape, $variant: throughput"
        echo "### 0.5B shape, $variant" >> "$OUT/variants.md"
        run 60 env "$variant" "$FMB" throughput "$M05" >> "$OUT/variants.md"
    done
    # Whether greedy picking in llama.cpp's graph (its experimental backend
    # sampling) would beat copying the logits out and picking on the host.
    note "== 0.5B shape: greedy on the host against in the graph"
    if cc -O2 -o "$WORK/backend_sampling" "$ROOT/scripts/gpu/backend_sampling.c" -I"$LLAMA_PREFIX/include" -L"$LLAMA_PREFIX/lib" -lllama; then
        echo "### 0.5B shape, greedy: logits to the host against a sampler in the graph (scripts/gpu/backend_sampling.c)" >> "$OUT/variants.md"
        run 60 env LD_LIBRARY_PATH="$LLAMA_PREFIX/lib" "$WORK/backend_sampling" "$M05" 8 >> "$OUT/variants.md"
    fi
fi
kill $MODELS 2>/dev/null
nvidia-smi --query-gpu=memory.used,temperature.gpu,clocks.sm --format=csv,noheader
cp "$CACHE/env-cuda.sh" "$OUT/env.sh" 2>/dev/null
note "done: $(ls "$OUT" | tr '\n' ' ')"
