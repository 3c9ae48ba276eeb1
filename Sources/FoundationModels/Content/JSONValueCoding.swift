/// Moves arbitrary JSON, held as ``GeneratedContent``, through `Encoder`s
/// and `Decoder`s.
///
/// Exists so types whose Codable form is free-form JSON (a schema's JSON
/// Schema, generated content inside a transcript) can use any coder, not
/// just `JSONEncoder`. Integral numbers are encoded as integers so they print
/// as `5`, not `5.0`.
package enum JSONValueCoding {
    package static func encode(_ content: GeneratedContent, to encoder: any Encoder) throws {
        switch content.kind {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value):
            var container = encoder.singleValueContainer()
            if value == value.rounded(), let integer = Int64(exactly: value) {
                try container.encode(integer)
            } else {
                try container.encode(value)
            }
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements {
                try container.encode(Box(content: element))
            }
        case .structure(let properties, let orderedKeys):
            var container = encoder.container(keyedBy: ContentCodingKey.self)
            for key in JSONPrinter.printableKeys(properties, orderedKeys) {
                if let value = properties[key] {
                    try container.encode(Box(content: value), forKey: ContentCodingKey(stringValue: key))
                }
            }
        }
    }

    package static func decode(from decoder: any Decoder) throws -> GeneratedContent {
        if let container = try? decoder.container(keyedBy: ContentCodingKey.self) {
            var properties: [String: GeneratedContent] = [:]
            var keys: [String] = []
            for key in container.allKeys {
                properties[key.stringValue] = try container.decode(Box.self, forKey: key).content
                keys.append(key.stringValue)
            }
            return GeneratedContent(kind: .structure(properties: properties, orderedKeys: keys))
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [GeneratedContent] = []
            while !container.isAtEnd {
                elements.append(try container.decode(Box.self).content)
            }
            return GeneratedContent(kind: .array(elements))
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            return GeneratedContent(kind: .null)
        }
        if let value = try? container.decode(Bool.self) {
            return GeneratedContent(kind: .bool(value))
        }
        if let value = try? container.decode(Int64.self) {
            return GeneratedContent(kind: .number(Double(value)), id: nil, isComplete: true, numberText: String(value))
        }
        if let value = try? container.decode(Double.self) {
            return GeneratedContent(kind: .number(value))
        }
        if let value = try? container.decode(String.self) {
            return GeneratedContent(kind: .string(value))
        }
        throw DecodingError.dataCorrupted(
            .init(
                codingPath: decoder.codingPath,
                debugDescription: "Expected a JSON value (null, boolean, number, string, array or object)."
            ))
    }

    private struct Box: Codable {
        var content: GeneratedContent

        init(content: GeneratedContent) {
            self.content = content
        }

        init(from decoder: any Decoder) throws {
            content = try JSONValueCoding.decode(from: decoder)
        }

        func encode(to encoder: any Encoder) throws {
            try JSONValueCoding.encode(content, to: encoder)
        }
    }
}
