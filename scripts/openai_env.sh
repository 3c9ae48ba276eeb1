#!/usr/bin/env bash
# The Python environment of fm serve's client tests: the official `openai`
# client and `jsonschema` at pinned versions, in a virtual environment under
# the cache folder keyed by those versions. Prints the interpreter's path.
set -euo pipefail
OPENAI=1.109.1
JSONSCHEMA=4.23.0
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/swift-foundation-models/python"
VENV="$CACHE/venv-openai-$OPENAI-jsonschema-$JSONSCHEMA"
if [ ! -f "$VENV/.installed" ]; then
    mkdir -p "$CACHE"
    rm -rf "$VENV"
    python3 -m venv "$VENV" >&2
    "$VENV/bin/pip" install -q "openai==$OPENAI" "jsonschema==$JSONSCHEMA" >&2
    touch "$VENV/.installed"
fi
echo "$VENV/bin/python"
