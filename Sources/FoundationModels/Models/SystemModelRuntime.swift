import Foundation
import LlamaKit
import Synchronization

/// The facts about the system model that need no loaded weights —
/// availability, languages, context size — read from the configuration and
/// the GGUF file's header, and cached per model file.
enum SystemModelRuntime {
    /// Cheap: a header check, no model load.
    static func availability(_ configuration: OnDeviceConfiguration) -> SystemLanguageModel.Availability {
        if configuration.isDisabled { return .unavailable(.appleIntelligenceNotEnabled) }
        guard LlamaBackend.isSupported else { return .unavailable(.deviceNotEligible) }
        guard (try? GGUFFile.validate(path: configuration.modelPath)) != nil else { return .unavailable(.modelNotReady) }
        return .available
    }

    private static let metadataCache = Mutex<[String: FileFacts]>([:])

    private struct FileFacts: Sendable {
        var languages: Set<Locale.Language>
        var trainedContextLength: Int?
    }

    private static func facts(for path: String) -> FileFacts? {
        if let cached = metadataCache.withLock({ $0[path] }) { return cached }
        guard let metadata = try? GGUFFile.metadata(path: path) else { return nil }
        var languages = Set<Locale.Language>()
        if case .array(let values)? = metadata["general.languages"] {
            for value in values {
                if let code = value.stringValue { languages.insert(Locale.Language(identifier: code)) }
            }
        }
        if languages.isEmpty {
            // Models that don't declare languages (SmolLM2 among them) are
            // English models.
            languages.insert(Locale.Language(identifier: "en"))
        }
        let architecture = metadata["general.architecture"]?.stringValue
        let trained = architecture.flatMap { metadata["\($0).context_length"]?.intValue }
        let facts = FileFacts(languages: languages, trainedContextLength: trained)
        metadataCache.withLock { $0[path] = facts }
        return facts
    }

    static func supportedLanguages(_ configuration: OnDeviceConfiguration) -> Set<Locale.Language> {
        facts(for: configuration.modelPath)?.languages ?? []
    }

    /// The configured context size, never above what the model was trained for.
    static func contextSize(_ configuration: OnDeviceConfiguration) -> Int {
        guard let trained = facts(for: configuration.modelPath)?.trainedContextLength, trained > 0 else {
            return configuration.contextSize
        }
        return min(configuration.contextSize, trained)
    }

    static func tokenCount(of entry: Transcript.Entry, _ configuration: OnDeviceConfiguration) async throws -> Int {
        try checkAvailable(configuration)
        return try await OnDeviceExecutor(configuration: configuration).tokenCount(of: entry)
    }

    static func tokenCount(of schema: GenerationSchema, _ configuration: OnDeviceConfiguration) async throws -> Int {
        try checkAvailable(configuration)
        return try await OnDeviceExecutor(configuration: configuration).tokenCount(of: schema.jsonSchema.jsonString)
    }

    /// Throws `assetsUnavailable`, explaining why, unless the model is available.
    static func checkAvailable(_ configuration: OnDeviceConfiguration) throws {
        if let error = unavailabilityError(configuration) { throw error }
    }

    /// `assetsUnavailable`, explaining why, or `nil` when the model is available.
    static func unavailabilityError(_ configuration: OnDeviceConfiguration) -> SystemLanguageModel.Error? {
        guard case .unavailable(let reason) = availability(configuration) else { return nil }
        return .assetsUnavailable(.init(
            debugDescription: "The on-device model is unavailable (\(reason)): \(explanation(reason, configuration))"
        ))
    }
}

extension SystemLanguageModel: AvailabilityReporting {
    package var unavailabilityError: (any Swift.Error)? {
        SystemModelRuntime.unavailabilityError(configuration)
    }
}

extension SystemLanguageModel.Executor: ReleasableExecutor {
    /// Drops the engine for this configuration: its weights and contexts are
    /// freed once the requests in flight finish.
    package func release() {
        OnDeviceEngine.release(executor.engine)
    }
}

extension SystemLanguageModel: LanguageModel {
    /// The system model's executor: the in-process llama.cpp engine.
    public struct Executor: LanguageModelExecutor {
        /// What distinguishes one system-model executor from another: the
        /// engine configuration (model file, context size, threads, pool).
        public struct Configuration: Hashable, Sendable {
            let engine: OnDeviceConfiguration
            let useCase: String
        }

        public typealias Model = SystemLanguageModel

        let executor: OnDeviceExecutor

        public init(configuration: Configuration) {
            self.executor = OnDeviceExecutor(configuration: configuration.engine)
        }

        public func prewarm(model: SystemLanguageModel, transcript: Transcript) {
            executor.prewarm(transcript: transcript)
        }

        public func respond(
            to request: LanguageModelExecutorGenerationRequest,
            model: SystemLanguageModel,
            streamingInto channel: LanguageModelExecutorGenerationChannel
        ) async throws {
            try SystemModelRuntime.checkAvailable(model.configuration)
            try await executor.respond(to: request, streamingInto: channel)
        }
    }

    /// The in-process model enforces response schemas token by token
    /// (guided generation), and tool calls the same way: every call names a
    /// declared tool with arguments that follow its schema.
    public var capabilities: LanguageModelCapabilities {
        LanguageModelCapabilities([.guidedGeneration, .toolCalling])
    }

    public var executorConfiguration: Executor.Configuration {
        Executor.Configuration(engine: configuration, useCase: useCase.name)
    }
}

extension SystemModelRuntime {
    static func explanation(_ reason: SystemLanguageModel.Availability.UnavailableReason, _ configuration: OnDeviceConfiguration) -> String {
        switch reason {
        case .deviceNotEligible:
            "llama.cpp has no usable compute backend on this machine."
        case .appleIntelligenceNotEnabled:
            "the model is switched off (FOUNDATION_MODELS_DISABLED is set)."
        case .modelNotReady:
            "no valid GGUF model at \(configuration.modelPath) (set FOUNDATION_MODELS_MODEL, or run `make setup` to install the default model)."
        }
    }
}
