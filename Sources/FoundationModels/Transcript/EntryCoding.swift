import Foundation

#if canImport(UniformTypeIdentifiers)
import UniformTypeIdentifiers
#endif

extension Transcript {
    /// One entry in its JSON form (see TranscriptCoding.swift for the shape).
    ///
    /// A wrapper rather than a conformance on `Entry`, because Apple's entry
    /// type is not itself `Codable`; the feedback attachment reuses it.
    package struct EntryCoding: Codable {
        package var entry: Entry

        package init(_ entry: Entry) {
            self.entry = entry
        }

        private enum Keys: String, CodingKey {
            case id, role, contents, tools, options, responseFormat, contextOptions
            case metadata, assets, toolCalls, toolName, toolCallID, signature
            case contentType, data
        }

        private enum Role: String {
            case instructions, user, response, tool, reasoning
            #if DataAttachments
            case data
            #endif
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            let roleName = try container.decode(String.self, forKey: .role)
            guard let role = Role(rawValue: roleName) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .role, in: container,
                    debugDescription: "Unknown transcript entry role \"\(roleName)\"; expected \(Self.roleNames)."
                )
            }
            let id = try container.decode(String.self, forKey: .id)
            let segments = try container.decodeIfPresent([SegmentCoding].self, forKey: .contents)?.map(\.segment) ?? []
            switch role {
            case .instructions:
                let tools = try container.decodeIfPresent([ToolDefinitionCoding].self, forKey: .tools)?.map(\.definition) ?? []
                entry = .instructions(Instructions(id: id, segments: segments, toolDefinitions: tools))
            case .user:
                var prompt = Prompt(
                    id: id,
                    segments: segments,
                    options: try container.decodeIfPresent(GenerationOptions.self, forKey: .options) ?? GenerationOptions(),
                    responseFormat: try container.decodeIfPresent(ResponseFormatCoding.self, forKey: .responseFormat)?.format
                )
                prompt.contextOptions = try container.decodeIfPresent(ContextOptionsCoding.self, forKey: .contextOptions)?.options ?? ContextOptions()
                prompt.metadata = try Self.decodeMetadata(from: container)
                entry = .prompt(prompt)
            case .response:
                let calls = try container.decodeIfPresent([ToolCallCoding].self, forKey: .toolCalls) ?? []
                if !calls.isEmpty {
                    entry = .toolCalls(ToolCalls(id: id, calls.map(\.call)))
                } else {
                    var response = Response(
                        id: id,
                        assetIDs: try container.decodeIfPresent([String].self, forKey: .assets) ?? [],
                        segments: segments
                    )
                    response.metadata = try Self.decodeMetadata(from: container)
                    entry = .response(response)
                }
            case .tool:
                let toolName = try container.decode(String.self, forKey: .toolName)
                let callID = try container.decodeIfPresent(String.self, forKey: .toolCallID)
                entry = .toolOutput(ToolOutput(id: callID ?? id, toolName: toolName, segments: segments))
            case .reasoning:
                var reasoning = Reasoning(
                    id: id,
                    segments: segments,
                    signature: try container.decodeIfPresent(Data.self, forKey: .signature)
                )
                reasoning.metadata = try Self.decodeMetadata(from: container)
                entry = .reasoning(reasoning)
            #if DataAttachments
            case .data:
                entry = .data(try Self.decodeDataEntry(id: id, from: container))
            #endif
            }
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(entry.id, forKey: .id)
            switch entry {
            case .instructions(let instructions):
                try container.encode(Role.instructions.rawValue, forKey: .role)
                try container.encode(instructions.segments.map(SegmentCoding.init), forKey: .contents)
                try container.encode(instructions.toolDefinitions.map(ToolDefinitionCoding.init), forKey: .tools)
            case .prompt(let prompt):
                try container.encode(Role.user.rawValue, forKey: .role)
                try container.encode(prompt.segments.map(SegmentCoding.init), forKey: .contents)
                try container.encode(prompt.options, forKey: .options)
                try container.encodeIfPresent(prompt.responseFormat.map(ResponseFormatCoding.init), forKey: .responseFormat)
                try container.encode(ContextOptionsCoding(prompt.contextOptions), forKey: .contextOptions)
                try Self.encodeMetadata(prompt.metadata, into: &container)
            case .toolCalls(let calls):
                try container.encode(Role.response.rawValue, forKey: .role)
                try container.encode([SegmentCoding](), forKey: .contents)
                try container.encode(calls.map(ToolCallCoding.init), forKey: .toolCalls)
            case .toolOutput(let output):
                try container.encode(Role.tool.rawValue, forKey: .role)
                try container.encode(output.segments.map(SegmentCoding.init), forKey: .contents)
                try container.encode(output.toolName, forKey: .toolName)
                try container.encode(output.id, forKey: .toolCallID)
            case .response(let response):
                try container.encode(Role.response.rawValue, forKey: .role)
                try container.encode(response.segments.map(SegmentCoding.init), forKey: .contents)
                try container.encode(response.assetIDs, forKey: .assets)
                try Self.encodeMetadata(response.metadata, into: &container)
            case .reasoning(let reasoning):
                try container.encode(Role.reasoning.rawValue, forKey: .role)
                try container.encode(reasoning.segments.map(SegmentCoding.init), forKey: .contents)
                try container.encodeIfPresent(reasoning.signature, forKey: .signature)
                try Self.encodeMetadata(reasoning.metadata, into: &container)
            #if DataAttachments
            case .data(let data):
                try container.encode(Role.data.rawValue, forKey: .role)
                try container.encode([SegmentCoding](), forKey: .contents)
                try container.encode(data.contentType.identifier, forKey: .contentType)
                try container.encode(data.content, forKey: .data)
                try container.encode(data.metadata.jsonString, forKey: .metadata)
            #endif
            }
        }

        #if DataAttachments
        private static let roleNames = "instructions, user, response, tool, reasoning or data"

        /// A data entry: its content type, bytes (base64) and metadata (JSON
        /// text, as a data attachment's).
        private static func decodeDataEntry(id: String, from container: KeyedDecodingContainer<Keys>) throws -> DataEntry {
            let identifier = try container.decode(String.self, forKey: .contentType)
            guard let contentType = UTType(identifier) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .contentType, in: container, debugDescription: "\"\(identifier)\" is not a content type identifier."
                )
            }
            return DataEntry(
                id: id,
                contentType: contentType,
                content: try container.decode(Data.self, forKey: .data),
                metadata: container.contains(.metadata)
                    ? try JSONText.decodeContent(from: container, forKey: .metadata)
                    : GeneratedContent(properties: [:])
            )
        }
        #else
        private static let roleNames = "instructions, user, response, tool or reasoning"
        #endif

        private static func decodeMetadata(from container: KeyedDecodingContainer<Keys>) throws -> [String: GeneratedContent] {
            try container.decodeIfPresent(MetadataCoding.self, forKey: .metadata)?.values ?? [:]
        }

        private static func encodeMetadata(_ metadata: [String: GeneratedContent], into container: inout KeyedEncodingContainer<Keys>) throws {
            if !metadata.isEmpty {
                try container.encode(MetadataCoding(metadata), forKey: .metadata)
            }
        }
    }
}
