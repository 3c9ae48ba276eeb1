import Foundation

#if canImport(UniformTypeIdentifiers)
import UniformTypeIdentifiers
#endif

extension Transcript {
    /// One segment in its JSON form: `{"type": "text" | "structure" | "image", "id", …}`.
    struct SegmentCoding: Codable {
        var segment: Segment

        init(_ segment: Segment) {
            self.segment = segment
        }

        private enum Keys: String, CodingKey {
            case type, id, text, source, content, image, label, contentType, data, metadata
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            let type = try container.decode(String.self, forKey: .type)
            let id = try container.decode(String.self, forKey: .id)
            switch type {
            case "text":
                segment = .text(TextSegment(id: id, content: try container.decode(String.self, forKey: .text)))
            case "structure":
                let source = try container.decodeIfPresent(String.self, forKey: .source) ?? ""
                let content = try JSONText.decodeContent(from: container, forKey: .content)
                segment = .structure(StructuredSegment(id: id, source: source, content: content))
            case "image":
                let address = try container.decode(String.self, forKey: .image)
                guard let url = URL(string: address) else {
                    throw DecodingError.dataCorruptedError(forKey: .image, in: container, debugDescription: "\"\(address)\" is not a URL.")
                }
                let label = try container.decodeIfPresent(String.self, forKey: .label)
                segment = .attachment(AttachmentSegment(id: id, content: .image(ImageAttachment(imageURL: url)), label: label))
            #if DataAttachments
            case "data":
                let identifier = try container.decode(String.self, forKey: .contentType)
                guard let contentType = UTType(identifier) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .contentType, in: container, debugDescription: "\"\(identifier)\" is not a content type identifier.")
                }
                let attachment = DataAttachment(
                    contentType: contentType,
                    content: try container.decode(Data.self, forKey: .data),
                    metadata: container.contains(.metadata)
                        ? try JSONText.decodeContent(from: container, forKey: .metadata)
                        : GeneratedContent(properties: [:])
                )
                let label = try container.decodeIfPresent(String.self, forKey: .label)
                segment = .attachment(AttachmentSegment(id: id, content: .data(attachment), label: label))
            #endif
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: .type, in: container,
                    debugDescription: "Unknown content type \"\(type)\"; expected text, structure, image or data."
                )
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(segment.id, forKey: .id)
            switch segment {
            case .text(let text):
                try container.encode("text", forKey: .type)
                try container.encode(text.content, forKey: .text)
            case .structure(let structure):
                try container.encode("structure", forKey: .type)
                try container.encode(structure.source, forKey: .source)
                try container.encode(structure.content.jsonString, forKey: .content)
            case .attachment(let attachment):
                switch attachment.content {
                case .image(let image):
                    try container.encode("image", forKey: .type)
                    try container.encode(image.url?.absoluteString ?? "", forKey: .image)
                #if DataAttachments
                case .data(let data):
                    try container.encode("data", forKey: .type)
                    try container.encode(data.contentType.identifier, forKey: .contentType)
                    try container.encode(data.content, forKey: .data)
                    try container.encode(data.metadata.jsonString, forKey: .metadata)
                #endif
                }
                try container.encodeIfPresent(attachment.label, forKey: .label)
            }
        }
    }

    /// Reading generated content that is stored as JSON text.
    enum JSONText {
        /// Parses the JSON text under `key`, turning a parse failure into a
        /// `DecodingError` that names the key. Inline JSON (an object or
        /// array rather than text) is accepted too, for writers that embed it.
        static func decodeContent<Key: CodingKey>(from container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> GeneratedContent {
            guard let text = try? container.decode(String.self, forKey: key) else {
                return try container.decode(InlineJSON.self, forKey: key).content
            }
            do {
                return try GeneratedContent(json: text)
            } catch {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: container.codingPath + [key],
                        debugDescription: "The value is not valid JSON text: \(error)",
                        underlyingError: error
                    ))
            }
        }

        /// JSON embedded as a value rather than as text.
        private struct InlineJSON: Decodable {
            var content: GeneratedContent

            init(from decoder: any Decoder) throws {
                content = try JSONValueCoding.decode(from: decoder)
            }
        }
    }

    /// Metadata in its JSON form: each value as JSON text, keyed by name.
    struct MetadataCoding: Codable {
        var values: [String: GeneratedContent]

        init(_ values: [String: GeneratedContent]) {
            self.values = values
        }

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            var values: [String: GeneratedContent] = [:]
            for key in container.allKeys {
                values[key.stringValue] = try JSONText.decodeContent(from: container, forKey: key)
            }
            self.values = values
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                try container.encode(value.jsonString, forKey: Key(stringValue: name))
            }
        }
    }
}
