import Foundation

extension GeneratedContent {
    /// A failure to read text as generated content: malformed or incomplete
    /// JSON from a model, or content that does not decode into the type the
    /// caller asked for.
    ///
    /// Replaces ``LanguageModelSession/GenerationError/decodingFailure(_:)``
    /// for sessions created with a 27 initializer.
    public struct ParsingError: LocalizedError, CustomDebugStringConvertible, Sendable {
        /// The text that could not be parsed.
        public var rawContent: String
        /// What went wrong underneath, when known (a `DecodingError` naming
        /// the property path, for example).
        public var underlyingError: (any Error)?
        /// A developer-facing description of the failure.
        public var debugDescription: String

        /// Creates a parsing failure.
        public init(rawContent: String, underlyingError: (any Error)? = nil, debugDescription: String) {
            self.rawContent = rawContent
            self.underlyingError = underlyingError
            self.debugDescription = debugDescription
        }

        public var errorDescription: String? {
            "The model's output couldn't be parsed into the requested content. \(debugDescription)"
        }

        public var recoverySuggestion: String? {
            "Try again, increase maximumResponseTokens, or simplify the generated type."
        }
    }
}
