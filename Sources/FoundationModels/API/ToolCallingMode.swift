import Foundation

extension GenerationOptions {
    /// Whether the model may, must, or must not call tools in a request.
    public struct ToolCallingMode: Sendable, Equatable, Hashable, Codable {
        /// The tool-calling behavior a mode stands for.
        public enum Kind: Sendable, Equatable, Hashable {
            case allowed
            case required
            case disallowed
        }

        /// The tool-calling behavior this mode represents.
        public var kind: Kind

        private init(kind: Kind) {
            self.kind = kind
        }

        /// The model may or may not call tools. This is the default.
        public static let allowed = ToolCallingMode(kind: .allowed)
        /// The model must call one or more tools before it responds.
        public static let required = ToolCallingMode(kind: .required)
        /// The model may not call any tool.
        public static let disallowed = ToolCallingMode(kind: .disallowed)
    }
}
