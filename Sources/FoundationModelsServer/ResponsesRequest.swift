import Foundation
import FoundationModels

/// A Responses API request (`POST /v1/responses`), read into the
/// ``ChatCompletionRequest`` the chat route answers with: one session
/// mechanism, one decoding path, one set of checks (the conversation's
/// order, tools, schemas), so the two APIs can never answer the same
/// question differently. Only the wire format is the Responses API's own.
///
/// The server is stateless (OpenAI's `store: false`): nothing is kept
/// between requests, so a `previous_response_id`, a `conversation` or a
/// background response is refused as a 400 saying so, and the client
/// sends the whole conversation in `input`, function calls and their
/// outputs included.
struct ResponsesRequest {
    /// The question, as the chat machinery answers it.
    var chat: ChatCompletionRequest
    /// What the response object repeats of the request, as the client sent it.
    var instructions: String?
    var maximumOutputTokens: Int?
    /// `top_logprobs` as sent (0 to 20), which the response repeats.
    var topLogProbabilities: Int?
    var tools: GeneratedContent
    var toolChoice: GeneratedContent
    var textFormat: GeneratedContent
    var metadata: GeneratedContent
    var parallelToolCalls: Bool
    var user: String?

    /// Parses and checks `body`.
    /// - Throws: ``APIError`` with status 400 naming what is wrong.
    init(json body: String, limits: ChatCompletionRequest.Limits) throws(APIError) {
        typealias Read = ChatCompletionRequest
        let fields = try Read.fields(
            ofJSON: body,
            known: [
                "model", "input", "instructions", "stream", "stream_options", "max_output_tokens", "temperature", "top_p",
                "tools", "tool_choice", "text", "parallel_tool_calls", "metadata", "store", "user", "previous_response_id",
                "reasoning", "truncation", "include", "top_logprobs", "service_tier", "prompt_cache_key",
                "safety_identifier", "background", "conversation", "prompt", "max_tool_calls",
            ])
        if let id = try Read.string(fields["previous_response_id"], "previous_response_id") {
            throw .invalid(
                "previous_response_id '\(id)' cannot be used: this server is stateless and keeps no responses (store is false). "
                    + "Send the whole conversation in input, earlier output items included.",
                param: "previous_response_id", code: "previous_response_not_found"
            )
        }
        for name in ["conversation", "prompt"] where fields[name].map({ $0.kind != .null }) ?? false {
            throw .invalid("\(name) is not supported: this server is stateless and keeps no conversations or prompts.", param: name)
        }
        if try Read.bool(fields["background"], "background") == true {
            throw .invalid("background responses are not supported: this server is stateless.", param: "background")
        }
        _ = try Read.bool(fields["store"], "store")
        let top = try Read.integer(fields["top_logprobs"], "top_logprobs")
        if let top, !(0...20).contains(top) { throw .invalid("top_logprobs must be between 0 and 20.", param: "top_logprobs") }
        topLogProbabilities = top
        // As OpenAI's: the tokens' log-probabilities come with
        // `include: ["message.output_text.logprobs"]`, each with
        // `top_logprobs` alternatives (none without it).
        let logProbabilities = try Self.include(fields["include"]).contains(Self.logProbabilitiesInclude) ? top ?? 0 : nil
        if let truncation = try Read.string(fields["truncation"], "truncation"), !["auto", "disabled"].contains(truncation) {
            throw .invalid("truncation must be 'auto' or 'disabled'.", param: "truncation")
        }
        if let reasoning = fields["reasoning"], reasoning.kind != .null {
            // Accepted and without effect, as chat's reasoning_effort: the model does not reason.
            guard case .structure = reasoning.kind else { throw .invalid("reasoning must be an object.", param: "reasoning") }
        }
        for name in ["service_tier", "prompt_cache_key", "safety_identifier"] { _ = try Read.string(fields[name], name) }
        if let calls = try Read.integer(fields["max_tool_calls"], "max_tool_calls"), calls < 1 {
            throw .invalid("max_tool_calls must be at least 1.", param: "max_tool_calls")
        }
        user = try Read.string(fields["user"], "user")
        metadata = fields["metadata"].flatMap { $0.kind == .null ? nil : $0 } ?? WireJSON.object([])
        guard case .structure = metadata.kind else { throw .invalid("metadata must be an object.", param: "metadata") }

        instructions = try Read.string(fields["instructions"], "instructions")
        var messages = try Self.input(fields["input"], limit: limits.maximumMessages)
        if let instructions, !instructions.isEmpty { messages.insert(.system(instructions), at: 0) }
        chat = ChatCompletionRequest(messages: messages)
        chat.logProbabilities = logProbabilities
        chat.model = try Read.string(fields["model"], "model")
        chat.stream = try Read.bool(fields["stream"], "stream") ?? false
        if let options = fields["stream_options"], options.kind != .null {
            guard chat.stream else { throw .invalid("stream_options is only allowed when stream is true.", param: "stream_options") }
            guard case .structure = options.kind else { throw .invalid("stream_options must be an object.", param: "stream_options") }
        }
        if let tokens = try Read.integer(fields["max_output_tokens"], "max_output_tokens") {
            guard tokens >= 1 else { throw .invalid("max_output_tokens must be at least 1.", param: "max_output_tokens") }
            maximumOutputTokens = tokens
            chat.maximumTokens = tokens
            chat.maximumTokensParameter = "max_output_tokens"
        }
        if let cap = limits.maximumTokens {
            if cap < chat.maximumTokens ?? .max { chat.maximumTokensParameter = nil }
            chat.maximumTokens = min(chat.maximumTokens ?? cap, cap)
        }
        chat.temperature = try Read.temperature(fields["temperature"])
        chat.topP = try Read.topP(fields["top_p"])
        parallelToolCalls = try Read.bool(fields["parallel_tool_calls"], "parallel_tool_calls") ?? true
        (chat.tools, tools) = try Self.tools(fields["tools"])
        (chat.toolChoice, toolChoice) = try Self.toolChoice(fields["tool_choice"], tools: chat.tools)
        (chat.schema, textFormat) = try Self.text(fields["text"])
    }

    // MARK: Fields

    /// What `include` asks for the tokens' log-probabilities with.
    static let logProbabilitiesInclude = "message.output_text.logprobs"

    /// `include`: the tokens' log-probabilities (``logProbabilitiesInclude``),
    /// or an encrypted reasoning item (which stateless clients ask for and
    /// which is simply never there). Returns the names asked for.
    private static func include(_ value: GeneratedContent?) throws(APIError) -> [String] {
        guard let value, value.kind != .null else { return [] }
        guard case .array(let items) = value.kind else { throw .invalid("include must be an array of strings.", param: "include") }
        for item in items {
            guard case .string(let name) = item.kind else { throw .invalid("include must be an array of strings.", param: "include") }
            guard ["reasoning.encrypted_content", logProbabilitiesInclude].contains(name) else {
                throw .invalid("include '\(name)' is not supported.", param: "include")
            }
        }
        return items.compactMap { if case .string(let name) = $0.kind { name } else { nil } }
    }

    /// `input`: a string (the user's message), or items: messages (with
    /// `input_text` / `output_text` parts), `function_call`s (consecutive
    /// ones are one assistant turn) and their `function_call_output`s.
    /// Reasoning items are skipped (the model does not reason).
    private static func input(_ value: GeneratedContent?, limit: Int) throws(APIError) -> [ChatCompletionRequest.Message] {
        typealias Read = ChatCompletionRequest
        guard let value, value.kind != .null else { throw .invalid("input is missing.", param: "input") }
        if case .string(let text) = value.kind { return [.user(text)] }
        guard case .array(let items) = value.kind else { throw .invalid("input must be a string or an array of input items.", param: "input") }
        guard !items.isEmpty else { throw .invalid("input must not be empty.", param: "input") }
        guard items.count <= limit else { throw .invalid("input holds \(items.count) items; the limit is \(limit).", param: "input") }
        var conversation = ChatCompletionRequest.Conversation(wording: .responses)
        var calls: [ChatCompletionRequest.ToolCall] = []
        var callsPlace: ChatCompletionRequest.Conversation.Place?
        func flushCalls() throws(APIError) {
            guard let place = callsPlace else { return }
            try conversation.append(.toolCalls(calls), at: place)
            calls = []
            callsPlace = nil
        }
        let parts: Set<String> = ["input_text", "output_text"]
        for (index, item) in items.enumerated() {
            let param = "input[\(index)]"
            guard case .structure(let fields, _) = item.kind else { throw .invalid("\(param) must be an object.", param: param) }
            let type = try Read.string(fields["type"], "\(param).type") ?? "message"
            let place = ChatCompletionRequest.Conversation.Place(item: param, order: "\(param).type", id: "\(param).call_id")
            if type != "function_call" { try flushCalls() }
            switch type {
            case "message":
                guard let role = try Read.string(fields["role"], "\(param).role") else {
                    throw .invalid("\(param).role is missing.", param: "\(param).role")
                }
                let content = try Read.content(fields["content"], param: "\(param).content", required: true, partTypes: parts)
                let place = ChatCompletionRequest.Conversation.Place(item: param, order: "\(param).role", id: "\(param).call_id")
                switch role {
                case "system", "developer": try conversation.append(.system(content), at: place)
                case "user": try conversation.append(.user(content), at: place)
                case "assistant": try conversation.append(.assistant(content), at: place)
                default:
                    throw .invalid("\(param).role: '\(role)' is not one of 'system', 'developer', 'user', 'assistant'.", param: "\(param).role")
                }
            case "function_call":
                guard let id = try Read.string(fields["call_id"], "\(param).call_id"), !id.isEmpty else {
                    throw .invalid("\(param).call_id is missing.", param: "\(param).call_id")
                }
                guard let name = try Read.string(fields["name"], "\(param).name") else {
                    throw .invalid("\(param).name is missing.", param: "\(param).name")
                }
                let text = try Read.string(fields["arguments"], "\(param).arguments") ?? "{}"
                let arguments: GeneratedContent
                do {
                    arguments = try GeneratedContent(json: text.isEmpty ? "{}" : text)
                } catch {
                    throw .invalid("\(param).arguments is not valid JSON: \(error)", param: "\(param).arguments")
                }
                guard calls.allSatisfy({ $0.id != id }) else { throw .invalid("\(param).call_id '\(id)' is used twice.", param: "\(param).call_id") }
                calls.append(ChatCompletionRequest.ToolCall(id: id, name: name, arguments: arguments))
                callsPlace = callsPlace ?? place
            case "function_call_output":
                guard let id = try Read.string(fields["call_id"], "\(param).call_id") else {
                    throw .invalid("\(param).call_id is missing.", param: "\(param).call_id")
                }
                let output = try Read.content(fields["output"], param: "\(param).output", required: true, partTypes: parts)
                try conversation.append(.toolOutput(callID: id, toolName: "", content: output), at: place)
            case "reasoning":
                continue
            default:
                throw .invalid(
                    "\(param).type '\(type)' is not supported (only 'message', 'function_call', 'function_call_output' and 'reasoning').",
                    param: "\(param).type"
                )
            }
        }
        try flushCalls()
        return try conversation.finish(root: "input", last: "input[\(items.count - 1)]")
    }

    /// `tools`: functions, as Chat Completions' but flat (`name`,
    /// `parameters` beside `type`); echoed as sent.
    private static func tools(_ value: GeneratedContent?) throws(APIError) -> ([ChatCompletionRequest.Tool], GeneratedContent) {
        typealias Read = ChatCompletionRequest
        guard let value, value.kind != .null else { return ([], WireJSON.array([])) }
        guard case .array(let items) = value.kind else { throw .invalid("tools must be an array.", param: "tools") }
        guard items.count <= 128 else { throw .invalid("tools holds \(items.count) tools; the limit is 128.", param: "tools") }
        var tools: [ChatCompletionRequest.Tool] = []
        for (index, item) in items.enumerated() {
            let param = "tools[\(index)]"
            guard case .structure(let fields, _) = item.kind else { throw .invalid("\(param) must be an object.", param: param) }
            guard let type = try Read.string(fields["type"], "\(param).type") else {
                throw .invalid("\(param).type is missing.", param: "\(param).type")
            }
            guard type == "function" else { throw .invalid("\(param).type '\(type)' is not supported (only 'function').", param: "\(param).type") }
            tools.append(try Read.tool(fields, param: param, after: tools))
        }
        return (tools, value)
    }

    /// `tool_choice`: `auto`, `none`, `required`, or `{"type": "function", "name": ...}`.
    private static func toolChoice(
        _ value: GeneratedContent?, tools: [ChatCompletionRequest.Tool]
    ) throws(APIError) -> (ChatCompletionRequest.ToolChoice, GeneratedContent) {
        guard let value, value.kind != .null else { return (tools.isEmpty ? .none : .auto, WireJSON.string("auto")) }
        let choice: ChatCompletionRequest.ToolChoice
        let usage = "tool_choice must be 'auto', 'none', 'required' or {\"type\": \"function\", \"name\": ...}."
        switch value.kind {
        case .string("auto"): choice = .auto
        case .string("none"): choice = .none
        case .string("required"): choice = .required
        case .structure(let fields, _):
            guard try ChatCompletionRequest.string(fields["type"], "tool_choice.type") == "function",
                let name = try ChatCompletionRequest.string(fields["name"], "tool_choice.name")
            else {
                throw .invalid(usage, param: "tool_choice")
            }
            guard tools.contains(where: { $0.name == name }) else {
                throw .invalid("tool_choice names '\(name)', which is not one of the tools.", param: "tool_choice.name")
            }
            choice = .function(name)
        default:
            throw .invalid(usage, param: "tool_choice")
        }
        if tools.isEmpty, choice != .none {
            throw .invalid("tool_choice is only allowed when tools are specified.", param: "tool_choice")
        }
        return (choice, value)
    }

    /// `text.format`: text, `json_object`, or `json_schema` (flat: `name`,
    /// `schema`, `strict` beside `type`), which guided generation enforces
    /// whether or not `strict` is set; echoed as sent.
    private static func text(_ value: GeneratedContent?) throws(APIError) -> (GenerationSchema?, GeneratedContent) {
        typealias Read = ChatCompletionRequest
        let plain = WireJSON.object([("type", WireJSON.string("text"))])
        guard let value, value.kind != .null else { return (nil, plain) }
        guard case .structure(let text, _) = value.kind else { throw .invalid("text must be an object.", param: "text") }
        if let verbosity = try Read.string(text["verbosity"], "text.verbosity"), !["low", "medium", "high"].contains(verbosity) {
            throw .invalid("text.verbosity must be 'low', 'medium' or 'high'.", param: "text.verbosity")
        }
        if let unknown = text.keys.sorted().first(where: { !["format", "verbosity"].contains($0) }) {
            throw .invalid("Unrecognized request argument supplied: text.\(unknown)", param: "text.\(unknown)")
        }
        guard let format = text["format"], format.kind != .null else { return (nil, plain) }
        guard case .structure(let fields, _) = format.kind, let type = try Read.string(fields["type"], "text.format.type") else {
            throw .invalid("text.format must be an object with a type.", param: "text.format")
        }
        switch type {
        case "text":
            return (nil, format)
        case "json_object":
            return (try Read.schema(from: #"{"type":"object"}"#, param: "text.format"), format)
        case "json_schema":
            guard let name = try Read.string(fields["name"], "text.format.name"), !name.isEmpty else {
                throw .invalid("text.format.name is missing.", param: "text.format.name")
            }
            _ = try Read.bool(fields["strict"], "text.format.strict")
            _ = try Read.string(fields["description"], "text.format.description")
            guard let schema = fields["schema"], case .structure = schema.kind else {
                throw .invalid("text.format.schema must be a JSON Schema object.", param: "text.format.schema")
            }
            return (try Read.schema(from: schema.jsonString, param: "text.format.schema"), format)
        default:
            throw .invalid("text.format.type '\(type)' is not one of 'text', 'json_object', 'json_schema'.", param: "text.format.type")
        }
    }
}
