import Foundation

#if canImport(UniformTypeIdentifiers)
import UniformTypeIdentifiers
#endif

// MARK: - Data entries (Apple 27.2)
//
// Under the `DataAttachments` package trait, with data attachments: they add
// `Transcript.Entry.data`, which would break the exhaustive switches apps
// write against the shipped SDK.
#if DataAttachments

/// A type that a model can produce and represent as a top-level transcript
/// entry: serialized to a ``Transcript/DataEntry`` (bytes and a content
/// type), so a transcript stays readable where the type is not known.
///
/// `transcriptRepresentation` does not throw and `init(_:)` does: the bytes
/// may come from a stored transcript or the network, which the conformer
/// does not control (Apple's documentation gives the same asymmetry).
public protocol DataEntryRepresentable: Sendable {
    /// How this value appears when recorded in a session transcript.
    var transcriptRepresentation: Transcript.DataEntry { get }
    /// Rehydrates a value from its transcript representation.
    init(_ entry: Transcript.DataEntry) throws
}

extension Transcript {
    /// A top-level transcript entry in a serialized, portable form: the bytes
    /// of a value a model opted into with
    /// ``LanguageModel/supportsDataEntryType(_:)``, and their content type.
    ///
    /// It is encoded with the transcript (`"role": "data"`, the bytes in
    /// base64), so a transcript that holds one decodes where the type that
    /// produced it is not installed.
    public struct DataEntry: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        /// How to interpret ``content``.
        public var contentType: UTType
        /// The bytes.
        public var content: Data
        /// Information about the entry, for whoever reads it.
        public var metadata: GeneratedContent

        /// Creates a data entry with the content type, content and metadata you provide.
        public init(
            id: String = UUID().uuidString,
            contentType: UTType,
            content: Data,
            metadata: GeneratedContent = GeneratedContent(properties: [:])
        ) {
            self.id = id
            self.contentType = contentType
            self.content = content
            self.metadata = metadata
        }

        public var description: String {
            "\(contentType.identifier) data (\(content.count) bytes)"
        }
    }
}

extension LanguageModel {
    /// No data attachments by default: sessions refuse requests whose
    /// transcript holds one, before the executor is called.
    public nonisolated(nonsending) func supportsDataAttachmentType(_ type: UTType) async throws -> Bool { false }

    /// No data entries by default: sessions refuse requests whose transcript
    /// holds one, and data entries an executor sends, with
    /// `LanguageModelError.unsupportedTranscriptContent`.
    public nonisolated(nonsending) func supportsDataEntryType(_ type: UTType) async throws -> Bool { false }
}

/// Content types that read as text, so a model that takes text can be
/// given them as they are (JSON, Markdown, CSV, source code…).
package enum TextualContentType {
    /// The identifiers taken as text where `UTType` cannot say what a type
    /// conforms to (the stand-in of Linux knows identifiers only).
    static let identifiers: Set<String> = [
        "public.text", "public.plain-text", "public.utf8-plain-text", "public.utf16-plain-text",
        "public.json", "public.xml", "public.html", "public.yaml", "public.source-code",
        "public.comma-separated-values-text", "public.tab-separated-values-text",
        "net.daringfireball.markdown",
    ]

    /// Whether bytes of `type` are text a model can read as they are.
    package static func isTextual(_ type: UTType) -> Bool {
        #if canImport(UniformTypeIdentifiers)
        return type.conforms(to: .text) || type.conforms(to: .json) || identifiers.contains(type.identifier)
        #else
        return identifiers.contains(type.identifier)
        #endif
    }
}

#endif
