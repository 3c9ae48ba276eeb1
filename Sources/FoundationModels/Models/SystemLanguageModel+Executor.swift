extension SystemLanguageModel: LanguageModel {
    /// The system model's executor: the in-process llama.cpp engine.
    public struct Executor: LanguageModelExecutor {
        /// What distinguishes one system-model executor from another: the
        /// engine configuration (model file, context size, threads, pool).
        public struct Configuration: Hashable, Sendable {
            let engine: SystemLanguageModel.Configuration
            let useCase: String
        }

        public typealias Model = SystemLanguageModel

        let configuration: Configuration

        public init(configuration: Configuration) {
            self.configuration = configuration
        }

        public func prewarm(model: SystemLanguageModel, transcript: Transcript) {
            SystemModelRuntime.prewarm(configuration.engine, transcript: transcript)
        }

        public func respond(
            to request: LanguageModelExecutorGenerationRequest,
            model: SystemLanguageModel,
            streamingInto channel: LanguageModelExecutorGenerationChannel
        ) async throws {
            try await SystemModelRuntime.respond(to: request, model: model, engine: configuration.engine, streamingInto: channel)
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

extension SystemLanguageModel.Executor: ReleasableExecutor {
    /// Drops the engine for this configuration: its weights and contexts are
    /// freed once the requests in flight finish.
    package func release() {
        SystemModelRuntime.unload(configuration.engine)
    }
}
