import Foundation
import FoundationModels

/// What to tell the user when a model-backed feature cannot answer, and
/// what the feature should offer next.
///
/// Every app on the framework writes this switch by hand: the availability
/// reasons and the error cases are the developer's vocabulary, not the
/// user's, and each calls for a different next step (hide the feature,
/// try again later, start the conversation over). One mapping, tested,
/// keeps the wording and the choice of action consistent across features.
public struct UserFacingMessage: Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// What the feature should offer next.
    public enum Action: Sendable, Hashable {
        /// Nothing the user can do here: hide or disable the feature.
        case hideFeature
        /// Offer to try again (after `retryAfter` seconds when known).
        case retry
        /// The conversation is too long: offer a fresh start (or drop the oldest turns).
        case startOver
        /// Ask for something else: the request itself was declined.
        case rephrase
        /// Nothing: the user cancelled.
        case none
    }

    /// A short headline.
    public var title: String
    /// One or two sentences for the user.
    public var detail: String
    public var action: Action

    public init(title: String, detail: String, action: Action) {
        self.title = title
        self.detail = detail
        self.action = action
    }

    public var description: String { "\(title). \(detail)" }

    /// A message can be thrown up to the layer that shows it.
    public var errorDescription: String? { description }

    /// The message for a model that cannot be used, or `nil` when it is available.
    public init?(_ availability: SystemLanguageModel.Availability) {
        switch availability {
        case .available:
            return nil
        case .unavailable(.deviceNotEligible):
            self.init(title: "Not available on this device", detail: "This device cannot run the on-device model.", action: .hideFeature)
        case .unavailable(.appleIntelligenceNotEnabled):
            self.init(
                title: "The on-device model is turned off", detail: "Turn the model on in the settings to use this feature.", action: .hideFeature)
        case .unavailable(.modelNotReady):
            self.init(title: "The model is not ready yet", detail: "The model is still being installed. Try again in a little while.", action: .retry)
        }
    }

    /// The message for an error a request failed with (either error family:
    /// sessions made with Apple's 26 initializers throw `GenerationError`,
    /// the 27 ones `LanguageModelError` and friends).
    public init(_ error: any Error) {
        switch error {
        case is CancellationError:
            self.init(title: "Cancelled", detail: "The answer was stopped.", action: .none)
        case LanguageModelError.contextSizeExceeded, LanguageModelSession.GenerationError.exceededContextWindowSize:
            self = .conversationTooLong
        case LanguageModelError.rateLimited, LanguageModelSession.GenerationError.rateLimited,
            LanguageModelSession.GenerationError.concurrentRequests, LanguageModelSession.Error.concurrentRequests:
            self.init(title: "Busy", detail: "The model is answering other requests. Try again in a moment.", action: .retry)
        case LanguageModelError.guardrailViolation, LanguageModelSession.GenerationError.guardrailViolation:
            self.init(title: "Can't help with that", detail: "This request was blocked by the safety guardrails.", action: .rephrase)
        case LanguageModelError.refusal, LanguageModelSession.GenerationError.refusal:
            self.init(title: "Can't help with that", detail: "The model declined to answer this request.", action: .rephrase)
        case LanguageModelError.unsupportedLanguageOrLocale, LanguageModelSession.GenerationError.unsupportedLanguageOrLocale:
            self.init(title: "Language not supported", detail: "The model does not support this language yet.", action: .rephrase)
        case SystemLanguageModel.Error.assetsUnavailable, LanguageModelSession.GenerationError.assetsUnavailable:
            self.init(
                title: "The model is not ready yet", detail: "The model's files are not available right now. Try again in a little while.",
                action: .retry)
        case is PrivateCloudComputeLanguageModel.Error:
            self.init(title: "The server is unavailable", detail: "The model server cannot answer right now. Try again later.", action: .retry)
        case is LanguageModelSession.ToolCallError:
            self.init(title: "A lookup failed", detail: "Some information the answer needs could not be looked up. Try again.", action: .retry)
        case is GeneratedContent.ParsingError, LanguageModelSession.GenerationError.decodingFailure:
            self.init(title: "No usable answer", detail: "The model's answer could not be read. Try again.", action: .retry)
        default:
            self.init(title: "Something went wrong", detail: "The answer could not be generated. Try again.", action: .retry)
        }
    }

    /// The conversation no longer fits the model's context.
    public static let conversationTooLong = UserFacingMessage(
        title: "This conversation is too long",
        detail: "Start a new conversation, or let the oldest messages go.",
        action: .startOver
    )
}
