import Foundation
import Observation

/// Apple's larger server model, reached through Private Cloud Compute.
///
/// Off Apple's devices the private cloud is the user's own model server:
/// any OpenAI-compatible endpoint (llama-server, vLLM, Ollama), configured
/// by the environment — `FOUNDATION_MODELS_PCC_URL` (the API root, such as
/// `http://127.0.0.1:8080/v1`), `FOUNDATION_MODELS_PCC_MODEL`,
/// `FOUNDATION_MODELS_PCC_API_KEY` and optionally
/// `FOUNDATION_MODELS_PCC_CONTEXT_SIZE` — or by
/// ``init(url:model:apiKey:contextSize:options:)``. Requests go through the
/// same executor as ``OpenAICompatibleLanguageModel`` and fail with this
/// type's own errors: no connection or a timeout → ``Error/networkFailure(_:)``,
/// a server error → ``Error/serviceUnavailable(_:)``, HTTP 429 →
/// ``Error/quotaLimitReached(_:)`` with the reset date from `Retry-After`.
///
/// Unconfigured, the model is `.unavailable(.systemNotReady)` and a request
/// fails with `serviceUnavailable` before anything is sent. After a request
/// could not reach the server, ``availability`` says so until one does.
public final class PrivateCloudComputeLanguageModel: Sendable, Observable {
    /// The server, or why there is none.
    let backend: Result<PrivateCloudComputeBackend, ServerModelError>

    /// The model the environment configures (`FOUNDATION_MODELS_PCC_*`).
    public init() {
        backend = PrivateCloudComputeBackend.fromEnvironment()
    }

    /// A model on the OpenAI-compatible server at `url` (the API root).
    ///
    /// - Parameters:
    ///   - url: `https://`, or `http://` to this machine.
    ///   - model: the model name the server knows.
    ///   - apiKey: sent as `Authorization: Bearer`, when given.
    ///   - contextSize: the model's context, when known; otherwise
    ///     ``contextSize`` asks the server (`max_model_len` in `/v1/models`,
    ///     as vLLM and fm serve report it, or llama-server's `/props`).
    ///   - options: timeouts, size limit and retries.
    /// - Throws: ``ServerModelError`` for a URL that is not http(s) or is
    ///   plain HTTP to another machine.
    public init(url: URL, model: String, apiKey: String? = nil, contextSize: Int? = nil, options: ServerOptions = ServerOptions()) throws {
        let endpoint = try RemoteEndpoint(url)
        backend = .success(
            PrivateCloudComputeBackend(
                chat: OpenAIChatConfiguration(endpoint: endpoint, model: model, apiKey: apiKey.map(APIKey.init), options: options),
                contextSize: contextSize
            ))
    }

    /// Whether the model can be used here, and why not if it cannot.
    public var availability: Availability {
        guard case .success(let backend) = backend else { return .unavailable(.systemNotReady) }
        return backend.state.isUnreachable ? .unavailable(.systemNotReady) : .available
    }

    /// Whether ``availability`` is `.available`.
    public var isAvailable: Bool { availability == .available }

    /// How much of the account's quota is used: at its limit after the
    /// server answered 429, until the reset date it gave.
    public var quotaUsage: QuotaUsage {
        if case .success(let backend) = backend, let reset = backend.state.quotaReset {
            return QuotaUsage(status: .limitReached(.init()), resetDate: reset)
        }
        return QuotaUsage(status: .belowLimit(.init(isApproachingLimit: false)))
    }

    /// The number of tokens the model's context holds: the configured
    /// size, else what the server reports (`max_model_len` in `/v1/models`,
    /// or llama-server's `/props`).
    public var contextSize: Int {
        get async throws {
            let backend = try backend.mapError { Error.serviceUnavailable(.init(debugDescription: $0.description)) }.get()
            if let size = backend.contextSize { return size }
            return try await backend.serverContextSize()
        }
    }

    /// The languages the model supports. An OpenAI-compatible server does
    /// not say which it serves, so none are claimed; throws
    /// `serviceUnavailable` when no server is configured.
    public var supportedLanguages: Set<Locale.Language> {
        get async throws {
            _ = try backend.mapError { Error.serviceUnavailable(.init(debugDescription: $0.description)) }.get()
            return []
        }
    }

    /// Whether the model supports `locale`'s language.
    public func supportsLocale(_ locale: Locale = Locale.current) async throws -> Bool {
        guard let code = locale.language.languageCode else { return false }
        return try await supportedLanguages.contains { $0.languageCode == code }
    }

    static let unconfiguredReason =
        "Private Cloud Compute has no server: set FOUNDATION_MODELS_PCC_URL and FOUNDATION_MODELS_PCC_MODEL (an OpenAI-compatible endpoint), or use init(url:model:apiKey:contextSize:options:)."

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

        package init(status: Status, limitIncreaseSuggestion: LimitIncreaseSuggestion? = nil, resetDate: Date? = nil) {
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
    /// Refuses a request before it is sent when there is no server, or
    /// while the quota is used up. A server that could not be reached is
    /// tried again: only a request can tell that it is back.
    package var unavailabilityError: (any Swift.Error)? {
        switch backend {
        case .failure(let problem):
            return Error.serviceUnavailable(.init(debugDescription: problem.description))
        case .success(let backend):
            guard let reset = backend.state.quotaReset else { return nil }
            return Error.quotaLimitReached(.init(resetDate: reset, debugDescription: "The server's quota is used up until \(reset)."))
        }
    }
}

extension PrivateCloudComputeLanguageModel: LanguageModel {
    /// The executor for Private Cloud Compute: the OpenAI-compatible
    /// executor, surfacing this model's errors.
    public struct Executor: LanguageModelExecutor {
        public typealias Model = PrivateCloudComputeLanguageModel

        /// The server, model, key and options; equal configurations share an executor.
        public struct Configuration: Hashable, Sendable {
            let backend: PrivateCloudComputeBackend?
        }

        let client: OpenAIChatClient?

        public init(configuration: Configuration) {
            client = configuration.backend.map { backend in
                OpenAIChatClient(configuration: backend.chat, family: .privateCloudCompute) { failure in
                    backend.state.record(failure)
                }
            }
        }

        public func prewarm(model: PrivateCloudComputeLanguageModel, transcript: Transcript) {}

        public func respond(
            to request: LanguageModelExecutorGenerationRequest,
            model: PrivateCloudComputeLanguageModel,
            streamingInto channel: LanguageModelExecutorGenerationChannel
        ) async throws {
            guard let client else {
                throw Error.serviceUnavailable(.init(debugDescription: PrivateCloudComputeLanguageModel.unconfiguredReason))
            }
            try await client.respond(to: request, streamingInto: channel)
        }
    }

    public var capabilities: LanguageModelCapabilities {
        LanguageModelCapabilities(capabilities: [.guidedGeneration, .toolCalling, .reasoning])
    }

    public var executorConfiguration: Executor.Configuration {
        Executor.Configuration(backend: try? backend.get())
    }
}
