import Foundation

/// What a caller asked of the session, with the result type erased so the
/// engine is not generic: the content is validated by a closure that decodes
/// it into the caller's type.
struct RequestSpec: Sendable {
    var prompt: Prompt
    /// The schema to enforce, or `nil` for free text.
    var schema: GenerationSchema?
    var responseFormat: Transcript.ResponseFormat?
    var options: GenerationOptions
    var contextOptions: ContextOptions
    /// Values for the executor, recorded on the prompt entry.
    var metadata: [String: GeneratedContent]
    /// Throws when the final content does not decode into the caller's type.
    var validate: @Sendable (GeneratedContent) throws -> Void
    /// The model's tool calls end the request and go back to the caller,
    /// who runs the tools (``LanguageModelSession/turn(to:schema:earlierRounds:options:onSnapshot:)``),
    /// instead of the session's own tools running them.
    var callerRunsTools = false
    /// Tool rounds of this request that came before it (the caller ran
    /// them): placed after the prompt, as the session's own rounds are.
    var earlierRounds: [Transcript.Entry] = []
}

extension LanguageModelSession {
    /// A request for free text.
    func specForText(
        _ prompt: Prompt,
        options: GenerationOptions,
        contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) -> RequestSpec {
        RequestSpec(
            prompt: prompt,
            schema: nil,
            responseFormat: nil,
            options: options,
            contextOptions: contextOptions,
            metadata: metadata.mapValues(\.generatedContent),
            validate: { _ = try String($0) }
        )
    }

    /// A request for content following a dynamic schema.
    func specForSchema(
        _ prompt: Prompt,
        schema: GenerationSchema,
        options: GenerationOptions,
        contextOptions: ContextOptions,
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) -> RequestSpec {
        RequestSpec(
            prompt: prompt,
            schema: schema,
            responseFormat: Transcript.ResponseFormat(schema: schema),
            options: options,
            contextOptions: contextOptions,
            metadata: metadata.mapValues(\.generatedContent),
            validate: { _ in }
        )
    }

    /// A request for a value of a Generable type. `String` is free text.
    func specForType<Content: Generable>(
        _ prompt: Prompt,
        type: Content.Type,
        options: GenerationOptions,
        contextOptions: ContextOptions,
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) -> RequestSpec {
        if Content.self == String.self {
            return specForText(prompt, options: options, contextOptions: contextOptions, metadata: metadata)
        }
        return RequestSpec(
            prompt: prompt,
            schema: Content.generationSchema,
            responseFormat: Transcript.ResponseFormat(type: Content.self),
            options: options,
            contextOptions: contextOptions,
            metadata: metadata.mapValues(\.generatedContent),
            validate: { _ = try Content($0) }
        )
    }

    /// Runs a request and decodes its content in the caller's isolation.
    nonisolated(nonsending)
        func response<Content: Generable>(for spec: RequestSpec) async throws -> Response<Content>
    {
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
        ResponseStream(
            run: StreamRun { [self] onSnapshot in
                try await self.perform(spec, onSnapshot: onSnapshot)
            })
    }
}
