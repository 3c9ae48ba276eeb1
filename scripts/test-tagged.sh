#!/usr/bin/env bash
# Runs the package's tests that carry a Swift Testing tag (Tests/TestSupport:
# model, defaultModel, llamaServer, timing, noModel, gpu), with any further
# `swift test` arguments after it:
#
#   scripts/test-tagged.sh TAG [swift test arguments...]
#
# `swift test` filters by name only, so the tags are read from the test
# bundle's own listing (Swift Testing's event stream, whose records carry
# each test's and suite's tags) and turned into one --filter per tagged
# test or suite. Builds nothing: run `swift build --build-tests` first.
set -euo pipefail

if [ $# -lt 1 ]; then
    echo "usage: scripts/test-tagged.sh TAG [swift test arguments...]" >&2
    exit 2
fi
tag="$1"
shift
SWIFT="${SWIFT:-swift}"
cd "$(dirname "$0")/.."
# The build to run: SwiftPM's default (.build) unless SWIFT_SCRATCH_PATH
# names another (scripts/test.sh, a fresh clone's shared build).
scratch=()
[ -n "${SWIFT_SCRATCH_PATH:-}" ] && scratch=(--scratch-path "$SWIFT_SCRATCH_PATH")

bundle="$("$SWIFT" build "${scratch[@]}" --show-bin-path)/swift-foundation-modelsPackageTests.xctest"
if [ ! -x "$bundle" ]; then
    echo "test-tagged: no test bundle at $bundle; run \`swift build --build-tests\` first" >&2
    exit 1
fi
listing="$(mktemp)"
trap 'rm -f "$listing"' EXIT
SWT_EXPERIMENTAL_EVENT_STREAM_FIELDS_ENABLED=1 "$bundle" --testing-library swift-testing --list-tests \
    --event-stream-output-path "$listing" --event-stream-version 0 > /dev/null

# One --filter per test or suite whose own tags include TAG (a suite's
# filter takes in everything in it), as an anchored regular expression.
mapfile -t filters < <(python3 - "$tag" "$listing" <<'EOF'
import json, re, sys
tag, listing = "." + sys.argv[1], sys.argv[2]
tagged_anything = False
for line in open(listing, encoding="utf-8"):
    record = json.loads(line)
    if record.get("kind") != "test":
        continue
    test = record["payload"]
    tagged_anything = tagged_anything or "_tags" in test
    if tag in test.get("_tags", []):
        print("--filter")
        print("^" + re.sub(r"([\\.^$|?*+()\[\]{}])", r"\\\1", test["id"]) + "(/|$)")
if not tagged_anything:
    sys.exit("test-tagged: the listing carries no tags (this Swift's event stream lacks the _tags field)")
EOF
)
if [ ${#filters[@]} -eq 0 ]; then
    echo "test-tagged: no test is tagged $tag" >&2
    exit 1
fi
exec "$SWIFT" test "${scratch[@]}" --skip-build "${filters[@]}" "$@"
