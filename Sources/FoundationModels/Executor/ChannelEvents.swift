extension LanguageModelExecutorGenerationChannel {
    /// One event sent on a channel, addressed to a transcript entry.
    public struct Event: Sendable {
        /// What the event carries.
        public enum Kind: Sendable {
            case response(Response)
            case reasoning(Reasoning)
            case toolCalls(ToolCalls)
        }

        /// What the event carries.
        public var kind: Kind

        /// A response event. `entryID` `nil` coalesces consecutive response
        /// events into one entry; an explicit id anchors it to that entry.
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

    /// Token counts reported by an executor. A later report replaces an earlier one.
    public enum Usage {
        /// Tokens read: the prompt, of which `cachedTokenCount` came from a cache.
        public struct Input: Sendable, Hashable {
            public var totalTokenCount: Int
            public var cachedTokenCount: Int
            public init(totalTokenCount: Int, cachedTokenCount: Int = 0) {
                self.totalTokenCount = totalTokenCount
                self.cachedTokenCount = cachedTokenCount
            }
        }

        /// Tokens written, of which `reasoningTokenCount` were reasoning.
        public struct Output: Sendable, Hashable {
            public var totalTokenCount: Int
            public var reasoningTokenCount: Int
            public init(totalTokenCount: Int, reasoningTokenCount: Int = 0) {
                self.totalTokenCount = totalTokenCount
                self.reasoningTokenCount = reasoningTokenCount
            }
        }
    }

    /// A usage report with its metadata.
    package struct UsageReport: Sendable, Equatable {
        package var input: Usage.Input
        package var output: Usage.Output
        package var metadata: [String: GeneratedContent]

        /// A report whose metadata values are converted to content once, here.
        init(input: Usage.Input, output: Usage.Output, metadata: [String: any ConvertibleToGeneratedContent]) {
            self.input = input
            self.output = output
            self.metadata = metadata.mapValues(\.generatedContent)
        }
    }

    /// A response event: text, segment replacements, metadata or usage.
    public struct Response: Sendable {
        /// An operation on a response entry.
        public struct Action: Sendable {
            package enum Storage: Sendable {
                case appendText(String, segmentID: String?, tokenCount: Int)
                case replaceTextSegment(String, segmentID: String, tokenCount: Int)
                case updateMetadata([String: GeneratedContent])
                case updateUsage(UsageReport)
            }

            package var storage: Storage

            /// Appends text to the segment `segmentID`, or to the current one.
            public static func appendText(_ text: String, segmentID: String? = nil, tokenCount: Int) -> Action {
                Action(storage: .appendText(text, segmentID: segmentID, tokenCount: tokenCount))
            }

            /// Replaces the whole text of segment `segmentID`.
            public static func replaceTextSegment(_ text: String, segmentID: String, tokenCount: Int) -> Action {
                Action(storage: .replaceTextSegment(text, segmentID: segmentID, tokenCount: tokenCount))
            }

            /// Replaces the entry's metadata.
            public static func updateMetadata(_ values: [String: any ConvertibleToGeneratedContent]) -> Action {
                Action(storage: .updateMetadata(values.mapValues(\.generatedContent)))
            }

            /// Replaces the entry's usage report.
            public static func updateUsage(
                input: Usage.Input,
                output: Usage.Output,
                metadata: [String: any ConvertibleToGeneratedContent] = [:]
            ) -> Action {
                Action(storage: .updateUsage(UsageReport(input: input, output: output, metadata: metadata)))
            }
        }

        /// The entry the event targets, or `nil` for the current one.
        public var entryID: String?
        /// The operation to perform.
        public var action: Action
    }

    /// A reasoning event: reasoning text, its signature, metadata or usage.
    public struct Reasoning: Sendable {
        /// An operation on a reasoning entry.
        public struct Action: Sendable {
            package enum Storage: Sendable {
                case appendText(String, segmentID: String?, tokenCount: Int)
                case updateSignature(String, tokenCount: Int)
                case updateMetadata([String: GeneratedContent])
                case updateUsage(UsageReport)
            }

            package var storage: Storage

            public static func appendText(_ text: String, segmentID: String? = nil, tokenCount: Int) -> Action {
                Action(storage: .appendText(text, segmentID: segmentID, tokenCount: tokenCount))
            }

            /// Sets the provider's opaque signature of the reasoning.
            public static func updateSignature(_ signature: String, tokenCount: Int) -> Action {
                Action(storage: .updateSignature(signature, tokenCount: tokenCount))
            }

            public static func updateMetadata(_ values: [String: any ConvertibleToGeneratedContent]) -> Action {
                Action(storage: .updateMetadata(values.mapValues(\.generatedContent)))
            }

            public static func updateUsage(
                input: Usage.Input,
                output: Usage.Output,
                metadata: [String: any ConvertibleToGeneratedContent] = [:]
            ) -> Action {
                Action(storage: .updateUsage(UsageReport(input: input, output: output, metadata: metadata)))
            }
        }

        public var entryID: String?
        public var action: Action
    }

    /// A tool-call event: argument deltas for one call, a retraction, or usage.
    public struct ToolCalls: Sendable {
        /// An operation on a tool-calls entry.
        public struct Action: Sendable {
            package enum Storage: Sendable {
                case toolCall(ToolCall)
                case removeToolCall(id: String)
                case updateUsage(UsageReport)
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

            public static func updateUsage(
                input: Usage.Input,
                output: Usage.Output,
                metadata: [String: any ConvertibleToGeneratedContent] = [:]
            ) -> Action {
                Action(storage: .updateUsage(UsageReport(input: input, output: output, metadata: metadata)))
            }
        }

        /// An event for one tool call.
        public struct ToolCall: Sendable {
            /// An operation on one tool call.
            public struct Action: Sendable {
                package enum Storage: Sendable {
                    case appendArguments(String, tokenCount: Int)
                    case updateMetadata([String: GeneratedContent])
                }

                package var storage: Storage

                /// Appends argument text (JSON) to the call.
                public static func appendArguments(_ content: String, tokenCount: Int) -> Action {
                    Action(storage: .appendArguments(content, tokenCount: tokenCount))
                }

                public static func updateMetadata(_ values: [String: any ConvertibleToGeneratedContent]) -> Action {
                    Action(storage: .updateMetadata(values.mapValues(\.generatedContent)))
                }
            }

            public var id: String
            public var name: String
            public var action: Action
        }

        public var entryID: String?
        public var action: Action
    }
}
