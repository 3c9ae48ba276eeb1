#!/usr/bin/env bash
# The on-device GPU tests (OnDeviceTests "On a GPU") on Vulkan without a GPU:
# llama.cpp's Vulkan build (scripts/setup.sh --gpu=vulkan --llama-only, beside
# the CPU build the package links) on Mesa's software GPU, lavapipe. The test
# bundle built against the CPU build runs with the Vulkan build's libraries
# first on the library path: the same C API, so the same binary runs either.
#
# Usage: scripts/vulkan-test.sh SMALL_MODEL.gguf   (after swift build --build-tests)
# Builds the Vulkan llama.cpp once (cached, about half an hour on 2 cores);
# installs Debian's Vulkan headers, glslc, SPIR-V headers and lavapipe
# (mesa-vulkan-drivers) through apt when they are missing.
set -euo pipefail
model="$1"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/swift-foundation-models"
"$ROOT/scripts/setup.sh" --gpu=vulkan --llama-only --quiet
if [ ! -f /usr/share/vulkan/icd.d/lvp_icd.x86_64.json ] && [ ! -f /usr/share/vulkan/icd.d/lvp_icd.json ]; then
    echo "vulkan-test: installing Mesa's software Vulkan driver (mesa-vulkan-drivers) through apt"
    sudo=(); [ "$(id -u)" = 0 ] || sudo=(sudo)
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mesa-vulkan-drivers
fi
# shellcheck disable=SC1091
. "$CACHE/env-vulkan.sh"
lvp="$(ls /usr/share/vulkan/icd.d/lvp_icd*.json | head -1)"
cd "$ROOT"
# llama.cpp passes over CPU-type Vulkan devices such as lavapipe unless they
# are named (GGML_VK_VISIBLE_DEVICES).
VK_ICD_FILENAMES="$lvp" VK_DRIVER_FILES="$lvp" GGML_VK_VISIBLE_DEVICES=0 FOUNDATION_MODELS_MODEL="$model" \
    scripts/test-tagged.sh gpu
