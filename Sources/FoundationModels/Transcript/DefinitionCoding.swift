import Foundation

extension Transcript {
    /// A tool definition in its JSON form:
    /// `{"type": "function", "function": {"name", "description", "parameters"}}`.
    /// The flat form `{"name", "description", "parameters"}` is read too.
    struct ToolDefinitionCoding: Codable {
        var definition: ToolDefinition

        init(_ definition: ToolDefinition) {
            self.definition = definition
        }

        private enum OuterKeys: String, CodingKey {
            case type, function
        }

        private enum Keys: String, CodingKey {
            case name, description, parameters
        }

        init(from decoder: any Decoder) throws {
            let outer = try decoder.container(keyedBy: OuterKeys.self)
            let container =
                outer.contains(.function)
                ? try outer.nestedContainer(keyedBy: Keys.self, forKey: .function)
                : try decoder.container(keyedBy: Keys.self)
            definition = ToolDefinition(
                name: try container.decode(String.self, forKey: .name),
                description: try container.decodeIfPresent(String.self, forKey: .description) ?? "",
                parameters: try container.decodeSchema(forKey: .parameters)
            )
        }

        func encode(to encoder: any Encoder) throws {
            var outer = encoder.container(keyedBy: OuterKeys.self)
            try outer.encode("function", forKey: .type)
            var container = outer.nestedContainer(keyedBy: Keys.self, forKey: .function)
            try container.encode(definition.name, forKey: .name)
            try container.encode(definition.description, forKey: .description)
            try container.encode(definition.parameters, forKey: .parameters)
        }
    }

    /// A response format in its JSON form:
    /// `{"type": "jsonSchema", "jsonSchema": {"name", "schema"}}`.
    struct ResponseFormatCoding: Codable {
        var format: ResponseFormat

        init(_ format: ResponseFormat) {
            self.format = format
        }

        private enum OuterKeys: String, CodingKey {
            case type, jsonSchema
        }

        private enum Keys: String, CodingKey {
            case name, schema
        }

        init(from decoder: any Decoder) throws {
            let outer = try decoder.container(keyedBy: OuterKeys.self)
            let type = try outer.decode(String.self, forKey: .type)
            guard type == "jsonSchema" else {
                throw DecodingError.dataCorruptedError(
                    forKey: .type, in: outer,
                    debugDescription: "Unknown response format type \"\(type)\"; expected jsonSchema."
                )
            }
            let container = try outer.nestedContainer(keyedBy: Keys.self, forKey: .jsonSchema)
            let schema = try container.decodeSchema(forKey: .schema)
            let name = try container.decodeIfPresent(String.self, forKey: .name) ?? schema.name
            format = ResponseFormat(name: name, schema: schema)
        }

        func encode(to encoder: any Encoder) throws {
            var outer = encoder.container(keyedBy: OuterKeys.self)
            try outer.encode("jsonSchema", forKey: .type)
            var container = outer.nestedContainer(keyedBy: Keys.self, forKey: .jsonSchema)
            try container.encode(format.name, forKey: .name)
            try container.encode(format.schema, forKey: .schema)
        }
    }

    /// A tool call in its JSON form: `{"id", "name", "arguments": "<JSON text>", "metadata"?}`.
    struct ToolCallCoding: Codable {
        var call: ToolCall

        init(_ call: ToolCall) {
            self.call = call
        }

        private enum Keys: String, CodingKey {
            case id, name, arguments, metadata
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            call = ToolCall(
                id: try container.decode(String.self, forKey: .id),
                toolName: try container.decode(String.self, forKey: .name),
                arguments: try JSONText.decodeContent(from: container, forKey: .arguments)
            )
            call.metadata = try container.decodeIfPresent(MetadataCoding.self, forKey: .metadata)?.values ?? [:]
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(call.id, forKey: .id)
            try container.encode(call.toolName, forKey: .name)
            try container.encode(call.arguments.jsonString, forKey: .arguments)
            if !call.metadata.isEmpty {
                try container.encode(MetadataCoding(call.metadata), forKey: .metadata)
            }
        }
    }

    /// Context options in their JSON form: `{}` for the defaults, else
    /// `{"includeSchemaInPrompt": false, "reasoningLevel": "high"}` as needed.
    struct ContextOptionsCoding: Codable {
        var options: ContextOptions

        init(_ options: ContextOptions) {
            self.options = options
        }

        private enum Keys: String, CodingKey {
            case includeSchemaInPrompt, reasoningLevel
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            options = ContextOptions(
                includeSchemaInPrompt: try container.decodeIfPresent(Bool.self, forKey: .includeSchemaInPrompt),
                reasoningLevel: try container.decodeIfPresent(String.self, forKey: .reasoningLevel).map(ContextOptions.ReasoningLevel.init(name:))
            )
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encodeIfPresent(options.includeSchemaInPrompt, forKey: .includeSchemaInPrompt)
            try container.encodeIfPresent(options.reasoningLevel?.name, forKey: .reasoningLevel)
        }
    }
}
