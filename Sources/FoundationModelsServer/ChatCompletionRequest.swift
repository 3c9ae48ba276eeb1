import Foundation
import FoundationModels

/// A Chat Completions request (`POST /v1/chat/completions`), read from its
/// JSON and checked before any decoding of the model starts: everything the
/// server does not do is refused here, naming the parameter, so a client
/// never gets an answer to a question it did not ask.
///
/// Read with the order-keeping JSON parser (`GeneratedContent(json:)`), not
/// `JSONDecoder`: a JSON Schema's `properties` are generated in the order
/// the client wrote them.
struct ChatCompletionRequest {
    /// One message of the conversation, as the session will see it.
    enum Message: Equatable {
        case system(String)
        case user(String)
        case assistant(String)
        /// An assistant message that called tools (its text, if any, is
        /// dropped: the session's turn is the calls).
        case toolCalls([ToolCall])
        /// A tool's output, answering the call with this id.
        case toolOutput(callID: String, toolName: String, content: String)
    }

    /// A call an earlier assistant message made.
    struct ToolCall: Equatable {
        var id: String
        var name: String
        var arguments: GeneratedContent
    }

    /// A function the client offers the model (`tools`).
    struct Tool {
        var name: String
        var description: String
        var parameters: GenerationSchema
    }

    /// `tool_choice`.
    enum ToolChoice: Equatable {
        case auto, none, required
        case function(String)
    }

    var model: String?
    var messages: [Message]
    var stream = false
    var includeUsage = false
    var maximumTokens: Int?
    /// The field that set ``maximumTokens`` (`max_tokens`,
    /// `max_completion_tokens`, the Responses API's `max_output_tokens`);
    /// nil where none did, or the server's cap (`--max-tokens`) is lower.
    var maximumTokensParameter: String?
    var temperature: Double?
    var topP: Double?
    var topK: Int?
    var seed: UInt64?
    var stop: [String] = []
    /// The schema every answer must follow (`response_format`), or nil for text.
    var schema: GenerationSchema?
    var tools: [Tool] = []
    var toolChoice = ToolChoice.auto
    /// With `logprobs`, how many of the most likely tokens to give beside
    /// each one the answer has (`top_logprobs`, 0 to 20); nil without.
    var logProbabilities: Int?

    /// Limits a request must keep to (``ChatCompletionsServer/Configuration``).
    struct Limits {
        var maximumMessages: Int
        var maximumTokens: Int?
    }

    /// A request read from another API (``ResponsesRequest``): the
    /// conversation, and the defaults for everything else.
    init(messages: [Message]) {
        self.messages = messages
    }

    /// Parses and checks `body`.
    /// - Throws: ``APIError`` with status 400 naming what is wrong.
    init(json body: String, limits: Limits) throws(APIError) {
        let fields = try Self.fields(
            ofJSON: body,
            known: [
                "model", "messages", "stream", "stream_options", "max_tokens", "max_completion_tokens", "temperature",
                "top_p", "seed", "stop", "n", "response_format", "tools", "tool_choice", "user", "frequency_penalty",
                "presence_penalty", "logprobs", "top_logprobs", "parallel_tool_calls", "metadata", "store",
                // Not OpenAI's: llama-server, vLLM and Ollama read top_k, and
                // OpenAICompatibleLanguageModel sends it. Reasoning effort is
                // accepted and has no effect (the model does not reason).
                "top_k", "reasoning_effort",
            ])

        model = try Self.string(fields["model"], "model")
        messages = try Self.messages(fields["messages"], limit: limits.maximumMessages)
        stream = try Self.bool(fields["stream"], "stream") ?? false
        if let options = fields["stream_options"], options.kind != .null {
            guard stream else { throw .invalid("stream_options is only allowed when stream is true.", param: "stream_options") }
            guard case .structure(let values, _) = options.kind else { throw .invalid("stream_options must be an object.", param: "stream_options") }
            includeUsage = try Self.bool(values["include_usage"], "stream_options.include_usage") ?? false
        }
        let maxTokens = try Self.integer(fields["max_tokens"], "max_tokens")
        let maxCompletionTokens = try Self.integer(fields["max_completion_tokens"], "max_completion_tokens")
        if let tokens = maxCompletionTokens ?? maxTokens {
            guard tokens >= 1 else {
                throw .invalid("max_tokens must be at least 1.", param: maxCompletionTokens != nil ? "max_completion_tokens" : "max_tokens")
            }
            maximumTokens = tokens
            maximumTokensParameter = maxCompletionTokens != nil ? "max_completion_tokens" : "max_tokens"
        }
        if let cap = limits.maximumTokens {
            if cap < maximumTokens ?? .max { maximumTokensParameter = nil }
            maximumTokens = min(maximumTokens ?? cap, cap)
        }
        temperature = try Self.temperature(fields["temperature"])
        topP = try Self.topP(fields["top_p"])
        topK = try Self.integer(fields["top_k"], "top_k")
        if let topK, topK < 1 { throw .invalid("top_k must be at least 1.", param: "top_k") }
        if topK != nil, topP != nil { throw .invalid("Choose one of top_k and top_p.", param: "top_k") }
        _ = try Self.string(fields["reasoning_effort"], "reasoning_effort")
        if let value = try Self.integer(fields["seed"], "seed") { seed = UInt64(bitPattern: Int64(value)) }
        stop = try Self.stop(fields["stop"])
        if let n = try Self.integer(fields["n"], "n"), n != 1 {
            throw .invalid("n must be 1: this server generates one choice per request.", param: "n")
        }
        for name in ["frequency_penalty", "presence_penalty"] {
            if let value = try Self.number(fields[name], name), value != 0 {
                throw .invalid("\(name) is not supported (only 0).", param: name)
            }
        }
        if try Self.bool(fields["logprobs"], "logprobs") == true { logProbabilities = 0 }
        if let top = try Self.integer(fields["top_logprobs"], "top_logprobs") {
            guard logProbabilities != nil else { throw .invalid("top_logprobs requires logprobs to be true.", param: "top_logprobs") }
            guard (0...20).contains(top) else { throw .invalid("top_logprobs must be between 0 and 20.", param: "top_logprobs") }
            logProbabilities = top
        }
        tools = try Self.tools(fields["tools"])
        toolChoice = try Self.toolChoice(fields["tool_choice"], tools: tools)
        _ = try Self.bool(fields["parallel_tool_calls"], "parallel_tool_calls")
        schema = try Self.responseFormat(fields["response_format"])
    }

    // MARK: Fields

    /// A request body's fields: the body read with the order-keeping JSON
    /// parser, which must be an object holding only the `known` fields.
    /// Both APIs' requests start here, so they refuse a body the same way.
    /// - Throws: ``APIError`` 400: `invalid_json`, not an object, or the
    ///   first unknown field (sorted) named as the parameter.
    static func fields(ofJSON body: String, known: Set<String>) throws(APIError) -> [String: GeneratedContent] {
        let root: GeneratedContent
        do {
            root = try GeneratedContent(json: body)
        } catch {
            throw .invalid("The body is not valid JSON: \(error)", param: nil, code: "invalid_json")
        }
        // The parser reads streamed JSON, so it completes a truncated body
        // (`{"messages": [` reads as an empty list); a request is whole.
        guard root.isComplete else {
            throw .invalid("The body is not valid JSON: it ends before its last value is complete.", param: nil, code: "invalid_json")
        }
        guard case .structure(let fields, _) = root.kind else {
            throw .invalid("The body must be a JSON object.", param: nil)
        }
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalid("Unrecognized request argument supplied: \(unknown)", param: unknown)
        }
        return fields
    }

    static func string(_ value: GeneratedContent?, _ param: String) throws(APIError) -> String? {
        guard let value, value.kind != .null else { return nil }
        guard case .string(let text) = value.kind else { throw .invalid("\(param) must be a string.", param: param) }
        return text
    }

    static func bool(_ value: GeneratedContent?, _ param: String) throws(APIError) -> Bool? {
        guard let value, value.kind != .null else { return nil }
        guard case .bool(let flag) = value.kind else { throw .invalid("\(param) must be a boolean.", param: param) }
        return flag
    }

    static func number(_ value: GeneratedContent?, _ param: String) throws(APIError) -> Double? {
        guard let value, value.kind != .null else { return nil }
        guard case .number(let number) = value.kind, number.isFinite else { throw .invalid("\(param) must be a number.", param: param) }
        return number
    }

    static func integer(_ value: GeneratedContent?, _ param: String) throws(APIError) -> Int? {
        guard let number = try number(value, param) else { return nil }
        guard number == number.rounded(), abs(number) < 9.0e15 else { throw .invalid("\(param) must be an integer.", param: param) }
        return Int(number)
    }

    private static func stop(_ value: GeneratedContent?) throws(APIError) -> [String] {
        guard let value, value.kind != .null else { return [] }
        switch value.kind {
        case .string(let text): return text.isEmpty ? [] : [text]
        case .array(let items):
            guard items.count <= 4 else { throw .invalid("stop holds at most 4 sequences.", param: "stop") }
            var sequences: [String] = []
            for item in items {
                guard case .string(let text) = item.kind else { throw .invalid("stop must be a string or an array of strings.", param: "stop") }
                if !text.isEmpty { sequences.append(text) }
            }
            return sequences
        default:
            throw .invalid("stop must be a string or an array of strings.", param: "stop")
        }
    }

    /// The conversation. It ends with the user's message, or with the
    /// outputs of the tools the assistant called since it (the client ran
    /// them); every call is answered by a tool message, and every tool
    /// message answers a call, before the conversation goes on.
    private static func messages(_ value: GeneratedContent?, limit: Int) throws(APIError) -> [Message] {
        guard let value, case .array(let items) = value.kind else {
            throw .invalid("messages must be an array of message objects.", param: "messages")
        }
        guard !items.isEmpty else { throw .invalid("messages must not be empty.", param: "messages") }
        guard items.count <= limit else { throw .invalid("messages holds \(items.count) messages; the limit is \(limit).", param: "messages") }
        var conversation = Conversation(wording: .chat)
        for (index, item) in items.enumerated() {
            let param = "messages[\(index)]"
            guard case .structure(let fields, _) = item.kind else { throw .invalid("\(param) must be an object.", param: param) }
            guard let role = try string(fields["role"], "\(param).role") else { throw .invalid("\(param).role is missing.", param: "\(param).role") }
            let at = Conversation.Place(item: param, order: "\(param).role", id: "\(param).tool_call_id")
            switch role {
            case "system", "developer":
                try conversation.append(.system(try content(fields["content"], param: "\(param).content", required: true)), at: at)
            case "user":
                try conversation.append(.user(try content(fields["content"], param: "\(param).content", required: true)), at: at)
            case "assistant":
                if let calls = try toolCalls(fields["tool_calls"], param: "\(param).tool_calls") {
                    _ = try content(fields["content"], param: "\(param).content", required: false)
                    try conversation.append(.toolCalls(calls), at: at)
                } else {
                    try conversation.append(.assistant(try content(fields["content"], param: "\(param).content", required: true)), at: at)
                }
            case "tool":
                guard let id = try string(fields["tool_call_id"], "\(param).tool_call_id") else {
                    throw .invalid("\(param).tool_call_id is missing.", param: "\(param).tool_call_id")
                }
                let output = try content(fields["content"], param: "\(param).content", required: true)
                try conversation.append(.toolOutput(callID: id, toolName: "", content: output), at: at)
            case "function":
                throw .invalid("\(param).role: 'function' messages are deprecated; send 'tool' messages with a tool_call_id.", param: "\(param).role")
            default:
                throw .invalid("\(param).role: '\(role)' is not one of 'system', 'developer', 'user', 'assistant', 'tool'.", param: "\(param).role")
            }
        }
        return try conversation.finish(root: "messages", last: "messages[\(items.count - 1)].role")
    }

    /// The rules a conversation keeps, whichever API it came in by: every
    /// call the assistant made is answered by its output before the
    /// conversation goes on, every output answers a call, and it ends with
    /// the user's message or with outputs. Each output learns its tool's
    /// name from its call.
    struct Conversation {
        /// How the API names a call's output, in the errors.
        struct Wording {
            var output: String
            var messages: String
            static let chat = Wording(output: "a tool message with tool_call_id", messages: "messages")
            static let responses = Wording(output: "a function_call_output item with call_id", messages: "input")
        }

        /// Where an item is, for the errors: the item, the field to name
        /// when it comes out of order, and its call id's field.
        struct Place {
            var item: String
            var order: String
            var id: String
        }

        let wording: Wording
        private(set) var messages: [Message] = []
        /// Calls not yet answered: id, name, where made.
        private var pending: [(id: String, name: String, param: String)] = []

        init(wording: Wording) {
            self.wording = wording
        }

        mutating func append(_ message: Message, at place: Place) throws(APIError) {
            if case .toolOutput(let id, _, let content) = message {
                guard let position = pending.firstIndex(where: { $0.id == id }) else {
                    throw .invalid("\(place.id) '\(id)' does not answer a call of the assistant message before it.", param: place.id)
                }
                let call = pending.remove(at: position)
                messages.append(.toolOutput(callID: id, toolName: call.name, content: content))
                return
            }
            if let unanswered = pending.first {
                throw .invalid(
                    "\(unanswered.param) called tools whose outputs are missing: \(wording.output) '\(unanswered.id)' must follow it.",
                    param: place.order
                )
            }
            if case .toolCalls(let calls) = message {
                pending = calls.map { ($0.id, $0.name, place.item) }
            }
            messages.append(message)
        }

        /// The messages, once the conversation is whole.
        func finish(root: String, last: String) throws(APIError) -> [Message] {
            if let unanswered = pending.first {
                throw .invalid(
                    "\(unanswered.param) called tools whose outputs are missing: \(wording.output) '\(unanswered.id)' must follow it.",
                    param: root
                )
            }
            switch messages.last {
            case .user, .toolOutput: break
            default: throw .invalid("The last message must be from the user, or a tool's output.", param: last)
            }
            guard messages.contains(where: { if case .user = $0 { true } else { false } }) else {
                throw .invalid("\(wording.messages) must hold a message from the user.", param: root)
            }
            return messages
        }
    }

    /// An assistant message's `tool_calls`, or nil when it has none.
    private static func toolCalls(_ value: GeneratedContent?, param: String) throws(APIError) -> [ToolCall]? {
        guard let value, value.kind != .null else { return nil }
        guard case .array(let items) = value.kind else { throw .invalid("\(param) must be an array.", param: param) }
        if items.isEmpty { return nil }
        var calls: [ToolCall] = []
        for (index, item) in items.enumerated() {
            let param = "\(param)[\(index)]"
            guard case .structure(let fields, _) = item.kind else { throw .invalid("\(param) must be an object.", param: param) }
            guard let id = try string(fields["id"], "\(param).id"), !id.isEmpty else {
                throw .invalid("\(param).id is missing.", param: "\(param).id")
            }
            if let type = try string(fields["type"], "\(param).type"), type != "function" {
                throw .invalid("\(param).type '\(type)' is not 'function'.", param: "\(param).type")
            }
            guard let function = fields["function"], case .structure(let call, _) = function.kind else {
                throw .invalid("\(param).function must be an object.", param: "\(param).function")
            }
            guard let name = try string(call["name"], "\(param).function.name") else {
                throw .invalid("\(param).function.name is missing.", param: "\(param).function.name")
            }
            let text = try string(call["arguments"], "\(param).function.arguments") ?? "{}"
            let arguments: GeneratedContent
            do {
                arguments = try GeneratedContent(json: text.isEmpty ? "{}" : text)
            } catch {
                throw .invalid("\(param).function.arguments is not valid JSON: \(error)", param: "\(param).function.arguments")
            }
            guard calls.allSatisfy({ $0.id != id }) else { throw .invalid("\(param).id '\(id)' is used twice.", param: "\(param).id") }
            calls.append(ToolCall(id: id, name: name, arguments: arguments))
        }
        return calls
    }

    /// `tools`: functions, each with a JSON Schema guided generation
    /// enforces on its arguments (a 400 naming what it cannot enforce).
    private static func tools(_ value: GeneratedContent?) throws(APIError) -> [Tool] {
        guard let value, value.kind != .null else { return [] }
        guard case .array(let items) = value.kind else { throw .invalid("tools must be an array.", param: "tools") }
        guard items.count <= 128 else { throw .invalid("tools holds \(items.count) tools; the limit is 128.", param: "tools") }
        var tools: [Tool] = []
        for (index, item) in items.enumerated() {
            let param = "tools[\(index)]"
            guard case .structure(let fields, _) = item.kind else { throw .invalid("\(param) must be an object.", param: param) }
            guard let type = try string(fields["type"], "\(param).type") else { throw .invalid("\(param).type is missing.", param: "\(param).type") }
            guard type == "function" else { throw .invalid("\(param).type '\(type)' is not supported (only 'function').", param: "\(param).type") }
            guard let function = fields["function"], case .structure(let definition, _) = function.kind else {
                throw .invalid("\(param).function must be an object.", param: "\(param).function")
            }
            tools.append(try tool(definition, param: "\(param).function", after: tools))
        }
        return tools
    }

    /// A function's definition (`name`, `description`, `parameters`,
    /// `strict`): in Chat Completions under `function`, in the Responses API
    /// beside `type`. Its parameters are a schema guided generation
    /// enforces on the arguments (a 400 naming what it cannot enforce).
    static func tool(_ definition: [String: GeneratedContent], param: String, after tools: [Tool]) throws(APIError) -> Tool {
        guard let name = try string(definition["name"], "\(param).name") else {
            throw .invalid("\(param).name is missing.", param: "\(param).name")
        }
        guard (1...64).contains(name.utf8.count),
            name.utf8.allSatisfy({
                $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0)
            })
        else {
            throw .invalid("\(param).name '\(name)' must be 1 to 64 letters, digits, underscores or dashes.", param: "\(param).name")
        }
        guard tools.allSatisfy({ $0.name != name }) else { throw .invalid("\(param).name '\(name)' is used twice.", param: "\(param).name") }
        let description = try string(definition["description"], "\(param).description") ?? ""
        _ = try bool(definition["strict"], "\(param).strict")
        let parameters: GenerationSchema
        if let schema = definition["parameters"], schema.kind != .null {
            guard case .structure(let keywords, _) = schema.kind else {
                throw .invalid("\(param).parameters must be a JSON Schema object.", param: "\(param).parameters")
            }
            // `{}` is how clients say "no arguments".
            parameters = try Self.schema(
                from: keywords.isEmpty ? #"{"type":"object","properties":{}}"# : schema.jsonString, param: "\(param).parameters")
        } else {
            parameters = try Self.schema(from: #"{"type":"object","properties":{}}"#, param: "\(param).parameters")
        }
        return Tool(name: name, description: description, parameters: parameters)
    }

    /// `tool_choice`: `auto`, `none`, `required`, or one named function.
    static func toolChoice(_ value: GeneratedContent?, tools: [Tool]) throws(APIError) -> ToolChoice {
        guard let value, value.kind != .null else { return tools.isEmpty ? .none : .auto }
        let choice: ToolChoice
        switch value.kind {
        case .string("auto"): choice = .auto
        case .string("none"): choice = .none
        case .string("required"): choice = .required
        case .structure(let fields, _):
            guard try string(fields["type"], "tool_choice.type") == "function",
                let function = fields["function"], case .structure(let named, _) = function.kind,
                let name = try string(named["name"], "tool_choice.function.name")
            else {
                throw .invalid(
                    "tool_choice must be 'auto', 'none', 'required' or {\"type\": \"function\", \"function\": {\"name\": ...}}.", param: "tool_choice"
                )
            }
            guard tools.contains(where: { $0.name == name }) else {
                throw .invalid("tool_choice names '\(name)', which is not one of the tools.", param: "tool_choice.function.name")
            }
            choice = .function(name)
        default:
            throw .invalid(
                "tool_choice must be 'auto', 'none', 'required' or {\"type\": \"function\", \"function\": {\"name\": ...}}.", param: "tool_choice")
        }
        if tools.isEmpty, choice != .none {
            throw .invalid("tool_choice is only allowed when tools are specified.", param: "tool_choice")
        }
        return choice
    }

    /// A message's text: a string, or an array of text parts.
    /// `temperature`, between 0 and 2.
    static func temperature(_ value: GeneratedContent?) throws(APIError) -> Double? {
        let temperature = try number(value, "temperature")
        if let temperature, !(0...2).contains(temperature) {
            throw .invalid("temperature must be between 0 and 2.", param: "temperature")
        }
        return temperature
    }

    /// `top_p`, in (0, 1].
    static func topP(_ value: GeneratedContent?) throws(APIError) -> Double? {
        let topP = try number(value, "top_p")
        if let topP, !(topP > 0 && topP <= 1) {
            throw .invalid("top_p must be greater than 0 and at most 1.", param: "top_p")
        }
        return topP
    }

    /// A message's text: a string, or an array of parts of `partTypes`
    /// (Chat Completions' `text`; the Responses API's `input_text` and
    /// `output_text`).
    static func content(_ value: GeneratedContent?, param: String, required: Bool, partTypes: Set<String> = ["text"]) throws(APIError) -> String {
        guard let value, value.kind != .null else {
            if required { throw .invalid("\(param) is missing.", param: param) }
            return ""
        }
        switch value.kind {
        case .string(let text):
            return text
        case .array(let parts):
            var text = ""
            for (index, part) in parts.enumerated() {
                guard case .structure(let fields, _) = part.kind, let type = try string(fields["type"], "\(param)[\(index)].type") else {
                    throw .invalid("\(param)[\(index)] must be a content part object with a type.", param: "\(param)[\(index)]")
                }
                guard partTypes.contains(type), let partText = try string(fields["text"], "\(param)[\(index)].text") else {
                    let supported = partTypes.sorted().map { "'\($0)'" }.joined(separator: ", ")
                    throw .invalid(
                        "\(param)[\(index)]: content parts of type '\(type)' are not supported (only \(supported)).", param: "\(param)[\(index)].type"
                    )
                }
                text += partText
            }
            return text
        default:
            throw .invalid("\(param) must be a string or an array of content parts.", param: param)
        }
    }

    /// `response_format`: text (nil), or a JSON Schema guided generation enforces.
    private static func responseFormat(_ value: GeneratedContent?) throws(APIError) -> GenerationSchema? {
        guard let value, value.kind != .null else { return nil }
        guard case .structure(let fields, _) = value.kind, let type = try string(fields["type"], "response_format.type") else {
            throw .invalid("response_format must be an object with a type.", param: "response_format")
        }
        switch type {
        case "text":
            return nil
        case "json_object":
            return try schema(from: #"{"type":"object"}"#, param: "response_format")
        case "json_schema":
            guard let wrapper = fields["json_schema"], case .structure(let options, _) = wrapper.kind else {
                throw .invalid("response_format.json_schema must be an object.", param: "response_format.json_schema")
            }
            guard let schema = options["schema"], case .structure = schema.kind else {
                throw .invalid("response_format.json_schema.schema must be a JSON Schema object.", param: "response_format.json_schema.schema")
            }
            return try Self.schema(from: schema.jsonString, param: "response_format.json_schema.schema")
        default:
            throw .invalid("response_format.type '\(type)' is not one of 'text', 'json_object', 'json_schema'.", param: "response_format.type")
        }
    }

    /// The schema guided generation will enforce, or a 400 naming the
    /// keyword it cannot, before anything is decoded.
    static func schema(from json: String, param: String) throws(APIError) -> GenerationSchema {
        let schema: GenerationSchema
        do {
            schema = try GenerationSchema(jsonSchema: GeneratedContent(json: json))
        } catch let DecodingError.dataCorrupted(context) {
            throw .invalid("The schema cannot be enforced: \(context.debugDescription)", param: param, code: "unsupported_schema")
        } catch {
            throw .invalid("The schema cannot be enforced: \(error)", param: param, code: "unsupported_schema")
        }
        // What reads as JSON Schema may still be more than the grammar can
        // enforce (uniqueItems over objects): refused here, before decoding.
        if let problem = SchemaConformance.enforcementProblem(of: schema) {
            throw .invalid("The schema cannot be enforced: \(problem)", param: param, code: "unsupported_schema")
        }
        return schema
    }
}
