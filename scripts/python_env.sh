#!/usr/bin/env bash
# A virtual environment with exactly the pinned packages given, under the
# cache folder, keyed by them (made once; kept across runs). Prints the
# interpreter's path.
#
# Usage: scripts/python_env.sh PACKAGE==VERSION...
set -euo pipefail
if [ $# -eq 0 ]; then
    echo "usage: scripts/python_env.sh PACKAGE==VERSION..." >&2
    exit 2
fi
name="venv"
for requirement in "$@"; do name="$name-${requirement/==/-}"; done
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/swift-foundation-models/python"
VENV="$CACHE/$name"
# Two callers at once (tests run in parallel, and two may need the same
# environment on a fresh machine) take turns: the second waits for the
# first to finish, then finds the environment made.
mkdir -p "$CACHE"
exec 9> "$VENV.lock"
flock 9
if [ ! -f "$VENV/.installed" ]; then
    rm -rf "$VENV"
    python3 -m venv "$VENV" >&2
    "$VENV/bin/pip" install -q "$@" >&2
    touch "$VENV/.installed"
fi
echo "$VENV/bin/python"
