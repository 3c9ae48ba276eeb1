extension GenerationSchema: Codable {
    /// Decodes the JSON Schema form (see ``JSONSchemaReader``); unsupported
    /// keywords throw `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let document = try JSONValueCoding.decode(from: decoder)
        self = try JSONSchemaReader.schema(from: document)
    }

    /// Encodes the schema as JSON Schema (see ``JSONSchemaWriter``).
    public func encode(to encoder: any Encoder) throws {
        try JSONValueCoding.encode(jsonSchema, to: encoder)
    }

    /// The schema's JSON Schema form as a JSON tree (print it with
    /// ``GeneratedContent/jsonString``).
    package var jsonSchema: GeneratedContent {
        JSONSchemaWriter.document(for: self)
    }

    /// Reads a schema from its JSON Schema form.
    package init(jsonSchema: GeneratedContent) throws {
        self = try JSONSchemaReader.schema(from: jsonSchema)
    }
}

extension GenerationSchema: CustomDebugStringConvertible {
    /// The schema as indented JSON Schema.
    public var debugDescription: String {
        jsonSchema.prettyJSONString
    }
}
