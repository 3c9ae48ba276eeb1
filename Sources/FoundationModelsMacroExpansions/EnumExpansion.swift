import SwiftSyntax

/// Generates the `@Generable` code for an enum whose cases carry no values:
/// the schema is a choice among the case names, and the content is the name
/// as a string. `PartiallyGenerated` stays the protocol's default, `Self`.
struct EnumExpansion {
    let typeName: String
    let arguments: GenerableArguments
    let cases: [EnumCase]
    /// `"public "`, `"package "` or `""`.
    let access: String

    func members() -> [DeclSyntax] {
        let description = arguments.description?.trimmedDescription ?? "nil"
        let names = cases.map { NameSpelling.stringLiteral($0.key) }.joined(separator: ", ")
        return [
            """
            \(raw: access)nonisolated static var generationSchema: FoundationModels.GenerationSchema {
            \(raw: arguments.named("FoundationModels.GenerationSchema(type: Self.self, description: \(description), anyOf: [\(names)])"))
            }
            """
        ]
    }

    func extensionMembers() -> String {
        let decodeArms = cases.map { "case \(NameSpelling.stringLiteral($0.key)):\nself = .\($0.name)" }
        let encodeArms = cases.map {
            "case .\($0.name):\nFoundationModels.GeneratedContent(\(NameSpelling.stringLiteral($0.key)))"
        }
        let unknown = UnknownValueError(typeName: typeName, what: "value", variable: "value", cases: cases)
        return """
            \(access)nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
            let value = try content.value(String.self)
            switch value {
            \(decodeArms.joined(separator: "\n"))
            default:
            \(unknown.throwStatement)
            }
            }
            \(access)nonisolated var generatedContent: FoundationModels.GeneratedContent {
            switch self {
            \(encodeArms.joined(separator: "\n"))
            }
            }
            """
    }
}

/// The `throw` for a string that names none of an enum's cases: a
/// `DecodingError.dataCorrupted` naming the bad value and the valid choices.
struct UnknownValueError {
    let typeName: String
    /// What the string is, for the message: `value` or `case`.
    let what: String
    /// The local variable holding the string.
    let variable: String
    let cases: [EnumCase]

    var throwStatement: String {
        // Type and case names are identifiers, so they need no escaping;
        // the only interpolation is the offending string itself.
        let choices = cases.map(\.key).joined(separator: ", ")
        let literal =
            #""Unexpected "# + what + #" \"\("# + variable + #")\" for "# + typeName
            + "; expected one of: " + choices + #"""#
        return """
            throw Swift.DecodingError.dataCorrupted(Swift.DecodingError.Context(codingPath: [], debugDescription: \(literal)))
            """
    }
}
