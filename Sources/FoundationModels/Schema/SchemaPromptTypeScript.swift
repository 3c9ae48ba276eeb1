import Foundation
import GuidedGeneration

/// Writes a schema as a TypeScript type (``SchemaPromptStyle/typeScript``).
enum SchemaTypeScriptWriter {
    static func describe(_ schema: GenerationSchema) -> String {
        var lines = ["Respond with JSON only, no other text, with a value of this type:"]
        let rootName = schema.isNamedType ? schema.name : "Response"
        lines += declaration(rootName, schema.root, description: schema.typeDescription)
        for definition in schema.definitions where definition.name != rootName {
            lines += declaration(definition.name, definition.node, description: definition.description)
        }
        return lines.joined(separator: "\n")
    }

    private static func declaration(_ name: String, _ node: SchemaNode, description: String?) -> [String] {
        var lines = description.map { ["// \($0)"] } ?? []
        guard case .object(let object) = node else {
            let (type, note) = self.type(of: node, indent: "")
            return lines + ["type \(identifier(name)) = \(type);" + (note.map { " // \($0)" } ?? "")]
        }
        lines.append("type \(identifier(name)) = " + body(object, indent: "") + ";")
        return lines
    }

    private static func body(_ object: ObjectNode, indent: String) -> String {
        guard !object.properties.isEmpty else { return "{}" }
        var lines = ["{"]
        for property in object.properties {
            let (type, note) = self.type(of: property.node, indent: indent + "  ")
            let comment = [property.description, note].compactMap { $0 }.joined(separator: "; ")
            if !comment.isEmpty { lines.append(indent + "  // " + comment) }
            lines.append(indent + "  " + identifier(property.name) + (property.isOptional ? "?" : "") + ": " + type + ";")
        }
        lines.append(indent + "}")
        return lines.joined(separator: "\n")
    }

    /// The TypeScript type of `node`, and what the type cannot say (ranges,
    /// counts, patterns) as a note for its comment.
    private static func type(of node: SchemaNode, indent: String) -> (String, String?) {
        switch node {
        case .object(let object):
            return (body(object, indent: indent), object.requiresAProperty ? "at least one property" : nil)
        case .string(let string):
            if let constant = string.constant { return (quoted(constant), nil) }
            if let choices = string.choices { return (choices.map(quoted).joined(separator: " | "), nil) }
            if let pattern = string.pattern { return ("string", "matches /\(pattern)/") }
            if let format = string.format { return ("string", format) }
            return ("string", nil)
        case .integer(let bounds):
            return ("number", "an integer" + SchemaPromptWriter.range(bounds))
        case .number(let bounds):
            let range = SchemaPromptWriter.range(bounds)
            return ("number", range.isEmpty ? nil : "a number" + range)
        case .boolean:
            return ("boolean", nil)
        case .null:
            return ("null", nil)
        case .array(let array):
            let (element, note) = type(of: array.items, indent: indent)
            let count = SchemaPromptWriter.count(array)
            let notes = [count.isEmpty ? nil : count.trimmingCharacters(in: .whitespaces) + " items", note].compactMap { $0 }
            let wrapped = element.contains(" ") && !element.hasPrefix("{") ? "(\(element))" : element
            return (wrapped + "[]", notes.isEmpty ? nil : notes.joined(separator: "; "))
        case .anyOf(let choices):
            let types = choices.map { type(of: $0, indent: indent).0 }
            return (types.joined(separator: " | "), nil)
        case .reference(let name):
            return (identifier(name), nil)
        case .any:
            return ("any", nil)
        case .literal(let text):
            return ("any", "exactly \(text)")
        }
    }

    private static func identifier(_ name: String) -> String {
        let isPlain =
            !name.isEmpty && name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "$" }
        return isPlain ? name : quoted(name)
    }

    private static func quoted(_ text: String) -> String {
        String(decoding: JSONStringEncoding.quoted(text), as: UTF8.self)
    }
}
