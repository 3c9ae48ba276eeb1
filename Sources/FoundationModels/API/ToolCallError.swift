import Foundation

extension LanguageModelSession {
    /// An error thrown by a tool while the session called it, wrapped with
    /// the tool that threw.
    ///
    /// It exists so callers can tell which tool failed during a response and
    /// still reach the tool's own error.
    public struct ToolCallError: Swift.Error, LocalizedError {
        /// The tool that threw.
        public var tool: any Tool
        /// The error the tool threw.
        public var underlyingError: any Swift.Error

        /// Creates a tool call error.
        public init(tool: any Tool, underlyingError: any Swift.Error) {
            self.tool = tool
            self.underlyingError = underlyingError
        }

        public var errorDescription: String? {
            "The tool '\(tool.name)' failed: \(Self.describe(underlyingError))"
        }

        public var failureReason: String? {
            (underlyingError as? any LocalizedError)?.failureReason
        }

        public var recoverySuggestion: String? {
            (underlyingError as? any LocalizedError)?.recoverySuggestion
        }

        private static func describe(_ error: any Swift.Error) -> String {
            if let localized = (error as? any LocalizedError)?.errorDescription {
                return localized
            }
            return String(describing: error)
        }
    }
}
