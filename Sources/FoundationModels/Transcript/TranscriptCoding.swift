import Foundation

// Transcript's Codable form, in the shape Apple's framework writes:
//
//   {"version": 1, "type": "FoundationModels.Transcript",
//    "transcript": {"entries": [ENTRY, …]}}
//
// ENTRY by role (every entry has "id", "role" and "contents"):
//   instructions  "tools": [TOOL, …]
//   user          "options": {GenerationOptions}, "responseFormat"?:
//                 {"type": "jsonSchema", "jsonSchema": {"name", "schema"}},
//                 "contextOptions"?, "metadata"?
//   response      "assets": [String], "metadata"?; a response entry with a
//                 non-empty "toolCalls": [{"id", "name", "arguments": "<JSON
//                 text>", "metadata"?}] is a tool-calls entry
//   tool          "toolName", "toolCallID"
//   reasoning     "signature"? (base64), "metadata"?
//   data          (DataAttachments trait, Apple 27.2) "contentType": UTI,
//                 "data": base64, "metadata": "<JSON text>"; "contents" is []
// CONTENT: {"type": "text", "id", "text"}
//          {"type": "structure", "id", "source", "content": "<JSON text>"}
//          {"type": "image", "id", "image": "<URL>", "label"?}
//          {"type": "data", "id", "contentType", "data", "metadata", "label"?}
// TOOL:    {"type": "function", "function": {"name", "description",
//           "parameters": JSON Schema}}
//
// Apple documents the envelope, the roles, "contents", "tools", "options",
// "responseFormat", "toolCalls" (with arguments as JSON text), "assets",
// "toolName" and "toolCallID". The inner shape of structured contents,
// images, tool definitions, reasoning and metadata is not published; the
// forms above are ours and are read back exactly. Decoding accepts the
// version as the number 1 or a "1.x" string (newer systems write "1.1").
// Errors are `DecodingError`s whose coding path names the offending key.

extension Transcript: Codable {
    private enum EnvelopeKeys: String, CodingKey {
        case version, type, transcript
    }

    private enum BodyKeys: String, CodingKey {
        case entries
    }

    private static let typeName = "FoundationModels.Transcript"

    public init(from decoder: any Decoder) throws {
        let envelope = try decoder.container(keyedBy: EnvelopeKeys.self)
        let type = try envelope.decode(String.self, forKey: .type)
        guard type == Self.typeName else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: envelope,
                debugDescription: "Expected \"\(Self.typeName)\", found \"\(type)\"."
            )
        }
        try Self.checkVersion(in: envelope)
        let body = try envelope.nestedContainer(keyedBy: BodyKeys.self, forKey: .transcript)
        let coded = try body.decode([EntryCoding].self, forKey: .entries)
        self.init(entries: coded.map(\.entry))
    }

    public func encode(to encoder: any Encoder) throws {
        var envelope = encoder.container(keyedBy: EnvelopeKeys.self)
        try envelope.encode(1, forKey: .version)
        try envelope.encode(Self.typeName, forKey: .type)
        var body = envelope.nestedContainer(keyedBy: BodyKeys.self, forKey: .transcript)
        try body.encode(entries.map(EntryCoding.init), forKey: .entries)
    }

    private static func checkVersion(in envelope: KeyedDecodingContainer<EnvelopeKeys>) throws {
        if let number = try? envelope.decode(Int.self, forKey: .version) {
            guard number == 1 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .version, in: envelope,
                    debugDescription: "Unsupported transcript version \(number); this library reads version 1."
                )
            }
            return
        }
        let text = try envelope.decode(String.self, forKey: .version)
        guard text == "1" || text.hasPrefix("1.") else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: envelope,
                debugDescription: "Unsupported transcript version \"\(text)\"; this library reads version 1."
            )
        }
    }
}
