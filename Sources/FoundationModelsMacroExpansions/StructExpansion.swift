import SwiftSyntax

/// Generates the `@Generable` code for a struct.
///
/// Members: `generationSchema` (one `GenerationSchema.Property` per stored
/// property, in declaration order) and a nested `PartiallyGenerated` whose
/// properties are all optional. Extension: `init(_:)` and `generatedContent`.
/// A stored property of type `GenerationID` is not generated: it receives
/// the content's `id`.
struct StructExpansion {
    let arguments: GenerableArguments
    let properties: [StoredProperty]
    /// `"public "`, `"package "` or `""`.
    let access: String

    /// The properties the model generates (everything but `GenerationID`s).
    private var generatedProperties: [StoredProperty] {
        properties.filter { !$0.type.isGenerationID }
    }

    /// The properties that hold the generation's identity.
    private var identityProperties: [StoredProperty] {
        properties.filter { $0.type.isGenerationID }
    }

    // MARK: Members

    func members() -> [DeclSyntax] {
        [generationSchema(), partiallyGenerated()]
    }

    private func generationSchema() -> DeclSyntax {
        let description = arguments.description?.trimmedDescription ?? "nil"
        let nilArgument =
            arguments.representNilExplicitly.map {
                "representNilExplicitlyInGeneratedContent: \($0),\n"
            } ?? ""
        let list = CodeList.array(generatedProperties.map(Self.schemaProperty))
        return """
            \(raw: access)nonisolated static var generationSchema: FoundationModels.GenerationSchema {
            \(raw: arguments.named("""
            FoundationModels.GenerationSchema(
            type: Self.self,
            description: \(description),
            \(nilArgument)properties: \(list)
            )
            """))
            }
            """
    }

    /// `GenerationSchema.Property(name:description:type:guides:)` for one property.
    static func schemaProperty(_ property: StoredProperty) -> String {
        var arguments = ["name: \(NameSpelling.stringLiteral(property.key))"]
        if let description = property.guide?.description {
            arguments.append("description: \(description.trimmedDescription)")
        }
        arguments.append("type: \(property.type.metatypeExpression)")
        if let guides = property.guide?.guides, !guides.isEmpty {
            arguments.append("guides: [\(guides.map(\.trimmedDescription).joined(separator: ", "))]")
        }
        return "FoundationModels.GenerationSchema.Property(\(arguments.joined(separator: ", ")))"
    }

    private func partiallyGenerated() -> DeclSyntax {
        var conformances: [String] = []
        var lines: [String] = []
        var assignments: [String] = []
        let newID = "content.id ?? FoundationModels.GenerationID()"

        // `id` is the user's generated `id` property when there is one;
        // otherwise it is the generation's identity.
        let userID = generatedProperties.first { $0.key == "id" }
        if let userID {
            if userID.type.isHashablePrimitive { conformances.append("Identifiable") }
        } else {
            conformances.append("Identifiable")
            lines.append("\(access)var id: FoundationModels.GenerationID")
            assignments.append("self.id = \(newID)")
        }
        // Checked, as Apple's macro declares it: snapshots cross isolation
        // (a stream read off the main actor, shown on it), and a nested
        // public type is not inferred `Sendable`. Not `@unchecked`: a
        // property's partial type is the user's (a `Generable` class is its
        // own partial type), so only the compiler can tell it is safe.
        conformances.append("Sendable")
        conformances.append("FoundationModels.ConvertibleFromGeneratedContent")

        for property in properties {
            if property.type.isGenerationID {
                guard property.key != "id" else { continue }
                lines.append("\(access)var \(property.name): FoundationModels.GenerationID")
                assignments.append("self.\(property.name) = \(newID)")
            } else {
                lines.append("\(access)var \(property.name): \(property.type.partiallyGeneratedType)")
                assignments.append(
                    "self.\(property.name) = try content.value(forProperty: \(NameSpelling.stringLiteral(property.key)))"
                )
            }
        }
        return """
            \(raw: access)nonisolated struct PartiallyGenerated: \(raw: conformances.joined(separator: ", ")) {
            \(raw: lines.joined(separator: "\n"))
            \(raw: access)nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
            \(raw: assignments.joined(separator: "\n"))
            }
            }
            """
    }

    // MARK: Extension

    /// The bodies of the extension: `init(_:)` and `generatedContent`.
    func extensionMembers() -> String {
        var assignments: [String] = []
        for property in properties {
            if property.type.isGenerationID {
                let value = property.type.isOptional ? "content.id" : "content.id ?? FoundationModels.GenerationID()"
                assignments.append("self.\(property.name) = \(value)")
            } else {
                assignments.append(
                    "self.\(property.name) = try content.value(forProperty: \(NameSpelling.stringLiteral(property.key)))"
                )
            }
        }
        let builder = ContentBuilder(
            entries: generatedProperties.map {
                ContentBuilder.Entry(key: $0.key, value: "self.\($0.name)", isOptional: $0.type.isOptional)
            },
            writesNilAsNull: arguments.writesNilAsNull,
            id: identityProperties.first.map { "self.\($0.name)" }
        )
        let initializer =
            ["\(access)nonisolated init(_ content: FoundationModels.GeneratedContent) throws {"]
            + assignments + ["}"]
        return
            (initializer + [
                "\(access)nonisolated var generatedContent: FoundationModels.GeneratedContent {",
                builder.body(alwaysReturn: false),
                "}",
            ]).joined(separator: "\n")
    }
}
