import Foundation

// The events an executor sends on its channel. The shapes follow Apple's
// newest documentation (27.x): an `Event` struct built with `.response`,
// `.reasoning` and `.toolCalls`, and "enum-like" action structs built with
// leading-dot factories; metadata values are `GeneratedContent`. The beta 1
// interface had an `Event` protocol and enum actions (docs/API_DECISIONS.md).

extension LanguageModelExecutorGenerationChannel {
    /// One event sent on a channel, addressed to a transcript entry.
    public struct Event: Sendable {
        /// What the event carries, as the session engine reads it (Apple's
        /// `Event` shows nothing of it: package, not public).
        package enum Kind: Sendable {
            case response(Response)
            case reasoning(Reasoning)
            case toolCalls(ToolCalls)
            #if DataAttachments
            /// A data entry to upsert (Apple 27.2; ChannelDataEntries.swift).
            case data(DataEntry)
            #endif
        }

        /// What the event carries.
        package var kind: Kind

        /// A response event. `entryID` `nil` addresses the entry the
        /// previous response event of this turn opened (or opens one); an
        /// explicit id addresses, or opens, the entry with that id.
        public static func response(entryID: String? = nil, action: Response.Action) -> Event {
            Event(kind: .response(Response(entryID: entryID, action: action)))
        }

        /// A reasoning event.
        public static func reasoning(entryID: String? = nil, action: Reasoning.Action) -> Event {
            Event(kind: .reasoning(Reasoning(entryID: entryID, action: action)))
        }

        /// A tool-calls event.
        public static func toolCalls(entryID: String? = nil, action: ToolCalls.Action) -> Event {
            Event(kind: .toolCalls(ToolCalls(entryID: entryID, action: action)))
        }
    }

    // MARK: Payloads

    /// Text appended to a segment of a response or reasoning entry.
    public struct TextFragment: Sendable {
        /// The text to append.
        public var content: String
        /// The segment to append to; `nil` for the entry's current segment.
        public var segmentID: String?
        /// How many tokens the text took.
        public var tokenCount: Int
    }

    /// The whole new text of one segment.
    public struct TextSegmentReplacement: Sendable {
        /// The segment's new text.
        public var content: String
        /// The segment to replace; `nil` for the entry's current segment.
        public var segmentID: String?
        /// How many tokens the text took.
        public var tokenCount: Int
    }

    /// A reasoning entry's signature: an opaque token from the producer,
    /// sent back with the reasoning on later requests. Each update replaces
    /// the one before.
    public struct ReasoningSignature: Sendable {
        /// The opaque token.
        public var signature: Data
        /// How many tokens the signature carries, for usage accounting.
        public var tokenCount: Int
    }

    /// An entry's metadata. Each update replaces the previous values
    /// wholesale; keys left out are removed.
    public struct Metadata: Sendable {
        /// The metadata's key-value pairs.
        public var values: [String: GeneratedContent]
    }

    /// Token counts for the whole turn so far, with metadata such as the
    /// served tier or the cost. A later report replaces an earlier one.
    public struct Usage: Sendable {
        /// Tokens read: the prompt, of which `cachedTokenCount` came from a cache.
        public struct Input: Sendable, Hashable {
            public var totalTokenCount: Int
            public var cachedTokenCount: Int
            public init(totalTokenCount: Int, cachedTokenCount: Int) {
                self.totalTokenCount = totalTokenCount
                self.cachedTokenCount = cachedTokenCount
            }
        }

        /// Tokens written, of which `reasoningTokenCount` were reasoning.
        public struct Output: Sendable, Hashable {
            public var totalTokenCount: Int
            public var reasoningTokenCount: Int
            public init(totalTokenCount: Int, reasoningTokenCount: Int) {
                self.totalTokenCount = totalTokenCount
                self.reasoningTokenCount = reasoningTokenCount
            }
        }

        /// Tokens read.
        public var input: Input
        /// Tokens written.
        public var output: Output
        /// Values reported with the counts, converted to content once, here.
        public var metadata: [String: GeneratedContent]

        /// Creates a usage update.
        public init(input: Input, output: Output, metadata: [String: any ConvertibleToGeneratedContent] = [:]) {
            self.input = input
            self.output = output
            self.metadata = metadata.mapValues(\.generatedContent)
        }
    }

    // MARK: Response

    /// A response event: text, segment replacements, attachments, metadata or usage.
    public struct Response: Sendable {
        /// An operation on a response entry, built with a leading-dot factory.
        public struct Action: Sendable {
            package enum Storage: Sendable {
                case appendText(TextFragment)
                case replaceTextSegment(TextSegmentReplacement)
                case addAttachmentSegment(Transcript.AttachmentSegment)
                case removeAttachmentSegment(id: String)
                case updateMetadata(Metadata)
                case updateUsage(Usage)
            }

            package var storage: Storage

            /// Appends text to the segment `segmentID`, or to the current one.
            public static func appendText(_ text: String, segmentID: String? = nil, tokenCount: Int) -> Action {
                Action(storage: .appendText(TextFragment(content: text, segmentID: segmentID, tokenCount: tokenCount)))
            }

            /// Replaces the whole text of segment `segmentID` (or of the current one).
            public static func replaceTextSegment(_ text: String, segmentID: String? = nil, tokenCount: Int) -> Action {
                Action(storage: .replaceTextSegment(TextSegmentReplacement(content: text, segmentID: segmentID, tokenCount: tokenCount)))
            }

            /// Adds an attachment (an image the model produced or cites) to the response.
            public static func addAttachmentSegment(_ segment: Transcript.AttachmentSegment) -> Action {
                Action(storage: .addAttachmentSegment(segment))
            }

            /// Removes an attachment segment added earlier.
            public static func removeAttachmentSegment(id: String) -> Action {
                Action(storage: .removeAttachmentSegment(id: id))
            }

            /// Replaces the entry's metadata.
            public static func updateMetadata(_ values: [String: any ConvertibleToGeneratedContent]) -> Action {
                Action(storage: .updateMetadata(Metadata(values: values.mapValues(\.generatedContent))))
            }

            /// Replaces the turn's usage report.
            public static func updateUsage(
                input: Usage.Input,
                output: Usage.Output,
                metadata: [String: any ConvertibleToGeneratedContent] = [:]
            ) -> Action {
                Action(storage: .updateUsage(Usage(input: input, output: output, metadata: metadata)))
            }
        }

        /// The entry the event targets, or `nil` for the current one.
        public var entryID: String?
        /// The operation to perform.
        public var action: Action
    }

    // MARK: Reasoning

    /// A reasoning event: reasoning text, its signature, metadata or usage.
    public struct Reasoning: Sendable {
        /// An operation on a reasoning entry, built with a leading-dot factory.
        public struct Action: Sendable {
            package enum Storage: Sendable {
                case appendText(TextFragment)
                case replaceTextSegment(TextSegmentReplacement)
                case updateSignature(ReasoningSignature)
                case updateMetadata(Metadata)
                case updateUsage(Usage)
            }

            package var storage: Storage

            /// Appends reasoning text to the segment `segmentID`, or to the current one.
            public static func appendText(_ text: String, segmentID: String? = nil, tokenCount: Int) -> Action {
                Action(storage: .appendText(TextFragment(content: text, segmentID: segmentID, tokenCount: tokenCount)))
            }

            /// Replaces the whole text of a reasoning segment (a summary, say).
            public static func replaceTextSegment(_ text: String, segmentID: String? = nil, tokenCount: Int) -> Action {
                Action(storage: .replaceTextSegment(TextSegmentReplacement(content: text, segmentID: segmentID, tokenCount: tokenCount)))
            }

            /// Sets the producer's opaque signature of the reasoning, which
            /// the transcript keeps so it can be sent back.
            public static func updateSignature(_ signature: Data, tokenCount: Int) -> Action {
                Action(storage: .updateSignature(ReasoningSignature(signature: signature, tokenCount: tokenCount)))
            }

            /// Replaces the entry's metadata.
            public static func updateMetadata(_ values: [String: any ConvertibleToGeneratedContent]) -> Action {
                Action(storage: .updateMetadata(Metadata(values: values.mapValues(\.generatedContent))))
            }

            /// Replaces the turn's usage report.
            public static func updateUsage(
                input: Usage.Input,
                output: Usage.Output,
                metadata: [String: any ConvertibleToGeneratedContent] = [:]
            ) -> Action {
                Action(storage: .updateUsage(Usage(input: input, output: output, metadata: metadata)))
            }
        }

        /// The entry the event targets, or `nil` for the current one.
        public var entryID: String?
        /// The operation to perform.
        public var action: Action
    }

    // MARK: Tool calls

    /// A tool-call event: argument deltas for one call, a retraction,
    /// metadata or usage.
    public struct ToolCalls: Sendable {
        /// An operation on a tool-calls entry, built with a leading-dot factory.
        public struct Action: Sendable {
            package enum Storage: Sendable {
                case toolCall(ToolCall)
                case removeToolCall(id: String)
                case updateMetadata(Metadata)
                case updateUsage(Usage)
            }

            package var storage: Storage

            /// Routes `action` to the call `id` (opened by its first event).
            public static func toolCall(id: String, name: String, action: ToolCall.Action) -> Action {
                Action(storage: .toolCall(ToolCall(id: id, name: name, action: action)))
            }

            /// Drops a call the model retracted.
            public static func removeToolCall(id: String) -> Action {
                Action(storage: .removeToolCall(id: id))
            }

            /// Replaces the metadata of every call in the entry (a call's own
            /// metadata, set with `ToolCall.Action.updateMetadata`, wins).
            public static func updateMetadata(_ values: [String: any ConvertibleToGeneratedContent]) -> Action {
                Action(storage: .updateMetadata(Metadata(values: values.mapValues(\.generatedContent))))
            }

            /// Replaces the turn's usage report.
            public static func updateUsage(
                input: Usage.Input,
                output: Usage.Output,
                metadata: [String: any ConvertibleToGeneratedContent] = [:]
            ) -> Action {
                Action(storage: .updateUsage(Usage(input: input, output: output, metadata: metadata)))
            }
        }

        /// An event for one tool call.
        public struct ToolCall: Sendable {
            /// Argument text appended to a call.
            public struct ArgumentsFragment: Sendable {
                /// The JSON text to append.
                public var content: String
                /// How many tokens the text took.
                public var tokenCount: Int
            }

            /// An operation on one tool call, built with a leading-dot factory.
            public struct Action: Sendable {
                package enum Storage: Sendable {
                    case appendArguments(ArgumentsFragment)
                    case updateMetadata(Metadata)
                }

                package var storage: Storage

                /// Appends argument text (JSON) to the call.
                public static func appendArguments(_ content: String, tokenCount: Int) -> Action {
                    Action(storage: .appendArguments(ArgumentsFragment(content: content, tokenCount: tokenCount)))
                }

                /// Replaces the call's metadata.
                public static func updateMetadata(_ values: [String: any ConvertibleToGeneratedContent]) -> Action {
                    Action(storage: .updateMetadata(Metadata(values: values.mapValues(\.generatedContent))))
                }
            }

            /// The call's identifier (a tool output answers it with the same id).
            public var id: String
            /// The tool to call.
            public var name: String
            /// The operation to perform.
            public var action: Action
        }

        /// The entry the event targets, or `nil` for the current one.
        public var entryID: String?
        /// The operation to perform.
        public var action: Action
    }
}
