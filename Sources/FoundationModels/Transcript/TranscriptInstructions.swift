import Foundation

extension Transcript {
    /// The instructions entry: the developer's steering text plus the tools
    /// the model may call.
    public struct Instructions: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        /// The instructions' content.
        public var segments: [Transcript.Segment]
        /// The tools made available to the model.
        public var toolDefinitions: [Transcript.ToolDefinition]

        /// Creates an instructions entry.
        public init(id: String = UUID().uuidString, segments: [Transcript.Segment], toolDefinitions: [Transcript.ToolDefinition]) {
            self.id = id
            self.segments = segments
            self.toolDefinitions = toolDefinitions
        }

        public var description: String {
            var lines = ["Instructions: \(segments.renderedText)"]
            for tool in toolDefinitions {
                lines.append("  Tool \(tool.name): \(tool.description)")
            }
            return lines.joined(separator: "\n")
        }
    }

    /// A tool's definition as the model sees it: name, description and the
    /// schema of its arguments.
    public struct ToolDefinition: Sendable, Equatable, CustomStringConvertible {
        /// The tool's name.
        public var name: String
        /// What the tool does.
        public var description: String
        /// The schema of the tool's arguments.
        public var parameters: GenerationSchema

        /// Creates a tool definition.
        public init(name: String, description: String, parameters: GenerationSchema) {
            self.name = name
            self.description = description
            self.parameters = parameters
        }

        /// Creates the definition of a tool.
        public init(tool: some Tool) {
            self.init(name: tool.name, description: tool.description, parameters: tool.parameters)
        }

        public static func == (lhs: ToolDefinition, rhs: ToolDefinition) -> Bool {
            lhs.name == rhs.name && lhs.description == rhs.description
                && GenerationSchema.sameSchema(lhs.parameters, rhs.parameters)
        }
    }
}
