#!/usr/bin/env bash
# `make test` after `make setup` (Makefile, "test"): builds the package and
# its tests once, then runs the test bundle for each group of needs and
# builds a dependent package. Run with env.sh sourced.
#
# Where it builds: a checkout that has its own build (.build/debug, from
# `swift build` or an earlier `make test`) builds there. A checkout without
# one, a fresh clone above all, builds in a folder of the setup cache keyed
# by Package.swift and the Swift compiler, so that the dependencies (about
# ten of a fresh build's thirteen minutes on 2 cores: swift-syntax,
# BoringSSL, NIO, Hummingbird) are compiled once per key, not once per
# clone. That folder needs a path that does not change: SwiftPM keys what
# it has built by the paths of the sources, and the dependencies' sources
# are checked out inside it. This package's own modules are removed from it
# before each build, so they are always compiled whole from this checkout's
# sources. One run at a time holds it (flock); another run meanwhile builds
# in its own .build.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/swift-foundation-models"

if [ -z "${SWIFT_SCRATCH_PATH:-}" ]; then
    SWIFT_SCRATCH_PATH="$PWD/.build"
    if [ ! -d .build/debug ]; then
        key="$({ cat Package.swift; "$SWIFT" --version 2>&1; } | sha256sum | cut -c1-16)"
        shared="$CACHE/build/$key"
        mkdir -p "$shared"
        exec 9> "$shared.lock"
        if flock -n 9; then
            SWIFT_SCRATCH_PATH="$shared"
            # Builds for other keys (an older Package.swift or compiler)
            # that no run holds are spent: about 2.5 GB each.
            for other in "$CACHE"/build/*/; do
                other="${other%/}"
                [ "$other" = "$shared" ] && continue
                ( flock -n 8 && rm -rf "$other" "$other.lock" ) 8> "$other.lock" || true
            done
            # This package's modules (and the tool copies of them), by the
            # names SwiftPM gives them.
            mapfile -t modules < <(SWIFT="$SWIFT" scripts/package-modules.sh "$shared")
            modules+=(swift_foundation_modelsPackageTests swift_foundation_modelsPackageDiscoveredTests)
            for module in "${modules[@]}"; do
                rm -rf "$shared"/*/debug/"$module".build "$shared"/*/debug/"$module"-tool.build
            done
            echo "test: building in $shared (dependencies kept from earlier runs, this package's ${#modules[@]} modules afresh)"
        else
            echo "test: another run holds $shared; building in $SWIFT_SCRATCH_PATH"
        fi
    fi
fi
export SWIFT_SCRATCH_PATH
scratch=(--scratch-path "$SWIFT_SCRATCH_PATH")
small="$FOUNDATION_MODELS_SMALL_MODEL"

"$SWIFT" build "${scratch[@]}" --build-tests
FOUNDATION_MODELS_MODEL="$small" "$SWIFT" test "${scratch[@]}" --skip-build
FOUNDATION_MODELS_MODEL="$small" FOUNDATION_MODELS_TEST_ALONE=1 SWIFT="$SWIFT" scripts/test-tagged.sh timing
SWIFT="$SWIFT" scripts/vulkan-test.sh "$small"
FOUNDATION_MODELS_MODEL=/nonexistent/not-downloaded.gguf SWIFT="$SWIFT" scripts/test-tagged.sh noModel
scripts/dependent-package-test.sh "$small"
# One sequence (FOUNDATION_MODELS_CONTEXTS=1): the quality suites judge the
# answer a request gets alone, as `make eval` does, not one decoded in a
# batch with another test's. Not slower: 212 s against 232 s with two.
# Greedy answers still follow llama.cpp's arithmetic, which differs with the
# thread count and the CPU: a suite asserts strictly only what holds across
# them (CoachingQualityTests says what does not, and how it was measured).
FOUNDATION_MODELS_MODEL="$FOUNDATION_MODELS_DEFAULT_MODEL" FOUNDATION_MODELS_CONTEXTS=1 SWIFT="$SWIFT" scripts/test-tagged.sh defaultModel
# The DataAttachments trait (27.2's data attachments and entries, off by
# default): the package rebuilt with it on, in the same build folder (only
# this package's modules recompile: about 6 minutes on 2 cores), so every
# test target compiles with the trait's cases, then the tests tagged
# dataAttachments run. Last, because it leaves that folder built with the
# trait: a later plain `swift build` recompiles this package's modules.
traits=(--traits LlamaCpp,DataAttachments)
"$SWIFT" build "${scratch[@]}" --build-tests "${traits[@]}"
FOUNDATION_MODELS_MODEL="$small" SWIFT="$SWIFT" scripts/test-tagged.sh dataAttachments "${traits[@]}"
