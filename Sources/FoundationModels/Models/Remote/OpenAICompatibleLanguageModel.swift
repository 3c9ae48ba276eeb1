import Foundation
import NIOHTTP1

/// A model behind any server that speaks OpenAI's chat-completions API:
/// llama-server, vLLM, Ollama, OpenAI itself.
///
/// Exists because a real serving engine is how an app outgrows one machine:
/// the same `LanguageModelSession` code — `respond`, `respond(generating:)`,
/// `streamResponse`, tools — runs against it unchanged. Schemas go out as
/// `response_format` (`json_schema`, strict) and every answer is checked
/// against the schema by the same matcher that constrains the on-device
/// model before the session returns it; tool calls are the API's native
/// `tools`/`tool_calls` (and a call a small model wrote as the answer's text
/// instead, which the server's parser missed, is recovered: see
/// ``TextToolCalls``); usage and `reasoning_content` come back as the
/// channel's usage and reasoning events.
///
/// ```swift
/// let model = try OpenAICompatibleLanguageModel(
///     baseURL: URL(string: "http://127.0.0.1:8080/v1")!, model: "qwen2.5-coder-1.5b")
/// let session = LanguageModelSession(model: model)
/// ```
public struct OpenAICompatibleLanguageModel: LanguageModel {
    /// The API's root, such as `https://api.openai.com/v1`; requests go to
    /// `chat/completions` below it.
    public var baseURL: URL { configuration.endpoint.baseURL }
    /// The model name sent with every request.
    public var modelName: String { configuration.model }

    let configuration: OpenAIChatConfiguration

    /// - Parameters:
    ///   - baseURL: the API root. `https://` unless the host is this
    ///     machine (127.0.0.1, ::1, localhost).
    ///   - model: the model name the server knows.
    ///   - apiKey: the key, sent as `Authorization: Bearer`; when `nil`, the
    ///     environment variable `apiKeyEnvironmentVariable` is read (and no
    ///     key is sent when it is unset, as local servers expect).
    ///   - options: timeouts, size limit and retries.
    /// - Throws: ``ServerModelError`` for a URL that is not http(s), or plain
    ///   HTTP to another machine.
    public init(
        baseURL: URL,
        model: String,
        apiKey: String? = nil,
        apiKeyEnvironmentVariable: String? = "OPENAI_API_KEY",
        options: ServerOptions = ServerOptions()
    ) throws {
        configuration = OpenAIChatConfiguration(
            endpoint: try RemoteEndpoint(baseURL),
            model: model,
            apiKey: APIKey.resolve(apiKey, environmentVariable: apiKeyEnvironmentVariable),
            options: options
        )
    }

    /// Constrained JSON (the server's structured output, checked here),
    /// native tool calls, and reasoning where the server sends it.
    public var capabilities: LanguageModelCapabilities {
        LanguageModelCapabilities([.guidedGeneration, .toolCalling, .reasoning])
    }

    public var executorConfiguration: Executor.Configuration {
        Executor.Configuration(chat: configuration)
    }

    /// The executor: transcript → chat-completions request, server-sent
    /// chunks → channel events.
    public struct Executor: LanguageModelExecutor {
        public typealias Model = OpenAICompatibleLanguageModel

        /// The server, model, key and options; equal configurations share an executor.
        public struct Configuration: Hashable, Sendable {
            let chat: OpenAIChatConfiguration
        }

        let client: OpenAIChatClient

        public init(configuration: Configuration) {
            client = OpenAIChatClient(configuration: configuration.chat, family: .languageModel)
        }

        public func respond(
            to request: LanguageModelExecutorGenerationRequest,
            model: OpenAICompatibleLanguageModel,
            streamingInto channel: LanguageModelExecutorGenerationChannel
        ) async throws {
            try await client.respond(to: request, streamingInto: channel)
        }
    }
}

/// Where and how an OpenAI-compatible server is reached.
package struct OpenAIChatConfiguration: Hashable, Sendable {
    package var endpoint: RemoteEndpoint
    package var model: String
    package var apiKey: APIKey?
    package var options: ServerOptions
}

/// One chat-completions exchange per request: shared by
/// ``OpenAICompatibleLanguageModel`` and ``PrivateCloudComputeLanguageModel``,
/// which differ only in the errors they surface.
package struct OpenAIChatClient: Sendable {
    package let configuration: OpenAIChatConfiguration
    package let family: RemoteErrorFamily
    /// Told whether each request reached the server (for availability that
    /// follows what happened).
    package var onOutcome: (@Sendable (ServerFailure?) -> Void)? = nil

    package init(configuration: OpenAIChatConfiguration, family: RemoteErrorFamily, onOutcome: (@Sendable (ServerFailure?) -> Void)? = nil) {
        self.configuration = configuration
        self.family = family
        self.onOutcome = onOutcome
    }

    package func respond(
        to request: LanguageModelExecutorGenerationRequest,
        streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
        try RemoteAnswerCheck.preflight(request.schema)
        do {
            let body = Self.body(for: request, model: configuration.model).jsonString
            var headers: [(String, String)] = []
            if let key = configuration.apiKey { headers.append(("Authorization", "Bearer \(key.value)")) }
            let response = try await ServerHTTP.post(
                configuration.endpoint.url("chat/completions"),
                headers: headers,
                body: body,
                options: configuration.options,
                failure: Self.failure
            )
            var stream = OpenAIStreamState(schema: request.schema, offeredTools: Set(request.enabledToolDefinitions.map(\.name)))
            try await ServerHTTP.events(of: response, options: configuration.options) { event in
                try await stream.apply(event, channel: channel)
            }
            await stream.settleHeldText(channel: channel)
            try stream.finish()
            onOutcome?(nil)
        } catch let failure as ServerFailure {
            onOutcome?(failure)
            throw family.error(for: failure)
        }
    }

    // MARK: Request

    /// The chat-completions body for `request`, streamed with usage.
    package static func body(for request: LanguageModelExecutorGenerationRequest, model: String) -> GeneratedContent {
        let options = request.generationOptions
        var topP: Double?
        var topK: Int?
        var seed: UInt64?
        var temperature = options.temperature
        switch options.samplingMode?.kind {
        case .greedy?: temperature = 0; topK = 1
        case .randomTopK(let k, let s)?: topK = k; seed = s
        case .randomProbabilityThreshold(let p, let s)?: topP = p; seed = s
        case nil: break
        }
        let tools = request.enabledToolDefinitions.map { tool in
            WireJSON.object([
                ("type", WireJSON.string("function")),
                (
                    "function",
                    WireJSON.object([
                        ("name", WireJSON.string(tool.name)),
                        ("description", WireJSON.string(tool.description)),
                        ("parameters", tool.parameters.jsonSchema),
                    ])
                ),
            ])
        }
        let toolChoice: String? = tools.isEmpty ? nil : (options.toolCallingMode == .required ? "required" : "auto")
        let responseFormat = request.schema.map { schema in
            WireJSON.object([
                ("type", WireJSON.string("json_schema")),
                (
                    "json_schema",
                    WireJSON.object([
                        ("name", WireJSON.string(Self.schemaName(schema.name))),
                        ("strict", WireJSON.bool(true)),
                        ("schema", schema.jsonSchema),
                    ])
                ),
            ])
        }
        return WireJSON.object([
            ("model", WireJSON.string(model)),
            ("messages", WireJSON.array(messages(for: request.transcript))),
            ("stream", WireJSON.bool(true)),
            ("stream_options", WireJSON.object([("include_usage", WireJSON.bool(true))])),
            ("temperature", temperature.map(WireJSON.number)),
            ("top_p", topP.map(WireJSON.number)),
            // Not OpenAI's, but llama-server, vLLM and Ollama read it; OpenAI ignores it.
            ("top_k", topK.map(WireJSON.number)),
            ("seed", seed.map { WireJSON.number(Double($0)) }),
            ("max_tokens", options.maximumResponseTokens.map(WireJSON.number)),
            ("tools", tools.isEmpty ? nil : WireJSON.array(tools)),
            ("tool_choice", toolChoice.map(WireJSON.string)),
            ("response_format", responseFormat),
            ("reasoning_effort", request.contextOptions.reasoningLevel.map { WireJSON.string(Self.effort($0)) }),
        ])
    }

    /// OpenAI accepts `[a-zA-Z0-9_-]{1,64}` as a schema's name.
    static func schemaName(_ name: String) -> String {
        let allowed = name.unicodeScalars.map { scalar -> Character in
            CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII || scalar == "_" || scalar == "-" ? Character(scalar) : "_"
        }
        let cleaned = String(allowed.prefix(64))
        return cleaned.isEmpty ? "response" : cleaned
    }

    static func effort(_ level: ContextOptions.ReasoningLevel) -> String {
        switch level {
        case .light: "low"
        case .moderate: "medium"
        case .deep: "high"
        case .custom(let value): value
        }
    }

    /// The transcript as chat messages. Reasoning is not sent back: the
    /// chat-completions API has no field for it (servers that return
    /// `reasoning_content` ask clients not to replay it).
    package static func messages(for transcript: Transcript) -> [GeneratedContent] {
        transcript.compactMap { entry -> GeneratedContent? in
            switch entry {
            case .instructions(let instructions):
                // Tool definitions go out as `tools`; an entry holding only
                // them has no system text.
                let text = Transcript.wireText(instructions.segments)
                return text.isEmpty ? nil : message("system", text)
            case .prompt(let prompt):
                return message("user", userText(prompt))
            case .reasoning:
                return nil
            #if DataAttachments
            case .data:
                // Chat completions have no form for a data entry, and the
                // model lists no types (supportsDataEntryType is false), so
                // the session refuses a transcript holding one before this.
                return nil
            #endif
            case .toolCalls(let calls):
                return WireJSON.object([
                    ("role", WireJSON.string("assistant")),
                    ("content", GeneratedContent(kind: .null)),
                    (
                        "tool_calls",
                        WireJSON.array(
                            calls.map { call in
                                WireJSON.object([
                                    ("id", WireJSON.string(call.id)),
                                    ("type", WireJSON.string("function")),
                                    (
                                        "function",
                                        WireJSON.object([
                                            ("name", WireJSON.string(call.toolName)),
                                            ("arguments", WireJSON.string(call.arguments.jsonString)),
                                        ])
                                    ),
                                ])
                            })
                    ),
                ])
            case .toolOutput(let output):
                return WireJSON.object([
                    ("role", WireJSON.string("tool")),
                    ("tool_call_id", WireJSON.string(output.id)),
                    ("content", WireJSON.string(Transcript.wireText(output.segments))),
                ])
            case .response(let response):
                return message("assistant", Transcript.wireText(response.segments))
            @unknown default:
                return nil
            }
        }
    }

    private static func message(_ role: String, _ content: String) -> GeneratedContent {
        WireJSON.object([("role", WireJSON.string(role)), ("content", WireJSON.string(content))])
    }

    /// The prompt's text and, unless the request said not to, the schema
    /// described as the on-device model reads it: the server enforces the
    /// structure, the description says what each field is for.
    package static func userText(_ prompt: Transcript.Prompt) -> String {
        let text = Transcript.wireText(prompt.segments)
        guard let format = prompt.responseFormat, prompt.contextOptions.includeSchemaInPrompt != false else { return text }
        return (text.isEmpty ? "" : text + "\n\n") + format.schema.promptDescription
    }

    // MARK: Errors

    /// An error answer as a failure. OpenAI's and llama-server's error
    /// bodies are both `{"error": {"message", "type", "code", …}}`.
    package static func failure(status: Int, headers: HTTPHeaders, body: String) -> ServerFailure {
        let error = (try? GeneratedContent(json: body))?[wire: "error"]
        let message = error?[wire: "message"]?.wireString ?? error?.wireString ?? String(body.prefix(300))
        let code = error?[wire: "code"]?.wireString ?? ""
        let type = error?[wire: "type"]?.wireString ?? ""
        if code == "context_length_exceeded" || type == "exceed_context_size_error" || message.contains("maximum context length") {
            return .contextLength(
                contextSize: error?[wire: "n_ctx"]?.wireInt,
                tokenCount: error?[wire: "n_prompt_tokens"]?.wireInt,
                message: message
            )
        }
        if code == "content_filter" || code == "content_policy_violation" {
            return .contentFilter(message)
        }
        switch status {
        case 429: return .rateLimited(resetDate: ServerHTTP.retryAfter(headers), message: message)
        case 500...: return .unavailable(status: status, message: message)
        default: return .rejected(status: status, message: message)
        }
    }
}

/// Folds one streamed chat completion into channel events.
package struct OpenAIStreamState {
    let schema: GenerationSchema?
    let responseID = UUID().uuidString
    let reasoningID = UUID().uuidString
    /// The answer so far, for the schema check at the end.
    private(set) var text = ""
    private var refusal = ""
    private var finishReason: String?
    private var sawDone = false
    /// Tool calls by their index in the stream: id and name come with the
    /// first delta of each.
    private var calls: [Int: (id: String, name: String)] = [:]
    /// The tools the request offered, for calls written as text
    /// (``TextToolCalls``).
    let offeredTools: Set<String>
    /// The answer's text held back while it may still be such a call, and
    /// the number of streamed deltas (about a token each) it came in, so
    /// the events that release it carry the count they stand for.
    private var heldText = ""
    private var heldDeltas = 0
    /// Set once the answer is known to be text: it streams from then on.
    private var streamsText: Bool

    package init(schema: GenerationSchema?, offeredTools: Set<String> = []) {
        self.schema = schema
        self.offeredTools = offeredTools
        self.streamsText = offeredTools.isEmpty
    }

    package mutating func apply(_ event: ServerSentEvent, channel: LanguageModelExecutorGenerationChannel) async throws {
        let data = event.data.trimmingCharacters(in: .whitespaces)
        if data == "[DONE]" {
            sawDone = true
            return
        }
        guard let chunk = try? GeneratedContent(json: data), chunk.isComplete else {
            throw ServerFailure.malformed(rawContent: String(data.prefix(500)), message: "The server sent an event that is not a JSON object.")
        }
        if let error = chunk[wire: "error"] {
            // An error reported inside the stream, after a 200.
            let status = error[wire: "code"]?.wireInt ?? 500
            throw OpenAIChatClient.failure(status: status, headers: HTTPHeaders(), body: WireJSON.object([("error", error)]).jsonString)
        }
        for choice in chunk[wire: "choices"]?.wireArray ?? [] {
            if let reason = choice[wire: "finish_reason"]?.wireString { finishReason = reason }
            guard let delta = choice[wire: "delta"] else { continue }
            if let reasoning = delta[wire: "reasoning_content"]?.wireString, !reasoning.isEmpty {
                await channel.send(.reasoning(entryID: reasoningID, action: .appendText(reasoning, tokenCount: 1)))
            }
            if let content = delta[wire: "content"]?.wireString, !content.isEmpty {
                text += content
                if streamsText {
                    await channel.send(.response(entryID: responseID, action: .appendText(content, tokenCount: 1)))
                } else {
                    heldText += content
                    heldDeltas += 1
                    if !calls.isEmpty || !TextToolCalls.mayBeCall(heldText) {
                        streamsText = true
                        await channel.send(.response(entryID: responseID, action: .appendText(heldText, tokenCount: heldDeltas)))
                        heldText = ""
                        heldDeltas = 0
                    }
                }
            }
            if let refusal = delta[wire: "refusal"]?.wireString {
                self.refusal += refusal
            }
            for call in delta[wire: "tool_calls"]?.wireArray ?? [] {
                let index = call[wire: "index"]?.wireInt ?? 0
                let function = call[wire: "function"]
                if calls[index] == nil {
                    let id = call[wire: "id"]?.wireString ?? "call_\(index)_\(UUID().uuidString.prefix(8))"
                    calls[index] = (id, function?[wire: "name"]?.wireString ?? "")
                }
                guard let open = calls[index] else { continue }
                let arguments = function?[wire: "arguments"]?.wireString ?? ""
                await channel.send(
                    .toolCalls(
                        action: .toolCall(id: open.id, name: open.name, action: .appendArguments(arguments, tokenCount: arguments.isEmpty ? 0 : 1))))
            }
        }
        if let usage = chunk[wire: "usage"], !usage.isWireNull {
            let input = usage[wire: "prompt_tokens"]?.wireInt ?? 0
            let output = usage[wire: "completion_tokens"]?.wireInt ?? 0
            let cached = usage[wire: "prompt_tokens_details"]?[wire: "cached_tokens"]?.wireInt ?? 0
            let reasoning = usage[wire: "completion_tokens_details"]?[wire: "reasoning_tokens"]?.wireInt ?? 0
            var metadata: [String: any ConvertibleToGeneratedContent] = [:]
            if let model = chunk[wire: "model"]?.wireString { metadata["model"] = model }
            await channel.send(
                .response(
                    entryID: responseID,
                    action: .updateUsage(
                        input: .init(totalTokenCount: input, cachedTokenCount: cached),
                        output: .init(totalTokenCount: output, reasoningTokenCount: reasoning),
                        metadata: metadata
                    )))
        }
    }

    /// Once the stream has ended: text held back because it might have been
    /// a tool call written as text is sent as the calls it is, or as text;
    /// an answer that streamed as text but ends in calls it introduced
    /// (``TextToolCalls/introducedCalls(in:offered:)``) is those calls, and
    /// the session drops its text.
    package mutating func settleHeldText(channel: LanguageModelExecutorGenerationChannel) async {
        guard !heldText.isEmpty else {
            guard calls.isEmpty, !offeredTools.isEmpty, let introduced = TextToolCalls.introducedCalls(in: text, offered: offeredTools) else {
                return
            }
            text = ""
            await send(introduced, deltas: 0, channel: channel)
            return
        }
        let deltas = heldDeltas
        defer {
            heldText = ""
            heldDeltas = 0
        }
        guard calls.isEmpty, let recovered = TextToolCalls.calls(in: heldText, offered: offeredTools) else {
            await channel.send(.response(entryID: responseID, action: .appendText(heldText, tokenCount: deltas)))
            return
        }
        text = ""
        await send(recovered, deltas: deltas, channel: channel)
    }

    /// Sends calls recovered from the answer's text, the `deltas` held back
    /// for them counted once, by the last call's event.
    private mutating func send(_ recovered: [TextToolCalls.Call], deltas: Int, channel: LanguageModelExecutorGenerationChannel) async {
        for (index, call) in recovered.enumerated() {
            let id = "call_\(index)_\(UUID().uuidString.prefix(8))"
            calls[index] = (id, call.name)
            // The held deltas are counted once, by the last call's event
            // (none where the text streamed and counted them).
            let count = deltas == 0 ? 0 : index == recovered.count - 1 ? max(1, deltas - (recovered.count - 1)) : 1
            await channel.send(.toolCalls(action: .toolCall(id: id, name: call.name, action: .appendArguments(call.arguments, tokenCount: count))))
        }
    }

    /// Judges how the stream ended: a refusal, a content filter, a stream
    /// cut short, or a structured answer that breaks its schema all fail.
    func finish() throws(ServerFailure) {
        if !refusal.isEmpty {
            throw .refusal(explanation: refusal)
        }
        if finishReason == "content_filter" {
            throw .contentFilter("The server's content filter stopped the answer.")
        }
        guard sawDone || finishReason != nil else {
            throw .connection("the stream ended before the server finished its answer")
        }
        if calls.isEmpty {
            try RemoteAnswerCheck.validate(text, schema: schema)
        }
    }
}
