#!/usr/bin/env bash
# Builds fm-fuzz (libFuzzer + AddressSanitizer, its own scratch path) and
# runs each target for FUZZ_SECONDS (default 60) from its seed corpus in
# Fuzz/corpus/<target>. Inputs libFuzzer finds go to .build/fuzz/corpus,
# crashes to .build/fuzz/artifacts/<target>; exits non-zero when any target
# crashed, hung or leaked. `Fuzz/fuzz.sh json regex` runs only those.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-60}"
swift="${SWIFT:-swift}"
scratch=.build/fuzz
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(json partial-json json-schema regex gguf)

# libFuzzer without its main, from the toolchain's clang runtime.
toolchain="$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")"
runtime="$(dirname "$(ls "$toolchain"/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a | head -n 1)")"

export FOUNDATION_MODELS_FUZZ=1 FOUNDATION_MODELS_FUZZ_RUNTIME="$runtime"
"$swift" build --scratch-path "$scratch" --product fm-fuzz
binary="$("$swift" build --scratch-path "$scratch" --show-bin-path)/fm-fuzz"

# Longest input per target: pattern and prefix checks are quadratic-ish.
max_len() {
    case "$1" in
        partial-json) echo 512 ;;
        regex) echo 256 ;;
        *) echo 4096 ;;
    esac
}

failed=()
for target in "${targets[@]}"; do
    work="$scratch/corpus/$target" artifacts="$scratch/artifacts/$target"
    mkdir -p "$work" "$artifacts"
    echo "== $target: $seconds s"
    if ! SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1 "$binary" "$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$(max_len "$target")" \
        -print_final_stats=1 -artifact_prefix="$artifacts/" "$work" "Fuzz/corpus/$target" \
        2> "$scratch/$target.log"; then
        failed+=("$target")
        tail -n 40 "$scratch/$target.log"
    fi
    grep -E "^stat::(number_of_executed_units|average_exec_per_sec)|^Done" "$scratch/$target.log" || true
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: failed: ${failed[*]} (inputs in $scratch/artifacts)" >&2
    exit 1
fi
echo "fuzz: ${targets[*]} ran $seconds s each without a crash"
