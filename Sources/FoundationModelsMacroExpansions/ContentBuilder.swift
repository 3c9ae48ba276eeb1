/// Writes the code that turns a list of named values into a structure
/// `GeneratedContent`, shared by structs and tagged enums.
///
/// When every value is always present, it is the readable literal form
/// `GeneratedContent(properties: ["a": a, …])`. When an optional must be left
/// out while `nil` (the default; `representNilExplicitlyInGeneratedContent:
/// true` writes `null` instead), the entries are collected in order and the
/// content is built from `.structure(properties:orderedKeys:)`.
struct ContentBuilder {
    /// One key of the structure and the expression that produces its value.
    struct Entry {
        /// The key in the generated content.
        var key: String
        /// An expression of a `ConvertibleToGeneratedContent` type.
        var value: String
        /// Whether `value` is optional (and so may be left out when `nil`).
        var isOptional: Bool
    }

    var entries: [Entry]
    /// Whether `nil` optionals are written as `null` rather than left out.
    var writesNilAsNull: Bool
    /// An expression of type `GenerationID?` to attach, if any.
    var id: String?

    /// The code: zero or more statements, then the resulting expression.
    /// Callers put `return` before the expression when statements precede it.
    func code() -> (statements: [String], result: String) {
        let idArgument = id.map { ", id: \($0)" } ?? ""
        let omitsNil = !writesNilAsNull && entries.contains { $0.isOptional }
        guard omitsNil else {
            let pairs = entries.map { "\(NameSpelling.stringLiteral($0.key)): \($0.value)" }
            let literal = pairs.isEmpty ? "[:]" : "[\(pairs.joined(separator: ", "))]"
            return ([], "FoundationModels.GeneratedContent(properties: \(literal)\(idArgument))")
        }
        var statements = ["var properties: [(String, FoundationModels.GeneratedContent)] = []"]
        for entry in entries {
            let key = NameSpelling.stringLiteral(entry.key)
            if entry.isOptional {
                statements.append(
                    "if let value = \(entry.value) {\nproperties.append((\(key), value.generatedContent))\n}"
                )
            } else {
                statements.append("properties.append((\(key), \(entry.value).generatedContent))")
            }
        }
        let result = """
            FoundationModels.GeneratedContent(kind: .structure(\
            properties: [String: FoundationModels.GeneratedContent](uniqueKeysWithValues: properties), \
            orderedKeys: properties.map(\\.0))\(idArgument))
            """
        return (statements, result)
    }

    /// The code as the body of a getter or a `switch` arm (`return` added when needed).
    func body(alwaysReturn: Bool) -> String {
        let (statements, result) = code()
        let last = (alwaysReturn || !statements.isEmpty) ? "return \(result)" : result
        return (statements + [last]).joined(separator: "\n")
    }
}
