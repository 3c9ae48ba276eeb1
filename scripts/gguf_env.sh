#!/usr/bin/env bash
# The Python environment of the tests that write GGUF files
# (scripts/make-test-lora.py, through llama.cpp's gguf-py): gguf-py's
# dependencies, numpy and PyYAML, at pinned versions, in a virtual
# environment under the cache folder keyed by those versions. Prints the
# interpreter's path.
set -euo pipefail
NUMPY=2.2.6
PYYAML=6.0.2
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/swift-foundation-models/python"
VENV="$CACHE/venv-numpy-$NUMPY-pyyaml-$PYYAML"
if [ ! -f "$VENV/.installed" ]; then
    mkdir -p "$CACHE"
    rm -rf "$VENV"
    python3 -m venv "$VENV" >&2
    "$VENV/bin/pip" install -q "numpy==$NUMPY" "PyYAML==$PYYAML" >&2
    touch "$VENV/.installed"
fi
echo "$VENV/bin/python"
