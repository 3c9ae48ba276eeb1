#!/usr/bin/env bash
# The Python environment of scripts/receipt_photos.py (the eval's receipt
# photos): Pillow, pinned (scripts/python_env.sh). Prints the interpreter's
# path.
exec "$(dirname "$0")/python_env.sh" pillow==13.0.0
