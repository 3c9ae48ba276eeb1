import Foundation

/// Generation options a model cannot honor, such as a negative temperature.
///
/// Apple's framework accepts any values when options are created; the
/// session checks them before a request so nonsense fails with a clear
/// message instead of odd model behavior.
package struct InvalidGenerationOptions: Error, LocalizedError, Equatable, Sendable {
    /// The option at fault (`temperature`, `maximumResponseTokens`, `samplingMode`).
    package var option: String
    /// What is wrong with it.
    package var reason: String

    package var errorDescription: String? { "Invalid generation option '\(option)': \(reason)" }
}

extension GenerationOptions {
    /// Throws when an option is outside what any model can honor: a
    /// negative or non-finite temperature, a negative maximum
    /// token count, top-k below 1, or a probability threshold outside 0...1.
    package func validate() throws(InvalidGenerationOptions) {
        if let temperature, !(temperature.isFinite && temperature >= 0) {
            throw InvalidGenerationOptions(option: "temperature", reason: "must be a finite number of at least 0, got \(temperature).")
        }
        if let maximumResponseTokens, maximumResponseTokens < 0 {
            throw InvalidGenerationOptions(option: "maximumResponseTokens", reason: "must not be negative, got \(maximumResponseTokens).")
        }
        switch samplingMode?.kind {
        case .randomTopK(let k, _) where k < 1:
            throw InvalidGenerationOptions(option: "samplingMode", reason: "top-k must be at least 1, got \(k).")
        case .randomProbabilityThreshold(let threshold, _) where !(threshold >= 0 && threshold <= 1):
            throw InvalidGenerationOptions(option: "samplingMode", reason: "the probability threshold must be between 0 and 1, got \(threshold).")
        default:
            break
        }
    }
}
