import Foundation
import FoundationModels
import Hummingbird
import NIOCore

// The responses' bodies: JSON values in OpenAI's key order, written by the
// package's one JSON writer (as the server models write their requests).

extension ChatCompletionsServer {
    static func json(_ status: Int, _ body: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    static func error(_ error: APIError) -> Response {
        var response = json(error.status, error.body)
        if let wait = error.retryAfter { response.headers[.retryAfter] = String(wait) }
        return response
    }

    // The bodies are ordered JSON values, written by the package's one JSON
    // writer (as the server models write their requests), in OpenAI's key order.

    /// JSON's `null`, for the fields OpenAI sends as null.
    static let null = GeneratedContent(kind: .null)

    static func usage(_ usage: LanguageModelSession.Usage) -> GeneratedContent {
        let prompt = usage.input.totalTokenCount, completion = usage.output.totalTokenCount
        return WireJSON.object([
            ("prompt_tokens", WireJSON.number(prompt)),
            ("completion_tokens", WireJSON.number(completion)),
            ("total_tokens", WireJSON.number(prompt + completion)),
            ("prompt_tokens_details", WireJSON.object([("cached_tokens", WireJSON.number(usage.input.cachedTokenCount))])),
        ])
    }

    /// The fields every completion and chunk starts with.
    static func head(_ completion: ChatCompletion, object: String) -> [(String, GeneratedContent?)] {
        [
            ("id", WireJSON.string(completion.id)),
            ("object", WireJSON.string(object)),
            ("created", WireJSON.number(completion.created)),
            ("model", WireJSON.string(completion.modelName)),
        ]
    }

    /// OpenAI's `tool_calls`: each call's id, `function` type, name and
    /// arguments as JSON text; in a stream's delta each also has its index.
    static func toolCalls(_ calls: Transcript.ToolCalls, indexed: Bool) -> GeneratedContent {
        WireJSON.array(
            calls.enumerated().map { index, call in
                WireJSON.object(
                    (indexed ? [("index", WireJSON.number(index))] : []) + [
                        ("id", WireJSON.string(callID(call.id))),
                        ("type", WireJSON.string("function")),
                        (
                            "function",
                            WireJSON.object([
                                ("name", WireJSON.string(call.toolName)), ("arguments", WireJSON.string(call.arguments.jsonString)),
                            ])
                        ),
                    ])
            })
    }

    /// A call's id as OpenAI writes one (`call_` and hex) when the engine
    /// made it (a UUID); the client's own ids come back as they were sent.
    static func callID(_ id: String) -> String {
        guard UUID(uuidString: id) != nil else { return id }
        return "call_" + id.replacingOccurrences(of: "-", with: "").lowercased()
    }

    static func completionBody(
        _ completion: ChatCompletion, content: String, toolCalls: Transcript.ToolCalls?, reason: String, usage: LanguageModelSession.Usage,
        logProbabilities: [TokenLogProbability]? = nil
    ) -> String {
        var fields: [(String, GeneratedContent?)] = [("role", WireJSON.string("assistant"))]
        if let toolCalls {
            // Text the model wrote before its calls, if any, stays (as a stream sent it).
            fields += [("content", content.isEmpty ? null : WireJSON.string(content)), ("tool_calls", Self.toolCalls(toolCalls, indexed: false))]
        } else {
            fields.append(("content", WireJSON.string(content)))
        }
        let message = WireJSON.object(fields)
        let choice = WireJSON.object([
            ("index", WireJSON.number(0)), ("message", message),
            ("logprobs", toolCalls == nil ? Self.logProbabilities(logProbabilities) : null), ("finish_reason", WireJSON.string(reason)),
        ])
        return WireJSON.object(
            head(completion, object: "chat.completion") + [
                ("choices", WireJSON.array([choice])), ("usage", Self.usage(usage)),
            ]
        ).jsonString
    }

    /// A chunk whose one choice carries `delta` (`role`, `content`, or
    /// nothing) and, on the last, the finish reason.
    static func chunk(
        _ completion: ChatCompletion, delta: [(String, GeneratedContent?)], reason: String?, logProbabilities: [TokenLogProbability]? = nil
    ) -> String {
        let choice = WireJSON.object([
            ("index", WireJSON.number(0)), ("delta", WireJSON.object(delta)), ("logprobs", Self.logProbabilities(logProbabilities)),
            ("finish_reason", reason.map(WireJSON.string) ?? null),
        ])
        return WireJSON.object(head(completion, object: "chat.completion.chunk") + [("choices", WireJSON.array([choice]))]).jsonString
    }

    /// A choice's `logprobs`: each token with its log-probability, its
    /// bytes and the most likely tokens at its place
    /// (``TokenLogProbability``); null where none were asked for.
    static func logProbabilities(_ values: [TokenLogProbability]?) -> GeneratedContent {
        guard let values else { return null }
        return WireJSON.object([("content", logProbabilityList(values)), ("refusal", null)])
    }

    /// Each token with its log-probability, its bytes and its `top_logprobs`:
    /// chat's `logprobs.content`, and the Responses API's `logprobs` of an
    /// `output_text` part and of its events.
    static func logProbabilityList(_ values: [TokenLogProbability]) -> GeneratedContent {
        func token(_ bytes: [UInt8], _ logProbability: Double) -> [(String, GeneratedContent?)] {
            [
                ("token", WireJSON.string(String(decoding: bytes, as: UTF8.self))),
                // OpenAI's stand-in for a probability too small to write.
                ("logprob", WireJSON.number(logProbability.isFinite ? logProbability : -9999)),
                ("bytes", WireJSON.array(bytes.map { WireJSON.number(Int($0)) })),
            ]
        }
        let content = values.map { value in
            WireJSON.object(
                token(value.bytes, value.logProbability) + [
                    ("top_logprobs", WireJSON.array(value.top.map { WireJSON.object(token($0.bytes, $0.logProbability)) }))
                ])
        }
        return WireJSON.array(content)
    }

    static func usageChunk(_ completion: ChatCompletion, usage: LanguageModelSession.Usage) -> String {
        WireJSON.object(
            head(completion, object: "chat.completion.chunk") + [
                ("choices", WireJSON.array([])), ("usage", Self.usage(usage)),
            ]
        ).jsonString
    }

    /// `GET /health`: the server's status and each model's availability,
    /// with the reason when it is not available: `ok` (200) when every
    /// model can answer, `degraded` (200) when some can, `unavailable`
    /// (503) when none can, so a load balancer stops sending it requests.
    static func health(_ models: [(name: String, unavailability: String?)]) -> Response {
        let available = models.filter { $0.unavailability == nil }.count
        let status = available == models.count ? "ok" : available > 0 ? "degraded" : "unavailable"
        let body = WireJSON.object([
            ("status", WireJSON.string(status)),
            (
                "models",
                WireJSON.array(
                    models.map { model in
                        WireJSON.object([
                            ("id", WireJSON.string(model.name)), ("available", WireJSON.bool(model.unavailability == nil)),
                            ("reason", model.unavailability.map(WireJSON.string)),
                        ])
                    })
            ),
        ])
        return json(available > 0 ? 200 : 503, body.jsonString)
    }

    /// `GET /v1/models`: each served model (an adapter with its base as
    /// `parent`), then each alias (its `parent` the model it stands for),
    /// with the context size as `max_model_len`, as vLLM lists them.
    static func modelsBody(_ models: [ServedModel], aliases: [String: String]) -> String {
        func entry(_ id: String, _ model: ServedModel, parent: String?) -> GeneratedContent {
            WireJSON.object([
                ("id", WireJSON.string(id)), ("object", WireJSON.string("model")),
                ("created", WireJSON.number(0)), ("owned_by", WireJSON.string("fm-serve")),
                ("max_model_len", model.contextSize.map(WireJSON.number)),
                ("parent", parent.map(WireJSON.string)),
            ])
        }
        let served = models.map { entry($0.name, $0, parent: $0.base) }
        let aliased = aliases.keys.sorted().compactMap { alias in
            models.first { $0.name == aliases[alias] }.map { entry(alias, $0, parent: $0.name) }
        }
        return WireJSON.object([("object", WireJSON.string("list")), ("data", WireJSON.array(served + aliased))]).jsonString
    }
}
