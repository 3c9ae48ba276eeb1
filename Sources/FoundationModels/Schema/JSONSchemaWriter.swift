import GuidedGeneration

/// Converts the schema IR to its JSON Schema form, as a ``GeneratedContent``
/// tree (ordered keys, exact numbers).
///
/// Exists because the JSON Schema form is the schema's wire format: it is
/// what `Codable` produces, what prompts show the model, and what server
/// back ends receive. Keywords: `title`, `description`, `type`,
/// `properties`, `required` (optional properties left out), `additionalProperties:
/// false`, `x-order` (property order), `$defs`/`$ref` (`#/$defs/Name`),
/// `const`, `enum`, `pattern`, `minimum`, `maximum`, `items`, `minItems`,
/// `maxItems`, `anyOf`, and `x-unsupported-guides` for guides that cannot be
/// enforced.
enum JSONSchemaWriter {
    static let definitionsPrefix = "#/$defs/"

    static func document(for schema: GenerationSchema) -> GeneratedContent {
        var object = OrderedJSONObject()
        object["title"] = .init(kind: .string(schema.name))
        if let description = schema.typeDescription {
            object["description"] = .init(kind: .string(description))
        }
        write(schema.root, into: &object)
        if !schema.definitions.isEmpty {
            var definitions = OrderedJSONObject()
            for definition in schema.definitions {
                var entry = OrderedJSONObject()
                if let description = definition.description {
                    entry["description"] = .init(kind: .string(description))
                }
                write(definition.node, into: &entry)
                definitions[definition.name] = entry.content
            }
            object["$defs"] = definitions.content
        }
        return object.content
    }

    static func content(for node: SchemaNode, description: String? = nil) -> GeneratedContent {
        var object = OrderedJSONObject()
        if let description {
            object["description"] = .init(kind: .string(description))
        }
        write(node, into: &object)
        return object.content
    }

    static func write(_ node: SchemaNode, into object: inout OrderedJSONObject) {
        switch node {
        case .object(let node):
            object["type"] = string("object")
            var properties = OrderedJSONObject()
            for property in node.properties {
                if property.isOptional, node.representsNilExplicitly {
                    var nullable = OrderedJSONObject()
                    if let description = property.description {
                        nullable["description"] = string(description)
                    }
                    nullable["anyOf"] = GeneratedContent(kind: .array([content(for: property.node), content(for: .null)]))
                    properties[property.name] = nullable.content
                } else {
                    properties[property.name] = content(for: property.node, description: property.description)
                }
            }
            object["properties"] = properties.content
            let required = node.properties.filter { !$0.isOptional || node.representsNilExplicitly }.map(\.name)
            object["required"] = strings(required)
            object["additionalProperties"] = GeneratedContent(kind: .bool(false))
            object["x-order"] = strings(node.properties.map(\.name))
        case .string(let node):
            object["type"] = string("string")
            if let constant = node.constant {
                object["const"] = string(constant)
            }
            if let choices = node.choices {
                object["enum"] = strings(choices)
            }
            if let pattern = node.pattern {
                object["pattern"] = string(pattern)
            }
            if !node.unsupportedGuides.isEmpty {
                object["x-unsupported-guides"] = strings(node.unsupportedGuides)
            }
        case .integer(let bounds):
            object["type"] = string("integer")
            writeBounds(bounds, into: &object)
        case .number(let bounds):
            object["type"] = string("number")
            writeBounds(bounds, into: &object)
        case .boolean:
            object["type"] = string("boolean")
        case .array(let node):
            object["type"] = string("array")
            object["items"] = content(for: node.items)
            if let minimum = node.minimumCount {
                object["minItems"] = number(Double(minimum))
            }
            if let maximum = node.maximumCount {
                object["maxItems"] = number(Double(maximum))
            }
        case .anyOf(let choices):
            object["anyOf"] = GeneratedContent(kind: .array(choices.map { content(for: $0) }))
        case .reference(let name):
            object["$ref"] = string(definitionsPrefix + name)
        case .null:
            object["type"] = string("null")
        case .any:
            break
        }
    }

    private static func writeBounds(_ bounds: NumberNode, into object: inout OrderedJSONObject) {
        if let minimum = bounds.minimum {
            object["minimum"] = number(minimum)
        }
        if let maximum = bounds.maximum {
            object["maximum"] = number(maximum)
        }
    }

    private static func string(_ value: String) -> GeneratedContent {
        GeneratedContent(kind: .string(value))
    }

    private static func strings(_ values: [String]) -> GeneratedContent {
        GeneratedContent(kind: .array(values.map(string)))
    }

    private static func number(_ value: Double) -> GeneratedContent {
        GeneratedContent(kind: .number(value))
    }
}

/// Builds a structure ``GeneratedContent`` whose keys keep insertion order.
struct OrderedJSONObject {
    private var values: [String: GeneratedContent] = [:]
    private var keys: [String] = []

    subscript(key: String) -> GeneratedContent? {
        get { values[key] }
        set {
            guard let newValue else {
                values[key] = nil
                keys.removeAll { $0 == key }
                return
            }
            if values.updateValue(newValue, forKey: key) == nil {
                keys.append(key)
            }
        }
    }

    var content: GeneratedContent {
        GeneratedContent(kind: .structure(properties: values, orderedKeys: keys))
    }
}
