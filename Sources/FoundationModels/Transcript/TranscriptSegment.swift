import Foundation

extension Transcript {
    /// One part of an entry's content: text, structured content, or an
    /// attachment.
    ///
    /// Entries keep their parts separately so structured values (and images)
    /// survive as what they are rather than being flattened into text.
    public enum Segment: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// A segment containing text.
        case text(Transcript.TextSegment)
        /// A segment containing structured content.
        case structure(Transcript.StructuredSegment)
        /// A segment containing an attachment.
        case attachment(Transcript.AttachmentSegment)

        /// The identifier of the wrapped segment.
        public var id: String {
            switch self {
            case .text(let segment): segment.id
            case .structure(let segment): segment.id
            case .attachment(let segment): segment.id
            }
        }

        public var description: String {
            switch self {
            case .text(let segment): segment.description
            case .structure(let segment): segment.description
            case .attachment(let segment): segment.description
            }
        }
    }

    /// A segment of plain text.
    public struct TextSegment: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        /// The text.
        public var content: String

        /// Creates a text segment.
        public init(id: String = UUID().uuidString, content: String) {
            self.id = id
            self.content = content
        }

        public var description: String { content }
    }

    /// A segment of structured content, such as a `@Generable` value.
    public struct StructuredSegment: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        /// Where the content came from, typically the name of its type.
        public var source: String
        /// The structured content.
        public var content: GeneratedContent

        /// The name of the schema the content follows (the newer name of ``source``).
        public var schemaName: String {
            get { source }
            set { source = newValue }
        }

        /// Creates a structured segment.
        public init(id: String = UUID().uuidString, source: String, content: GeneratedContent) {
            self.id = id
            self.source = source
            self.content = content
        }

        /// Creates a structured segment for content that follows a named schema.
        public init(id: String = UUID().uuidString, schemaName: String, content: GeneratedContent) {
            self.init(id: id, source: schemaName, content: content)
        }

        public var description: String { content.jsonString }
    }

    /// A segment holding an attachment, such as an image.
    public struct AttachmentSegment: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        /// The attached file or image.
        public var content: Transcript.Attachment
        /// An optional label that identifies the attachment.
        public var label: String?

        /// Creates an attachment segment.
        public init(id: String = UUID().uuidString, content: Transcript.Attachment, label: String? = nil) {
            self.id = id
            self.content = content
            self.label = label
        }

        public var description: String {
            if let label { "[\(label): \(content.description)]" } else { "[\(content.description)]" }
        }
    }

    /// The kinds of attached content.
    ///
    /// On Linux there is no image library in the framework, so images are
    /// referenced by URL; a model that supports vision loads them itself.
    ///
    /// The cases are those of Apple's shipped SDK, so an app's exhaustive
    /// `switch` compiles unchanged. Apple's 27.2 documentation adds
    /// `.data`; it is here under the `DataAttachments` package trait, which
    /// an app written for that SDK turns on (docs/API_DECISIONS.md).
    public enum Attachment: Sendable, Equatable, CustomStringConvertible {
        /// An attached image.
        case image(Transcript.ImageAttachment)
        #if DataAttachments
        /// Attached data, identified by its content type.
        case data(Transcript.DataAttachment)
        #endif

        public var description: String {
            switch self {
            case .image(let image): image.description
            #if DataAttachments
            case .data(let data): "\(data.contentType.identifier) data (\(data.content.count) bytes)"
            #endif
            }
        }
    }

    /// An image attached to an entry, referenced by the URL of its file.
    public struct ImageAttachment: Sendable, Equatable, CustomStringConvertible {
        /// The URL of the image file.
        public let url: URL?

        /// Creates an image attachment from a file URL pointing to an image.
        public init(imageURL: URL) {
            self.url = imageURL
        }

        package init(url: URL?) {
            self.url = url
        }

        public var description: String {
            "image \(url?.absoluteString ?? "(no URL)")"
        }
    }
}
