import Foundation

#if canImport(UniformTypeIdentifiers)
import UniformTypeIdentifiers
#endif

// Data-entry events (Apple 27.2), under the `DataAttachments` trait with the
// transcript's data entries: an executor writes a top-level
// `Transcript.DataEntry` (bytes and a content type) into the transcript,
// for a payload of its own that no message owns.
#if DataAttachments

extension LanguageModelExecutorGenerationChannel.Event {
    /// A data-entry event. `entryID` names the entry to upsert; `nil` lets
    /// the session give the entry a fresh id. The session checks the content
    /// type against ``LanguageModel/supportsDataEntryType(_:)`` before the
    /// entry is appended and fails the request with
    /// `LanguageModelError.unsupportedTranscriptContent` otherwise.
    public static func data(entryID: String? = nil, action: LanguageModelExecutorGenerationChannel.DataEntry.Action)
        -> LanguageModelExecutorGenerationChannel.Event
    {
        LanguageModelExecutorGenerationChannel.Event(kind: .data(LanguageModelExecutorGenerationChannel.DataEntry(entryID: entryID, action: action)))
    }
}

extension LanguageModelExecutorGenerationChannel {
    /// A top-level data-entry event addressed to a transcript entry. Its one
    /// action, ``Action/update(contentType:content:metadata:)``, replaces the
    /// entry with the same id in this turn or appends a new one.
    public struct DataEntry: Sendable {
        /// An operation on a data entry, built with a leading-dot factory.
        public struct Action: Sendable {
            package enum Storage: Sendable {
                case update(Update)
            }

            package var storage: Storage

            /// Upserts the entry with these fields.
            public static func update(
                contentType: UTType,
                content: Data,
                metadata: GeneratedContent = GeneratedContent(properties: [:])
            ) -> LanguageModelExecutorGenerationChannel.DataEntry.Action {
                Action(storage: .update(Update(contentType: contentType, content: content, metadata: metadata)))
            }
        }

        /// What an ``Action/update(contentType:content:metadata:)`` action carries.
        public struct Update: Sendable {
            /// How to interpret ``content``.
            public var contentType: UTType
            /// The bytes of the entry.
            public var content: Data
            /// Metadata pertinent to the entry.
            public var metadata: GeneratedContent
        }

        /// The entry the event targets; `nil` for a new one.
        public var entryID: String?
        /// The action to perform.
        public var action: LanguageModelExecutorGenerationChannel.DataEntry.Action
    }
}

#endif
