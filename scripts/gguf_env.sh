#!/usr/bin/env bash
# The Python environment of the tests that write GGUF files
# (scripts/make-test-lora.py, through llama.cpp's gguf-py): gguf-py's
# dependencies, numpy and PyYAML, pinned (scripts/python_env.sh). Prints the
# interpreter's path.
exec "$(dirname "$0")/python_env.sh" numpy==2.2.6 PyYAML==6.0.2
