#!/usr/bin/env bash
# Installs what the package needs on a fresh machine. Idempotent.
set -euo pipefail
command -v swift >/dev/null || { echo "setup: swift is not on PATH; install Swift 6.1 or newer" >&2; exit 1; }
echo "setup: swift $(swift --version 2>/dev/null | head -1)"
