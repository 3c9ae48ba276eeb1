// The respond and streamResponse overloads of Apple's API: the prompt as a
// `Prompt`, a `String` (disfavored) or a `@PromptBuilder` closure, times
// text, a dynamic schema, or a Generable type — 9 of each from the 26 SDK
// (`includeSchemaInPrompt:`), and 9 of each from the 27 SDK
// (`contextOptions:metadata:`). Each funnels into `perform(_:onSnapshot:)`.
// A call that names neither `includeSchemaInPrompt` nor the 27 parameters
// resolves to the 26 overload (it uses fewer default arguments).

extension LanguageModelSession {
    /// Responds to `prompt` with text.
    @discardableResult
    nonisolated(nonsending)
        public func respond(
            to prompt: Prompt,
            options: GenerationOptions = GenerationOptions()
        ) async throws -> Response<String>
    {
        try await response(for: specForText(prompt, options: options, contextOptions: ContextOptions()))
    }

    /// Responds to `prompt` with text.
    @discardableResult
    @_disfavoredOverload
    nonisolated(nonsending)
        public func respond(
            to prompt: String,
            options: GenerationOptions = GenerationOptions()
        ) async throws -> Response<String>
    {
        try await respond(to: Prompt { prompt }, options: options)
    }

    /// Responds to the prompt the builder produces with text.
    @discardableResult
    nonisolated(nonsending)
        public func respond(
            options: GenerationOptions = GenerationOptions(),
            @PromptBuilder prompt: () throws -> Prompt
        ) async throws -> Response<String>
    {
        try await respond(to: try prompt(), options: options)
    }

    /// Streams the response to `prompt`: text.
    public func streamResponse(
        to prompt: Prompt,
        options: GenerationOptions = GenerationOptions()
    ) -> ResponseStream<String> {
        stream(for: specForText(prompt, options: options, contextOptions: ContextOptions()))
    }

    /// Streams the response to `prompt`: text.
    @_disfavoredOverload
    public func streamResponse(
        to prompt: String,
        options: GenerationOptions = GenerationOptions()
    ) -> ResponseStream<String> {
        streamResponse(to: Prompt { prompt }, options: options)
    }

    /// Streams the response to the prompt the builder produces: text.
    public func streamResponse(
        options: GenerationOptions = GenerationOptions(),
        @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> ResponseStream<String> {
        streamResponse(to: try prompt(), options: options)
    }

    /// Responds to `prompt` with content following `schema`.
    @discardableResult
    nonisolated(nonsending)
        public func respond(
            to prompt: Prompt,
            schema: GenerationSchema,
            includeSchemaInPrompt: Bool = true,
            options: GenerationOptions = GenerationOptions()
        ) async throws -> Response<GeneratedContent>
    {
        try await response(
            for: specForSchema(prompt, schema: schema, options: options, contextOptions: ContextOptions(includeSchemaInPrompt: includeSchemaInPrompt))
        )
    }

    /// Responds to `prompt` with content following `schema`.
    @discardableResult
    @_disfavoredOverload
    nonisolated(nonsending)
        public func respond(
            to prompt: String,
            schema: GenerationSchema,
            includeSchemaInPrompt: Bool = true,
            options: GenerationOptions = GenerationOptions()
        ) async throws -> Response<GeneratedContent>
    {
        try await respond(to: Prompt { prompt }, schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Responds to the prompt the builder produces with content following `schema`.
    @discardableResult
    nonisolated(nonsending)
        public func respond(
            schema: GenerationSchema,
            includeSchemaInPrompt: Bool = true,
            options: GenerationOptions = GenerationOptions(),
            @PromptBuilder prompt: () throws -> Prompt
        ) async throws -> Response<GeneratedContent>
    {
        try await respond(to: try prompt(), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Streams the response to `prompt`: content following `schema`.
    public func streamResponse(
        to prompt: Prompt,
        schema: GenerationSchema,
        includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) -> ResponseStream<GeneratedContent> {
        stream(
            for: specForSchema(prompt, schema: schema, options: options, contextOptions: ContextOptions(includeSchemaInPrompt: includeSchemaInPrompt))
        )
    }

    /// Streams the response to `prompt`: content following `schema`.
    @_disfavoredOverload
    public func streamResponse(
        to prompt: String,
        schema: GenerationSchema,
        includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) -> ResponseStream<GeneratedContent> {
        streamResponse(to: Prompt { prompt }, schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Streams the response to the prompt the builder produces: content following `schema`.
    public func streamResponse(
        schema: GenerationSchema,
        includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions(),
        @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> ResponseStream<GeneratedContent> {
        streamResponse(to: try prompt(), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Responds to `prompt` with a value of `type`.
    @discardableResult
    nonisolated(nonsending)
        public func respond<Content: Generable>(
            to prompt: Prompt,
            generating type: Content.Type = Content.self,
            includeSchemaInPrompt: Bool = true,
            options: GenerationOptions = GenerationOptions()
        ) async throws -> Response<Content>
    {
        try await response(
            for: specForType(prompt, type: type, options: options, contextOptions: ContextOptions(includeSchemaInPrompt: includeSchemaInPrompt)))
    }

    /// Responds to `prompt` with a value of `type`.
    @discardableResult
    @_disfavoredOverload
    nonisolated(nonsending)
        public func respond<Content: Generable>(
            to prompt: String,
            generating type: Content.Type = Content.self,
            includeSchemaInPrompt: Bool = true,
            options: GenerationOptions = GenerationOptions()
        ) async throws -> Response<Content>
    {
        try await respond(to: Prompt { prompt }, generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Responds to the prompt the builder produces with a value of `type`.
    @discardableResult
    nonisolated(nonsending)
        public func respond<Content: Generable>(
            generating type: Content.Type = Content.self,
            includeSchemaInPrompt: Bool = true,
            options: GenerationOptions = GenerationOptions(),
            @PromptBuilder prompt: () throws -> Prompt
        ) async throws -> Response<Content>
    {
        try await respond(to: try prompt(), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Streams the response to `prompt`: a value of `type`.
    public func streamResponse<Content: Generable>(
        to prompt: Prompt,
        generating type: Content.Type = Content.self,
        includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) -> ResponseStream<Content> {
        stream(for: specForType(prompt, type: type, options: options, contextOptions: ContextOptions(includeSchemaInPrompt: includeSchemaInPrompt)))
    }

    /// Streams the response to `prompt`: a value of `type`.
    @_disfavoredOverload
    public func streamResponse<Content: Generable>(
        to prompt: String,
        generating type: Content.Type = Content.self,
        includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) -> ResponseStream<Content> {
        streamResponse(to: Prompt { prompt }, generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Streams the response to the prompt the builder produces: a value of `type`.
    public func streamResponse<Content: Generable>(
        generating type: Content.Type = Content.self,
        includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions(),
        @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> ResponseStream<Content> {
        streamResponse(to: try prompt(), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }
}

extension LanguageModelSession {
    /// Responds to `prompt` with text.
    @discardableResult
    nonisolated(nonsending)
        public func respond(
            to prompt: Prompt,
            options: GenerationOptions = GenerationOptions(),
            contextOptions: ContextOptions = ContextOptions(),
            metadata: [String: any ConvertibleToGeneratedContent] = [:]
        ) async throws -> Response<String>
    {
        try await response(for: specForText(prompt, options: options, contextOptions: contextOptions, metadata: metadata))
    }

    /// Responds to `prompt` with text.
    @discardableResult
    @_disfavoredOverload
    nonisolated(nonsending)
        public func respond(
            to prompt: String,
            options: GenerationOptions = GenerationOptions(),
            contextOptions: ContextOptions = ContextOptions(),
            metadata: [String: any ConvertibleToGeneratedContent] = [:]
        ) async throws -> Response<String>
    {
        try await respond(to: Prompt { prompt }, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Responds to the prompt the builder produces with text.
    @discardableResult
    nonisolated(nonsending)
        public func respond(
            options: GenerationOptions = GenerationOptions(),
            contextOptions: ContextOptions = ContextOptions(),
            metadata: [String: any ConvertibleToGeneratedContent] = [:],
            @PromptBuilder prompt: () throws -> Prompt
        ) async throws -> Response<String>
    {
        try await respond(to: try prompt(), options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Streams the response to `prompt`: text.
    public func streamResponse(
        to prompt: Prompt,
        options: GenerationOptions = GenerationOptions(),
        contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) -> ResponseStream<String> {
        stream(for: specForText(prompt, options: options, contextOptions: contextOptions, metadata: metadata))
    }

    /// Streams the response to `prompt`: text.
    @_disfavoredOverload
    public func streamResponse(
        to prompt: String,
        options: GenerationOptions = GenerationOptions(),
        contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) -> ResponseStream<String> {
        streamResponse(to: Prompt { prompt }, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Streams the response to the prompt the builder produces: text.
    public func streamResponse(
        options: GenerationOptions = GenerationOptions(),
        contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:],
        @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> ResponseStream<String> {
        streamResponse(to: try prompt(), options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Responds to `prompt` with content following `schema`.
    @discardableResult
    nonisolated(nonsending)
        public func respond(
            to prompt: Prompt,
            schema: GenerationSchema,
            options: GenerationOptions = GenerationOptions(),
            contextOptions: ContextOptions = ContextOptions(),
            metadata: [String: any ConvertibleToGeneratedContent] = [:]
        ) async throws -> Response<GeneratedContent>
    {
        try await response(for: specForSchema(prompt, schema: schema, options: options, contextOptions: contextOptions, metadata: metadata))
    }

    /// Responds to `prompt` with content following `schema`.
    @discardableResult
    @_disfavoredOverload
    nonisolated(nonsending)
        public func respond(
            to prompt: String,
            schema: GenerationSchema,
            options: GenerationOptions = GenerationOptions(),
            contextOptions: ContextOptions = ContextOptions(),
            metadata: [String: any ConvertibleToGeneratedContent] = [:]
        ) async throws -> Response<GeneratedContent>
    {
        try await respond(to: Prompt { prompt }, schema: schema, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Responds to the prompt the builder produces with content following `schema`.
    @discardableResult
    nonisolated(nonsending)
        public func respond(
            schema: GenerationSchema,
            options: GenerationOptions = GenerationOptions(),
            contextOptions: ContextOptions = ContextOptions(),
            metadata: [String: any ConvertibleToGeneratedContent] = [:],
            @PromptBuilder prompt: () throws -> Prompt
        ) async throws -> Response<GeneratedContent>
    {
        try await respond(to: try prompt(), schema: schema, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Streams the response to `prompt`: content following `schema`.
    public func streamResponse(
        to prompt: Prompt,
        schema: GenerationSchema,
        options: GenerationOptions = GenerationOptions(),
        contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) -> ResponseStream<GeneratedContent> {
        stream(for: specForSchema(prompt, schema: schema, options: options, contextOptions: contextOptions, metadata: metadata))
    }

    /// Streams the response to `prompt`: content following `schema`.
    @_disfavoredOverload
    public func streamResponse(
        to prompt: String,
        schema: GenerationSchema,
        options: GenerationOptions = GenerationOptions(),
        contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) -> ResponseStream<GeneratedContent> {
        streamResponse(to: Prompt { prompt }, schema: schema, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Streams the response to the prompt the builder produces: content following `schema`.
    public func streamResponse(
        schema: GenerationSchema,
        options: GenerationOptions = GenerationOptions(),
        contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:],
        @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> ResponseStream<GeneratedContent> {
        streamResponse(to: try prompt(), schema: schema, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Responds to `prompt` with a value of `type`.
    @discardableResult
    nonisolated(nonsending)
        public func respond<Content: Generable>(
            to prompt: Prompt,
            generating type: Content.Type = Content.self,
            options: GenerationOptions = GenerationOptions(),
            contextOptions: ContextOptions = ContextOptions(),
            metadata: [String: any ConvertibleToGeneratedContent] = [:]
        ) async throws -> Response<Content>
    {
        try await response(for: specForType(prompt, type: type, options: options, contextOptions: contextOptions, metadata: metadata))
    }

    /// Responds to `prompt` with a value of `type`.
    @discardableResult
    @_disfavoredOverload
    nonisolated(nonsending)
        public func respond<Content: Generable>(
            to prompt: String,
            generating type: Content.Type = Content.self,
            options: GenerationOptions = GenerationOptions(),
            contextOptions: ContextOptions = ContextOptions(),
            metadata: [String: any ConvertibleToGeneratedContent] = [:]
        ) async throws -> Response<Content>
    {
        try await respond(to: Prompt { prompt }, generating: type, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Responds to the prompt the builder produces with a value of `type`.
    @discardableResult
    nonisolated(nonsending)
        public func respond<Content: Generable>(
            generating type: Content.Type = Content.self,
            options: GenerationOptions = GenerationOptions(),
            contextOptions: ContextOptions = ContextOptions(),
            metadata: [String: any ConvertibleToGeneratedContent] = [:],
            @PromptBuilder prompt: () throws -> Prompt
        ) async throws -> Response<Content>
    {
        try await respond(to: try prompt(), generating: type, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Streams the response to `prompt`: a value of `type`.
    public func streamResponse<Content: Generable>(
        to prompt: Prompt,
        generating type: Content.Type = Content.self,
        options: GenerationOptions = GenerationOptions(),
        contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) -> ResponseStream<Content> {
        stream(for: specForType(prompt, type: type, options: options, contextOptions: contextOptions, metadata: metadata))
    }

    /// Streams the response to `prompt`: a value of `type`.
    @_disfavoredOverload
    public func streamResponse<Content: Generable>(
        to prompt: String,
        generating type: Content.Type = Content.self,
        options: GenerationOptions = GenerationOptions(),
        contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) -> ResponseStream<Content> {
        streamResponse(to: Prompt { prompt }, generating: type, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Streams the response to the prompt the builder produces: a value of `type`.
    public func streamResponse<Content: Generable>(
        generating type: Content.Type = Content.self,
        options: GenerationOptions = GenerationOptions(),
        contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:],
        @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> ResponseStream<Content> {
        streamResponse(to: try prompt(), generating: type, options: options, contextOptions: contextOptions, metadata: metadata)
    }
}
