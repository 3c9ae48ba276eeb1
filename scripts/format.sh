#!/usr/bin/env bash
# The package's Swift formatter (docs/FORMATTING.md), with the toolchain's
# `swift format` and the repository's .swift-format:
#   scripts/format.sh          formats every Swift file in place
#   scripts/format.sh --check  changes nothing: `swift format lint --strict`
#                              over the same files; exits non-zero, with the
#                              diagnostics on stderr, where any file is not
#                              formatted as `scripts/format.sh` would write it
# The files: the repository's Swift files (tracked, and untracked ones git
# does not ignore), less symbolic links (the app-compatibility suites share
# files through them; the file they point to is formatted once). Outside a
# git checkout, every .swift file below the root but .build* folders.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"

mode=format
case "${1:-}" in
    "") ;;
    --check) mode=lint ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: scripts/format.sh [--check]" >&2; exit 2 ;;
esac

files=()
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    while IFS= read -r -d '' file; do
        [ -f "$file" ] && [ ! -L "$file" ] && files+=("$file")
    done < <(git ls-files -z --cached --others --exclude-standard -- '*.swift' | sort -zu)
else
    while IFS= read -r -d '' file; do
        files+=("$file")
    done < <(find . -name '.build*' -prune -o -type f -name '*.swift' -print0 | sort -z)
fi
if [ "${#files[@]}" -eq 0 ]; then
    echo "format: no Swift files found" >&2
    exit 1
fi

if [ "$mode" = format ]; then
    "$SWIFT" format format --configuration .swift-format --in-place --parallel -- "${files[@]}"
else
    # Diagnostics go to stderr; --strict makes every one of them a failure.
    if ! "$SWIFT" format lint --configuration .swift-format --strict --parallel -- "${files[@]}"; then
        echo "format: files not formatted as .swift-format says (above); run scripts/format.sh" >&2
        exit 1
    fi
fi
