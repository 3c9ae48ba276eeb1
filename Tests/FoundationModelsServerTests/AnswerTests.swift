// fm serve's answers in process, over a scripted model: the bodies of both
// APIs, their server-sent event framing, tool calls, and the failures a
// model reports (429 with Retry-After before the first token; an error
// event after it).

import Foundation
import FoundationModels
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import FoundationModelsServer

@Suite("fm serve in process: answers and their streams")
struct AnswerTests {
    static let ask = #""messages": [{"role": "user", "content": "Say hello."}]"#
    static let time =
        #"{"type": "function", "function": {"name": "get_time", "description": "The time now.", "parameters": {"type": "object", "properties": {}}}}"#

    @Test func aChatAnswerIsOpenAIsCompletion() async throws {
        try await InProcessServer.test([[.text("Hello"), .text(" there."), .usage(input: 7, output: 2)]]) { client in
            let response = try await client.post("/v1/chat/completions", "{\(Self.ask)}")
            #expect(response.statusCode == 200, "\(response.text)")
            #expect(response.headers[.contentType] == "application/json")
            let body = try response.object()
            #expect(body["object"] as? String == "chat.completion" && body["model"] as? String == InProcessServer.modelName)
            #expect((body["id"] as? String)?.hasPrefix("chatcmpl-") == true)
            let choice = try #require((body["choices"] as? [[String: Any]])?.first)
            #expect(choice["finish_reason"] as? String == "stop")
            let message = try #require(choice["message"] as? [String: Any])
            #expect(message["role"] as? String == "assistant" && message["content"] as? String == "Hello there.")
            let usage = try #require(body["usage"] as? [String: Any])
            #expect(usage["prompt_tokens"] as? Int == 7 && usage["completion_tokens"] as? Int == 2 && usage["total_tokens"] as? Int == 9)
        }
    }

    /// The model's calls end the turn and go back to the client, with OpenAI's call ids.
    @Test func aToolCallGoesBackToTheClient() async throws {
        try await InProcessServer.test([[.toolCall(id: "call_1", name: "get_time", arguments: "{}")]]) { client in
            let response = try await client.post("/v1/chat/completions", #"{\#(Self.ask), "tools": [\#(Self.time)], "tool_choice": "required"}"#)
            #expect(response.statusCode == 200, "\(response.text)")
            let choice = try #require((try response.object()["choices"] as? [[String: Any]])?.first)
            #expect(choice["finish_reason"] as? String == "tool_calls")
            let message = try #require(choice["message"] as? [String: Any])
            #expect(message["content"] is NSNull)
            let call = try #require((message["tool_calls"] as? [[String: Any]])?.first)
            #expect(call["id"] as? String == "call_1" && call["type"] as? String == "function")
            let function = try #require(call["function"] as? [String: Any])
            #expect(function["name"] as? String == "get_time" && function["arguments"] as? String == "{}")
        }
    }

    /// An answer of tool calls only has no text before its end: the scrape
    /// after it still answers, with its tokens and no time per token (a
    /// negative one, as was once recorded, traps in the histogram).
    @Test func aToolCallOnlyAnswerLeavesTheMetricsReadable() async throws {
        try await InProcessServer.test([[.toolCall(id: "call_1", name: "get_time", arguments: "{}"), .usage(input: 9, output: 6)]]) { client in
            let response = try await client.post("/v1/chat/completions", #"{\#(Self.ask), "tools": [\#(Self.time)], "tool_choice": "required"}"#)
            #expect(response.statusCode == 200, "\(response.text)")
            let metrics = try await client.get("/metrics")
            #expect(metrics.statusCode == 200)
            for line in [
                "fm_serve_generated_tokens_total 6", "fm_serve_time_to_first_token_seconds_count 1", "fm_serve_time_per_output_token_seconds_count 0",
            ] {
                #expect(metrics.text.contains(line + "\n"), "\(line) in \(metrics.text)")
            }
        }
    }

    /// Chat's stream: the role first, each piece of text, the finish
    /// reason, usage when asked for (no choices), then `[DONE]`; every
    /// event a `data:` line and a blank line.
    @Test func aChatStreamIsFramedAsOpenAIs() async throws {
        try await InProcessServer.test([[.text("Hel"), .delay(.milliseconds(5)), .text("lo"), .usage(input: 5, output: 2)]]) { client in
            let response = try await client.post(
                "/v1/chat/completions", #"{\#(Self.ask), "stream": true, "stream_options": {"include_usage": true}}"#)
            #expect(response.statusCode == 200)
            #expect(response.headers[.contentType] == "text/event-stream" && response.headers[.cacheControl] == "no-cache")
            #expect(response.text.hasPrefix("data: ") && response.text.hasSuffix("data: [DONE]\n\n"))
            let lines = response.dataLines
            #expect(lines.last == "[DONE]")
            let chunks = try lines.dropLast().map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            #expect(chunks.allSatisfy { $0["object"] as? String == "chat.completion.chunk" })
            #expect(Set(chunks.compactMap { $0["id"] as? String }).count == 1, "one id for the whole answer")
            let choices = chunks.map { ($0["choices"] as? [[String: Any]])?.first }
            let deltas = choices.map { $0?["delta"] as? [String: Any] }
            #expect(deltas.first??["role"] as? String == "assistant")
            #expect(deltas.compactMap { $0?["content"] as? String }.joined() == "Hello")
            #expect(choices.compactMap { $0?["finish_reason"] as? String } == ["stop"])
            let last = try #require(chunks.last)
            #expect((last["choices"] as? [Any])?.isEmpty == true)
            #expect((last["usage"] as? [String: Any])?["completion_tokens"] as? Int == 2)
        }
    }

    /// A streamed call is one delta holding the whole call, with its index.
    @Test func aStreamedToolCallIsOneDelta() async throws {
        try await InProcessServer.test([[.toolCall(id: "call_7", name: "get_time", arguments: "{}")]]) { client in
            let response = try await client.post("/v1/chat/completions", #"{\#(Self.ask), "tools": [\#(Self.time)], "stream": true}"#)
            let chunks = try response.dataLines.dropLast().map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            let choices = chunks.compactMap { ($0["choices"] as? [[String: Any]])?.first }
            let calls = choices.compactMap { ($0["delta"] as? [String: Any])?["tool_calls"] as? [[String: Any]] }
            #expect(calls.count == 1 && calls.first?.first?["index"] as? Int == 0 && calls.first?.first?["id"] as? String == "call_7")
            #expect(choices.compactMap { $0["finish_reason"] as? String } == ["tool_calls"])
            #expect(response.dataLines.last == "[DONE]")
        }
    }

    /// A full queue before the first token: an ordinary 429 with
    /// `Retry-After` (streamed or not), counted in the metrics.
    @Test(arguments: [false, true])
    func aFullQueueIs429WithRetryAfter(stream: Bool) async throws {
        let busy = LanguageModelError.rateLimited(.init(resetDate: Date().addingTimeInterval(3), debugDescription: "the queue is full"))
        try await InProcessServer.test([[.fail(busy)], [.fail(busy)]]) { client in
            let chat = try await client.post("/v1/chat/completions", #"{\#(Self.ask), "stream": \#(stream)}"#)
            #expect(chat.statusCode == 429, "\(chat.text)")
            #expect(chat.error?["code"] as? String == "rate_limit_exceeded" && chat.error?["type"] as? String == "rate_limit_error")
            #expect(Int(chat.headers[.retryAfter] ?? "").map { (1...4).contains($0) } == true, "\(chat.headers)")
            let responses = try await client.post("/v1/responses", #"{"input": "Hi", "stream": \#(stream)}"#)
            #expect(responses.statusCode == 429 && responses.headers[.retryAfter] != nil, "\(responses.text)")
            let metrics = try await client.get("/metrics").text
            #expect(metrics.contains("fm_serve_rate_limited_total 2\n"), "\(metrics)")
            #expect(metrics.contains(#"fm_serve_requests_total{route="/v1/chat/completions",method="POST",status="429"} 1"#), "\(metrics)")
        }
    }

    /// A failure after the first token: the stream reports it as an error
    /// event (its status already sent), then ends as usual.
    @Test func aFailureMidStreamIsAnErrorEvent() async throws {
        struct Broken: Error {}
        try await InProcessServer.test([
            [.text("Hel"), .delay(.milliseconds(5)), .fail(Broken())], [.text("Hel"), .delay(.milliseconds(5)), .fail(Broken())],
        ]) { client in
            let chat = try await client.post("/v1/chat/completions", #"{\#(Self.ask), "stream": true}"#)
            #expect(chat.statusCode == 200)
            let lines = chat.dataLines
            #expect(lines.last == "[DONE]")
            let error = try #require(lines.dropLast().last)
            #expect(error.hasPrefix(#"{"error":"#) && error.contains(#""type":"server_error""#), "\(error)")
            let responses = try await client.post("/v1/responses", #"{"input": "Hi", "stream": true}"#)
            let events = try responses.events()
            #expect(events.last?.name == "error" && events.last?.data["type"] as? String == "error", "\(responses.text)")
        }
    }

    /// The Responses API's answer: a response object, with its message output and usage.
    @Test func aResponsesAnswerIsAResponseObject() async throws {
        try await InProcessServer.test([[.text("Hello there."), .usage(input: 4, output: 3)]]) { client in
            let response = try await client.post("/v1/responses", #"{"input": "Hi", "instructions": "Be brief."}"#)
            #expect(response.statusCode == 200, "\(response.text)")
            let body = try response.object()
            #expect(body["object"] as? String == "response" && body["status"] as? String == "completed")
            #expect(body["model"] as? String == InProcessServer.modelName && body["instructions"] as? String == "Be brief.")
            let output = try #require((body["output"] as? [[String: Any]])?.first)
            let part = try #require((output["content"] as? [[String: Any]])?.first)
            #expect(output["type"] as? String == "message" && part["text"] as? String == "Hello there.")
            #expect((body["usage"] as? [String: Any])?["total_tokens"] as? Int == 7)
        }
    }

    /// The Responses API's stream: `event:` and `data:` lines, numbered from
    /// 0, opening with `response.created` and ending with `response.completed`.
    @Test func aResponsesStreamIsFramedAsOpenAIs() async throws {
        try await InProcessServer.test([[.text("Hel"), .delay(.milliseconds(5)), .text("lo")]]) { client in
            let response = try await client.post("/v1/responses", #"{"input": "Hi", "stream": true}"#)
            #expect(response.statusCode == 200 && response.headers[.contentType] == "text/event-stream")
            let events = try response.events()
            #expect(events.allSatisfy { $0.name == $0.data["type"] as? String }, "each event's name is its data's type")
            #expect(events.map { $0.data["sequence_number"] as? Int } == Array(0..<events.count))
            #expect(events.first?.name == "response.created" && events.last?.name == "response.completed")
            let text = events.filter { $0.name == "response.output_text.delta" }.compactMap { $0.data["delta"] as? String }.joined()
            #expect(text == "Hello")
            #expect(events.first { $0.name == "response.output_text.done" }?.data["text"] as? String == "Hello")
        }
    }
}
