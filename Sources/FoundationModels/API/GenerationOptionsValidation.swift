import Foundation

/// Generation options no model can honor: a negative temperature, a top-k
/// below 1, a probability threshold outside (0, 1], a token limit below 1.
///
/// Apple's framework accepts any values when options are created and
/// documents their ranges, but names no error for values outside them. A
/// session here checks a request's options (its profile's applied) before it
/// calls the model, and so does the on-device executor, so nonsense fails
/// with this error and its message instead of odd model behavior or an
/// error of the engine underneath. It is public so callers can catch it by
/// name, and so provider packages can throw it for values their own model
/// cannot honor. Sessions surface it unchanged in either error family: it has
/// no `GenerationError` counterpart.
public struct InvalidGenerationOptions: Error, LocalizedError, CustomDebugStringConvertible, Equatable, Sendable {
    /// The option at fault: `temperature`, `maximumResponseTokens` or `samplingMode`.
    public var option: String
    /// What is wrong with it, as a sentence.
    public var reason: String

    /// Creates the error for `option`, with `reason` saying what is wrong.
    public init(option: String, reason: String) {
        self.option = option
        self.reason = reason
    }

    public var errorDescription: String? { "Invalid generation option '\(option)': \(reason)" }

    public var debugDescription: String { errorDescription ?? reason }
}

extension GenerationOptions {
    /// Throws when an option is outside what any model can honor: a
    /// negative or non-finite temperature, a maximum token count below 1
    /// (a response of no tokens is no response), top-k below 1, or a
    /// probability threshold outside (0, 1] (no token has a cumulative
    /// probability of 0).
    package func validate() throws(InvalidGenerationOptions) {
        if let temperature, !(temperature.isFinite && temperature >= 0) {
            throw InvalidGenerationOptions(option: "temperature", reason: "must be a finite number of at least 0, got \(temperature).")
        }
        if let maximumResponseTokens, maximumResponseTokens < 1 {
            throw InvalidGenerationOptions(option: "maximumResponseTokens", reason: "must be at least 1, got \(maximumResponseTokens).")
        }
        switch samplingMode?.kind {
        case .randomTopK(let k, _) where k < 1:
            throw InvalidGenerationOptions(option: "samplingMode", reason: "top-k must be at least 1, got \(k).")
        case .randomProbabilityThreshold(let threshold, _) where !(threshold > 0 && threshold <= 1):
            throw InvalidGenerationOptions(
                option: "samplingMode", reason: "the probability threshold must be greater than 0 and at most 1, got \(threshold).")
        default:
            break
        }
    }
}
