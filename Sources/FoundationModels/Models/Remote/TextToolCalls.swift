import Foundation

/// Tool calls a server left in the answer's text.
///
/// Exists because small models on real serving engines often call a tool
/// without the markup the engine's parser waits for: Qwen2.5-Coder-0.5B on
/// llama-server writes `{"name": "weather", "arguments": {"city": "Paris"}}`
/// as plain content, without the `<tool_call>` tags of its own template, so
/// the server reports text and no `tool_calls`, and the session would show
/// the user a JSON object instead of running the tool.
///
/// The rule is narrow on purpose, so an answer is never mistaken for a call:
/// only when the request offered tools, and only when the whole answer is
/// calls — one JSON object (or one in doubled braces, as Qwen2.5 copies
/// its template's example), or `<tool_call>` blocks with nothing but
/// whitespace around them, either of them alone or in code fences with
/// only whitespace between them — each naming an offered tool, with object
/// arguments. Anything else stays text. While the answer may still turn out
/// to be a call its text is held back (``mayBeCall(_:)``); the moment it
/// cannot, it streams as usual.
package enum TextToolCalls {
    /// One recovered call: the tool's name and its arguments as JSON.
    package struct Call: Equatable, Sendable {
        package var name: String
        package var arguments: String

        package init(name: String, arguments: String) {
            self.name = name
            self.arguments = arguments
        }
    }

    static let openTag = "<tool_call>"
    static let closeTag = "</tool_call>"
    static let fence = "```"

    /// Whether `text`, an answer's beginning, can still become calls: empty
    /// or whitespace, a prefix of `<tool_call>` or text after it, or a JSON
    /// object whose first key is (so far) `"name"`, each perhaps after a
    /// code fence's opening line.
    package static func mayBeCall(_ text: String) -> Bool {
        var trimmed = text.drop(while: \.isWhitespace)
        if trimmed.isEmpty || fence.hasPrefix(trimmed) { return true }
        if trimmed.hasPrefix(fence) {
            // A code fence: its language tag, then the call on the next line.
            let tagged = trimmed.dropFirst(fence.count)
            if !tagged.contains("\n") { return tagged.allSatisfy { $0.isLetter } }
            guard let call = droppingFenceLine(trimmed) else { return false }
            if call.isEmpty { return true }
            trimmed = call
        }
        if trimmed.hasPrefix(openTag) || openTag.hasPrefix(trimmed) { return true }
        guard trimmed.first == "{" else { return false }
        // `{{"name": …}}`: Qwen2.5 copies its template's doubled braces.
        let key = trimmed.dropFirst().drop(while: { $0.isWhitespace || $0 == "{" })
        return key.hasPrefix("\"name\"") || "\"name\"".hasPrefix(key)
    }

    /// The offered tools `text` calls, in order, when it begins a call:
    /// a call object (perhaps in a code fence, or after `<tool_call>`)
    /// whose first key, `"name"`, names a tool in `offered`, then every
    /// other call object's offered name after it; empty otherwise.
    ///
    /// Lets an engine that can enforce arguments decode such calls again
    /// when what the model wrote as text is not valid calls (arguments
    /// that break a tool's schema, or prose after them): the names show
    /// what the model meant to do.
    package static func calledTools(in text: String, offered: Set<String>) -> [String] {
        var rest = text.drop(while: \.isWhitespace)
        if rest.hasPrefix(fence) {
            guard let call = droppingFenceLine(rest) else { return [] }
            rest = call
        }
        if rest.hasPrefix(openTag) { rest = rest.dropFirst(openTag.count).drop(while: \.isWhitespace) }
        guard rest.hasPrefix("{") else { return [] }
        if rest.dropFirst().drop(while: \.isWhitespace).hasPrefix("{") { rest = rest.dropFirst().drop(while: \.isWhitespace) }
        let namePair = #/"name"\s*:\s*"([^"\\]*)"/#
        var names: [String] = []
        for (index, match) in rest.matches(of: namePair).enumerated() {
            // The first call's name is the object's first key.
            if index == 0, rest[rest.index(after: rest.startIndex)..<match.range.lowerBound].contains(where: { !$0.isWhitespace }) { return [] }
            let name = String(match.output.1)
            if offered.contains(name), !names.contains(name) {
                names.append(name)
            } else if index == 0 {
                return []
            }
        }
        return names
    }

    /// What follows the code fence's opening line (``fence`` and a
    /// language tag of letters, perhaps none) that `text` starts with,
    /// whitespace dropped; nil where its first line is not such a line.
    private static func droppingFenceLine(_ text: Substring) -> Substring? {
        let tagged = text.dropFirst(fence.count)
        guard text.hasPrefix(fence), let newline = tagged.firstIndex(of: "\n"), tagged[..<newline].allSatisfy(\.isLetter) else { return nil }
        return tagged[newline...].drop(while: \.isWhitespace)
    }

    /// The calls `text` consists of, when it is nothing but calls to the
    /// tools named in `offered`; nil otherwise (then it is an answer).
    package static func calls(in text: String, offered: Set<String>) -> [Call]? {
        var rest = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        var bodies: [Substring] = []
        if rest.hasPrefix(fence) {
            // Code fences, each holding calls, with only whitespace between
            // them (the last one's closing line may be missing: the answer
            // ended there).
            while !rest.isEmpty {
                guard rest.hasPrefix(fence), let newline = rest.firstIndex(of: "\n") else { return nil }
                let body = rest[newline...]
                if let close = body.range(of: fence) {
                    bodies.append(body[..<close.lowerBound])
                    rest = body[close.upperBound...].drop(while: \.isWhitespace)
                } else {
                    bodies.append(body)
                    rest = ""
                }
            }
        } else {
            bodies = [rest]
        }
        var found: [Call] = []
        for body in bodies {
            guard let inBody = calls(inBody: body.trimmingCharacters(in: .whitespacesAndNewlines), offered: offered) else { return nil }
            found += inBody
        }
        return found.isEmpty ? nil : found
    }

    /// The calls an answer shows after a sentence introducing them: prose
    /// whose last character is a colon ("Here's how you can do it:"), then
    /// nothing but calls to `offered` tools as ``calls(in:offered:)`` reads
    /// them (code fences or `<tool_call>` blocks), then at most prose with
    /// no other code; nil otherwise.
    ///
    /// Qwen2.5-Coder-1.5B answers "I have 120 GBP. What is that in CAD?"
    /// (tools offered, greedy) by explaining that the `convertCurrency`
    /// function does it, showing that call in a json fence and saying what
    /// it will return: the call is what it means to do, and shown as the
    /// answer it is a recipe the reader cannot use. The colon keeps the
    /// rule narrow: a call mentioned in passing stays text, and so does an
    /// answer that shows other code too.
    package static func introducedCalls(in text: String, offered: Set<String>) -> [Call]? {
        let openers = [fence, openTag].flatMap { text.ranges(of: $0).map(\.lowerBound) }.sorted()
        // (Prose that ends in a colon is not empty: a bare block is for calls(in:offered:).)
        guard let opener = openers.first(where: { text[..<$0].trimmingCharacters(in: .whitespacesAndNewlines).last == ":" }) else { return nil }
        // The block runs to the end of a closing fence or tag; the longest
        // one after which only prose follows.
        let closers = ([fence, closeTag].flatMap { text[opener...].ranges(of: $0).map(\.upperBound) } + [text.endIndex]).sorted(by: >)
        for end in closers where end > opener {
            let after = text[end...]
            guard !after.contains(fence), !after.contains(openTag) else { continue }
            if let calls = calls(in: String(text[opener..<end]), offered: offered) { return calls }
        }
        return nil
    }

    /// The calls of one body: `<tool_call>` blocks, or one call object.
    private static func calls(inBody trimmed: String, offered: Set<String>) -> [Call]? {
        var objects: [Substring] = []
        if trimmed.hasPrefix(openTag) {
            var rest = Substring(trimmed)
            while !rest.isEmpty {
                guard rest.hasPrefix(openTag) else { return nil }
                rest = rest.dropFirst(openTag.count)
                // The last block may lack its closing tag: the answer ended there.
                let end = rest.range(of: closeTag)
                objects.append(rest[..<(end?.lowerBound ?? rest.endIndex)])
                rest = end.map { rest[$0.upperBound...] } ?? ""
                rest = rest.drop(while: \.isWhitespace)
            }
        } else {
            objects = [Substring(trimmed)]
        }
        var calls: [Call] = []
        for object in objects {
            guard let call = call(in: String(object), offered: offered) else { return nil }
            calls.append(call)
        }
        return calls
    }

    private static func call(in json: String, offered: Set<String>) -> Call? {
        // The object in doubled braces, as Qwen2.5 copies them from its
        // template's example (`{{"name": <function-name>, …}}`).
        if json.hasPrefix("{{"), json.hasSuffix("}}"), let inner = call(in: String(json.dropFirst().dropLast()), offered: offered) {
            return inner
        }
        guard let content = try? GeneratedContent(json: json), content.isComplete,
            case .structure(let properties, _) = content.kind,
            let name = properties["name"]?.wireString, offered.contains(name)
        else { return nil }
        // Known keys only: an object with more is not a call written as text.
        guard Set(properties.keys).isSubset(of: ["name", "arguments", "parameters"]) else { return nil }
        switch (properties["arguments"] ?? properties["parameters"])?.kind {
        case nil:
            return Call(name: name, arguments: "{}")
        case .structure?:
            return Call(name: name, arguments: (properties["arguments"] ?? properties["parameters"])!.jsonString)
        case .string(let encoded)?:
            // Some templates ask for the arguments as a JSON string.
            guard let arguments = try? GeneratedContent(json: encoded), case .structure = arguments.kind else { return nil }
            return Call(name: name, arguments: arguments.jsonString)
        default:
            return nil
        }
    }
}
