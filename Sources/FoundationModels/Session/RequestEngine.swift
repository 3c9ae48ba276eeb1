import Foundation

/// What a caller asked of the session, with the result type erased so the
/// engine is not generic: the content is validated by a closure that decodes
/// it into the caller's type.
struct RequestSpec: Sendable {
    var prompt: Prompt
    /// The schema to enforce, or `nil` for free text.
    var schema: GenerationSchema?
    var responseFormat: Transcript.ResponseFormat?
    var includeSchemaInPrompt: Bool
    var options: GenerationOptions
    /// Throws when the final content does not decode into the caller's type.
    var validate: @Sendable (GeneratedContent) throws -> Void
}

/// What a completed request produced, before decoding into the caller's type.
struct RequestResult: Sendable {
    var rawContent: GeneratedContent
    var transcriptEntries: ArraySlice<Transcript.Entry>
    var usage: LanguageModelSession.Usage
}

extension LanguageModelSession {
    /// Runs one request to completion: the executor, the tool rounds, and the
    /// commit of the new entries. On any error or cancellation the transcript
    /// is left as it was.
    ///
    /// `onSnapshot` receives the accumulated content after every text delta.
    func perform(
        _ spec: RequestSpec,
        onSnapshot: (@Sendable (GeneratedContent) -> Void)? = nil
    ) async throws -> RequestResult {
        var prompt = Transcript.Prompt(
            segments: spec.prompt.segments,
            options: spec.options,
            responseFormat: spec.responseFormat
        )
        prompt.contextOptions = ContextOptions(includeSchemaInPrompt: spec.includeSchemaInPrompt)
        let promptEntry = Transcript.Entry.prompt(prompt)
        do {
            try beginResponding()
        } catch {
            throw surfaced(error, entries: [promptEntry])
        }
        defer { endResponding() }
        do {
            return try await performWhileResponding(spec, promptEntry: promptEntry, onSnapshot: onSnapshot)
        } catch {
            throw surfaced(error, entries: [promptEntry])
        }
    }

    private func performWhileResponding(
        _ spec: RequestSpec,
        promptEntry: Transcript.Entry,
        onSnapshot: (@Sendable (GeneratedContent) -> Void)?
    ) async throws -> RequestResult {
        if let schema = spec.schema, !schema.unsupportedGuides.isEmpty {
            throw LanguageModelError.unsupportedGenerationGuide(.init(
                schemaName: schema.name,
                debugDescription: "\(schema.name) has guides that cannot be enforced: \(schema.unsupportedGuides.joined(separator: "; "))."
            ))
        }
        let history = state.withLock { $0.transcript }
        var added: [Transcript.Entry] = [promptEntry]
        var usage = Usage()
        var toolRounds = 0
        let maximumToolRounds = state.withLock { $0.maximumToolRounds }
        var previousCalls: Set<String> = []

        while true {
            try Task.checkCancellation()
            let request = makeRequest(spec, transcript: Transcript(entries: history.entries + added), toolRound: toolRounds)
            let turn = try await runTurn(request, structured: spec.schema != nil, onSnapshot: onSnapshot)
            usage.add(turn.usage)

            if !turn.toolCalls.isEmpty {
                toolRounds += 1
                guard toolRounds <= maximumToolRounds else {
                    throw GeneratedContent.ParsingError(
                        rawContent: turn.toolCalls.map { "\($0.name)(\($0.arguments))" }.joined(separator: "; "),
                        debugDescription: "The model kept calling tools for \(maximumToolRounds) rounds without answering (maximumToolRounds is \(maximumToolRounds))."
                    )
                }
                let calls = try resolveToolCalls(turn.toolCalls, enabled: request.enabledToolDefinitions)
                let signature = calls.map { "\($0.toolName)(\($0.arguments.jsonString))" }.joined(separator: ";")
                guard previousCalls.insert(signature).inserted else {
                    throw GeneratedContent.ParsingError(
                        rawContent: signature,
                        debugDescription: "The model repeated the same tool call \(signature) instead of answering."
                    )
                }
                added.append(.toolCalls(Transcript.ToolCalls(calls)))
                let outputs = try await invokeTools(calls)
                added.append(contentsOf: outputs.map { .toolOutput($0) })
                continue
            }

            let rawContent = try finalContent(of: turn, structured: spec.schema != nil)
            do {
                try spec.validate(rawContent)
            } catch {
                throw GeneratedContent.ParsingError(
                    rawContent: rawContent.jsonString,
                    underlyingError: error,
                    debugDescription: "The model's response does not decode into the requested type: \(error)"
                )
            }
            let segment: Transcript.Segment = spec.schema == nil
                ? .text(Transcript.TextSegment(content: turn.text))
                : .structure(Transcript.StructuredSegment(source: spec.responseFormat?.name ?? "", content: rawContent))
            added.append(.response(Transcript.Response(assetIDs: [], segments: [segment])))
            try Task.checkCancellation()
            let entries = commit(added, usage: usage)
            return RequestResult(rawContent: rawContent, transcriptEntries: entries, usage: usage)
        }
    }

    /// The executor request for one round. With `.required`, the first
    /// round must call one or more tools and the round after their outputs
    /// answers: the model "must call one or more tools before it can
    /// respond", and a request always ends in a response, whatever the
    /// model would like to call next. (Apple's 27 SDK can also keep calling
    /// until a tool throws or a `DynamicProfile` changes the mode; there is
    /// no `DynamicProfile` here, so that would only ever end at the round
    /// limit.) For chains of dependent calls, use `.allowed`.
    private func makeRequest(_ spec: RequestSpec, transcript: Transcript, toolRound: Int) -> LanguageModelExecutorGenerationRequest {
        var options = spec.options
        if toolRound > 0, options.toolCallingMode == .required {
            options.toolCallingMode = .disallowed
        }
        let enabledTools = options.toolCallingMode == .disallowed ? [] : toolDefinitions
        return LanguageModelExecutorGenerationRequest(
            id: UUID(),
            transcript: transcript,
            enabledTools: enabledTools,
            schema: spec.schema,
            generationOptions: options,
            contextOptions: ContextOptions(includeSchemaInPrompt: spec.includeSchemaInPrompt),
            metadata: [:]
        )
    }

    /// Calls the executor once, folding its events as they arrive.
    private func runTurn(
        _ request: LanguageModelExecutorGenerationRequest,
        structured: Bool,
        onSnapshot: (@Sendable (GeneratedContent) -> Void)?
    ) async throws -> TurnAccumulator {
        try checkCapabilities(for: request)
        let channel = LanguageModelExecutorGenerationChannel()
        let backend = self.backend
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { channel.finish() }
                try await backend.respond(to: request, streamingInto: channel)
            }
            var accumulator = TurnAccumulator()
            for await event in channel {
                if accumulator.apply(event), let onSnapshot,
                   let snapshot = Self.snapshot(of: accumulator.text, structured: structured) {
                    onSnapshot(snapshot)
                }
            }
            try await group.waitForAll()
            try Task.checkCancellation()
            return accumulator
        }
    }

    /// Refuses, before calling the executor, a request that needs a
    /// capability the model does not declare.
    private func checkCapabilities(for request: LanguageModelExecutorGenerationRequest) throws {
        try backend.preflight()
        if let schema = request.schema, !backend.capabilities.contains(.guidedGeneration) {
            throw LanguageModelError.unsupportedCapability(.init(
                capability: .guidedGeneration,
                debugDescription: "The model cannot enforce a response schema (\(schema.name)); it does not declare guided generation."
            ))
        }
        if !request.enabledToolDefinitions.isEmpty, !backend.capabilities.contains(.toolCalling) {
            throw LanguageModelError.unsupportedCapability(.init(
                capability: .toolCalling,
                debugDescription: "The session has tools but the model does not declare tool calling."
            ))
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
