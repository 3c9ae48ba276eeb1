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
/// calls — one JSON object, or `<tool_call>` blocks with nothing but
/// whitespace around them, either of them alone in a code fence — each naming an offered tool, with object
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
            guard let newline = tagged.firstIndex(of: "\n") else { return tagged.allSatisfy { $0.isLetter } }
            guard tagged[..<newline].allSatisfy({ $0.isLetter }) else { return false }
            trimmed = tagged[newline...].drop(while: \.isWhitespace)
            if trimmed.isEmpty { return true }
        }
        if trimmed.hasPrefix(openTag) || openTag.hasPrefix(trimmed) { return true }
        guard trimmed.first == "{" else { return false }
        let key = trimmed.dropFirst().drop(while: \.isWhitespace)
        return key.hasPrefix("\"name\"") || "\"name\"".hasPrefix(key)
    }

    /// The offered tool `text` begins a call to, whatever follows: a call
    /// object (perhaps in a code fence, or after `<tool_call>`) whose first
    /// key, `"name"`, names a tool in `offered`; nil otherwise.
    ///
    /// Lets an engine that can enforce arguments decode such a call again
    /// when what the model wrote as text is not a valid call (arguments
    /// that break the tool's schema, or prose after the object): the name
    /// shows what the model meant to do.
    package static func calledTool(in text: String, offered: Set<String>) -> String? {
        var rest = text.drop(while: \.isWhitespace)
        if rest.hasPrefix(fence) {
            guard let newline = rest.firstIndex(of: "\n"), rest[rest.index(rest.startIndex, offsetBy: fence.count)..<newline].allSatisfy(\.isLetter)
            else { return nil }
            rest = rest[newline...].drop(while: \.isWhitespace)
        }
        if rest.hasPrefix(openTag) { rest = rest.dropFirst(openTag.count).drop(while: \.isWhitespace) }
        for expected in ["{", "\"name\"", ":", "\""] {
            guard rest.hasPrefix(expected) else { return nil }
            rest = rest.dropFirst(expected.count)
            if expected != "\"" { rest = rest.drop(while: \.isWhitespace) }
        }
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        let name = String(rest[..<end])
        return offered.contains(name) ? name : nil
    }

    /// The calls `text` consists of, when it is nothing but calls to the
    /// tools named in `offered`; nil otherwise (then it is an answer).
    package static func calls(in text: String, offered: Set<String>) -> [Call]? {
        var trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix(fence) {
            // The whole answer in one code fence (its closing line may be
            // missing: the answer ended there).
            guard let newline = trimmed.firstIndex(of: "\n") else { return nil }
            trimmed = String(trimmed[newline...])
            if trimmed.hasSuffix(fence) { trimmed.removeLast(fence.count) }
            trimmed = trimmed.trimmingCharacters(in: .whitespacesAndNewlines)
        }
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
        return calls.isEmpty ? nil : calls
    }

    private static func call(in json: String, offered: Set<String>) -> Call? {
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
