import SwiftSyntax

/// Generates the `@Generable` code for an enum with associated values: a
/// tagged choice whose content is one flat object with a `"case"`
/// discriminator next to the payload keys, e.g. `{"case":"point","x":1,"y":2}`
/// (see ``EnumCase/Payload/key`` for how keys are chosen).
/// `PartiallyGenerated` stays the protocol's default, `Self`.
struct TaggedEnumExpansion {
    let typeName: String
    let arguments: GenerableArguments
    let cases: [EnumCase]
    /// `"public "`, `"package "` or `""`.
    let access: String

    func members() -> [DeclSyntax] {
        let description = arguments.description?.trimmedDescription ?? "nil"
        let taggedCases = cases.map { enumCase -> String in
            let properties = enumCase.payloads.map { payload in
                StructExpansion.schemaProperty(
                    StoredProperty(name: payload.key, key: payload.key, type: payload.type, guide: nil)
                )
            }
            return """
                FoundationModels.GenerationSchema.TaggedCase(
                name: \(NameSpelling.stringLiteral(enumCase.key)),
                description: nil,
                properties: \(CodeList.array(properties))
                )
                """
        }
        return [
            """
            \(raw: access)nonisolated static var generationSchema: FoundationModels.GenerationSchema {
            \(raw: arguments.named("""
            FoundationModels.GenerationSchema(
            type: Self.self,
            description: \(description),
            taggedCases: \(CodeList.array(taggedCases))
            )
            """))
            }
            """
        ]
    }

    func extensionMembers() -> String {
        let unknown = UnknownValueError(typeName: typeName, what: "case", variable: "caseName", cases: cases)
        return """
            \(access)nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
            let caseName = try content.value(String.self, forProperty: "case")
            switch caseName {
            \(cases.map(decodeArm).joined(separator: "\n"))
            default:
            \(unknown.throwStatement)
            }
            }
            \(access)nonisolated var generatedContent: FoundationModels.GeneratedContent {
            switch self {
            \(cases.map(encodeArm).joined(separator: "\n"))
            }
            }
            """
    }

    /// `case "point": self = try .point(x: content.value(Int.self, forProperty: "x"), …)`
    private func decodeArm(_ enumCase: EnumCase) -> String {
        let key = NameSpelling.stringLiteral(enumCase.key)
        guard !enumCase.payloads.isEmpty else {
            return "case \(key):\nself = .\(enumCase.name)"
        }
        let values = enumCase.payloads.map { payload in
            let label = payload.label.map { "\($0): " } ?? ""
            return "\(label)content.value(\(payload.type.metatypeExpression), forProperty: \(NameSpelling.stringLiteral(payload.key)))"
        }
        return "case \(key):\nself = try .\(enumCase.name)(\(values.joined(separator: ", ")))"
    }

    /// `case .point(let _0, let _1): return GeneratedContent(properties: ["case": "point", "x": _0, …])`
    private func encodeArm(_ enumCase: EnumCase) -> String {
        let bindings = enumCase.payloads.indices.map { "_\($0)" }
        var entries = [
            ContentBuilder.Entry(key: "case", value: NameSpelling.stringLiteral(enumCase.key), isOptional: false)
        ]
        for (payload, binding) in zip(enumCase.payloads, bindings) {
            entries.append(ContentBuilder.Entry(key: payload.key, value: binding, isOptional: payload.type.isOptional))
        }
        let builder = ContentBuilder(entries: entries, writesNilAsNull: arguments.writesNilAsNull, id: nil)
        let pattern = bindings.isEmpty ? "" : "(\(bindings.map { "let \($0)" }.joined(separator: ", ")))"
        return "case .\(enumCase.name)\(pattern):\n\(builder.body(alwaysReturn: true))"
    }
}
