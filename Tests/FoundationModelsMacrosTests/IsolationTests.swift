import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import Testing

/// The isolation contract of `@Generable`, for every kind of declaration apps
/// write (docs/MACROS.md, "Isolation"): the conformance is
/// `nonisolated FoundationModels.Generable` and every declaration the macro
/// adds is `nonisolated`. In a module with default main-actor isolation a
/// plain conformance, or a member without `nonisolated`, makes the type's
/// conformances `@MainActor` on Swift 6.2 and 6.3, and an isolated
/// conformance cannot satisfy `Generable`, a `SendableMetatype` protocol.
@Suite struct IsolationTests {
    static let declarations: [String: String] = [
        "struct": """
        @Generable struct Recipe {
            @Guide(description: "The dish") var title: String
            var steps: [String]
        }
        """,
        "enum without payloads": "@Generable enum Course { case starter, main }",
        "enum with payloads": "@Generable enum Serving { case plated(portions: Int), buffet }",
        "public struct with a nested type": """
        @Generable public struct Menu {
            public var dish: Dish
            @Generable public struct Dish { public var name: String }
        }
        """,
        "a tool's nested Arguments": """
        struct PantryTool: Tool {
            let description = "Lists the pantry"
            @Generable struct Arguments { var limit: Int }
            func call(arguments: Arguments) async throws -> String { "" }
        }
        """,
    ]

    @Test("every declaration @Generable adds is nonisolated, and so is the conformance", arguments: declarations.keys.sorted())
    func generatedCodeIsNonisolated(kind: String) throws {
        let source = Parser.parse(source: try #require(Self.declarations[kind]))
        let expanded = source.expand(macroSpecs: testMacros, contextGenerator: { _ in BasicMacroExpansionContext() })
        let written = GeneratedDeclarations(viewMode: .sourceAccurate)
        written.walk(source)
        let generated = GeneratedDeclarations(viewMode: .sourceAccurate)
        generated.walk(expanded)

        #expect(written.generableAttributes > 0 && generated.generableAttributes == 0)
        #expect(generated.conformances == Array(repeating: "nonisolated FoundationModels.Generable", count: written.generableAttributes))
        #expect(!generated.all.isEmpty)
        for (name, modifiers) in generated.all {
            #expect(modifiers.contains("nonisolated"), "\(name) is not nonisolated in the expansion of a \(kind)")
        }
    }
}

/// The declarations `@Generable` writes, found by their names: the schema,
/// the content, `init(_ content:)` and `PartiallyGenerated`, with their
/// modifiers; the conformances extensions declare; and how many
/// `@Generable` attributes are left to expand.
private final class GeneratedDeclarations: SyntaxVisitor {
    private(set) var all: [(name: String, modifiers: [String])] = []
    private(set) var conformances: [String] = []
    private(set) var generableAttributes = 0

    override func visit(_ node: AttributeSyntax) -> SyntaxVisitorContinueKind {
        if node.attributeName.trimmedDescription == "Generable" {
            generableAttributes += 1
        }
        return .visitChildren
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        let names = node.bindings.compactMap { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text }
        for name in names where name == "generationSchema" || name == "generatedContent" {
            all.append((name, node.modifiers.map(\.name.text)))
        }
        return .visitChildren
    }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        let parameters = node.signature.parameterClause.parameters
        if parameters.count == 1, parameters.first?.type.trimmedDescription == "FoundationModels.GeneratedContent" {
            all.append(("init(_:)", node.modifiers.map(\.name.text)))
        }
        return .visitChildren
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        if node.name.text == "PartiallyGenerated" {
            all.append(("PartiallyGenerated", node.modifiers.map(\.name.text)))
        }
        return .visitChildren
    }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        conformances += node.inheritanceClause?.inheritedTypes.map(\.type.trimmedDescription) ?? []
        return .visitChildren
    }
}
