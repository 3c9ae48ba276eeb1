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
/// `maxItems`, `uniqueItems`, `minProperties` (1: an object that must have
/// a property), `anyOf`, and `x-unsupported-guides` for guides that cannot
/// be enforced.
///
/// A named string choice (`DynamicGenerationSchema(name:anyOf: [String])`)
/// is written inline where it is used (`{"type":"string","enum":[…]}`), as
/// Apple's framework writes it, rather than as a `$ref` into `$defs`: it
/// cannot refer to anything, so inlining loses nothing.
struct JSONSchemaWriter {
    static let definitionsPrefix = "#/$defs/"

    /// Definitions written inline at each reference instead of in `$defs`.
    private var inlined: [String: SchemaDefinition] = [:]

    static func document(for schema: GenerationSchema) -> GeneratedContent {
        var writer = JSONSchemaWriter()
        for definition in schema.definitions {
            if case .string = definition.node { writer.inlined[definition.name] = definition }
        }
        var object = OrderedJSONObject()
        object["title"] = .init(kind: .string(schema.name))
        if let description = schema.typeDescription {
            object["description"] = .init(kind: .string(description))
        }
        writer.write(schema.root, into: &object)
        let kept = schema.definitions.filter { writer.inlined[$0.name] == nil }
        if !kept.isEmpty {
            var definitions = OrderedJSONObject()
            for definition in kept {
                var entry = OrderedJSONObject()
                if let description = definition.description {
                    entry["description"] = .init(kind: .string(description))
                }
                writer.write(definition.node, into: &entry)
                definitions[definition.name] = entry.content
            }
            object["$defs"] = definitions.content
        }
        return object.content
    }

    static func content(for node: SchemaNode, description: String? = nil) -> GeneratedContent {
        JSONSchemaWriter().content(for: node, description: description)
    }

    private func content(for node: SchemaNode, description: String? = nil) -> GeneratedContent {
        var object = OrderedJSONObject()
        if let description {
            object["description"] = .init(kind: .string(description))
        }
        write(node, into: &object)
        return object.content
    }

    private func write(_ node: SchemaNode, into object: inout OrderedJSONObject) {
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
            if !node.patternProperties.isEmpty {
                var patterns = OrderedJSONObject()
                for property in node.patternProperties {
                    patterns[property.pattern] = content(for: property.node)
                }
                object["patternProperties"] = patterns.content
            }
            if let names = node.propertyNames {
                object["propertyNames"] = content(for: .string(names))
            }
            object["additionalProperties"] = node.additionalProperties.map { content(for: $0) } ?? GeneratedContent(kind: .bool(false))
            if node.requiresAProperty {
                object["minProperties"] = number(1)
            }
            object["x-order"] = strings(node.properties.map(\.name))
        case .string(let node):
            object["type"] = string("string")
            if let constant = node.constant {
                object["const"] = string(constant)
            }
            if let choices = node.choices {
                object["enum"] = strings(choices)
            }
            // JSON Schema searches for a pattern; a guide's pattern matches
            // the whole string, so it is written anchored.
            let patterns = (node.pattern.map { [Self.anchored($0)] } ?? []) + node.searchPatterns
            if let pattern = patterns.first {
                object["pattern"] = string(pattern)
            }
            if patterns.count > 1 {
                object["allOf"] = GeneratedContent(
                    kind: .array(
                        patterns.dropFirst().map { pattern in
                            var entry = OrderedJSONObject()
                            entry["pattern"] = string(pattern)
                            return entry.content
                        }))
            }
            if let format = node.format {
                object["format"] = string(format)
            }
            if let minimum = node.minimumLength {
                object["minLength"] = number(Double(minimum))
            }
            if let maximum = node.maximumLength {
                object["maxLength"] = number(Double(maximum))
            }
            // Exclusions: one `not` of the values and patterns it must avoid.
            var excluded: [GeneratedContent] = []
            if !node.excludedValues.isEmpty {
                var entry = OrderedJSONObject()
                entry["enum"] = strings(node.excludedValues)
                excluded.append(entry.content)
            }
            for pattern in node.excludedPatterns {
                var entry = OrderedJSONObject()
                entry["pattern"] = string(pattern)
                excluded.append(entry.content)
            }
            if excluded.count == 1 {
                object["not"] = excluded[0]
            } else if excluded.count > 1 {
                var entry = OrderedJSONObject()
                entry["anyOf"] = GeneratedContent(kind: .array(excluded))
                object["not"] = entry.content
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
            if !node.prefixItems.isEmpty {
                object["prefixItems"] = GeneratedContent(kind: .array(node.prefixItems.map { content(for: $0) }))
            }
            object["items"] = content(for: node.items)
            if let minimum = node.minimumCount {
                object["minItems"] = number(Double(minimum))
            }
            if let maximum = node.maximumCount {
                object["maxItems"] = number(Double(maximum))
            }
            if node.uniqueItems {
                object["uniqueItems"] = GeneratedContent(kind: .bool(true))
            }
        case .anyOf(let choices):
            object["anyOf"] = GeneratedContent(kind: .array(choices.map { content(for: $0) }))
        case .reference(let name):
            if let inline = inlined[name] {
                if object["description"] == nil, let description = inline.description {
                    object["description"] = string(description)
                }
                write(inline.node, into: &object)
            } else {
                object["$ref"] = string(Self.definitionsPrefix + name)
            }
        case .null:
            object["type"] = string("null")
        case .any:
            break
        case .literal(let text):
            object["const"] = (try? GeneratedContent(json: text)) ?? string(text)
        }
    }

    /// `pattern` as a whole-string match in JSON Schema's search semantics.
    static func anchored(_ pattern: String) -> String {
        "^(?:\(pattern))$"
    }

    private func writeBounds(_ bounds: NumberNode, into object: inout OrderedJSONObject) {
        if let minimum = bounds.minimum {
            object[bounds.excludesMinimum ? "exclusiveMinimum" : "minimum"] = number(minimum)
        }
        if let maximum = bounds.maximum {
            object[bounds.excludesMaximum ? "exclusiveMaximum" : "maximum"] = number(maximum)
        }
    }

    private func string(_ value: String) -> GeneratedContent {
        GeneratedContent(kind: .string(value))
    }

    private func strings(_ values: [String]) -> GeneratedContent {
        GeneratedContent(kind: .array(values.map(string)))
    }

    private func number(_ value: Double) -> GeneratedContent {
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
