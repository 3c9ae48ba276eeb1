import FoundationModels

/// Requests for a JSON object with named keys, answered with the schema
/// `{"type": "object"}` as an app (or `fm respond --schema`) sends it:
/// guided generation keeps the answer an object, and only the prompt says
/// which keys. Scored on the requested keys being there with the requested
/// kind of value, and on the value where the request fixes it.
package enum JSONObjectTask: EvalTask {
    package typealias Answer = GeneratedContent

    package static let corpus = Corpus.jsonObject

    /// No example's instructions: a plain assistant's (`fm respond` sends
    /// none; a session with no instructions renders the model's default).
    package static let instructions = "You are a helpful assistant."

    package static func prompt(for item: JSONObjectItem) -> String { item.prompt }

    /// `{"type": "object"}`, read as `fm respond --schema` reads a file.
    package static var customSchema: GenerationSchema? {
        try? GenerationSchema(jsonSchema: GeneratedContent(json: #"{"type": "object"}"#))
    }

    package static let fields = ["keys", "values"]

    package static func score(_ answer: GeneratedContent, for item: JSONObjectItem) -> [FieldScore] {
        var missing: [String] = []
        var checkedPaths = Set<String>()
        for key in item.keys where checkedPaths.insert(key.path).inserted {
            guard let value = value(at: key.path, in: answer) else {
                missing.append("\(key.path) missing")
                continue
            }
            if !has(value, kind: key.kind) { missing.append("\(key.path) not a \(key.kind.rawValue): \(Scoring.quote(value.jsonString, limit: 30))") }
        }
        let fixed = item.keys.filter { $0.value != nil }
        let wrong = fixed.filter { key in
            guard let expected = key.value, let value = value(at: key.path, in: answer) else { return true }
            return !matches(value, expected, kind: key.kind)
        }
        return [
            FieldScore("keys", missing.isEmpty, missing.joined(separator: "; ")),
            FieldScore(
                "values", wrong.isEmpty,
                fixed.isEmpty
                    ? "the request fixes no value"
                    : wrong.map {
                        "\($0.path): expected \($0.value ?? ""), got \(value(at: $0.path, in: answer).map { Scoring.quote($0.jsonString, limit: 40) } ?? "nothing")"
                    }.joined(separator: "; ")),
        ]
    }

    package static func groups(of item: JSONObjectItem) -> [String] { [item.shape] }

    /// The value at a dotted path (`country.capital`), through objects;
    /// `nil` when a key is missing or the value is null.
    package static func value(at path: String, in content: GeneratedContent) -> GeneratedContent? {
        var current = content
        for key in path.split(separator: ".") {
            guard case .structure(let properties, _) = current.kind, let next = properties[String(key)] else { return nil }
            current = next
        }
        if case .null = current.kind { return nil }
        return current
    }

    static func has(_ value: GeneratedContent, kind: JSONObjectItem.Key.Kind) -> Bool {
        switch (kind, value.kind) {
        case (.string, .string(let text)): !text.allSatisfy(\.isWhitespace)
        case (.number, .number): true
        case (.boolean, .bool): true
        case (.list, .array(let elements)): !elements.isEmpty
        // "Listing the capitals of India and Australia" answered as
        // {"India": "New Delhi", …}: a reader takes that for the list.
        case (.list, .structure(let properties, _)): !properties.isEmpty
        case (.object, .structure(let properties, _)): !properties.isEmpty
        default: false
        }
    }

    /// A string holds the expected words (`Paris` in `Paris, France`), a
    /// number equals it (a number written as a string counts), a boolean
    /// is it, a list has an element that holds it (a list written as an
    /// object, one key an element, has a value that holds it).
    static func matches(_ value: GeneratedContent, _ expected: String, kind: JSONObjectItem.Key.Kind) -> Bool {
        switch value.kind {
        case .string(let text):
            if kind == .number, let number = Double(text.trimmingCharacters(in: .whitespaces)), let wanted = Double(expected) {
                return number == wanted
            }
            return Scoring.contains(text, phrase: expected)
        case .number(let number): return Double(expected) == number
        case .bool(let flag): return String(flag) == expected
        case .array(let elements): return elements.contains { matches($0, expected, kind: .string) }
        case .structure(let properties, _) where kind == .list: return properties.values.contains { matches($0, expected, kind: .string) }
        default: return false
        }
    }

    package static let seed = JSONObjectCorpus.seed
    package static func generate(seed: UInt64) -> [JSONObjectItem] { JSONObjectCorpus.generate(seed: seed) }
}
