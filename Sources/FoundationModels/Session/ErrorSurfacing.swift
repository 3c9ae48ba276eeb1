// Which error a caller sees.
//
// Apple's 27 SDK deprecates every `LanguageModelSession.GenerationError` case
// and names its replacement:
//
//   exceededContextWindowSize    → LanguageModelError.contextSizeExceeded
//   assetsUnavailable            → SystemLanguageModel.Error.assetsUnavailable
//   guardrailViolation           → LanguageModelError.guardrailViolation
//   unsupportedGuide             → LanguageModelError.unsupportedGenerationGuide
//   unsupportedLanguageOrLocale  → LanguageModelError.unsupportedLanguageOrLocale
//   rateLimited                  → LanguageModelError.rateLimited
//   refusal                      → LanguageModelError.refusal
//   concurrentRequests           → LanguageModelSession.Error.concurrentRequests
//   decodingFailure              → GeneratedContent.ParsingError
//
// On Apple's platforms which family an app receives depends on the SDK it
// was built with: built with Xcode 26, `GenerationError`; with Xcode 27, the
// new types. One build here serves both kinds of code, so the rule is:
//
// - Executors — the system model's and provider packages' — throw the 27
//   family, and so does the session engine itself.
// - A session created with a 27 initializer (`init(model: some
//   LanguageModel, …)`, `init(profile:history:)`,
//   `init(model:dynamicInstructions:history:)`) surfaces every error as
//   thrown, as Apple's 27 SDK does: a provider's tests see the
//   `LanguageModelError` its executor threw.
// - A session created with a 26 initializer (the system model, `model:`
//   defaulted or `SystemLanguageModel`) — the only initializers code written
//   for the 26 SDK can call — surfaces each 27 error that has a 26
//   counterpart as that `GenerationError` case, so `catch
//   GenerationError.exceededContextWindowSize` keeps working. Errors without
//   a counterpart (`unsupportedCapability`, `unsupportedTranscriptContent`,
//   `timeout`, `transcriptMutationWhileResponding`, `ToolCallError`,
//   `CancellationError`, a provider's own types) pass through unchanged.

/// The error family a session surfaces, fixed by the initializer that created it.
enum ErrorFamily: Sendable {
    /// The deprecated 26 `GenerationError` cases (26 initializers).
    case generationError
    /// The 27 types, as thrown (27 initializers).
    case current
}

extension LanguageModelSession {
    /// The error a caller of this session sees for `error`, raised while
    /// serving a request whose new entries were `entries`.
    func surfaced(_ error: any Swift.Error, entries: [Transcript.Entry]) -> any Swift.Error {
        switch errorFamily {
        case .current: error
        case .generationError: Self.generationError(for: error, entries: entries) ?? error
        }
    }

    /// The 26 counterpart of a 27 error, or `nil` when it has none.
    static func generationError(for error: any Swift.Error, entries: [Transcript.Entry]) -> GenerationError? {
        switch error {
        case let error as LanguageModelError:
            switch error {
            case .contextSizeExceeded(let e):
                return .exceededContextWindowSize(
                    .init(
                        debugDescription: "\(e.debugDescription) (\(e.tokenCount) tokens needed, context size \(e.contextSize))"
                    ))
            case .rateLimited(let e):
                return .rateLimited(.init(debugDescription: e.debugDescription))
            case .guardrailViolation(let e):
                return .guardrailViolation(.init(debugDescription: e.debugDescription))
            case .refusal(let e):
                return .refusal(GenerationError.Refusal(transcriptEntries: entries), .init(debugDescription: e.debugDescription))
            case .unsupportedGenerationGuide(let e):
                return .unsupportedGuide(.init(debugDescription: e.debugDescription))
            case .unsupportedLanguageOrLocale(let e):
                return .unsupportedLanguageOrLocale(.init(debugDescription: e.debugDescription))
            case .unsupportedCapability, .unsupportedTranscriptContent, .timeout:
                return nil
            }
        case let error as SystemLanguageModel.Error:
            switch error {
            case .assetsUnavailable(let e):
                return .assetsUnavailable(.init(debugDescription: e.debugDescription))
            }
        case let error as LanguageModelSession.Error:
            switch error {
            case .concurrentRequests:
                return .concurrentRequests(.init(debugDescription: error.debugDescription))
            case .transcriptMutationWhileResponding:
                return nil
            }
        case let error as GeneratedContent.ParsingError:
            return .decodingFailure(.init(debugDescription: error.debugDescription))
        default:
            return nil
        }
    }
}
