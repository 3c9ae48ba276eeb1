import GuidedGeneration

/// Reads the JSON Schema form written by ``JSONSchemaWriter`` back into the
/// schema IR.
///
/// Exists so a `GenerationSchema` survives a round trip through JSON
/// (transcripts, tool definitions from servers). It is strict: a keyword it
/// does not understand, or one on the wrong type, throws a
/// `DecodingError.dataCorrupted` naming the keyword and its location
/// (`#/properties/name`), because silently ignoring a constraint would let
/// the model produce output the schema's author ruled out.
struct JSONSchemaReader {
    private static let annotations: Set<String> = ["title", "description"]
    private static let keywordsByType: [String: Set<String>] = [
        "object": ["type", "properties", "required", "additionalProperties", "x-order"],
        "string": ["type", "const", "enum", "pattern", "x-unsupported-guides"],
        "integer": ["type", "minimum", "maximum"],
        "number": ["type", "minimum", "maximum"],
        "boolean": ["type"],
        "null": ["type"],
        "array": ["type", "items", "minItems", "maxItems"],
    ]

    static func schema(from document: GeneratedContent) throws -> GenerationSchema {
        let object = try structure(document, at: "#")
        var definitions: [SchemaDefinition] = []
        if let defs = object.properties["$defs"] {
            let entries = try structure(defs, at: "#/$defs")
            for name in entries.keys {
                let path = "#/$defs/\(name)"
                let entry = try structure(entries.properties[name] ?? GeneratedContent(kind: .null), at: path)
                let (node, description) = try self.node(entry, at: path)
                definitions.append(SchemaDefinition(name: name, description: description, node: node))
            }
        }
        var rootObject = object
        rootObject.remove("$defs")
        let name = try optionalString(rootObject.properties["title"], at: "#/title") ?? "Schema"
        let (root, description) = try node(rootObject, at: "#")
        let isNamed: Bool
        switch root {
        case .object, .anyOf: isNamed = true
        case .string(let string): isNamed = string.choices != nil
        default: isNamed = false
        }
        return GenerationSchema(name: name, description: description, root: root, definitions: definitions, isNamedType: isNamed)
    }

    // MARK: - Nodes

    private static func node(_ content: GeneratedContent, at path: String) throws -> (SchemaNode, String?) {
        try node(structure(content, at: path), at: path)
    }

    private static func node(_ object: JSONObject, at path: String) throws -> (SchemaNode, String?) {
        let description = try optionalString(object.properties["description"], at: path + "/description")
        if let reference = object.properties["$ref"] {
            try allow(object, ["$ref"], at: path)
            let target = try string(reference, at: path + "/$ref")
            guard target.hasPrefix(JSONSchemaWriter.definitionsPrefix) else {
                throw corrupted("unsupported reference \"\(target)\" at \(path)/$ref: only \"#/$defs/Name\" references are supported")
            }
            return (.reference(String(target.dropFirst(JSONSchemaWriter.definitionsPrefix.count))), description)
        }
        if let choices = object.properties["anyOf"] {
            try allow(object, ["anyOf"], at: path)
            let elements = try array(choices, at: path + "/anyOf")
            var nodes: [SchemaNode] = []
            for (offset, element) in elements.enumerated() {
                nodes.append(try node(element, at: "\(path)/anyOf/\(offset)").0)
            }
            return (.anyOf(nodes), description)
        }
        guard let typeContent = object.properties["type"] else {
            try allow(object, [], at: path)
            return (.any, description)
        }
        let type = try string(typeContent, at: path + "/type")
        guard let keywords = keywordsByType[type] else {
            throw corrupted("unsupported type \"\(type)\" at \(path)/type")
        }
        try allow(object, keywords, at: path)
        switch type {
        case "object":
            return (try objectNode(object, at: path), description)
        case "string":
            return (.string(StringNode(
                constant: try optionalString(object.properties["const"], at: path + "/const"),
                choices: try object.properties["enum"].map { try strings($0, at: path + "/enum") },
                pattern: try optionalString(object.properties["pattern"], at: path + "/pattern"),
                unsupportedGuides: try object.properties["x-unsupported-guides"].map { try strings($0, at: path + "/x-unsupported-guides") } ?? []
            )), description)
        case "integer":
            return (.integer(try bounds(object, at: path)), description)
        case "number":
            return (.number(try bounds(object, at: path)), description)
        case "boolean":
            return (.boolean, description)
        case "null":
            return (.null, description)
        default:  // "array"
            let items = try object.properties["items"].map { try node($0, at: path + "/items").0 } ?? .any
            return (.array(ArrayNode(
                items: items,
                minimumCount: try object.properties["minItems"].map { try count($0, at: path + "/minItems") },
                maximumCount: try object.properties["maxItems"].map { try count($0, at: path + "/maxItems") }
            )), description)
        }
    }

    private static func objectNode(_ object: JSONObject, at path: String) throws -> SchemaNode {
        if let additional = object.properties["additionalProperties"] {
            guard case .bool(false) = additional.kind else {
                throw corrupted("unsupported value for additionalProperties at \(path): only false is supported")
            }
        }
        let properties = try object.properties["properties"].map { try structure($0, at: path + "/properties") }
            ?? JSONObject(properties: [:], keys: [])
        let required = Set(try object.properties["required"].map { try strings($0, at: path + "/required") } ?? [])
        let order = try object.properties["x-order"].map { try strings($0, at: path + "/x-order") } ?? properties.keys
        guard Set(order) == Set(properties.keys), order.count == properties.keys.count else {
            throw corrupted("x-order at \(path) must list each property exactly once")
        }
        if let unknown = required.subtracting(properties.keys).sorted().first {
            throw corrupted("required property \"\(unknown)\" at \(path) is not among the properties")
        }
        var nodes: [PropertyNode] = []
        for name in order {
            let propertyPath = "\(path)/properties/\(name)"
            let (node, description) = try self.node(properties.properties[name] ?? GeneratedContent(kind: .null), at: propertyPath)
            nodes.append(PropertyNode(name: name, description: description, node: node, isOptional: !required.contains(name)))
        }
        return .object(ObjectNode(properties: nodes))
    }

    private static func bounds(_ object: JSONObject, at path: String) throws -> NumberNode {
        NumberNode(
            minimum: try object.properties["minimum"].map { try number($0, at: path + "/minimum") },
            maximum: try object.properties["maximum"].map { try number($0, at: path + "/maximum") }
        )
    }

    // MARK: - Values

    private struct JSONObject {
        var properties: [String: GeneratedContent]
        var keys: [String]

        mutating func remove(_ key: String) {
            properties[key] = nil
            keys.removeAll { $0 == key }
        }
    }

    private static func allow(_ object: JSONObject, _ keywords: Set<String>, at path: String) throws {
        for key in object.keys where !keywords.contains(key) && !annotations.contains(key) {
            throw corrupted("unsupported JSON Schema keyword \"\(key)\" at \(path)")
        }
    }

    private static func structure(_ content: GeneratedContent, at path: String) throws -> JSONObject {
        guard case .structure(let properties, let keys) = content.kind else {
            throw corrupted("expected a JSON object at \(path), found \(ContentDecoding.describe(content))")
        }
        return JSONObject(properties: properties, keys: JSONPrinter.printableKeys(properties, keys))
    }

    private static func array(_ content: GeneratedContent, at path: String) throws -> [GeneratedContent] {
        guard case .array(let elements) = content.kind else {
            throw corrupted("expected an array at \(path), found \(ContentDecoding.describe(content))")
        }
        return elements
    }

    private static func string(_ content: GeneratedContent, at path: String) throws -> String {
        guard case .string(let value) = content.kind else {
            throw corrupted("expected a string at \(path), found \(ContentDecoding.describe(content))")
        }
        return value
    }

    private static func optionalString(_ content: GeneratedContent?, at path: String) throws -> String? {
        try content.map { try string($0, at: path) }
    }

    private static func strings(_ content: GeneratedContent, at path: String) throws -> [String] {
        try array(content, at: path).enumerated().map { try string($1, at: "\(path)/\($0)") }
    }

    private static func number(_ content: GeneratedContent, at path: String) throws -> Double {
        guard case .number(let value) = content.kind else {
            throw corrupted("expected a number at \(path), found \(ContentDecoding.describe(content))")
        }
        return value
    }

    private static func count(_ content: GeneratedContent, at path: String) throws -> Int {
        let value = try number(content, at: path)
        guard value >= 0, value == value.rounded(), let count = Int(exactly: value) else {
            throw corrupted("expected a non-negative integer at \(path), found \(value)")
        }
        return count
    }

    private static func corrupted(_ message: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: "Invalid generation schema: \(message)"))
    }
}
