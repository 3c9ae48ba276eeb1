import Foundation
import NIOHTTP1

/// A model behind Anthropic's Messages API: the frontier tier.
///
/// Exists so a feature that earns a frontier model keeps the session code it
/// has: `respond`, `respond(generating:)`, `streamResponse` and tools work
/// unchanged. A response schema goes out as a tool the model is made to
/// call (its input schema is the response's JSON Schema) and the call's
/// input is the answer, streamed as it is written and checked against the
/// schema by the same matcher the on-device model is held to. Tools are
/// native `tool_use`/`tool_result` blocks; extended thinking comes back as
/// reasoning entries with their signatures, which are sent back on the
/// following requests as the API requires.
public struct AnthropicLanguageModel: LanguageModel {
    /// The API's root, `https://api.anthropic.com/v1` by default; requests
    /// go to `messages` below it.
    public var baseURL: URL { configuration.endpoint.baseURL }
    /// The model name sent with every request.
    public var modelName: String { configuration.model }

    let configuration: AnthropicConfiguration

    /// - Parameters:
    ///   - baseURL: the API root; `https://` unless the host is this machine.
    ///   - model: the model name, such as `claude-sonnet-4-5`.
    ///   - apiKey: the key, sent as `x-api-key`; when `nil`, read from the
    ///     environment variable `apiKeyEnvironmentVariable`.
    ///   - options: timeouts, size limit and retries.
    /// - Throws: ``ServerModelError`` for a bad URL, or when there is no key
    ///   for a server that is not this machine.
    public init(
        baseURL: URL = URL(string: "https://api.anthropic.com/v1")!,
        model: String,
        apiKey: String? = nil,
        apiKeyEnvironmentVariable: String? = "ANTHROPIC_API_KEY",
        options: ServerOptions = ServerOptions()
    ) throws {
        let endpoint = try RemoteEndpoint(baseURL)
        let key = APIKey.resolve(apiKey, environmentVariable: apiKeyEnvironmentVariable)
        if key == nil, !RemoteEndpoint.isLoopback(baseURL.host ?? "") {
            throw ServerModelError("no Anthropic API key: pass apiKey or set \(apiKeyEnvironmentVariable ?? "an environment variable")")
        }
        configuration = AnthropicConfiguration(endpoint: endpoint, model: model, apiKey: key, options: options)
    }

    public var capabilities: LanguageModelCapabilities {
        LanguageModelCapabilities([.guidedGeneration, .toolCalling, .reasoning])
    }

    public var executorConfiguration: Executor.Configuration {
        Executor.Configuration(anthropic: configuration)
    }

    /// The executor: transcript → Messages request, streamed events → channel events.
    public struct Executor: LanguageModelExecutor {
        public typealias Model = AnthropicLanguageModel

        /// The server, model, key and options; equal configurations share an executor.
        public struct Configuration: Hashable, Sendable {
            let anthropic: AnthropicConfiguration
        }

        let configuration: AnthropicConfiguration

        public init(configuration: Configuration) {
            self.configuration = configuration.anthropic
        }

        public func respond(
            to request: LanguageModelExecutorGenerationRequest,
            model: AnthropicLanguageModel,
            streamingInto channel: LanguageModelExecutorGenerationChannel
        ) async throws {
            try RemoteAnswerCheck.preflight(request.schema)
            let wire = AnthropicRequest(request, model: configuration.model)
            var headers = [("anthropic-version", "2023-06-01")]
            if let key = configuration.apiKey { headers.append(("x-api-key", key.value)) }
            do {
                let response = try await ServerHTTP.post(
                    configuration.endpoint.url("messages"),
                    headers: headers,
                    body: wire.body.jsonString,
                    options: configuration.options,
                    failure: AnthropicStream.failure
                )
                var stream = AnthropicStream(request: wire, schema: request.schema)
                try await ServerHTTP.events(of: response, options: configuration.options) { event in
                    try await stream.apply(event, channel: channel)
                }
                try await stream.finish(channel: channel)
            } catch let failure as ServerFailure {
                throw RemoteErrorFamily.languageModel.error(for: failure)
            }
        }
    }
}

package struct AnthropicConfiguration: Hashable, Sendable {
    var endpoint: RemoteEndpoint
    var model: String
    var apiKey: APIKey?
    var options: ServerOptions
}

/// A Messages API request built from an executor request.
struct AnthropicRequest {
    /// The tool that carries a structured answer, when the request has a schema.
    var answerTool: String?
    /// Whether the answer's schema was wrapped in an object (the API wants
    /// an object as a tool's input): its value is then the `value` property.
    var answerWrapped = false
    var body = GeneratedContent(kind: .null)

    static let wrapperKey = "value"

    init(_ request: LanguageModelExecutorGenerationRequest, model: String) {
        let options = request.generationOptions
        var tools = request.enabledToolDefinitions.map { tool in
            WireJSON.object([
                ("name", WireJSON.string(tool.name)),
                ("description", WireJSON.string(tool.description)),
                ("input_schema", tool.parameters.jsonSchema),
            ])
        }
        var toolChoice: GeneratedContent?
        if let schema = request.schema {
            var name = "structured_answer"
            while request.enabledToolDefinitions.contains(where: { $0.name == name }) { name += "_" }
            answerTool = name
            var input = schema.jsonSchema
            if input[wire: "type"]?.wireString != "object" {
                answerWrapped = true
                input = Self.wrapped(input)
            }
            tools.append(
                WireJSON.object([
                    ("name", WireJSON.string(name)),
                    ("description", WireJSON.string("Give your answer: the input is the answer itself, following this schema.")),
                    ("input_schema", input),
                ]))
            // With tools of its own the model may call them first; the
            // answer is still only ever this tool's input.
            toolChoice =
                tools.count == 1
                ? WireJSON.object([("type", WireJSON.string("tool")), ("name", WireJSON.string(name))])
                : WireJSON.object([("type", WireJSON.string("any"))])
        } else if !tools.isEmpty {
            toolChoice = WireJSON.object([("type", WireJSON.string(options.toolCallingMode == .required ? "any" : "auto"))])
        }
        // Extended thinking cannot be combined with a forced tool.
        let budget = request.schema == nil ? request.contextOptions.reasoningLevel.map(Self.thinkingBudget) : nil
        let maximum = (options.maximumResponseTokens ?? 4096) + (budget ?? 0)
        var topK: Int?
        var topP: Double?
        var temperature = options.temperature
        switch options.samplingMode?.kind {
        case .greedy?: temperature = 0; topK = 1
        case .randomTopK(let k, _)?: topK = k
        case .randomProbabilityThreshold(let p, _)?: topP = p
        case nil: break
        }
        if budget != nil { temperature = nil; topK = nil; topP = nil }
        let (system, messages) = Self.messages(for: request.transcript)
        body = WireJSON.object([
            ("model", WireJSON.string(model)),
            ("max_tokens", WireJSON.number(maximum)),
            ("system", system.isEmpty ? nil : WireJSON.string(system)),
            ("messages", WireJSON.array(messages)),
            ("tools", tools.isEmpty ? nil : WireJSON.array(tools)),
            ("tool_choice", toolChoice),
            ("thinking", budget.map { WireJSON.object([("type", WireJSON.string("enabled")), ("budget_tokens", WireJSON.number($0))]) }),
            ("temperature", temperature.map { WireJSON.number(min(1, $0)) }),
            ("top_k", topK.map(WireJSON.number)),
            ("top_p", topP.map(WireJSON.number)),
            ("stream", WireJSON.bool(true)),
        ])
    }

    static func thinkingBudget(_ level: ContextOptions.ReasoningLevel) -> Int {
        switch level {
        case .light: 1024
        case .moderate: 4096
        case .deep: 16_384
        case .custom(let value): max(1024, Int(value) ?? 4096)
        }
    }

    /// `{"type":"object","properties":{"value": schema},…}`, the schema's
    /// `$defs` lifted to the top so its references still resolve.
    static func wrapped(_ schema: GeneratedContent) -> GeneratedContent {
        guard case .structure(var properties, var keys) = schema.kind else { return schema }
        let definitions = properties.removeValue(forKey: "$defs")
        keys.removeAll { $0 == "$defs" }
        let inner = GeneratedContent(kind: .structure(properties: properties, orderedKeys: keys))
        return WireJSON.object([
            ("type", WireJSON.string("object")),
            ("properties", WireJSON.object([(wrapperKey, inner)])),
            ("required", WireJSON.array([WireJSON.string(wrapperKey)])),
            ("additionalProperties", WireJSON.bool(false)),
            ("$defs", definitions),
        ])
    }

    /// The system text and the alternating user/assistant messages, each
    /// a list of content blocks; consecutive entries of one role share a message.
    static func messages(for transcript: Transcript) -> (String, [GeneratedContent]) {
        var system: [String] = []
        var messages: [(role: String, blocks: [GeneratedContent])] = []
        func add(_ role: String, _ block: GeneratedContent) {
            if messages.last?.role == role {
                messages[messages.count - 1].blocks.append(block)
            } else {
                messages.append((role, [block]))
            }
        }
        func text(_ value: String) -> GeneratedContent {
            WireJSON.object([("type", WireJSON.string("text")), ("text", WireJSON.string(value))])
        }
        for entry in transcript {
            switch entry {
            case .instructions(let instructions):
                let text = Transcript.wireText(instructions.segments)
                if !text.isEmpty { system.append(text) }
            case .prompt(let prompt):
                add("user", text(OpenAIChatClient.userText(prompt)))
            #if DataAttachments
            case .data:
                // The Messages API has no form for a data entry, and the model
                // lists no types (supportsDataEntryType is false), so the
                // session refuses a transcript holding one before this.
                continue
            #endif
            case .reasoning(let reasoning):
                // Only signed thinking can be sent back; unsigned reasoning
                // (from another model) is left out.
                guard let signature = reasoning.signature else { continue }
                let signatureText = String(decoding: signature, as: UTF8.self)
                if (try? reasoning.metadata["redacted"]?.value(Bool.self)) == true {
                    add("assistant", WireJSON.object([("type", WireJSON.string("redacted_thinking")), ("data", WireJSON.string(signatureText))]))
                } else {
                    add(
                        "assistant",
                        WireJSON.object([
                            ("type", WireJSON.string("thinking")),
                            ("thinking", WireJSON.string(Transcript.wireText(reasoning.segments))),
                            ("signature", WireJSON.string(signatureText)),
                        ]))
                }
            case .toolCalls(let calls):
                for call in calls {
                    add(
                        "assistant",
                        WireJSON.object([
                            ("type", WireJSON.string("tool_use")),
                            ("id", WireJSON.string(call.id)),
                            ("name", WireJSON.string(call.toolName)),
                            ("input", call.arguments),
                        ]))
                }
            case .toolOutput(let output):
                add(
                    "user",
                    WireJSON.object([
                        ("type", WireJSON.string("tool_result")),
                        ("tool_use_id", WireJSON.string(output.id)),
                        ("content", WireJSON.string(Transcript.wireText(output.segments))),
                    ]))
            case .response(let response):
                add("assistant", text(Transcript.wireText(response.segments)))
            @unknown default:
                continue
            }
        }
        let wire = messages.map { message in
            WireJSON.object([("role", WireJSON.string(message.role)), ("content", WireJSON.array(message.blocks))])
        }
        return (system.joined(separator: "\n\n"), wire)
    }
}

/// Folds one streamed Message into channel events.
struct AnthropicStream {
    let request: AnthropicRequest
    let schema: GenerationSchema?
    let responseID = UUID().uuidString
    /// What each content block (by index) is.
    private enum Block {
        case text
        case thinking(entryID: String)
        case toolUse(id: String, name: String)
        case answer
        case other
    }
    private var blocks: [Int: Block] = [:]
    /// The answer's text so far (text blocks, or the answer tool's input).
    private var answer = ""
    private var answeredWithTool = false
    private var calledTools = false
    private var stopReason: String?
    private var stopped = false
    private var inputTokens = 0
    private var cachedTokens = 0
    private var outputTokens = 0
    private var model: String?

    init(request: AnthropicRequest, schema: GenerationSchema?) {
        self.request = request
        self.schema = schema
    }

    mutating func apply(_ event: ServerSentEvent, channel: LanguageModelExecutorGenerationChannel) async throws {
        guard let payload = try? GeneratedContent(json: event.data), payload.isComplete else {
            throw ServerFailure.malformed(rawContent: String(event.data.prefix(500)), message: "The server sent an event that is not a JSON object.")
        }
        let type = payload[wire: "type"]?.wireString ?? event.event
        switch type {
        case "message_start":
            let message = payload[wire: "message"]
            model = message?[wire: "model"]?.wireString
            if let usage = message?[wire: "usage"] { readUsage(usage) }
        case "content_block_start":
            let index = payload[wire: "index"]?.wireInt ?? 0
            let block = payload[wire: "content_block"]
            switch block?[wire: "type"]?.wireString {
            case "text":
                blocks[index] = .text
                if let text = block?[wire: "text"]?.wireString, !text.isEmpty { await appendAnswer(text, fromAnswerTool: false, channel: channel) }
            case "thinking":
                let entryID = UUID().uuidString
                blocks[index] = .thinking(entryID: entryID)
                if let thinking = block?[wire: "thinking"]?.wireString, !thinking.isEmpty {
                    await channel.send(.reasoning(entryID: entryID, action: .appendText(thinking, tokenCount: 1)))
                }
            case "redacted_thinking":
                let entryID = UUID().uuidString
                blocks[index] = .other
                let data = block?[wire: "data"]?.wireString ?? ""
                await channel.send(.reasoning(entryID: entryID, action: .updateSignature(Data(data.utf8), tokenCount: 0)))
                await channel.send(.reasoning(entryID: entryID, action: .updateMetadata(["redacted": true])))
            case "tool_use":
                let id = block?[wire: "id"]?.wireString ?? UUID().uuidString
                let name = block?[wire: "name"]?.wireString ?? ""
                if name == request.answerTool {
                    blocks[index] = .answer
                    answeredWithTool = true
                } else {
                    blocks[index] = .toolUse(id: id, name: name)
                    calledTools = true
                    // Opens the call; its input arrives as deltas.
                    await channel.send(.toolCalls(action: .toolCall(id: id, name: name, action: .appendArguments("", tokenCount: 0))))
                }
            default:
                blocks[index] = .other
            }
        case "content_block_delta":
            let index = payload[wire: "index"]?.wireInt ?? 0
            let delta = payload[wire: "delta"]
            switch (blocks[index], delta?[wire: "type"]?.wireString) {
            case (.text?, "text_delta"):
                await appendAnswer(delta?[wire: "text"]?.wireString ?? "", fromAnswerTool: false, channel: channel)
            case (.thinking(let entryID)?, "thinking_delta"):
                let thinking = delta?[wire: "thinking"]?.wireString ?? ""
                if !thinking.isEmpty { await channel.send(.reasoning(entryID: entryID, action: .appendText(thinking, tokenCount: 1))) }
            case (.thinking(let entryID)?, "signature_delta"):
                let signature = delta?[wire: "signature"]?.wireString ?? ""
                await channel.send(.reasoning(entryID: entryID, action: .updateSignature(Data(signature.utf8), tokenCount: 0)))
            case (.toolUse(let id, let name)?, "input_json_delta"):
                let json = delta?[wire: "partial_json"]?.wireString ?? ""
                await channel.send(
                    .toolCalls(action: .toolCall(id: id, name: name, action: .appendArguments(json, tokenCount: json.isEmpty ? 0 : 1))))
            case (.answer?, "input_json_delta"):
                let json = delta?[wire: "partial_json"]?.wireString ?? ""
                if request.answerWrapped {
                    answer += json  // unwrapped once complete (finish)
                } else {
                    await appendAnswer(json, fromAnswerTool: true, channel: channel)
                }
            default:
                break
            }
        case "message_delta":
            if let reason = payload[wire: "delta"]?[wire: "stop_reason"]?.wireString { stopReason = reason }
            if let usage = payload[wire: "usage"] { readUsage(usage) }
            await sendUsage(channel)
        case "message_stop":
            stopped = true
        case "error":
            let error = payload[wire: "error"]
            let kind = error?[wire: "type"]?.wireString ?? ""
            let status = kind == "overloaded_error" ? 529 : kind == "rate_limit_error" ? 429 : 500
            throw Self.failure(status: status, headers: HTTPHeaders(), body: payload.jsonString)
        default:
            break  // ping, and event types added later
        }
    }

    private mutating func appendAnswer(_ text: String, fromAnswerTool: Bool, channel: LanguageModelExecutorGenerationChannel) async {
        // A structured request answers through the answer tool; text beside
        // it is the model talking, not the answer.
        guard !text.isEmpty, fromAnswerTool || schema == nil else { return }
        answer += text
        await channel.send(.response(entryID: responseID, action: .appendText(text, tokenCount: 1)))
    }

    private mutating func readUsage(_ usage: GeneratedContent) {
        if let input = usage[wire: "input_tokens"]?.wireInt {
            let read = usage[wire: "cache_read_input_tokens"]?.wireInt ?? 0
            let created = usage[wire: "cache_creation_input_tokens"]?.wireInt ?? 0
            inputTokens = input + read + created
            cachedTokens = read
        }
        if let output = usage[wire: "output_tokens"]?.wireInt { outputTokens = output }
    }

    private func sendUsage(_ channel: LanguageModelExecutorGenerationChannel) async {
        var metadata: [String: any ConvertibleToGeneratedContent] = [:]
        if let model { metadata["model"] = model }
        await channel.send(
            .response(
                entryID: responseID,
                action: .updateUsage(
                    input: .init(totalTokenCount: inputTokens, cachedTokenCount: cachedTokens),
                    output: .init(totalTokenCount: outputTokens, reasoningTokenCount: 0),
                    metadata: metadata
                )))
    }

    /// Judges how the message ended.
    mutating func finish(channel: LanguageModelExecutorGenerationChannel) async throws {
        switch stopReason {
        case "refusal"?:
            throw ServerFailure.refusal(explanation: answer.isEmpty ? "The model declined to answer." : answer)
        case nil where !stopped:
            throw ServerFailure.connection("the stream ended before the server finished its message")
        default:
            break
        }
        guard let schema, !calledTools else { return }
        guard answeredWithTool else {
            throw ServerFailure.malformed(rawContent: answer, message: "The model answered without the structured answer the schema asks for.")
        }
        if request.answerWrapped {
            guard let wrapper = try? GeneratedContent(json: answer), let value = wrapper[wire: AnthropicRequest.wrapperKey] else {
                throw ServerFailure.malformed(rawContent: answer, message: "The structured answer is not the object it was asked to be.")
            }
            answer = value.jsonString
            await channel.send(.response(entryID: responseID, action: .appendText(answer, tokenCount: 1)))
        }
        try RemoteAnswerCheck.validate(answer, schema: schema)
    }

    /// An error answer as a failure: `{"type":"error","error":{"type","message"}}`.
    static func failure(status: Int, headers: HTTPHeaders, body: String) -> ServerFailure {
        let error = (try? GeneratedContent(json: body))?[wire: "error"]
        let message = error?[wire: "message"]?.wireString ?? String(body.prefix(300))
        let type = error?[wire: "type"]?.wireString ?? ""
        if message.contains("prompt is too long") || message.contains("context window") {
            // "prompt is too long: 210000 tokens > 200000 maximum"
            let numbers = message.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            return .contextLength(
                contextSize: numbers.count >= 2 ? numbers[1] : nil,
                tokenCount: numbers.first,
                message: message
            )
        }
        switch (status, type) {
        case (429, _), (_, "rate_limit_error"):
            return .rateLimited(resetDate: ServerHTTP.retryAfter(headers), message: message)
        case (500..., _), (_, "overloaded_error"), (_, "api_error"):
            return .unavailable(status: status, message: message)
        default:
            return .rejected(status: status, message: message)
        }
    }
}
