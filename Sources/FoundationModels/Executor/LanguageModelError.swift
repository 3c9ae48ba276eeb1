import Foundation

/// A failure that may occur while generating a response with any language
/// model, each case with a payload describing it.
///
/// This is the 27 taxonomy: every executor (the system model's and provider
/// packages') throws it, and a session created with a 27 initializer
/// surfaces it as thrown. A session created with a 26 initializer surfaces
/// the deprecated ``LanguageModelSession/GenerationError`` case that names
/// it as its replacement (see ErrorSurfacing.swift for the rule).
public enum LanguageModelError: Error, LocalizedError, CustomDebugStringConvertible {
    case contextSizeExceeded(ContextSizeExceeded)
    case rateLimited(RateLimited)
    case guardrailViolation(GuardrailViolation)
    case refusal(Refusal)
    case unsupportedCapability(UnsupportedCapability)
    case unsupportedTranscriptContent(UnsupportedTranscriptContent)
    case unsupportedGenerationGuide(UnsupportedGenerationGuide)
    case unsupportedLanguageOrLocale(UnsupportedLanguageOrLocale)
    case timeout(Timeout)

    /// The transcript and prompt do not fit the model's context.
    public struct ContextSizeExceeded: Sendable {
        public var contextSize: Int
        public var tokenCount: Int
        public var debugDescription: String
        public var metadata: [String: any Sendable]
        public init(contextSize: Int, tokenCount: Int, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.contextSize = contextSize
            self.tokenCount = tokenCount
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// Too many requests; try again after `resetDate` when known.
    public struct RateLimited: Sendable {
        public var resetDate: Date?
        public var debugDescription: String
        public var metadata: [String: any Sendable]
        public init(resetDate: Date?, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.resetDate = resetDate
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// A safety guardrail blocked the prompt or the response.
    public struct GuardrailViolation: Sendable {
        public var debugDescription: String
        public var metadata: [String: any Sendable]
        public init(debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// The model declined to answer, and its explanation.
    public struct Refusal: Sendable {
        public var debugDescription: String
        public var metadata: [String: any Sendable]
        /// The model's words about the refusal (``explanation``).
        let explanationText: String

        /// A refusal with the model's explanation.
        public init(explanation: String, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.explanationText = explanation
            self.debugDescription = debugDescription
            self.metadata = metadata
        }

        /// A refusal without the model's words (Apple's beta 1 shape): its
        /// explanation is a generic sentence.
        public init(debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.init(explanation: "The model declined to respond to this request.", debugDescription: debugDescription, metadata: metadata)
        }
    }

    /// The request needs a capability the model does not declare.
    public struct UnsupportedCapability: Sendable {
        public var capability: LanguageModelCapabilities.Capability
        public var debugDescription: String
        public var metadata: [String: any Sendable]
        public init(capability: LanguageModelCapabilities.Capability, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.capability = capability
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// The transcript holds content the model cannot take (an image for a text model).
    public struct UnsupportedTranscriptContent: Sendable {
        /// The entries holding the content the model cannot take.
        public var unsupportedContent: [Transcript.Entry]
        public var debugDescription: String
        public var metadata: [String: any Sendable]
        public init(unsupportedContent: [Transcript.Entry], debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.unsupportedContent = unsupportedContent
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// A guide in the schema cannot be enforced.
    public struct UnsupportedGenerationGuide: Sendable {
        public var schemaName: String?
        public var debugDescription: String
        public var metadata: [String: any Sendable]
        public init(schemaName: String?, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.schemaName = schemaName
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// The prompt's language or locale is not supported.
    public struct UnsupportedLanguageOrLocale: Sendable {
        /// The language the model does not support.
        public var languageCode: Locale.LanguageCode
        public var debugDescription: String
        public var metadata: [String: any Sendable]
        public init(languageCode: Locale.LanguageCode, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.languageCode = languageCode
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// The model did not answer in time.
    public struct Timeout: Sendable {
        public var debugDescription: String
        public var metadata: [String: any Sendable]
        public init(debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    public var debugDescription: String {
        switch self {
        case .contextSizeExceeded(let e): e.debugDescription
        case .rateLimited(let e): e.debugDescription
        case .guardrailViolation(let e): e.debugDescription
        case .refusal(let e): e.debugDescription
        case .unsupportedCapability(let e): e.debugDescription
        case .unsupportedTranscriptContent(let e): e.debugDescription
        case .unsupportedGenerationGuide(let e): e.debugDescription
        case .unsupportedLanguageOrLocale(let e): e.debugDescription
        case .timeout(let e): e.debugDescription
        }
    }

    public var errorDescription: String? {
        switch self {
        case .contextSizeExceeded(let e):
            "The conversation needs \(e.tokenCount) tokens but the model's context holds \(e.contextSize)."
        case .rateLimited(let e):
            if let date = e.resetDate {
                "The model is handling too many requests; it accepts new ones after \(date)."
            } else {
                "The model is handling too many requests."
            }
        case .guardrailViolation:
            "A safety guardrail blocked the prompt or the response."
        case .refusal:
            "The model declined to answer."
        case .unsupportedCapability(let e):
            "The model does not support \(e.capability), which this request needs."
        case .unsupportedTranscriptContent(let e):
            "The transcript contains content this model cannot read (\(e.unsupportedContent.count) \(e.unsupportedContent.count == 1 ? "entry" : "entries"))."
        case .unsupportedGenerationGuide(let e):
            "A generation guide\(e.schemaName.map { " in \($0)" } ?? "") cannot be enforced by this model."
        case .unsupportedLanguageOrLocale(let e):
            "The language \"\(e.languageCode.identifier)\" is not supported by this model."
        case .timeout:
            "The model did not answer in time."
        }
    }

    public var failureReason: String? { debugDescription }

    public var recoverySuggestion: String? {
        switch self {
        case .contextSizeExceeded: "Start a new session, or shorten the instructions, transcript or prompt."
        case .rateLimited: "Wait for earlier requests to finish, then try again."
        case .guardrailViolation: "Rephrase the prompt."
        case .refusal: "Rephrase the prompt, or ask for something the model can help with."
        case .unsupportedCapability: "Use a model that declares this capability, or remove the schema or tools from the request."
        case .unsupportedTranscriptContent: "Remove attachments the model cannot read from the transcript."
        case .unsupportedGenerationGuide: "Remove or simplify the guide."
        case .unsupportedLanguageOrLocale: "Use a language the model supports (see supportedLanguages)."
        case .timeout: "Try again, or ask for a shorter response."
        }
    }
}
