import Foundation

#if canImport(UniformTypeIdentifiers)
import UniformTypeIdentifiers
#endif

/// Non-text content for a prompt or instructions: an image, or data a model
/// declared it reads (``LanguageModel/supportsDataAttachmentType(_:)``).
///
/// ```swift
/// let photo = Attachment(imageURL: receiptURL).label("receipt")
/// try await session.respond { "What is the total on this receipt?"; photo }
/// ```
///
/// Apple's platforms also create image attachments from `CGImage`,
/// `CIImage` and `CVPixelBuffer`; here images are referenced by file URL
/// and a model that supports vision reads the file itself.
public struct Attachment<Content> {
    /// The attachment as it goes into the transcript.
    package var segment: Transcript.AttachmentSegment

    /// The attachment with a label the prompt and the model can refer to
    /// (see ``ImageReference``).
    public func label(_ label: String) -> Attachment<Content> {
        var copy = self
        copy.segment.label = label
        return copy
    }
}

/// The content of an image attachment.
public struct ImageAttachmentContent: Sendable, Equatable {}

extension Attachment where Content == ImageAttachmentContent {
    /// An image attachment for the image file at `imageURL`.
    public init(imageURL: URL) {
        self.segment = Transcript.AttachmentSegment(content: .image(Transcript.ImageAttachment(imageURL: imageURL)))
    }
}

// Unconditional (Apple's beta 1 declared these for images only, before data
// attachments existed): an attachment of any content goes into a prompt or
// instructions as its attachment segment.
extension Attachment: PromptRepresentable {
    public var promptRepresentation: Prompt {
        return Prompt(segments: [.attachment(segment)])
    }
}

extension Attachment: InstructionsRepresentable {
    public var instructionsRepresentation: Instructions {
        return Instructions(segments: [.attachment(segment)])
    }
}

// MARK: - Data attachments (Apple 27.2)
//
// Under the `DataAttachments` package trait: they add a case to
// `Transcript.Attachment`, which would break the exhaustive switches apps
// write against the shipped SDK.
#if DataAttachments

/// A type whose values travel as data attachments: serialized to a
/// ``Transcript/DataAttachment`` (bytes and a content type) so a transcript
/// stays readable where the type is not known, and read back from one.
public protocol DataAttachmentRepresentable: Sendable {
    /// This value as a transcript attachment.
    var transcriptRepresentation: Transcript.DataAttachment { get }
    /// Rehydrates a value from its transcript representation.
    init(_ attachment: Transcript.DataAttachment) throws
}

extension Attachment where Content: DataAttachmentRepresentable {
    /// An attachment carrying `content`.
    public init(_ content: Content) {
        self.segment = Transcript.AttachmentSegment(content: .data(content.transcriptRepresentation))
    }
}

extension Transcript {
    /// Bytes attached to an entry, identified by a content type: what a
    /// ``DataAttachmentRepresentable`` value is serialized to.
    public struct DataAttachment: Sendable, Equatable {
        /// How to interpret ``content``.
        public var contentType: UTType
        /// The bytes.
        public var content: Data
        /// Information about the attachment, for the model that reads it.
        public var metadata: GeneratedContent

        public init(contentType: UTType, content: Data, metadata: GeneratedContent = GeneratedContent(properties: [:])) {
            self.contentType = contentType
            self.content = content
            self.metadata = metadata
        }
    }
}

// `LanguageModel.supportsDataAttachmentType(_:)` is a requirement of the
// protocol (LanguageModel.swift), defaulted beside data entries'
// (TranscriptDataEntry.swift).

#endif

#if DataAttachments && !canImport(UniformTypeIdentifiers)
/// A uniform type identifier, for content types of data attachments.
///
/// Apple's platforms provide this type in the UniformTypeIdentifiers
/// framework, which does not exist here; this stand-in keeps the identifier
/// (`public.json`) and the common constants, so code that names data
/// attachment types compiles unchanged.
public struct UTType: Sendable, Hashable, CustomStringConvertible {
    /// The type's identifier, such as `public.json`.
    public let identifier: String

    /// A type with the given identifier; `nil` for an empty identifier.
    public init?(_ identifier: String) {
        guard !identifier.isEmpty else { return nil }
        self.identifier = identifier
    }

    private init(known identifier: String) {
        self.identifier = identifier
    }

    public static let data = UTType(known: "public.data")
    public static let text = UTType(known: "public.text")
    public static let plainText = UTType(known: "public.plain-text")
    public static let json = UTType(known: "public.json")
    public static let image = UTType(known: "public.image")
    public static let png = UTType(known: "public.png")
    public static let jpeg = UTType(known: "public.jpeg")
    public static let pdf = UTType(known: "com.adobe.pdf")
    public static let audio = UTType(known: "public.audio")

    public var description: String { identifier }
}
#endif
