import Foundation

extension LanguageModelSession {
    /// An error that may occur while generating a response.
    ///
    /// It is the error type code written against Apple's 26 SDK catches, so
    /// the session reports every failure it knows as one of these cases;
    /// each carries a ``Context`` with a developer-facing description.
    public enum GenerationError: Swift.Error, LocalizedError {
        /// The context in which the error occurred.
        public struct Context: Sendable {
            /// A debug description to help developers diagnose issues during
            /// development; not localized, not for end users.
            public let debugDescription: String

            /// Creates a context.
            public init(debugDescription: String) {
                self.debugDescription = debugDescription
            }
        }

        /// A refusal produced by a language model, with a way to ask why.
        public struct Refusal: Sendable {
            /// The entries leading up to the refusal.
            package let transcriptEntries: [Transcript.Entry]

            /// Creates a refusal for the transcript entries the model declined
            /// to respond to.
            public init(transcriptEntries: [Transcript.Entry]) {
                self.transcriptEntries = transcriptEntries
            }
        }

        /// The session's transcript no longer fits in the model's context window.
        case exceededContextWindowSize(Context)
        /// The assets (model weights, adapters) the session needs are unavailable.
        case assetsUnavailable(Context)
        /// The prompt or the response was flagged by the safety guardrails.
        case guardrailViolation(Context)
        /// The schema uses a generation guide the model cannot enforce.
        case unsupportedGuide(Context)
        /// The model does not support the language or locale of the prompt.
        case unsupportedLanguageOrLocale(Context)
        /// The model's output could not be decoded into the requested type.
        case decodingFailure(Context)
        /// The session was rate limited.
        case rateLimited(Context)
        /// A request was made while the session was still responding to another.
        case concurrentRequests(Context)
        /// The model refused to answer.
        case refusal(Refusal, Context)
    }
}

extension LanguageModelSession.GenerationError {
    /// The context of whichever case this is.
    package var context: Context {
        switch self {
        case .exceededContextWindowSize(let context), .assetsUnavailable(let context),
            .guardrailViolation(let context), .unsupportedGuide(let context),
            .unsupportedLanguageOrLocale(let context), .decodingFailure(let context),
            .rateLimited(let context), .concurrentRequests(let context),
            .refusal(_, let context):
            context
        }
    }

    public var errorDescription: String? {
        let summary: String
        switch self {
        case .exceededContextWindowSize:
            summary = "The session's transcript exceeded the model's context window size."
        case .assetsUnavailable:
            summary = "The model assets required for this session are unavailable."
        case .guardrailViolation:
            summary = "The request was blocked by the model's safety guardrails."
        case .unsupportedGuide:
            summary = "The generation schema uses a guide the model can't enforce."
        case .unsupportedLanguageOrLocale:
            summary = "The model doesn't support the language or locale of the request."
        case .decodingFailure:
            summary = "The model's output couldn't be decoded into the requested type."
        case .rateLimited:
            summary = "The session was rate limited."
        case .concurrentRequests:
            summary = "The session is already responding to another request."
        case .refusal:
            summary = "The model refused to respond to the prompt."
        }
        let detail = context.debugDescription
        return detail.isEmpty ? summary : "\(summary) \(detail)"
    }

    public var failureReason: String? {
        switch self {
        case .exceededContextWindowSize:
            "Instructions, prompts, tool output and responses together used more tokens than the model's context window holds."
        case .assetsUnavailable:
            "The model is not downloaded, not ready, or could not be loaded on this device."
        case .guardrailViolation:
            "The prompt or the generated response was flagged as potentially unsafe content."
        case .unsupportedGuide:
            "A generation guide in the schema (for example a pattern or a bound) is not supported by this model."
        case .unsupportedLanguageOrLocale:
            "The prompt is written in a language, or the session uses a locale, that the model was not trained for."
        case .decodingFailure:
            "Generation ended before a complete value was produced, or the output did not match the schema."
        case .rateLimited:
            "Too many requests were made in a short time, or the model provider limited this client."
        case .concurrentRequests:
            "A session answers one request at a time, and a new request arrived before the previous one finished."
        case .refusal:
            "The model declined to produce the kind of response that was requested."
        }
    }

    public var recoverySuggestion: String? {
        switch self {
        case .exceededContextWindowSize:
            "Start a new session, optionally seeded with a shortened transcript, and use a shorter prompt or a smaller maximumResponseTokens."
        case .assetsUnavailable:
            "Check SystemLanguageModel.availability and try again once the model is available."
        case .guardrailViolation:
            "Rephrase the prompt, or handle this error by showing a message that the request can't be completed."
        case .unsupportedGuide:
            "Remove or simplify the guide, or validate the value yourself after generation."
        case .unsupportedLanguageOrLocale:
            "Check SystemLanguageModel.supportedLanguages and prompt in a supported language."
        case .decodingFailure:
            "Try again, increase maximumResponseTokens, or simplify the generated type."
        case .rateLimited:
            "Wait a moment before retrying the request."
        case .concurrentRequests:
            "Wait until isResponding is false, or use a separate session for concurrent requests."
        case .refusal:
            "Read the refusal's explanation to learn why, then change the request."
        }
    }
}
