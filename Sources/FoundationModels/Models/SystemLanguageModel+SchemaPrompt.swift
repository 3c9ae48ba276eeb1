extension SystemLanguageModel {
    /// What the prompt says about a response schema on this model: the
    /// description sent, how it was shortened, and what it costs.
    package struct SchemaPromptReport: Sendable {
        /// The description as sent (`includeSchemaInPrompt`).
        package var text: String
        /// The detail it was shortened to; nil: whole, in the configured style.
        package var detail: SchemaPromptDetail?
        /// Tokens the description takes.
        package var tokens: Int
        /// Tokens the whole description would take.
        package var wholeTokens: Int
        /// The budget it was fitted to.
        package var budget: Int?
    }

    #if LlamaCpp
    /// ``SchemaPromptReport`` for `schema`, rendered exactly as a request's
    /// prompt renders it (`fm tokens --schema`). Loads the model if it is
    /// not loaded yet.
    package func schemaPromptReport(for schema: GenerationSchema) async throws -> SchemaPromptReport {
        let rendering = try await OnDeviceEngine.shared(for: configuration).loaded().rendering
        let (text, detail) = rendering.schemaRendering(schema)
        let whole = schema.promptDescription(style: configuration.schemaPromptStyle)
        return SchemaPromptReport(
            text: text, detail: detail, tokens: rendering.countTokens(text), wholeTokens: rendering.countTokens(whole),
            budget: rendering.schemaTokenBudget)
    }
    #endif
}
