#!/usr/bin/env bash
# This package's modules, one a line, as SwiftPM names them (a target's
# name with `-` as `_`): what scripts/test.sh and
# scripts/dependent-package-test.sh remove from a build they keep between
# runs, so this package is always compiled whole there.
# Usage: scripts/package-modules.sh SCRATCH_PATH   (where SwiftPM may write)
set -euo pipefail
cd "$(dirname "$0")/.."
"${SWIFT:-swift}" package --scratch-path "${1:?usage: $0 SCRATCH_PATH}" dump-package | python3 -c '
import json, sys
for target in json.load(sys.stdin)["targets"]:
    print(target["name"].replace("-", "_"))'
