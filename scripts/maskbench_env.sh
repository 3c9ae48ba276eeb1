#!/usr/bin/env bash
# Creates the Python environment MaskBench compares against (`make maskbench`):
# llguidance and XGrammar at pinned versions, jsonschema (the validator that
# decides which rewritten instances are applicable), and transformers with gguf
# (llguidance gets the model's own tokenizer, read from the GGUF file), in a
# virtual environment under the cache folder keyed by those versions. Prints the
# interpreter's path.
# XGrammar imports torch, whose PyPI wheel loads CUDA libraries at import even
# on a machine without a GPU: torch is installed with its dependencies.
set -euo pipefail
LLGUIDANCE=1.9.1
XGRAMMAR=0.2.8
JSONSCHEMA=4.23.0
TRANSFORMERS=5.24.0
GGUF=0.19.0
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/swift-foundation-models/maskbench"
VENV="$CACHE/venv-llguidance-$LLGUIDANCE-xgrammar-$XGRAMMAR"
STAMP="$VENV/.installed-jsonschema-$JSONSCHEMA-transformers-$TRANSFORMERS-gguf-$GGUF"
if [ ! -f "$STAMP" ]; then
    mkdir -p "$CACHE"
    python3 -m venv "$VENV" >&2
    "$VENV/bin/pip" install -q "llguidance==$LLGUIDANCE" "jsonschema==$JSONSCHEMA" "transformers==$TRANSFORMERS" "gguf==$GGUF" >&2
    # XGrammar's declared dependencies include triton and transformers, which it
    # does not need to compile schemas and match tokens: install what it imports.
    "$VENV/bin/pip" install -q --no-deps "xgrammar==$XGRAMMAR" >&2
    "$VENV/bin/pip" install -q pydantic numpy typing-extensions "apache-tvm-ffi>=0.1.11" torch >&2 \
        || echo "maskbench_env: XGrammar's dependencies could not be installed; it will be reported as not run" >&2
    touch "$STAMP"
fi
echo "$VENV/bin/python"
