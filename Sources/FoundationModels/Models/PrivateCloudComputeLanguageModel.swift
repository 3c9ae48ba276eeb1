import Foundation
import Observation

/// Apple's larger server model, reached through Private Cloud Compute.
///
/// The type is here so code written for Apple's 27 SDK compiles; this
/// platform has no Private Cloud Compute, so the model reports
/// `.unavailable(.deviceNotEligible)` and a request fails with
/// ``Error/serviceUnavailable(_:)``. (A backend for it, reaching a server
/// model of your own, is planned with the hybrid tiers.)
public final class PrivateCloudComputeLanguageModel: Sendable, Observable {
    public init() {}

    /// Whether the model can be used here, and why not if it cannot.
    public var availability: Availability { .unavailable(.deviceNotEligible) }

    /// Whether ``availability`` is `.available`.
    public var isAvailable: Bool { availability == .available }

    /// How much of the account's quota is used.
    public var quotaUsage: QuotaUsage {
        QuotaUsage(status: .belowLimit(.init(isApproachingLimit: false)))
    }

    /// The number of tokens the model's context holds.
    public var contextSize: Int {
        get async throws {
            throw Error.serviceUnavailable(.init(debugDescription: Self.unavailableReason))
        }
    }

    /// The languages the model supports (none, where it is unavailable).
    public var supportedLanguages: Set<Locale.Language> { [] }

    /// Whether the model supports `locale`'s language.
    public func supportsLocale(_ locale: Locale = Locale.current) -> Bool {
        guard let code = locale.language.languageCode else { return false }
        return supportedLanguages.contains { $0.languageCode == code }
    }

    static let unavailableReason = "Private Cloud Compute is not available on this platform."

    /// Whether the model can be used, and why not.
    public enum Availability: Equatable, Sendable {
        /// Why the model cannot be used.
        public enum UnavailableReason: Equatable, Hashable, Sendable {
            /// This device cannot use Private Cloud Compute.
            case deviceNotEligible
            /// The system is not ready yet (still setting up).
            case systemNotReady
        }

        case available
        case unavailable(UnavailableReason)
    }

    /// The account's use of its Private Cloud Compute quota.
    public struct QuotaUsage: Sendable {
        /// Where the account stands against its limit.
        public enum Status: Sendable {
            /// Below the limit.
            public struct BelowLimit: Sendable {
                /// Whether the account is close to its limit.
                public var isApproachingLimit: Bool
            }

            /// At the limit: requests fail until ``QuotaUsage/resetDate``.
            public struct LimitReached: Sendable {}

            case belowLimit(BelowLimit)
            case limitReached(LimitReached)
        }

        /// A way for the user to raise the limit.
        public struct LimitIncreaseSuggestion: Sendable {
            /// Shows the system's offer to raise the limit (nothing to show here).
            public func show() {}
        }

        public var status: Status
        public var limitIncreaseSuggestion: LimitIncreaseSuggestion?
        public var resetDate: Date?

        /// Whether the limit has been reached.
        public var isLimitReached: Bool {
            if case .limitReached = status { return true }
            return false
        }

        init(status: Status, limitIncreaseSuggestion: LimitIncreaseSuggestion? = nil, resetDate: Date? = nil) {
            self.status = status
            self.limitIncreaseSuggestion = limitIncreaseSuggestion
            self.resetDate = resetDate
        }
    }

    /// A failure specific to Private Cloud Compute.
    public enum Error: Swift.Error, LocalizedError, CustomDebugStringConvertible {
        case networkFailure(NetworkFailure)
        case quotaLimitReached(QuotaLimitReached)
        case serviceUnavailable(ServiceUnavailable)

        /// The service could not be reached.
        public struct NetworkFailure: Sendable {
            public var debugDescription: String
            public init(debugDescription: String) { self.debugDescription = debugDescription }
        }

        /// The account used up its quota.
        public struct QuotaLimitReached: Sendable {
            public var limitIncreaseSuggestion: QuotaUsage.LimitIncreaseSuggestion?
            public var resetDate: Date?
            public var debugDescription: String
            public init(limitIncreaseSuggestion: QuotaUsage.LimitIncreaseSuggestion? = nil, resetDate: Date? = nil, debugDescription: String) {
                self.limitIncreaseSuggestion = limitIncreaseSuggestion
                self.resetDate = resetDate
                self.debugDescription = debugDescription
            }
        }

        /// The service is not available.
        public struct ServiceUnavailable: Sendable {
            public var debugDescription: String
            public init(debugDescription: String) { self.debugDescription = debugDescription }
        }

        public var debugDescription: String {
            switch self {
            case .networkFailure(let e): e.debugDescription
            case .quotaLimitReached(let e): e.debugDescription
            case .serviceUnavailable(let e): e.debugDescription
            }
        }

        public var errorDescription: String? {
            switch self {
            case .networkFailure: "Private Cloud Compute could not be reached."
            case .quotaLimitReached: "The Private Cloud Compute quota is used up."
            case .serviceUnavailable(let e): "Private Cloud Compute is unavailable. \(e.debugDescription)"
            }
        }
    }
}

extension PrivateCloudComputeLanguageModel: AvailabilityReporting {
    package var unavailabilityError: (any Swift.Error)? {
        guard case .unavailable = availability else { return nil }
        return Error.serviceUnavailable(.init(debugDescription: Self.unavailableReason))
    }
}

extension PrivateCloudComputeLanguageModel: LanguageModel {
    /// The executor for Private Cloud Compute.
    public struct Executor: LanguageModelExecutor {
        public typealias Model = PrivateCloudComputeLanguageModel

        /// There is one Private Cloud Compute service; its executors are alike.
        public struct Configuration: Hashable, Sendable {}

        public init(configuration: Configuration) {}

        public func prewarm(model: PrivateCloudComputeLanguageModel, transcript: Transcript) {}

        public func respond(
            to request: LanguageModelExecutorGenerationRequest,
            model: PrivateCloudComputeLanguageModel,
            streamingInto channel: LanguageModelExecutorGenerationChannel
        ) async throws {
            throw Error.serviceUnavailable(.init(debugDescription: PrivateCloudComputeLanguageModel.unavailableReason))
        }
    }

    public var capabilities: LanguageModelCapabilities {
        LanguageModelCapabilities(capabilities: [.guidedGeneration, .toolCalling, .reasoning])
    }

    public var executorConfiguration: Executor.Configuration { Executor.Configuration() }
}
