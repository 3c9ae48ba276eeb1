extension LanguageModelSession {
    /// A request for free text.
    func specForText(_ prompt: Prompt, options: GenerationOptions) -> RequestSpec {
        RequestSpec(
            prompt: prompt,
            schema: nil,
            responseFormat: nil,
            includeSchemaInPrompt: false,
            options: options,
            validate: { _ = try String($0) }
        )
    }

    /// A request for content following a dynamic schema.
    func specForSchema(
        _ prompt: Prompt,
        schema: GenerationSchema,
        includeSchemaInPrompt: Bool,
        options: GenerationOptions
    ) -> RequestSpec {
        RequestSpec(
            prompt: prompt,
            schema: schema,
            responseFormat: Transcript.ResponseFormat(schema: schema),
            includeSchemaInPrompt: includeSchemaInPrompt,
            options: options,
            validate: { _ in }
        )
    }

    /// A request for a value of a Generable type. `String` is free text.
    func specForType<Content: Generable>(
        _ prompt: Prompt,
        type: Content.Type,
        includeSchemaInPrompt: Bool,
        options: GenerationOptions
    ) -> RequestSpec {
        if Content.self == String.self {
            return specForText(prompt, options: options)
        }
        return RequestSpec(
            prompt: prompt,
            schema: Content.generationSchema,
            responseFormat: Transcript.ResponseFormat(type: Content.self),
            includeSchemaInPrompt: includeSchemaInPrompt,
            options: options,
            validate: { _ = try Content($0) }
        )
    }

    /// Runs a request and decodes its content in the caller's isolation.
    nonisolated(nonsending)
    func response<Content: Generable>(for spec: RequestSpec) async throws -> Response<Content> {
        let result = try await perform(spec)
        return Response(
            content: try Content(result.rawContent),
            rawContent: result.rawContent,
            transcriptEntries: result.transcriptEntries,
            usage: result.usage
        )
    }

    /// A stream whose generation starts on first iteration.
    func stream<Content: Generable>(for spec: RequestSpec) -> ResponseStream<Content> {
        ResponseStream(run: StreamRun { [self] onSnapshot in
            try await self.perform(spec, onSnapshot: onSnapshot)
        })
    }
}
