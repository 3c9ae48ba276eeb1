import Foundation
import GuidedGeneration
import Synchronization

/// Whether a finished JSON value follows a schema, judged by the same
/// matcher that constrains the on-device model's output.
///
/// Exists for models that do not generate under our constraint — server
/// models with their own structured-output modes — so their answers are held
/// to exactly the definition of "valid" the on-device model is held to: the
/// value is written in the canonical compact spelling the grammar reads
/// (properties in schema order, an optional property's `null` dropped where
/// the schema writes absent optionals by omission, integral numbers of
/// integer nodes without a fraction, numbers without exponents), and fed
/// byte by byte through a decoder of the schema's grammar. One mechanism,
/// no second validator to drift from the first.
package enum SchemaConformance {
    /// Why a value does not follow its schema.
    package struct Violation: Error, CustomStringConvertible {
        package var description: String
    }

    /// Grammars are compiled once per schema (bounded: a process that sees
    /// many dynamic schemas recompiles rather than grows).
    private static let grammars = Mutex<[Key: TokenConstraint]>([:])
    private static let cacheLimit = 64

    private struct Key: Hashable {
        var root: SchemaNode
        var definitions: [SchemaDefinition]
    }

    /// Throws the guided-generation refusal when the schema cannot be
    /// compiled (an unsupported guide), so a request fails before it is sent.
    package static func check(_ schema: GenerationSchema) throws(GuidedGenerationError) {
        _ = try constraint(for: schema)
    }

    /// Throws a ``Violation`` naming what is wrong unless `content` follows `schema`.
    package static func validate(_ content: GeneratedContent, against schema: GenerationSchema) throws {
        let constraint: TokenConstraint
        do {
            constraint = try self.constraint(for: schema)
        } catch {
            throw Violation(description: "the schema cannot be enforced: \(error)")
        }
        var writer = CanonicalWriter(definitions: schema.definitions)
        writer.write(content, as: schema.root)
        var decoder = constraint.makeDecoder()
        let bytes = Array(writer.output.utf8)
        // Fed in pieces so a rejection can say where the value went wrong.
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + 64, bytes.count)
            if !decoder.accept(bytes: Array(bytes[offset..<end])) {
                var position = offset
                while position < end, decoder.accept(bytes: [bytes[position]]) { position += 1 }
                let prefix = String(decoding: bytes[..<position], as: UTF8.self)
                throw Violation(description: "the value leaves the schema after \(position) bytes: \(prefix.suffix(80))⟨here⟩")
            }
            offset = end
        }
        guard decoder.canEnd else {
            throw Violation(description: "the value is incomplete for the schema: \(writer.output.suffix(80))")
        }
    }

    /// Why `schema` cannot be enforced (a guide or keyword the grammar
    /// refuses, or no value satisfies it), or nil when it can: what a
    /// server checks before it accepts a request's schema. The grammar is
    /// kept for checking answers.
    package static func enforcementProblem(of schema: GenerationSchema) -> String? {
        do {
            _ = try constraint(for: schema)
            return nil
        } catch {
            return error.description
        }
    }

    private static func constraint(for schema: GenerationSchema) throws(GuidedGenerationError) -> TokenConstraint {
        let key = Key(root: schema.root, definitions: schema.definitions)
        if let cached = grammars.withLock({ $0[key] }) { return cached }
        let grammar = try GrammarCompiler.compile(root: schema.root, definitions: schema.definitions, layout: .compact)
        // No vocabulary: the decoder is fed bytes, never tokens.
        let constraint = TokenConstraint(grammar: grammar, vocabulary: TokenVocabulary(tokens: [], endOfGeneration: []))
        grammars.withLock { grammars in
            if grammars.count >= cacheLimit { grammars.removeAll() }
            grammars[key] = constraint
        }
        return constraint
    }
}

/// Writes a value the way the grammar spells it, guided by the schema node
/// it is meant to follow. Where the value does not fit the node it is
/// written as it is, for the matcher to reject.
private struct CanonicalWriter {
    let definitions: [SchemaDefinition]
    var output = ""
    /// How deep references have been followed, so a self-referencing
    /// definition that never reaches a value cannot recurse forever.
    private var depth = 0

    init(definitions: [SchemaDefinition]) {
        self.definitions = definitions
    }

    mutating func write(_ content: GeneratedContent, as node: SchemaNode) {
        switch (node, content.kind) {
        case (.reference(let name), _):
            guard depth < 256, let definition = definitions.first(where: { $0.name == name }) else {
                writePlain(content)
                return
            }
            depth += 1
            write(content, as: definition.node)
            depth -= 1
        case (.object(let object), .structure(let properties, let orderedKeys)):
            writeObject(object, properties, orderedKeys)
        case (.array(let array), .array(let elements)):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                write(element, as: index < array.prefixItems.count ? array.prefixItems[index] : array.items)
            }
            output += "]"
        case (.anyOf(let choices), _):
            write(content, as: Self.choice(for: content, among: choices, definitions: definitions) ?? .any)
        case (.integer, .number(let value)) where value == value.rounded() && abs(value) < 1e18:
            output += String(Int64(value))
        case (.number, .number(let value)), (.any, .number(let value)):
            output += Self.plainNumber(content.numberText, value)
        default:
            writePlain(content)
        }
    }

    private mutating func writeObject(_ object: ObjectNode, _ properties: [String: GeneratedContent], _ orderedKeys: [String]) {
        output += "{"
        var first = true
        var written = Set<String>()
        for property in object.properties {
            guard let value = properties[property.name] else { continue }
            written.insert(property.name)
            // `"x": null` for an optional the schema writes by omission
            // means the same as no `x`.
            if case .null = value.kind, property.isOptional, !object.representsNilExplicitly, !Self.admitsNull(property.node, definitions) {
                continue
            }
            if !first { output += "," }
            first = false
            JSONPrinter.writeString(property.name, to: &output)
            output += ":"
            write(value, as: property.node)
        }
        for key in JSONPrinter.printableKeys(properties, orderedKeys) where !written.contains(key) {
            guard let value = properties[key] else { continue }
            if !first { output += "," }
            first = false
            JSONPrinter.writeString(key, to: &output)
            output += ":"
            let extra = object.additionalProperties ?? .any
            write(value, as: extra)
        }
        output += "}"
    }

    private mutating func writePlain(_ content: GeneratedContent) {
        switch content.kind {
        case .number(let value):
            output += Self.plainNumber(content.numberText, value)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                writePlain(element)
            }
            output += "]"
        case .structure(let properties, let orderedKeys):
            output += "{"
            for (index, key) in JSONPrinter.printableKeys(properties, orderedKeys).enumerated() {
                if index > 0 { output += "," }
                JSONPrinter.writeString(key, to: &output)
                output += ":"
                if let value = properties[key] { writePlain(value) }
            }
            output += "}"
        default:
            output += content.jsonString
        }
    }

    /// A number as written, unless it has an exponent or is a negative
    /// zero, which the grammar's compact language has no room for.
    private static func plainNumber(_ text: String?, _ value: Double) -> String {
        if let text, !text.contains(where: { $0 == "e" || $0 == "E" }) {
            return text.allSatisfy({ $0 == "-" || $0 == "0" || $0 == "." }) ? "0" : text
        }
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e18 { return String(Int64(value)) }
        var decimal = "\(Decimal(value))"
        if decimal.hasPrefix("-0"), Double(decimal) == 0 { decimal = "0" }
        return decimal
    }

    /// The alternative of an `anyOf` the value is meant as: the first whose
    /// JSON type fits and, for an object, whose properties name every key
    /// the value has.
    private static func choice(for content: GeneratedContent, among choices: [SchemaNode], definitions: [SchemaDefinition]) -> SchemaNode? {
        let resolved = choices.map { resolve($0, definitions) }
        for (choice, node) in zip(choices, resolved) {
            switch (node, content.kind) {
            case (.object(let object), .structure(let properties, _)):
                let names = Set(object.properties.map(\.name))
                if object.isOpen || properties.keys.allSatisfy(names.contains) { return choice }
            case (.array, .array), (.string, .string), (.integer, .number), (.number, .number),
                (.boolean, .bool), (.null, .null), (.any, _):
                if case .integer = node, case .number(let value) = content.kind, value != value.rounded() { continue }
                return choice
            case (.literal(let text), _):
                if content.jsonString == text { return choice }
            case (.anyOf, _):
                return choice
            default:
                continue
            }
        }
        return nil
    }

    private static func resolve(_ node: SchemaNode, _ definitions: [SchemaDefinition]) -> SchemaNode {
        var node = node
        var steps = 0
        while case .reference(let name) = node, steps < 64, let definition = definitions.first(where: { $0.name == name }) {
            node = definition.node
            steps += 1
        }
        return node
    }

    private static func admitsNull(_ node: SchemaNode, _ definitions: [SchemaDefinition]) -> Bool {
        switch resolve(node, definitions) {
        case .null, .any: true
        case .anyOf(let choices): choices.contains { admitsNull($0, definitions) }
        default: false
        }
    }
}
