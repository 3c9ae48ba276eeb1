#!/usr/bin/env bash
# A package that depends on this one, built as a user builds it (README,
# "Use it in your package"): through a file:// URL (a remote dependency, not
# a path), in a clean environment (only HOME and PATH).
#   1. default traits: `swift package resolve`, the documented setup command
#      from the checkout, `swift build`, and a typed answer from the small model
#      (the program also switches exhaustively over Transcript.Attachment with
#      the shipped SDK's one case, as apps do);
#   2. `traits: ["DataAttachments"]` (LlamaCpp off): the same package rebuilt
#      with no llama.cpp anywhere it could be found (the setup cache and
#      /usr/local/lib/pkgconfig hidden in a private mount namespace, an empty
#      HOME): the system model reports why it is unavailable, a server model
#      answers from a loopback stub, and Apple 27.2's data attachments are
#      there (a switch over both cases; a data attachment the model does not
#      read refused before anything is sent), and so are data entries (a
#      switch over Transcript.Entry with .data; one refused the same way).
# The repository is taken as it is in the work tree (tracked and untracked,
# not ignored files), committed to a git repository on branch main.
#
# The dependency and the app live in a folder kept between runs
# (~/.cache/swift-foundation-models-dependent, outside the setup cache the
# second part hides), so the app's build keeps its dependencies (NIO,
# swift-syntax, async-http-client: most of a cold build's seven minutes):
# each run commits the work tree on top of the last, resolves afresh, and
# removes this package's modules from the app's build so they are compiled
# whole. A run that finds the folder in use builds in a temporary one.
# Usage: scripts/dependent-package-test.sh SMALL_MODEL.gguf
set -euo pipefail
small_model="${1:?usage: $0 SMALL_MODEL.gguf}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/fm-dependent.XXXXXX)"
stub_pid=""
cleanup() { [ -n "$stub_pid" ] && kill "$stub_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
project="${XDG_CACHE_HOME:-$HOME/.cache}/swift-foundation-models-dependent"
mkdir -p "$project"
exec 9> "$project.lock"
flock -n 9 || project="$work"
passed=0
failed=0
check() { # check NAME CONDITION-COMMAND...
    local name="$1"; shift
    if "$@"; then echo "dependent package: ok: $name"; passed=$((passed + 1));
    else echo "dependent package: FAILED: $name" >&2; failed=$((failed + 1)); fi
}
clean() { env -i HOME="$HOME" PATH="$PATH" "$@"; }

# The dependency: this work tree as a git repository named as the README's paths expect.
upstream="$project/swift-foundation-models"
mkdir -p "$upstream"
[ -d "$upstream/.git" ] || git -C "$upstream" init -q -b main
find "$upstream" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
(cd "$repo" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp -d --parents -t "$upstream")
git -C "$upstream" add -A
git -C "$upstream" -c user.name=test -c user.email=test@localhost commit -q --allow-empty -m "work tree"

app="$project/app"
rm -rf "$app/Sources" "$app/Package.resolved"
mkdir -p "$app/Sources/typed-answer" "$app/Sources/server-answer"
# This package's modules (the app's own are rebuilt from their new sources).
while read -r module; do
    rm -rf "$app"/.build/*/debug/"$module".build "$app"/.build/*/debug/"$module"-tool.build
done < <("$repo/scripts/package-modules.sh" "$work/dump")
write_manifest() { # write_manifest TRAITS-ARGUMENT
    cat > "$app/Package.swift" <<SWIFT
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "app",
    dependencies: [
        .package(url: "file://$upstream", branch: "main"$1),
    ],
    targets: [
        .executableTarget(name: "typed-answer", dependencies: [.product(name: "FoundationModels", package: "swift-foundation-models")]),
        .executableTarget(name: "server-answer", dependencies: [.product(name: "FoundationModels", package: "swift-foundation-models")]),
    ]
)
SWIFT
}
# README's ten-line program, on the model file given (else the default model).
cat > "$app/Sources/typed-answer/main.swift" <<'SWIFT'
import Foundation
import FoundationModels

@Generable struct Verdict {
    @Guide(description: "Whether the statement is true") var isTrue: Bool
    @Guide(description: "One short reason") var reason: String
}

let model = CommandLine.arguments.count > 1
    ? SystemLanguageModel(configuration: .init(modelFile: URL(fileURLWithPath: CommandLine.arguments[1])))
    : SystemLanguageModel.default
guard case .available = model.availability else {
    FileHandle.standardError.write(Data("unavailable: \(model.availability)\n".utf8))
    do { _ = try await LanguageModelSession(model: model).respond(to: "Hi") } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
    }
    exit(3)
}
let session = LanguageModelSession(model: model)
let answer = try await session.respond(to: "Is water wet?", generating: Verdict.self, options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 60))
print("isTrue=\(answer.content.isTrue) reason=\(answer.content.reason)")

// An exhaustive switch written against the shipped SDK (no default).
func kind(_ attachment: Transcript.Attachment) -> String {
    switch attachment {
    case .image: "image"
    }
}
_ = kind
SWIFT
cat > "$app/Sources/server-answer/main.swift" <<'SWIFT'
import Foundation
import FoundationModels

let model = try OpenAICompatibleLanguageModel(baseURL: URL(string: CommandLine.arguments[1])!, model: "stub")
let session = LanguageModelSession(model: model)
print(try await session.respond(to: "Say hello.").content)
SWIFT

# 1. Default traits: README's steps.
write_manifest ""
cd "$app"
clean swift package resolve > "$work/resolve.log" 2>&1 || { cat "$work/resolve.log" >&2; exit 1; }
# `resolve` keeps a branch dependency where the kept build's workspace state
# has it (the first run's commit, however many runs since): `update` moves
# it to the work tree just committed.
clean swift package update swift-foundation-models >> "$work/resolve.log" 2>&1 || { cat "$work/resolve.log" >&2; exit 1; }
check "the app builds the work tree just committed" \
    bash -c "grep -q \"\$(git -C '$upstream' rev-parse HEAD)\" Package.resolved"
clean bash .build/checkouts/swift-foundation-models/scripts/setup.sh --quiet
t0=$SECONDS
if clean swift build > "$work/build.log" 2>&1; then
    echo "dependent package: built with default traits in $((SECONDS - t0)) s"
else
    tail -40 "$work/build.log" >&2; echo "dependent package: FAILED: build with default traits" >&2; exit 1
fi
out="$(clean .build/debug/typed-answer "$small_model" 2>&1)" || true
echo "  typed-answer: $out"
check "typed answer from the small model" grep -q '^isTrue=\(true\|false\) reason=.' <<<"$out"

# 2. traits: [] with llama.cpp nowhere to be found.
empty_home="$work/home"; mkdir -p "$empty_home" "$work/empty"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/swift-foundation-models"
python3 - "$work/port" > "$work/stub.log" 2>&1 <<'PY' &
import http.server, json, sys
class Stub(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        chunk = {"id": "1", "object": "chat.completion.chunk", "model": "stub",
                 "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hello from the stub."}, "finish_reason": None}]}
        end = {"id": "1", "object": "chat.completion.chunk", "model": "stub",
               "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
        body = f"data: {json.dumps(chunk)}\n\ndata: {json.dumps(end)}\n\ndata: [DONE]\n\n".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args): pass
server = http.server.HTTPServer(("127.0.0.1", 0), Stub)
open(sys.argv[1], "w").write(str(server.server_address[1]))
server.serve_forever()
PY
stub_pid=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port="$(cat "$work/port")"
hidden=(/usr/local/lib/pkgconfig "$cache")
mounts=""
for dir in "${hidden[@]}"; do [ -d "$dir" ] && mounts+="mount --bind '$work/empty' '$dir' && "; done
run_hidden() { unshare -m bash -c "${mounts}exec env -i HOME='$empty_home' PATH='$PATH' \"\$@\"" _ "$@"; }
# Default traits with llama.cpp hidden: the build stops saying what to run.
write_manifest ""
set +e; run_hidden swift build > "$work/build-missing.log" 2>&1; rc=$?; set -e
check "a build without llama.cpp fails, naming the setup command" \
    bash -c "[ $rc != 0 ] && grep -q 'llama.cpp was not found.*scripts/setup.sh' \"\$0\"" "$work/build-missing.log"
write_manifest ', traits: ["DataAttachments"]'
# The typed-answer program's switch would no longer be exhaustive: it is an
# app written for the shipped SDK, this build one written for 27.2.
sed -i '/^func kind/,$d' "$app/Sources/typed-answer/main.swift"
cat >> "$app/Sources/server-answer/main.swift" <<'SWIFT'

// Apple 27.2's data attachments, with the DataAttachments trait.
func kind(_ attachment: Transcript.Attachment) -> String {
    switch attachment {
    case .image: "image"
    case .data(let data): data.contentType.identifier
    }
}
struct Notes: DataAttachmentRepresentable {
    var text: String
    var transcriptRepresentation: Transcript.DataAttachment {
        Transcript.DataAttachment(contentType: .plainText, content: Data(text.utf8))
    }
    init(text: String) { self.text = text }
    init(_ attachment: Transcript.DataAttachment) throws { text = String(decoding: attachment.content, as: UTF8.self) }
}
do {
    _ = try await LanguageModelSession(model: model).respond {
        "Summarize the notes."
        Attachment(Notes(text: "Buy milk."))
    }
    print("data attachment: sent")
} catch LanguageModelError.unsupportedTranscriptContent {
    print("data attachment: refused (unsupportedTranscriptContent)")
}
// Apple 27.2's data entries: Transcript.Entry gains .data.
func role(_ entry: Transcript.Entry) -> String {
    switch entry {
    case .instructions: "instructions"
    case .prompt: "prompt"
    case .toolCalls: "tool calls"
    case .toolOutput: "tool output"
    case .response: "response"
    case .reasoning: "reasoning"
    case .data(let data): data.contentType.identifier
    }
}
let entry = Transcript.DataEntry(contentType: .json, content: Data("{}".utf8))
do {
    _ = try await LanguageModelSession(model: model, transcript: Transcript(entries: [.data(entry)])).respond(to: "Hi.")
    print("data entry: sent")
} catch LanguageModelError.unsupportedTranscriptContent {
    print("data entry: refused (unsupportedTranscriptContent), \(role(.data(entry)))")
}
SWIFT
t0=$SECONDS
if run_hidden swift build > "$work/build-off.log" 2>&1; then
    echo "dependent package: rebuilt with traits: [\"DataAttachments\"] in $((SECONDS - t0)) s"
else
    tail -40 "$work/build-off.log" >&2; echo "dependent package: FAILED: build with traits: [\"DataAttachments\"]" >&2; exit 1
fi
check "no llama.cpp library linked" bash -c "! readelf -d .build/debug/server-answer | grep -q 'libllama\|libggml'"
out="$(run_hidden .build/debug/server-answer "http://127.0.0.1:$port/v1" 2>&1)" || true
echo "  server-answer: $out"
check "a server model answers without llama.cpp" grep -q "Hello from the stub." <<<"$out"
check "a data attachment the model does not read is refused" grep -q "data attachment: refused" <<<"$out"
check "a data entry the model does not take is refused" grep -q "data entry: refused (unsupportedTranscriptContent), public.json" <<<"$out"
set +e; out="$(run_hidden .build/debug/typed-answer 2>&1)"; rc=$?; set -e
echo "  typed-answer: $(head -c 400 <<<"$out")"
check "the system model says why it is unavailable" bash -c "[ $rc = 3 ] && grep -q 'LlamaCpp trait is off' <<<\"\$0\"" "$out"

echo "dependent package: $passed passed, $failed failed"
[ "$failed" = 0 ]
