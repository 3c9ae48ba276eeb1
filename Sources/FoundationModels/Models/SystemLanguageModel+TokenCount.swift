extension SystemLanguageModel {
    /// The number of tokens `instructions` take in the model's context.
    nonisolated(nonsending)
    public final func tokenCount(for instructions: Instructions) async throws -> Int {
        try await SystemModelRuntime.tokenCount(of: .instructions(Transcript.Instructions(segments: instructions.segments, toolDefinitions: [])))
    }

    /// The number of tokens `prompt` takes in the model's context.
    nonisolated(nonsending)
    public final func tokenCount(for prompt: Prompt) async throws -> Int {
        try await SystemModelRuntime.tokenCount(of: .prompt(Transcript.Prompt(segments: prompt.segments)))
    }

    /// The number of tokens the definitions of `tools` take in the model's context.
    nonisolated(nonsending)
    public final func tokenCount(for tools: [any Tool]) async throws -> Int {
        try await SystemModelRuntime.tokenCount(of: .instructions(Transcript.Instructions(
            segments: [],
            toolDefinitions: tools.map { Transcript.ToolDefinition(tool: $0) }
        )))
    }

    /// The number of tokens the rendering of `schema` takes in the model's context.
    nonisolated(nonsending)
    public final func tokenCount(for schema: GenerationSchema) async throws -> Int {
        try await SystemModelRuntime.tokenCount(of: schema)
    }

    /// The number of tokens `entries` take in the model's context.
    nonisolated(nonsending)
    public final func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int {
        var total = 0
        for entry in entries {
            total += try await SystemModelRuntime.tokenCount(of: entry)
        }
        return total
    }
}

extension SystemModelRuntime {
    static func tokenCount(of entry: Transcript.Entry) async throws -> Int {
        throw unavailableError
    }

    static func tokenCount(of schema: GenerationSchema) async throws -> Int {
        throw unavailableError
    }

    static var unavailableError: LanguageModelSession.GenerationError {
        .assetsUnavailable(.init(debugDescription: "The system language model is not available (\(availability)), so its tokenizer cannot be used."))
    }
}
