import Foundation
import GuidedGeneration
import TestSupport

@testable import FoundationModels

/// Random schemas of every supported shape, and random valid documents of a
/// schema, for the property tests of guided generation.
struct RandomSchemas {
    var random: SplitMix64

    /// Patterns with strings that match them (the tests need valid
    /// documents, and a regex cannot be run backwards in general).
    static let patterns: [(pattern: String, examples: [String])] = [
        (#"[A-Z]{2}[0-9]{2,4}"#, ["AB12", "QZ9876", "LH123"]),
        (#"\d{3}-\d{4}"#, ["555-0100", "123-4567"]),
        (#"(yes|no|maybe)"#, ["yes", "no", "maybe"]),
        (#"[a-z]+@[a-z]+\.(com|org)"#, ["a@b.com", "mail@example.org"]),
        (#"#[0-9a-f]{6}"#, ["#00ff7a", "#abcdef"]),
        (#"[^"\\]{0,8}"#, ["", "plain", "ünï çødé"]),
    ]

    static let words = ["alpha", "beta", "gamma", "delta", "Ω", "naïve", "two words", "quote\"d", "back\\slash", "new\nline", "🎵"]

    mutating func schema() -> GenerationSchema {
        var definitions: [SchemaDefinition] = []
        // Sometimes a recursive definition: a node with optional children.
        var recursive: String?
        if Bool.random(using: &random) {
            let name = "Node"
            definitions.append(
                SchemaDefinition(
                    name: name,
                    node: .object(
                        ObjectNode(properties: [
                            PropertyNode(name: "label", node: .string(StringNode(choices: ["x", "y", "z"]))),
                            PropertyNode(name: "children", node: .array(ArrayNode(items: .reference(name), maximumCount: 2)), isOptional: true),
                        ]))))
            recursive = name
        }
        var properties: [PropertyNode] = []
        for index in 0..<Int.random(in: 1...4, using: &random) {
            properties.append(
                PropertyNode(name: "p\(index)", node: node(depth: 2, reference: recursive), isOptional: Int.random(in: 0..<4, using: &random) == 0))
        }
        let root = SchemaNode.object(ObjectNode(properties: properties, representsNilExplicitly: Int.random(in: 0..<4, using: &random) == 0))
        return GenerationSchema(name: "Random", description: nil, root: root, definitions: definitions, isNamedType: true)
    }

    mutating func node(depth: Int, reference: String?) -> SchemaNode {
        let kinds = depth > 0 ? 11 : 7
        switch Int.random(in: 0..<kinds, using: &random) {
        case 0: return .string(StringNode())
        case 1: return .string(StringNode(choices: Array(Self.words.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)))))
        case 2: return .string(StringNode(pattern: Self.patterns.randomElement(using: &random)!.pattern))
        case 3:
            let low = Int.random(in: -50...50, using: &random)
            return .integer(
                NumberNode(
                    minimum: Bool.random(using: &random) ? Double(low) : nil,
                    maximum: Bool.random(using: &random) ? Double(low + Int.random(in: 0...200, using: &random)) : nil))
        case 4:
            let low = Double(Int.random(in: -500...500, using: &random)) / 100
            return .number(NumberNode(minimum: low, maximum: low + Double(Int.random(in: 0...1000, using: &random)) / 100))
        case 5: return .boolean
        case 6: return .string(StringNode(constant: Self.words.randomElement(using: &random)!))
        case 7:
            let minimum = Int.random(in: 0...2, using: &random)
            return .array(
                ArrayNode(
                    items: node(depth: depth - 1, reference: reference), minimumCount: minimum,
                    maximumCount: minimum + Int.random(in: 0...2, using: &random)))
        case 8:
            var properties: [PropertyNode] = []
            for index in 0..<Int.random(in: 0...3, using: &random) {
                properties.append(
                    PropertyNode(name: "k\(index)", node: node(depth: depth - 1, reference: reference), isOptional: Bool.random(using: &random)))
            }
            return .object(ObjectNode(properties: properties))
        case 9:
            return .anyOf([node(depth: depth - 1, reference: reference), .null])
        default:
            return reference.map { .reference($0) } ?? .anyOf([.integer(NumberNode()), .string(StringNode(choices: ["on", "off"]))])
        }
    }

    // MARK: - Valid documents

    mutating func document(of schema: GenerationSchema) -> String {
        document(schema.root, schema)
    }

    mutating func document(_ node: SchemaNode, _ schema: GenerationSchema) -> String {
        switch node {
        case .object(let object):
            var fields: [String] = []
            for property in object.properties {
                if property.isOptional {
                    if object.representsNilExplicitly {
                        fields.append(key(property.name) + (Bool.random(using: &random) ? "null" : document(property.node, schema)))
                        continue
                    }
                    if Bool.random(using: &random) { continue }
                }
                fields.append(key(property.name) + document(property.node, schema))
            }
            return "{" + fields.joined(separator: ",") + "}"
        case .string(let string):
            if let constant = string.constant { return quoted(constant) }
            if let choices = string.choices { return quoted(choices.randomElement(using: &random)!) }
            if let pattern = string.pattern {
                return quoted(Self.patterns.first { $0.pattern == pattern }!.examples.randomElement(using: &random)!)
            }
            return quoted(String(Self.words.randomElement(using: &random)!.prefix(Int.random(in: 0...6, using: &random))))
        case .integer(let bounds):
            let low = Int(bounds.minimum ?? -1000)
            let high = Int(bounds.maximum ?? 1000)
            return String(Int.random(in: low...max(low, high), using: &random))
        case .number(let bounds):
            let low = bounds.minimum ?? -100
            let high = bounds.maximum ?? 100
            // Bounds like 1.3499999999999999 (a sum of hundredths in binary)
            // make `high * 100` round up to a value past the bound: keep the
            // pick inside the bounds as decimals, the way they are enforced.
            var first = Int((low * 100).rounded(.up)), last = Int((high * 100).rounded(.down))
            while Double(first) / 100 < low { first += 1 }
            while Double(last) / 100 > high { last -= 1 }
            let hundredths = Int.random(in: first...max(first, last), using: &random)
            let value = Double(hundredths) / 100
            var text = String(format: "%.2f", value)
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return text == "-0" ? "0" : text
        case .boolean:
            return Bool.random(using: &random) ? "true" : "false"
        case .null:
            return "null"
        case .array(let array):
            let minimum = array.minimumCount ?? 0
            let count = Int.random(in: minimum...(array.maximumCount ?? minimum + 2), using: &random)
            return "[" + (0..<count).map { _ in document(array.items, schema) }.joined(separator: ",") + "]"
        case .anyOf(let choices):
            return document(choices.randomElement(using: &random)!, schema)
        case .reference(let name):
            // Keep recursion shallow: an optional child list is left out.
            guard case .object(var object) = schema.resolve(name) else { return "null" }
            object.properties = object.properties.filter { !$0.isOptional }
            return document(.object(object), schema)
        case .any:
            return "0"
        case .literal(let text):
            return text
        }
    }

    private func key(_ name: String) -> String { quoted(name) + ":" }

    private func quoted(_ text: String) -> String {
        String(decoding: JSONStringEncoding.quoted(text), as: UTF8.self)
    }
}
