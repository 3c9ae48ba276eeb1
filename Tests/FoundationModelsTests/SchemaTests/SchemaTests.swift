import Foundation
import Testing

@testable import FoundationModels

/// Namespace for the tests of `GenerationSchema`, `GenerationGuide` and
/// `DynamicGenerationSchema` (run with `swift test --filter SchemaTests`).
enum SchemaTests {
    /// The schema's JSON Schema form as compact JSON with its own key order.
    static func json(_ schema: GenerationSchema) -> String {
        schema.jsonSchema.jsonString
    }

    /// The schema encoded with `JSONEncoder`, keys sorted.
    static func encoded(_ schema: GenerationSchema) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(schema), as: UTF8.self)
    }

    static func decoded(_ json: String) throws -> GenerationSchema {
        try JSONDecoder().decode(GenerationSchema.self, from: Data(json.utf8))
    }
}

/// Schema-only test types: their conversions are never exercised.
protocol SchemaFixture: Generable {}

struct FixtureHasNoValues: Error {}

extension SchemaFixture {
    init(_ content: GeneratedContent) throws {
        throw FixtureHasNoValues()
    }

    var generatedContent: GeneratedContent { GeneratedContent(kind: .null) }
}

struct Person: SchemaFixture {
    static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: Person.self, description: "A person",
            properties: [
                .init(name: "name", description: "Full name", type: String.self),
                .init(name: "age", type: Int.self, guides: [.range(0...150)]),
                .init(name: "nickname", type: String?.self),
            ])
    }
}

struct Address: SchemaFixture {
    static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: Address.self,
            properties: [
                .init(name: "city", type: String.self),
                .init(name: "zip", type: String.self, guides: [/[0-9]{5}/]),
            ])
    }
}

struct Contact: SchemaFixture {
    static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: Contact.self, description: "Where to reach someone",
            properties: [
                .init(name: "home", description: "Main address", type: Address.self),
                .init(name: "others", type: [Address].self, guides: [.count(1...3)]),
                .init(name: "owner", type: Person?.self),
            ])
    }
}

struct Genre: SchemaFixture {
    static var generationSchema: GenerationSchema {
        GenerationSchema(type: Genre.self, description: "A music genre", anyOf: ["rock", "jazz", "folk"])
    }
}

struct Cat: SchemaFixture {
    static var generationSchema: GenerationSchema {
        GenerationSchema(type: Cat.self, properties: [.init(name: "lives", type: Int.self)])
    }
}

struct Dog: SchemaFixture {
    static var generationSchema: GenerationSchema {
        GenerationSchema(type: Dog.self, properties: [.init(name: "breed", type: Genre.self)])
    }
}

struct Pet: SchemaFixture {
    static var generationSchema: GenerationSchema {
        GenerationSchema(type: Pet.self, description: "Any pet", anyOf: [Cat.self, Dog.self, String.self])
    }
}

struct Payload: SchemaFixture {
    static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: Payload.self, description: "A message payload",
            taggedCases: [
                .init(name: "text", description: "Plain text", properties: [.init(name: "value", type: String.self)]),
                .init(
                    name: "point", description: nil,
                    properties: [
                        .init(name: "x", type: Double.self),
                        .init(name: "y", type: Double?.self),
                    ]),
                .init(name: "none", description: nil, properties: []),
            ])
    }
}

struct TreeNode: SchemaFixture {
    static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: TreeNode.self,
            properties: [
                .init(name: "value", type: Int.self),
                .init(name: "children", type: [TreeNode].self),
            ])
    }
}

struct Employee: SchemaFixture {
    static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: Employee.self,
            properties: [
                .init(name: "name", type: String.self),
                .init(name: "department", type: Department?.self),
            ])
    }
}

struct Department: SchemaFixture {
    static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: Department.self,
            properties: [
                .init(name: "head", type: Employee.self)
            ])
    }
}

struct Guided: SchemaFixture {
    static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: Guided.self,
            properties: [
                .init(name: "kind", type: String.self, guides: [.constant("guided")]),
                .init(name: "mood", type: String.self, guides: [.anyOf(["happy", "sad"])]),
                .init(name: "code", type: String.self, guides: [.pattern(/[A-Z]{2}[0-9]+/)]),
                .init(name: "price", type: Decimal.self, guides: [.minimum(Decimal(string: "0.25")!)]),
                .init(name: "ratio", type: Float.self, guides: [.range(0.1...0.9)]),
                .init(name: "score", type: Double.self, guides: [.maximum(9.5)]),
                .init(name: "low", type: Int.self, guides: [.minimum(-3)]),
                .init(name: "tags", type: [String].self, guides: [.minimumCount(2), .maximumCount(4), .element(.anyOf(["a", "b"]))]),
                .init(name: "pair", type: [Int].self, guides: [.count(2), .element(.range(1...6))]),
                .init(name: "flag", type: Bool.self),
            ])
    }
}

struct Explicit: SchemaFixture {
    static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: Explicit.self, description: nil, representNilExplicitlyInGeneratedContent: true,
            properties: [
                .init(name: "a", type: Int.self),
                .init(name: "b", description: "maybe", type: String?.self),
            ])
    }
}
