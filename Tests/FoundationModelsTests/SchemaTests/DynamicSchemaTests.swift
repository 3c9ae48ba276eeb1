import Foundation
import Testing

@testable import FoundationModels

/// Dynamic schemas shared by several tests.
enum DynamicSchemas {
    static let book = DynamicGenerationSchema(
        name: "Book", description: "A book",
        properties: [
            .init(name: "title", schema: .init(type: String.self)),
            .init(name: "year", description: "Year published", schema: .init(type: Int.self, guides: [.range(1450...2100)])),
            .init(name: "genre", schema: .init(name: "BookGenre", anyOf: ["novel", "poetry"]), isOptional: true),
        ])

    static let library = DynamicGenerationSchema(
        name: "Library",
        properties: [
            .init(name: "books", schema: .init(arrayOf: .init(referenceTo: "Book"), minimumElements: 1, maximumElements: 10)),
            .init(name: "motto", schema: .null, isOptional: true),
        ])
}

extension SchemaTests {
    @Suite("Dynamic schemas")
    struct Dynamic {
        @Test("references resolve to definitions; nested named schemas are defined too")
        func resolution() throws {
            let schema = try GenerationSchema(root: DynamicSchemas.library, dependencies: [DynamicSchemas.book])
            let expected =
                ##"{"title":"Library","type":"object","properties":{"books":{"type":"array","items":{"$ref":"#/$defs/Book"},"minItems":1,"maxItems":10},"motto":{"type":"null"}},"required":["books"],"additionalProperties":false,"x-order":["books","motto"],"$defs":{"Book":{"description":"A book","type":"object","properties":{"title":{"type":"string"},"year":{"description":"Year published","type":"integer","minimum":1450,"maximum":2100},"genre":{"type":"string","enum":["novel","poetry"]}},"required":["title","year"],"additionalProperties":false,"x-order":["title","year","genre"]}}}"##
            #expect(SchemaTests.json(schema) == expected)
            #expect(schema.name == "Library")
        }

        @Test("a named string choice used as a property is written inline, as Apple writes it")
        func namedStringChoiceInline() throws {
            let root = DynamicGenerationSchema(
                name: "Edit",
                properties: [
                    .init(name: "op", schema: .init(name: "Operation", anyOf: ["insert", "delete"]))
                ])
            let schema = try GenerationSchema(root: root, dependencies: [])
            func member(_ content: GeneratedContent?, _ key: String) -> GeneratedContent? {
                guard case .structure(let properties, _)? = content?.kind else { return nil }
                return properties[key]
            }
            let document = try GeneratedContent(json: SchemaTests.json(schema))
            let op = try #require(member(member(document, "properties"), "op"))
            #expect(member(op, "type") == GeneratedContent(kind: .string("string")))
            #expect(
                member(op, "enum")
                    == GeneratedContent(kind: .array([GeneratedContent(kind: .string("insert")), GeneratedContent(kind: .string("delete"))])))
            #expect(member(op, "$ref") == nil)
            #expect(member(document, "$defs") == nil)
        }

        @Test("any-of schemas, Generable types and recursion")
        func anyOfAndRecursion() throws {
            let node = DynamicGenerationSchema(
                name: "Node", description: "A tree node",
                properties: [
                    .init(name: "label", schema: .init(type: String.self, guides: [.anyOf(["x", "y"])])),
                    .init(name: "next", schema: .init(name: "NextOrEnd", anyOf: [.init(referenceTo: "Node"), .null]), isOptional: true),
                    .init(name: "owner", schema: .init(type: Person.self)),
                ])
            let schema = try GenerationSchema(root: node, dependencies: [])
            #expect(schema.definitions.map(\.name) == ["NextOrEnd", "Node", "Person"])
            #expect(schema.resolve("NextOrEnd") == .anyOf([.reference("Node"), .null]))
            #expect(schema.definition(named: "Node")?.node == schema.root)
            #expect(schema.typeDescription == "A tree node")
            #expect(schema.definition(named: "Person")?.node == Person.generationSchema.root)
        }

        @Test("the same schema value used twice is defined once")
        func sharedDefinition() throws {
            let address = DynamicGenerationSchema(name: "Place", properties: [.init(name: "city", schema: .init(type: String.self))])
            let root = DynamicGenerationSchema(
                name: "Trip",
                properties: [
                    .init(name: "from", schema: address), .init(name: "to", schema: address),
                ])
            let schema = try GenerationSchema(root: root, dependencies: [address])
            #expect(schema.definitions.map(\.name) == ["Place"])
        }

        @Test("a structural root takes a structural name")
        func structuralRoot() throws {
            let schema = try GenerationSchema(root: .init(arrayOf: .init(type: Int.self), maximumElements: 3), dependencies: [])
            #expect(SchemaTests.json(schema) == #"{"title":"Array","type":"array","items":{"type":"integer"},"maxItems":3}"#)
        }

        @Test("representNilExplicitly carries through")
        func explicitNil() throws {
            let root = DynamicGenerationSchema(
                name: "R", representNilExplicitlyInGeneratedContent: true,
                properties: [
                    .init(name: "x", schema: .init(type: Bool.self), isOptional: true)
                ])
            let schema = try GenerationSchema(root: root, dependencies: [])
            #expect(
                SchemaTests.json(schema)
                    == #"{"title":"R","type":"object","properties":{"x":{"anyOf":[{"type":"boolean"},{"type":"null"}]}},"required":["x"],"additionalProperties":false,"x-order":["x"]}"#
            )
        }
    }

    @Suite("Schema errors")
    struct Errors {
        static func error(_ body: () throws -> GenerationSchema) -> GenerationSchema.SchemaError? {
            do {
                _ = try body()
                Issue.record("expected a SchemaError")
            } catch let error as GenerationSchema.SchemaError {
                #expect(error.errorDescription?.hasSuffix(".") == true)
                #expect(error.recoverySuggestion != nil)
                return error
            } catch {
                Issue.record("unexpected error \(error)")
            }
            return nil
        }

        @Test("two different schemas with one name: duplicateType")
        func duplicateType() {
            let first = DynamicGenerationSchema(name: "Thing", properties: [.init(name: "a", schema: .init(type: Int.self))])
            let second = DynamicGenerationSchema(name: "Thing", properties: [.init(name: "b", schema: .init(type: Int.self))])
            let root = DynamicGenerationSchema(name: "Root", properties: [.init(name: "t", schema: .init(referenceTo: "Thing"))])
            guard case .duplicateType(let schema, let type, _) = Self.error({ try GenerationSchema(root: root, dependencies: [first, second]) })
            else {
                Issue.record("expected duplicateType")
                return
            }
            #expect(schema == "Root")
            #expect(type == "Thing")
        }

        @Test("a dependency named like the root: duplicateType")
        func duplicateRoot() {
            let root = DynamicGenerationSchema(name: "Root", properties: [])
            guard case .duplicateType(_, let type, _) = Self.error({ try GenerationSchema(root: root, dependencies: [root]) }) else {
                Issue.record("expected duplicateType")
                return
            }
            #expect(type == "Root")
        }

        @Test("a repeated property: duplicateProperty")
        func duplicateProperty() {
            let root = DynamicGenerationSchema(
                name: "Root",
                properties: [
                    .init(name: "a", schema: .init(type: Int.self)), .init(name: "a", schema: .init(type: String.self)),
                ])
            let error = Self.error { try GenerationSchema(root: root, dependencies: []) }
            guard case .duplicateProperty(let schema, let property, let context) = error else {
                Issue.record("expected duplicateProperty")
                return
            }
            #expect(schema == "Root")
            #expect(property == "a")
            #expect(context.debugDescription == "The object schema Root lists the property a more than once.")
            #expect(error?.errorDescription == "The schema Root has more than one property named a.")
        }

        @Test(
            "no choices: emptyTypeChoices",
            arguments: [
                DynamicGenerationSchema(name: "Empty", anyOf: [DynamicGenerationSchema]()),
                DynamicGenerationSchema(name: "Empty", anyOf: [String]()),
            ])
        func emptyChoices(root: DynamicGenerationSchema) {
            guard case .emptyTypeChoices(let schema, _) = Self.error({ try GenerationSchema(root: root, dependencies: []) }) else {
                Issue.record("expected emptyTypeChoices")
                return
            }
            #expect(schema == "Empty")
        }

        @Test("references to nothing: undefinedReferences lists them all")
        func undefinedReferences() {
            let root = DynamicGenerationSchema(
                name: "Root",
                properties: [
                    .init(name: "a", schema: .init(referenceTo: "Zed")),
                    .init(name: "b", schema: .init(arrayOf: .init(referenceTo: "Alpha"))),
                    .init(name: "c", schema: .init(referenceTo: "Zed")),
                ])
            let error = Self.error { try GenerationSchema(root: root, dependencies: []) }
            guard case .undefinedReferences(let schema, let references, _) = error else {
                Issue.record("expected undefinedReferences")
                return
            }
            #expect(schema == "Root")
            #expect(references == ["Alpha", "Zed"])
            #expect(error?.errorDescription == "The schema Root references undefined types: Alpha, Zed.")
        }
    }
}
