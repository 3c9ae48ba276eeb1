// fm serve's pieces that need no model: the Responses API read into the
// chat request and written as OpenAI's events, the metrics' bookkeeping,
// the JSON access log, the request id.

import Foundation
import FoundationModels
import Logging
import Synchronization
import Testing

@testable import FoundationModelsServer

@Suite("fm serve's wire formats and bookkeeping")
struct FMServeWireTests {
    static let limits = ChatCompletionRequest.Limits(maximumMessages: 64, maximumTokens: nil)

    /// Instructions become the first system message, consecutive
    /// function_call items one assistant turn, and each output learns its
    /// tool's name from its call.
    @Test func responsesInputIsTheChatConversation() throws {
        let request = try ResponsesRequest(
            json: """
                {"model": "m", "instructions": "Be brief.", "max_output_tokens": 20, "input": [
                  {"role": "user", "content": [{"type": "input_text", "text": "Weather in Paris and Rome?"}]},
                  {"type": "function_call", "call_id": "c1", "name": "weather", "arguments": "{\\"city\\": \\"Paris\\"}"},
                  {"type": "function_call", "call_id": "c2", "name": "weather", "arguments": "{\\"city\\": \\"Rome\\"}"},
                  {"type": "function_call_output", "call_id": "c2", "output": "18 C"},
                  {"type": "function_call_output", "call_id": "c1", "output": "22 C"}],
                 "tools": [{"type": "function", "name": "weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}],
                 "text": {"format": {"type": "json_schema", "name": "w", "strict": true,
                                     "schema": {"type": "object", "properties": {"summary": {"type": "string"}}, "required": ["summary"]}}}}
                """, limits: Self.limits)
        let messages = request.chat.messages
        #expect(messages.count == 5)
        #expect(messages.first == .system("Be brief."))
        #expect(messages[1] == .user("Weather in Paris and Rome?"))
        guard case .toolCalls(let calls) = messages[2] else { Issue.record("\(messages[2])"); return }
        #expect(calls.map(\.id) == ["c1", "c2"])
        #expect(messages[3] == .toolOutput(callID: "c2", toolName: "weather", content: "18 C"))
        #expect(messages[4] == .toolOutput(callID: "c1", toolName: "weather", content: "22 C"))
        #expect(request.chat.maximumTokens == 20 && request.chat.tools.map(\.name) == ["weather"] && request.chat.toolChoice == .auto)
        #expect(request.chat.schema != nil)
    }

    @Test(arguments: [
        (#"{"input": "Hi", "previous_response_id": "resp_1"}"#, "previous_response_id"),
        (#"{"input": [{"role": "user", "content": "Hi"}, {"type": "function_call_output", "call_id": "x", "output": "1"}]}"#, "input[1].call_id"),
        (#"{"input": [{"role": "user", "content": "Hi"}, {"type": "function_call", "call_id": "x", "name": "f"}]}"#, "input"),
        (#"{"input": [{"type": "item_reference", "id": "msg_1"}]}"#, "input[0].type"),
        (#"{"input": [{"role": "assistant", "content": "Hello"}]}"#, "input[0]"),
        (#"{"input": "Hi", "text": {"format": {"type": "json_schema", "schema": {"type": "object"}}}}"#, "text.format.name"),
        (#"{"input": "Hi", "tools": [{"type": "function", "name": "f"}], "tool_choice": {"type": "function", "name": "g"}}"#, "tool_choice.name"),
        (#"{"input": "Hi", "background": true}"#, "background"),
        (#"{"input": "Hi", "include": ["file_search_call.results"]}"#, "include"),
        (#"{"input": "Hi", "top_logprobs": 21}"#, "top_logprobs"),
        (#"{"input": "Hi", "seed": 1}"#, "seed"),
    ])
    func responsesRequestsItCannotAnswerAreRefusedNamingTheParameter(body: String, param: String) {
        #expect(throws: APIError.self) { try ResponsesRequest(json: body, limits: Self.limits) }
        do {
            _ = try ResponsesRequest(json: body, limits: Self.limits)
        } catch {
            #expect(error.status == 400 && error.param == param, "\(error)")
        }
    }

    /// A streamed answer: text, then a call, then the end, as OpenAI's
    /// events, numbered from 0, the message at output 0 and the call at 1.
    @Test func responsesEventsAreOpenAIsInOrder() throws {
        let request = try ResponsesRequest(json: #"{"input": "Hi", "stream": true}"#, limits: Self.limits)
        let wire = ResponsesWire(request: request, modelName: "small")
        let usage = LanguageModelSession.Usage(
            input: .init(totalTokenCount: 10, cachedTokenCount: 4), output: .init(totalTokenCount: 3, reasoningTokenCount: 0))
        let call = Transcript.ToolCall(id: "call_abc", toolName: "weather", arguments: try GeneratedContent(json: #"{"city":"Paris"}"#))
        let events =
            wire.opening()
            + [
                ChatCompletion.Event.delta("Let me "), .delta("check."), .toolCalls(Transcript.ToolCalls([call])),
                .finished(reason: "tool_calls", usage: usage),
            ].flatMap(wire.events(for:))
        #expect(
            events.map(\.0) == [
                "response.created", "response.in_progress",
                "response.output_item.added", "response.content_part.added", "response.output_text.delta", "response.output_text.delta",
                "response.output_text.done", "response.content_part.done", "response.output_item.done",
                "response.output_item.added", "response.function_call_arguments.delta", "response.function_call_arguments.done",
                "response.output_item.done", "response.completed",
            ])
        let lines = events.map(wire.sse)
        let data = try lines.map { line in
            let json = try #require(line.split(separator: "\n").first { $0.hasPrefix("data: ") }).dropFirst(6)
            return try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        }
        #expect(data.map { $0["sequence_number"] as? Int } == Array(0..<events.count))
        #expect(zip(data, events).allSatisfy { $0["type"] as? String == $1.0 })
        #expect(data[6]["text"] as? String == "Let me check." && data[6]["output_index"] as? Int == 0)
        #expect(data[11]["arguments"] as? String == #"{"city":"Paris"}"# && data[11]["output_index"] as? Int == 1)
        let response = try #require(data.last?["response"] as? [String: Any])
        #expect(response["status"] as? String == "completed")
        let output = try #require(response["output"] as? [[String: Any]])
        #expect(output.map { $0["type"] as? String } == ["message", "function_call"])
        #expect(output[1]["call_id"] as? String == "call_abc")
        let reported = try #require(response["usage"] as? [String: Any])
        #expect(reported["input_tokens"] as? Int == 10 && reported["output_tokens"] as? Int == 3 && reported["total_tokens"] as? Int == 13)
    }

    /// `top_logprobs` with `include: ["message.output_text.logprobs"]`:
    /// each delta carries the tokens recorded before it, the done event
    /// and the `output_text` part all of them (the last, flushed with the
    /// end, too); without the `include` none are recorded or written.
    @Test func responsesLogProbabilitiesRideTheirText() throws {
        func token(_ text: String, _ value: Double) -> TokenLogProbability {
            TokenLogProbability(
                bytes: Array(text.utf8), logProbability: value,
                top: [.init(bytes: Array(text.utf8), logProbability: value), .init(bytes: Array("x".utf8), logProbability: -3)])
        }
        let usage = LanguageModelSession.Usage(
            input: .init(totalTokenCount: 5, cachedTokenCount: 0), output: .init(totalTokenCount: 3, reasoningTokenCount: 0))
        let answer: [ChatCompletion.Event] = [
            .logProbabilities([token("Re", -0.5)]), .delta("Re"), .logProbabilities([token("d", -0.25)]), .delta("d"),
            .logProbabilities([token(".", 0)]), .finished(reason: "stop", usage: usage),
        ]
        let asked = #"{"input": "Hi", "top_logprobs": 2, "include": ["message.output_text.logprobs"]}"#
        let request = try ResponsesRequest(json: asked, limits: Self.limits)
        #expect(request.chat.logProbabilities == 2 && request.topLogProbabilities == 2)
        let wire = ResponsesWire(request: request, modelName: "m")
        let data = try answer.flatMap(wire.events(for:)).map(wire.sse).map { line in
            let json = try #require(line.split(separator: "\n").first { $0.hasPrefix("data: ") }).dropFirst(6)
            return try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        }
        func tokens(_ value: Any?) -> [String] { (value as? [[String: Any]] ?? []).compactMap { $0["token"] as? String } }
        let deltas = data.filter { $0["type"] as? String == "response.output_text.delta" }
        #expect(deltas.map { tokens($0["logprobs"]) } == [["Re"], ["d"]])
        let done = try #require(data.first { $0["type"] as? String == "response.output_text.done" })
        #expect(tokens(done["logprobs"]) == ["Re", "d", "."])
        let response = try #require(data.last?["response"] as? [String: Any])
        #expect(response["top_logprobs"] as? Int == 2)
        let part = try #require(((response["output"] as? [[String: Any]])?.first?["content"] as? [[String: Any]])?.first)
        let logprobs = try #require(part["logprobs"] as? [[String: Any]])
        #expect(tokens(logprobs) == ["Re", "d", "."])
        #expect(logprobs[0]["logprob"] as? Double == -0.5 && logprobs[0]["bytes"] as? [Int] == [82, 101])
        #expect(tokens(logprobs[0]["top_logprobs"]) == ["Re", "x"])

        // top_logprobs alone records nothing, as OpenAI's; include alone, the tokens without alternatives.
        let alone = try ResponsesRequest(json: #"{"input": "Hi", "top_logprobs": 2}"#, limits: Self.limits)
        #expect(alone.chat.logProbabilities == nil)
        let body = try #require(ResponsesWire(request: alone, modelName: "m").collected([.delta("Red"), .finished(reason: "stop", usage: usage)]))
        #expect(!body.contains("\"logprobs\""), "\(body)")
        let included = try ResponsesRequest(json: #"{"input": "Hi", "include": ["message.output_text.logprobs"]}"#, limits: Self.limits)
        #expect(included.chat.logProbabilities == 0)
    }

    @Test func anAnswerCutAtTheLimitIsIncomplete() throws {
        let request = try ResponsesRequest(json: #"{"input": "Hi", "max_output_tokens": 2}"#, limits: Self.limits)
        let usage = LanguageModelSession.Usage(
            input: .init(totalTokenCount: 5, cachedTokenCount: 0), output: .init(totalTokenCount: 2, reasoningTokenCount: 0))
        let body = try #require(
            ResponsesWire(request: request, modelName: "m").collected([.delta("Hello there"), .finished(reason: "length", usage: usage)]))
        let response = try #require(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        #expect(response["status"] as? String == "incomplete")
        #expect((response["incomplete_details"] as? [String: Any])?["reason"] as? String == "max_output_tokens")
        #expect(ResponsesWire(request: request, modelName: "m").collected([.delta("Hello")]) == nil, "no finish: no answer")
    }

    /// Each answer moves from waiting to generating to done once: a
    /// cancellation after the end is not counted; two servers' registries
    /// keep their own counts; several models each their own series, labelled,
    /// one model's as before, without the label.
    @Test func metricsCountEachAnswerOnceAndPerServer() {
        let metrics = ServerMetrics(registry: ChatCompletionsServer.Configuration(modelName: "a").metricsRegistry, models: ["a", "b"])
        let other = ServerMetrics(registry: ChatCompletionsServer.Configuration(modelName: "b").metricsRegistry, models: ["b"])
        let usage = LanguageModelSession.Usage(
            input: .init(totalTokenCount: 7, cachedTokenCount: 2), output: .init(totalTokenCount: 5, reasoningTokenCount: 0))
        let answered = ServerMetrics.Generation(metrics.model("a"), start: .now)
        #expect(metrics.exposition().contains(#"fm_serve_requests_waiting{model="a"} 1.0"#))
        answered.firstToken()
        #expect(metrics.exposition().contains(#"fm_serve_requests_generating{model="a"} 1.0"#))
        answered.finished(usage: usage)
        answered.cancelled()
        let left = ServerMetrics.Generation(metrics.model("a"), start: .now)
        left.cancelled()
        ServerMetrics.Generation(metrics.model("b"), start: .now).failed(rateLimited: true)
        metrics.countRequest(route: "/v1/responses", method: "POST", status: 200, model: "a")
        metrics.countRequest(route: "/health", method: "GET", status: 200)
        let text = metrics.exposition()
        for line in [
            #"fm_serve_prompt_tokens_total{model="a"} 7"#, #"fm_serve_prompt_tokens_cached_total{model="a"} 2"#,
            #"fm_serve_generated_tokens_total{model="a"} 5"#, #"fm_serve_generated_tokens_total{model="b"} 0"#,
            #"fm_serve_cancelled_total{model="a"} 1"#, #"fm_serve_cancelled_total{model="b"} 0"#,
            #"fm_serve_rate_limited_total{model="a"} 0"#, #"fm_serve_rate_limited_total{model="b"} 1"#,
            #"fm_serve_requests_waiting{model="a"} 0.0"#, #"fm_serve_requests_generating{model="a"} 0.0"#,
            #"fm_serve_time_to_first_token_seconds_count{model="a"} 1"#, #"fm_serve_time_per_output_token_seconds_count{model="a"} 1"#,
            #"fm_serve_requests_total{model="a",route="/v1/responses",method="POST",status="200"} 1"#,
            #"fm_serve_requests_total{route="/health",method="GET",status="200"} 1"#,
        ] {
            #expect(text.contains(line + "\n"), "\(line) in \(text)")
        }
        #expect(!other.exposition().contains("fm_serve_requests_total"))
        // Finished with no first token before (tool calls only): no time
        // per token, and never a negative one, which would stop the scrape.
        let one = ServerMetrics.Generation(other.model("b"), start: .now)
        one.finished(usage: usage)
        other.countRequest(route: "/v1/responses", method: "POST", status: 200, model: "b")
        for line in [
            "fm_serve_generated_tokens_total 5", "fm_serve_requests_waiting 0.0", "fm_serve_time_to_first_token_seconds_count 1",
            #"fm_serve_requests_total{route="/v1/responses",method="POST",status="200"} 1"#,
        ] {
            #expect(other.exposition().contains(line + "\n"), "\(line) in \(other.exposition())")
        }
        #expect(!other.exposition().contains("model="), "one model: no model label")
        #expect(other.exposition().contains("fm_serve_time_per_output_token_seconds_count 0\n"))
    }

    @Test func theJSONAccessLogIsOneObjectALine() throws {
        let lines = Mutex<[String]>([])
        let logger = Logger(label: "fm.serve") { JSONLogHandler(label: $0) { line in lines.withLock { $0.append(line) } } }
        logger.info("request", metadata: ["request_id": "r1", "status": .stringConvertible(200), "ms": .stringConvertible(12), "path": "/v1/x"])
        let written = lines.withLock { $0 }
        #expect(written.count == 1 && written[0].hasSuffix("\n") && written[0].dropLast().contains("\n") == false)
        let object = try #require(JSONSerialization.jsonObject(with: Data(written[0].utf8)) as? [String: Any])
        #expect(object["message"] as? String == "request" && object["level"] as? String == "info" && object["label"] as? String == "fm.serve")
        #expect(object["status"] as? Int == 200 && object["ms"] as? Int == 12 && object["request_id"] as? String == "r1")
        #expect((object["time"] as? String)?.hasSuffix("Z") == true)
    }

    /// `/health` is 503 while no model can answer, so a load balancer
    /// stops sending to it; 200, degraded, while some can.
    @Test func healthSaysWhetherTheModelsCanAnswer() {
        #expect(ChatCompletionsServer.health([("m", nil)]).status.code == 200)
        #expect(ChatCompletionsServer.health([("m", "the model file is gone")]).status.code == 503)
        let some = ChatCompletionsServer.health([("a", nil), ("b", "the model file is gone")])
        #expect(some.status.code == 200, "degraded: the other model still answers")
    }

    @Test func aClientsRequestIDIsKeptOnlyWhenSafeToLog() {
        #expect(ChatCompletionsServer.usableRequestID("abc-123_XYZ") == "abc-123_XYZ")
        #expect(ChatCompletionsServer.usableRequestID("two words") == nil)
        #expect(ChatCompletionsServer.usableRequestID("line\nbreak") == nil)
        #expect(ChatCompletionsServer.usableRequestID(String(repeating: "a", count: 129)) == nil)
        #expect(ChatCompletionsServer.usableRequestID("") == nil)
    }
}
