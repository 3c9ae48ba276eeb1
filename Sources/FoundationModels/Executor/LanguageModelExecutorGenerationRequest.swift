import Foundation

/// Everything an executor needs for one generation: the conversation so far,
/// the tools it may call, the schema to enforce and the options to honour.
public struct LanguageModelExecutorGenerationRequest: Sendable {
    /// The request identifier.
    public var id: UUID
    /// The transcript to generate the next entry for; its last entry is the
    /// prompt (or the outputs of the tools called in the previous round).
    public var transcript: Transcript
    /// The tools the model may call in this request.
    public var enabledToolDefinitions: [Transcript.ToolDefinition]
    /// The schema the response must follow, or `nil` for free text.
    public var schema: GenerationSchema?
    /// Sampling, temperature, length and tool-calling preferences.
    public var generationOptions: GenerationOptions
    /// How the model is prompted.
    public var contextOptions: ContextOptions
    /// Additional values for the executor, keyed by name.
    public var metadata: [String: GeneratedContent]

    /// Creates a generation request.
    public init(
        id: UUID,
        transcript: Transcript,
        enabledTools: [Transcript.ToolDefinition],
        schema: GenerationSchema? = nil,
        generationOptions: GenerationOptions,
        contextOptions: ContextOptions,
        metadata: [String: any ConvertibleToGeneratedContent]
    ) {
        self.id = id
        self.transcript = transcript
        self.enabledToolDefinitions = enabledTools
        self.schema = schema
        self.generationOptions = generationOptions
        self.contextOptions = contextOptions
        self.metadata = metadata.mapValues(\.generatedContent)
    }
}
