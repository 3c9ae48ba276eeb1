import Foundation

/// Where the system model's facts come from. Until the in-process engine is
/// linked, there is no model to run, so the system model reports
/// `.unavailable(.modelNotReady)` and every request fails with
/// `assetsUnavailable`.
enum SystemModelRuntime {
    static var availability: SystemLanguageModel.Availability { .unavailable(.modelNotReady) }
    static var supportedLanguages: Set<Locale.Language> { [] }
    static var contextSize: Int { 4096 }
}

extension SystemLanguageModel: LanguageModel {
    /// The system model's executor.
    public struct Executor: LanguageModelExecutor {
        /// What distinguishes one system-model executor from another.
        public struct Configuration: Hashable, Sendable {
            let useCase: String
            let guardrails: String
            let adapter: URL?
        }

        public typealias Model = SystemLanguageModel

        public init(configuration: Configuration) throws {}

        public func respond(
            to request: LanguageModelExecutorGenerationRequest,
            model: SystemLanguageModel,
            streamingInto channel: LanguageModelExecutorGenerationChannel
        ) async throws {
            throw LanguageModelSession.GenerationError.assetsUnavailable(.init(
                debugDescription: "The system language model is not available: \(model.availability)."
            ))
        }
    }

    public var capabilities: LanguageModelCapabilities {
        LanguageModelCapabilities([.guidedGeneration, .toolCalling])
    }

    public var executorConfiguration: Executor.Configuration {
        Executor.Configuration(useCase: useCase.name, guardrails: guardrails.name, adapter: adapter?.fileURL)
    }
}
