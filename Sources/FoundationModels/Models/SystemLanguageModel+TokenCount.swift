extension SystemLanguageModel {
    /// The number of tokens `instructions` take in the model's context.
    nonisolated(nonsending)
        public final func tokenCount(for instructions: Instructions) async throws -> Int
    {
        try await SystemModelRuntime.tokenCount(
            of: .instructions(Transcript.Instructions(segments: instructions.segments, toolDefinitions: [])), configuration)
    }

    /// The number of tokens `prompt` (a string, a `Prompt`, a Generable
    /// value…) takes in the model's context.
    nonisolated(nonsending)
        public final func tokenCount(for prompt: some PromptRepresentable) async throws -> Int
    {
        try await SystemModelRuntime.tokenCount(of: .prompt(Transcript.Prompt(segments: prompt.promptRepresentation.segments)), configuration)
    }

    /// The number of tokens the definitions of `tools` take in the model's context.
    nonisolated(nonsending)
        public final func tokenCount(for tools: [any Tool]) async throws -> Int
    {
        try await SystemModelRuntime.tokenCount(
            of: .instructions(
                Transcript.Instructions(
                    segments: [],
                    toolDefinitions: tools.map { Transcript.ToolDefinition(tool: $0) }
                )), configuration)
    }

    /// The number of tokens the rendering of `schema` takes in the model's context.
    nonisolated(nonsending)
        public final func tokenCount(for schema: GenerationSchema) async throws -> Int
    {
        try await SystemModelRuntime.tokenCount(of: schema, configuration)
    }

    /// The number of tokens `entries` take in the model's context.
    nonisolated(nonsending)
        public final func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int
    {
        var total = 0
        for entry in entries {
            total += try await SystemModelRuntime.tokenCount(of: entry, configuration)
        }
        return total
    }
}
