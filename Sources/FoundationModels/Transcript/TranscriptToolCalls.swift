import Foundation

extension Transcript {
    /// The tool-calls entry: the calls the model asked for in one turn, in
    /// the order it generated them.
    public struct ToolCalls: Sendable, Identifiable, Equatable, CustomStringConvertible, RandomAccessCollection {
        public typealias Index = Int
        public typealias Indices = Range<Int>
        public typealias Element = Transcript.ToolCall

        public var id: String
        package var calls: [Transcript.ToolCall]

        /// Creates a collection of tool calls.
        public init<S: Sequence>(id: String = UUID().uuidString, _ calls: S) where S.Element == Transcript.ToolCall {
            self.id = id
            self.calls = Array(calls)
        }

        public var startIndex: Int { calls.startIndex }
        public var endIndex: Int { calls.endIndex }
        public subscript(position: Int) -> Transcript.ToolCall { calls[position] }

        public var description: String {
            (["Tool calls:"] + calls.map { "  \($0.description)" }).joined(separator: "\n")
        }
    }

    /// One call of a tool: the tool's name and the arguments the model
    /// generated for it.
    public struct ToolCall: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        /// The name of the tool to invoke.
        public var toolName: String
        /// The arguments to pass to the tool.
        public var arguments: GeneratedContent
        /// Additional information the model produced with the call.
        public var metadata: [String: GeneratedContent]

        /// Creates a tool call.
        public init(id: String = UUID().uuidString, toolName: String, arguments: GeneratedContent) {
            self.id = id
            self.toolName = toolName
            self.arguments = arguments
            self.metadata = [:]
        }

        /// Creates a tool call with metadata.
        public init(id: String, metadata: [String: any ConvertibleToGeneratedContent], toolName: String, arguments: GeneratedContent) {
            self.id = id
            self.toolName = toolName
            self.arguments = arguments
            self.metadata = metadata.mapValues(\.generatedContent)
        }

        public var description: String { "\(toolName)(\(arguments.jsonString))" }
    }

    /// The tool-output entry: what a tool returned, fed back to the model.
    public struct ToolOutput: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// The identifier of this output; by convention the id of the call it answers.
        public var id: String
        /// The name of the tool that produced the output.
        public var toolName: String
        /// The output's content.
        public var segments: [Transcript.Segment]

        /// Creates a tool output; `id` is, by convention, the id of the call it answers.
        public init(id: String, toolName: String, segments: [Transcript.Segment]) {
            self.id = id
            self.toolName = toolName
            self.segments = segments
        }

        public var description: String { "Tool output (\(toolName)): \(segments.renderedText)" }
    }
}
