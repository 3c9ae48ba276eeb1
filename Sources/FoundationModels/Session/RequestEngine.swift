import Foundation

/// What a completed request produced, before decoding into the caller's type.
struct RequestResult: Sendable {
    var rawContent: GeneratedContent
    var transcriptEntries: ArraySlice<Transcript.Entry>
    var usage: LanguageModelSession.Usage
    /// The calls that ended the request, when the caller runs the tools
    /// (``RequestSpec/callerRunsTools``); `rawContent` is then empty.
    var toolCalls: Transcript.ToolCalls?
}

/// A request in progress, as a streaming caller sees it after each delta.
struct RequestProgress: Sendable {
    /// The content so far: a partial string, or the partial JSON parsed so far.
    var content: GeneratedContent
    /// The text the model has written for the response so far (for a typed
    /// answer, the JSON text `content` was parsed from).
    var text: String
    /// The request's entries so far: its prompt, finished tool rounds, and
    /// the current turn's reasoning and response.
    var entries: [Transcript.Entry]
    /// The tokens read and written so far.
    var usage: LanguageModelSession.Usage
}

extension LanguageModelSession {
    /// Runs one request to completion: the executor, the tool rounds, and the
    /// commit of the new entries. On any error or cancellation the transcript
    /// is left as it was (unless the policy preserves what was added).
    ///
    /// `onSnapshot` receives the request's progress after every text delta.
    func perform(
        _ spec: RequestSpec,
        onSnapshot: (@Sendable (RequestProgress) -> Void)? = nil
    ) async throws -> RequestResult {
        let setup: RequestSetup
        do {
            setup = try beginResponding()
        } catch {
            throw surfaced(error, entries: [])
        }
        defer { endResponding() }
        var run = RequestRun(spec: spec, setup: setup)
        do {
            // Hooks and tools read and write this session's properties.
            return try await SessionPropertyValues.$current.withValue(properties) {
                try await perform(&run, onSnapshot: onSnapshot)
            }
        } catch {
            if run.setup.errorPolicy == .preserveTranscript, !run.added.isEmpty {
                _ = try? commit(run)
            }
            throw surfaced(error, entries: run.added)
        }
    }

    /// One request's state: what it runs with and what it has added so far.
    struct RequestRun {
        var spec: RequestSpec
        var setup: RequestSetup
        /// The entries this request has added: its prompt, tool rounds, reasoning, response.
        var added: [Transcript.Entry] = []
        var usage = Usage()
        /// The transcript version the request started from (see `commit`).
        var transcriptVersion = 0
        var history: [Transcript.Entry] = []
    }

    private func perform(_ run: inout RequestRun, onSnapshot: (@Sendable (RequestProgress) -> Void)?) async throws -> RequestResult {
        let spec = run.spec
        if let schema = spec.schema, !schema.unsupportedGuides.isEmpty {
            throw LanguageModelError.unsupportedGenerationGuide(
                .init(
                    schemaName: schema.name,
                    debugDescription: "\(schema.name) has guides that cannot be enforced: \(schema.unsupportedGuides.joined(separator: "; "))."
                ))
        }
        (run.history, run.transcriptVersion) = state.withLock { ($0.transcript.entries, $0.transcriptVersion) }
        let options = run.setup.adjusted(spec.options)
        try options.validate()
        let contextOptions = run.setup.adjusted(spec.contextOptions)
        let prompt = Transcript.Prompt(
            id: UUID().uuidString,
            metadata: spec.metadata,
            segments: spec.prompt.segments,
            options: options,
            responseFormat: spec.responseFormat,
            contextOptions: contextOptions
        )
        run.added = [.prompt(prompt)]
        try await run.setup.hooks.prompt(prompt)
        run.added += spec.earlierRounds

        var toolRounds = 0
        let maximumToolRounds = state.withLock { $0.maximumToolRounds }
        var previousCalls = Set(
            spec.earlierRounds.compactMap { entry -> String? in
                guard case .toolCalls(let calls) = entry else { return nil }
                return Self.signature(of: calls)
            })
        let structured = spec.schema != nil
        // Set once the model repeats a call it already made: the next round
        // answers from the outputs it has, with no tools.
        var mustAnswer = false

        while true {
            try Task.checkCancellation()
            let request = makeRequest(run, options: options, contextOptions: contextOptions, toolRound: toolRounds, mustAnswer: mustAnswer)
            let done = run.added
            let usageSoFar = run.usage
            let turn = try await runTurn(request, setup: run.setup, structured: structured) { accumulator, content in
                guard let onSnapshot else { return }
                var usage = usageSoFar
                usage.add(accumulator.usage)
                var current = accumulator.reasoningEntries
                #if DataAttachments
                current += accumulator.dataEntries.map(Transcript.Entry.data)
                #endif
                current += [
                    .response(
                        accumulator.responseEntry(
                            structured: structured ? content : nil,
                            schemaName: spec.responseFormat?.name ?? ""
                        ))
                ]
                onSnapshot(RequestProgress(content: content, text: accumulator.text, entries: done + current, usage: usage))
            }
            run.usage.add(turn.usage)
            run.added += turn.reasoningEntries
            #if DataAttachments
            run.added += turn.dataEntries.map(Transcript.Entry.data)
            #endif
            for case .reasoning(let reasoning) in turn.reasoningEntries { try await run.setup.hooks.reasoning(reasoning) }

            if !turn.toolCalls.isEmpty {
                toolRounds += 1
                guard toolRounds <= maximumToolRounds else {
                    throw GeneratedContent.ParsingError(
                        rawContent: turn.toolCalls.map { "\($0.name)(\($0.arguments))" }.joined(separator: "; "),
                        debugDescription:
                            "The model kept calling tools for \(maximumToolRounds) rounds without answering (maximumToolRounds is \(maximumToolRounds))."
                    )
                }
                let calls = try resolveToolCalls(turn, enabled: request.enabledToolDefinitions)
                guard previousCalls.insert(Self.signature(of: calls)).inserted else {
                    // The outputs of this very call are already in the
                    // transcript: calling again cannot tell the model more.
                    mustAnswer = true
                    continue
                }
                run.added.append(.toolCalls(calls))
                for call in calls { try await run.setup.hooks.toolCall(call) }
                if spec.callerRunsTools {
                    try Task.checkCancellation()
                    let entries = try commit(run)
                    return RequestResult(rawContent: GeneratedContent(""), transcriptEntries: entries, usage: run.usage, toolCalls: calls)
                }
                let outputs = try await invokeTools(Array(calls), tools: run.setup.tools)
                for (call, output) in zip(calls, outputs) { try await run.setup.hooks.toolOutput(call, output) }
                run.added += outputs.map { .toolOutput($0) }
                continue
            }

            let rawContent = try finalContent(of: turn, structured: structured)
            do {
                try spec.validate(rawContent)
            } catch {
                throw GeneratedContent.ParsingError(
                    rawContent: rawContent.jsonString,
                    underlyingError: error,
                    debugDescription: "The model's response does not decode into the requested type: \(error)"
                )
            }
            let response = turn.responseEntry(structured: structured ? rawContent : nil, schemaName: spec.responseFormat?.name ?? "")
            run.added.append(.response(response))
            try await run.setup.hooks.response(response)
            try Task.checkCancellation()
            let entries = try commit(run)
            return RequestResult(rawContent: rawContent, transcriptEntries: entries, usage: run.usage)
        }
    }

    /// What identifies a round of calls: the tools and their arguments.
    private static func signature(of calls: Transcript.ToolCalls) -> String {
        calls.map { "\($0.toolName)(\($0.arguments.jsonString))" }.joined(separator: ";")
    }

    /// The executor request for one round. With `.required`, the first
    /// round must call one or more tools and the round after their outputs
    /// answers: the model "must call one or more tools before it can
    /// respond", and a request always ends in a response, whatever the
    /// model would like to call next. For chains of dependent calls, use
    /// `.allowed` (or a dynamic profile that changes the mode).
    ///
    /// A model that repeats a call it already made in this request (same
    /// tool, same arguments) is not given the same output again: the call is
    /// dropped and the next round (`mustAnswer`) answers with tools
    /// disallowed, from the outputs it has. Small models often call again
    /// after reading an output; this turns that into an answer instead of an
    /// error.
    private func makeRequest(
        _ run: RequestRun,
        options: GenerationOptions,
        contextOptions: ContextOptions,
        toolRound: Int,
        mustAnswer: Bool
    ) -> LanguageModelExecutorGenerationRequest {
        var options = options
        if mustAnswer || (toolRound > 0 && options.toolCallingMode == .required) {
            options.toolCallingMode = .disallowed
        }
        let enabledTools = options.toolCallingMode == .disallowed ? [] : run.setup.toolDefinitions
        return LanguageModelExecutorGenerationRequest(
            id: UUID(),
            transcript: run.setup.transcript(history: run.history, added: run.added),
            enabledTools: enabledTools,
            schema: run.spec.schema,
            generationOptions: options,
            contextOptions: contextOptions,
            metadata: run.spec.metadata
        )
    }

    /// Calls the executor once, folding its events as they arrive.
    /// `onProgress` sees the accumulator and the content so far after every
    /// text delta.
    private func runTurn(
        _ request: LanguageModelExecutorGenerationRequest,
        setup: RequestSetup,
        structured: Bool,
        onProgress: @escaping (TurnAccumulator, GeneratedContent) -> Void
    ) async throws -> TurnAccumulator {
        try await setup.backend.checkCapabilities(for: request)
        let channel = LanguageModelExecutorGenerationChannel()
        let backend = setup.backend
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { channel.finish() }
                try await backend.respond(to: request, streamingInto: channel)
            }
            var accumulator = TurnAccumulator()
            for try await event in channel {
                #if DataAttachments
                try await backend.checkDataEntryEvent(event)
                #endif
                if accumulator.apply(event), let content = Self.snapshot(of: accumulator.text, structured: structured) {
                    onProgress(accumulator, content)
                }
            }
            try await group.waitForAll()
            try Task.checkCancellation()
            return accumulator
        }
    }

    /// The content of an in-progress response: a partial string, or the
    /// partial JSON parsed so far. `nil` while there is nothing to show.
    static func snapshot(of text: String, structured: Bool) -> GeneratedContent? {
        if structured {
            return try? GeneratedContent(json: text)
        }
        return GeneratedContent(partialText: text, isComplete: false)
    }

    /// The content of a finished response; structured responses must be
    /// complete, valid JSON.
    private func finalContent(of turn: TurnAccumulator, structured: Bool) throws -> GeneratedContent {
        guard structured else {
            return GeneratedContent(partialText: turn.text, isComplete: true)
        }
        let content: GeneratedContent
        do {
            content = try GeneratedContent(json: turn.text)
        } catch {
            throw GeneratedContent.ParsingError(
                rawContent: turn.text,
                underlyingError: error,
                debugDescription: "The model's response is not valid JSON: \(error)"
            )
        }
        guard content.isComplete else {
            throw GeneratedContent.ParsingError(
                rawContent: turn.text,
                debugDescription: "The model's response ended before the value was complete: \(turn.text)"
            )
        }
        return content
    }
}
