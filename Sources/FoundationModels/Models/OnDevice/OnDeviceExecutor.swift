#if LlamaCpp
import Foundation
import GuidedGeneration
import LlamaKit
import Synchronization

/// Serves ``SystemLanguageModel`` requests with the in-process engine.
///
/// Per request: render the transcript with the model's chat template,
/// tokenize, refuse before decoding if prompt plus reserved response does
/// not fit the context, lease a context (reusing its cached prefix), and
/// stream the generated text into the channel.
struct OnDeviceExecutor: Sendable {
    let configuration: SystemLanguageModel.Configuration

    init(configuration: SystemLanguageModel.Configuration) {
        self.configuration = configuration
    }

    /// The engine for this configuration, looked up per request: after a
    /// model is unloaded (``SystemLanguageModel/unload()``) the next
    /// request loads a new one.
    var engine: OnDeviceEngine { OnDeviceEngine.shared(for: configuration) }

    /// Throws the seam's errors only (``EngineErrors``): options no model
    /// can honor fail before the model is loaded, as in a session.
    func respond(
        to request: LanguageModelExecutorGenerationRequest,
        streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
        try request.generationOptions.validate()
        let engine = self.engine
        let loaded = try await engine.loaded()
        try await EngineErrors.mapping(contextSize: loaded.contextSize) {
            try await respond(to: request, on: engine, in: loaded, streamingInto: channel)
        }
    }

    private func respond(
        to request: LanguageModelExecutorGenerationRequest,
        on engine: OnDeviceEngine,
        in loaded: OnDeviceEngine.Loaded,
        streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
        let prompt = try loaded.promptTokenizer.tokenize(loaded.rendering.prompt(for: request.transcript))
        let requested = request.generationOptions.maximumResponseTokens
        let reserved = requested ?? 1
        guard prompt.count + reserved <= loaded.contextSize else {
            throw LanguageModelError.contextSizeExceeded(
                .init(
                    contextSize: loaded.contextSize,
                    tokenCount: prompt.count + reserved,
                    debugDescription:
                        "The instructions, transcript and prompt take \(prompt.count) tokens and \(reserved) are reserved for the response: \(prompt.count + reserved) tokens, more than the context size of \(loaded.contextSize)"
                ))
        }
        let tools = request.enabledToolDefinitions
        let constraint: TokenConstraint?
        if tools.isEmpty {
            if let schema = request.schema {
                constraint = try Self.constraint(for: schema, in: loaded)
            } else if Self.declaresTools(request.transcript) {
                // No tool may be called this turn (after a required call's
                // outputs, or with calling disallowed): the answer is prose
                // that cannot be read as a call.
                constraint = loaded.constraints.proseConstraint(format: loaded.rendering.toolFormat)
            } else {
                constraint = nil
            }
        } else {
            constraint = try Self.turnConstraint(for: request, in: loaded)
        }
        var job = ContextSlot.Job(
            promptTokens: prompt,
            sampling: request.generationOptions.samplerMode,
            maximumTokens: min(requested ?? .max, loaded.contextSize - prompt.count),
            constraint: constraint,
            stopsLoops: engine.configuration.stopsLoops,
            pacing: engine.configuration.stringPacing,
            logProbabilities: TokenLogProbabilityRecorder.current
        )
        if tools.isEmpty, let schema = request.schema, let constraint,
            let needed = constraint.makeDecoder().tokensToFinish(), needed > job.maximumTokens
        {
            // By the measure the decode loop holds the limit to, no value
            // fits: refused now, before the prompt is evaluated (seconds for
            // a long one), where the loop would find it out after that.
            throw Self.unfinished(
                "the \(schema.name) value", limit: job.maximumTokens, written: 0, needing: needed, request: request)
        }
        var (outcome, router) = try await run(job, request: request, tools: tools, on: engine, in: loaded, into: channel)
        let cachedPromptTokens = outcome.cachedPromptTokens
        var generatedTokens = outcome.generatedTokens
        let meant = Self.callsWrittenAsText(router, tools: tools)
        if !meant.isEmpty {
            // The model meant to call these tools but wrote the calls as
            // text the turn grammar took for prose (held back, so nothing was
            // sent), with arguments that break a tool's schema or more text
            // after them. Decoded again as a call block to them, the decoder
            // enforces the arguments; the prompt is still cached.
            _ = job.logProbabilities?.take()
            job.constraint = try Self.turnConstraint(answer: nil, tools: meant, requiresToolCall: true, in: loaded)
            (outcome, router) = try await run(job, request: request, tools: tools, on: engine, in: loaded, into: channel)
            generatedTokens += outcome.generatedTokens
        }
        if !tools.isEmpty {
            try await Self.finishTurn(router, tools: tools, into: channel)
        }
        await channel.send(
            .response(
                action: .updateUsage(
                    input: .init(totalTokenCount: prompt.count, cachedTokenCount: cachedPromptTokens),
                    output: .init(totalTokenCount: generatedTokens, reasoningTokenCount: 0)
                )))
    }

    /// Runs one turn's job, streaming its answer text into `channel` (with
    /// tools, through a ``ToolCallRouter``, which it returns holding what
    /// it held back); throws where the turn cannot stand as it ended.
    private func run(
        _ job: ContextSlot.Job,
        request: LanguageModelExecutorGenerationRequest,
        tools: [Transcript.ToolDefinition],
        on engine: OnDeviceEngine,
        in loaded: OnDeviceEngine.Loaded,
        into channel: LanguageModelExecutorGenerationChannel
    ) async throws -> (ContextSlot.Outcome, ToolCallRouter) {
        // With tools, the turn is either a block of calls or the answer:
        // the router holds back what may still open a block and streams the
        // rest as answer text.
        let router = Mutex(ToolCallRouter(format: loaded.rendering.toolFormat))
        let outcome = try await engine.run(job, in: loaded) { text, tokenCount in
            if tools.isEmpty {
                channel.yield(.response(action: .appendText(text, tokenCount: tokenCount)))
            } else if let released = router.withLock({ $0.route(text, tokenCount: tokenCount) }) {
                channel.yield(.response(action: .appendText(released.text, tokenCount: released.tokenCount)))
            }
        }
        try Task.checkCancellation()
        if outcome.incomplete {
            let what = request.schema.map { "the \($0.name) value" } ?? "the tool call"
            if outcome.contextFull {
                throw GeneratedContent.ParsingError(
                    rawContent: "",
                    debugDescription:
                        "the context filled up (\(loaded.contextSize) tokens) before \(what) was complete; raise maximumResponseTokens or shorten the conversation. Guided generation never returns a partial value."
                )
            }
            throw Self.unfinished(what, limit: job.maximumTokens, written: outcome.generatedTokens, needing: nil, request: request)
        }
        if outcome.contextFull {
            throw LanguageModelError.contextSizeExceeded(
                .init(
                    contextSize: loaded.contextSize,
                    tokenCount: job.promptTokens.count + outcome.generatedTokens + 1,
                    debugDescription:
                        "The response filled the context (\(job.promptTokens.count) prompt and \(outcome.generatedTokens) response tokens) before it ended; set maximumResponseTokens or shorten the conversation"
                ))
        }
        return (outcome, router.withLock { $0 })
    }

    /// The error for a value that cannot be finished within `limit` tokens,
    /// naming the limit (not the tokens written: the shortest way to finish
    /// may be what failed) and, where known, the fewest tokens it needs.
    /// Marked when the request's own limit is what was too small (not the
    /// room the context had left), so a server can answer that client's
    /// error.
    private static func unfinished(
        _ what: String, limit: Int, written: Int, needing needed: Int?, request: LanguageModelExecutorGenerationRequest
    ) -> GeneratedContent.ParsingError {
        let shortest = needed.map { "the shortest way to finish it takes \($0) tokens" } ?? "the shortest way to finish it needs more"
        let requestLimit = request.generationOptions.maximumResponseTokens == limit
        return GeneratedContent.ParsingError(
            rawContent: "",
            underlyingError: requestLimit ? ResponseLimitTooSmall(limit: limit) : nil,
            debugDescription:
                "\(what) could not be finished within the response's limit of \(limit) tokens (\(written) written, and \(shortest)); raise maximumResponseTokens or shorten the conversation. Guided generation never returns a partial value."
        )
    }

    /// The offered tools a turn that ended as answer text meant to call:
    /// text that opens a call (``TextToolCalls/calledTools(in:offered:)``)
    /// but is not, as a whole, calls with valid arguments (those
    /// ``finishTurn(_:tools:into:)`` takes as they are); none for an answer.
    static func callsWrittenAsText(_ router: ToolCallRouter, tools: [Transcript.ToolDefinition]) -> [Transcript.ToolDefinition] {
        guard !tools.isEmpty, case .answer(let text, _)? = try? router.finish(), writtenCalls(in: text, tools: tools) == nil else { return [] }
        let names = TextToolCalls.calledTools(in: text, offered: Set(tools.map(\.name)))
        return names.compactMap { name in tools.first { $0.name == name } }
    }

    /// Whether the conversation has tools: declared in its instructions, or
    /// called in an earlier turn.
    static func declaresTools(_ transcript: Transcript) -> Bool {
        transcript.contains { entry in
            switch entry {
            case .instructions(let instructions): !instructions.toolDefinitions.isEmpty
            case .toolCalls: true
            default: false
            }
        }
    }

    /// Sends what a turn with tools ended as: the calls of its block, or
    /// the answer text still held back — or the calls that text is, when it
    /// is nothing but calls written as text (``TextToolCalls``) to offered
    /// tools, each with arguments that follow the tool's schema (the turn
    /// grammar enforced no schema on them as prose).
    private static func finishTurn(
        _ router: ToolCallRouter, tools: [Transcript.ToolDefinition], into channel: LanguageModelExecutorGenerationChannel
    ) async throws {
        var turn: ToolCallRouter.Turn
        do {
            turn = try router.finish()
        } catch .incompleteBlock(let text) {
            throw GeneratedContent.ParsingError(
                rawContent: text,
                debugDescription: "The model's tool-call block is not a complete list of calls: \(text)"
            )
        }
        if case .answer(let rest, let tokenCount) = turn,
            let calls = writtenCalls(in: rest, tools: tools) ?? introducedCalls(in: router.released + rest, tools: tools)
        {
            // (Introduced calls follow text already streamed as the answer;
            // a turn with calls has no answer, so the session drops it.)
            turn = .toolCalls(calls, tokenCount: tokenCount)
        }
        switch turn {
        case .answer(let rest, let tokenCount):
            if !rest.isEmpty {
                await channel.send(.response(action: .appendText(rest, tokenCount: tokenCount)))
            }
        case .toolCalls(let calls, let tokenCount):
            for (index, call) in calls.enumerated() {
                await channel.send(
                    .toolCalls(
                        action: .toolCall(
                            id: UUID().uuidString,
                            name: call.name,
                            action: .appendArguments(call.arguments, tokenCount: index == 0 ? tokenCount : 0)
                        )))
            }
        }
    }

    /// The calls `text` consists of, written as text, when each names an
    /// offered tool and its arguments follow that tool's schema; nil (the
    /// text is the answer) otherwise.
    static func writtenCalls(in text: String, tools: [Transcript.ToolDefinition]) -> [ToolCallRouter.Call]? {
        guard !text.isEmpty, let calls = TextToolCalls.calls(in: text, offered: Set(tools.map(\.name))) else { return nil }
        return valid(calls, tools: tools)
    }

    /// The calls an answer ends with after a sentence introducing them
    /// (``TextToolCalls/introducedCalls(in:offered:)``), when each follows
    /// its tool's schema; nil otherwise.
    static func introducedCalls(in text: String, tools: [Transcript.ToolDefinition]) -> [ToolCallRouter.Call]? {
        guard let calls = TextToolCalls.introducedCalls(in: text, offered: Set(tools.map(\.name))) else { return nil }
        return valid(calls, tools: tools)
    }

    /// `calls` as the router's calls, when each names an offered tool and
    /// its arguments follow that tool's schema; nil otherwise.
    private static func valid(_ calls: [TextToolCalls.Call], tools: [Transcript.ToolDefinition]) -> [ToolCallRouter.Call]? {
        for call in calls {
            guard let tool = tools.first(where: { $0.name == call.name }),
                let arguments = try? GeneratedContent(json: call.arguments),
                (try? SchemaConformance.validate(arguments, against: tool.parameters)) != nil
            else { return nil }
        }
        return calls.map { ToolCallRouter.Call(name: $0.name, arguments: $0.arguments) }
    }

    /// The compiled constraint for a turn with the request's enabled tools:
    /// a block of valid calls, or (unless tool calling is `.required`) the
    /// answer.
    static func turnConstraint(for request: LanguageModelExecutorGenerationRequest, in loaded: OnDeviceEngine.Loaded) throws -> TokenConstraint {
        try turnConstraint(
            answer: request.schema, tools: request.enabledToolDefinitions,
            requiresToolCall: request.generationOptions.toolCallingMode == .required, in: loaded)
    }

    /// The compiled constraint for a turn of calls to `tools` or (unless
    /// `requiresToolCall`) the answer, with compile errors as the session
    /// reports them.
    static func turnConstraint(
        answer: GenerationSchema?, tools: [Transcript.ToolDefinition], requiresToolCall: Bool, in loaded: OnDeviceEngine.Loaded
    ) throws -> TokenConstraint {
        do {
            return try loaded.constraints.turnConstraint(
                answer: answer,
                tools: tools,
                requiresToolCall: requiresToolCall,
                format: loaded.rendering.toolFormat
            )
        } catch .unsupportedGuide(let message) {
            let names = ([answer?.name].compactMap { $0 } + tools.map(\.name)).joined(separator: ", ")
            throw LanguageModelError.unsupportedGenerationGuide(
                .init(
                    schemaName: answer?.name ?? tools[0].name,
                    debugDescription: "The response schema or a tool's arguments (\(names)) cannot be enforced: \(message)"
                ))
        } catch .unsatisfiable(let message) {
            throw GeneratedContent.ParsingError(
                rawContent: "",
                debugDescription: "No tool call or answer can satisfy the schemas: \(message)"
            )
        }
    }

    /// The compiled constraint for `schema`, with compile errors as the
    /// session reports them.
    static func constraint(for schema: GenerationSchema, in loaded: OnDeviceEngine.Loaded) throws -> TokenConstraint {
        do {
            return try loaded.constraints.constraint(for: schema)
        } catch .unsupportedGuide(let message) {
            throw LanguageModelError.unsupportedGenerationGuide(
                .init(
                    schemaName: schema.name,
                    debugDescription: "\(schema.name) cannot be enforced: \(message)"
                ))
        } catch .unsatisfiable(let message) {
            throw GeneratedContent.ParsingError(
                rawContent: "",
                debugDescription: "No value can satisfy \(schema.name): \(message)"
            )
        }
    }

    /// Evaluates `transcript` ahead of time so a request that starts with it
    /// finds it in the cache.
    func prewarm(transcript: Transcript) {
        let engine = self.engine
        Task.detached(priority: .utility) {
            guard let loaded = try? await engine.loaded() else { return }
            let text: String
            if case .prompt = transcript.last {
                guard let prefix = try? loaded.rendering.openPrefix(for: transcript) else { return }
                text = prefix
            } else {
                guard let rendered = try? loaded.model.applyChatTemplate(loaded.rendering.messages(for: transcript), addAssistantPrefix: false) else {
                    return
                }
                text = rendered
            }
            guard let tokens = try? loaded.promptTokenizer.tokenize(text),
                tokens.count < loaded.contextSize
            else { return }
            _ = try? await engine.run(.init(promptTokens: tokens, sampling: .greedy, maximumTokens: 0), in: loaded) { _, _ in }
        }
    }

    /// The number of tokens `entry` takes once rendered.
    func tokenCount(of entry: Transcript.Entry) async throws -> Int {
        let loaded = try await engine.loaded()
        return try await EngineErrors.mapping(contextSize: loaded.contextSize) {
            guard let message = loaded.rendering.message(for: entry) else { return 0 }
            let rendered = try loaded.model.applyChatTemplate([message], addAssistantPrefix: false)
            return try loaded.vocabulary.tokenize(rendered, addSpecial: false, parseSpecial: true).count
        }
    }

    /// The number of tokens `text` takes.
    func tokenCount(of text: String) async throws -> Int {
        let loaded = try await engine.loaded()
        return try await EngineErrors.mapping(contextSize: loaded.contextSize) {
            try loaded.vocabulary.tokenize(text, addSpecial: false, parseSpecial: false).count
        }
    }
}
#endif
