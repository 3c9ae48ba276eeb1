// AnthropicLanguageModel against a loopback server replaying responses in
// the Messages API's documented streaming format (message_start,
// content_block_start/delta/stop with text_delta, input_json_delta,
// thinking_delta and signature_delta, message_delta with the stop reason
// and usage, message_stop), and checking what the model sent back.

import Foundation
import FoundationModels
import TestSupport
import Testing

/// The recorded streams, written from the documented event format.
enum AnthropicFixtures {
    static func event(_ name: String, _ data: String) -> (name: String?, data: String) { (name, data) }

    static func messageStart(input: Int, cacheRead: Int = 0) -> (name: String?, data: String) {
        event(
            "message_start",
            #"{"type":"message_start","message":{"id":"msg_01","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":\#(input),"cache_read_input_tokens":\#(cacheRead),"cache_creation_input_tokens":0,"output_tokens":1}}}"#
        )
    }

    static func messageEnd(_ reason: String, output: Int) -> [(name: String?, data: String)] {
        [
            event(
                "message_delta",
                #"{"type":"message_delta","delta":{"stop_reason":"\#(reason)","stop_sequence":null},"usage":{"output_tokens":\#(output)}}"#),
            event("message_stop", #"{"type":"message_stop"}"#),
        ]
    }

    /// Extended thinking with its signature, then a text answer.
    static let thinkingThenText = StubReply.events(
        [
            messageStart(input: 40, cacheRead: 16),
            event(
                "content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}"#),
            event("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Two plus two "}}"#),
            event("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"is four."}}"#),
            event(
                "content_block_delta",
                #"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"}}"#
            ),
            event("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
            event("ping", #"{"type": "ping"}"#),
            event("content_block_start", #"{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}"#),
            event("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"The answer "}}"#),
            event("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"is 4."}}"#),
            event("content_block_stop", #"{"type":"content_block_stop","index":1}"#),
        ] + messageEnd("end_turn", output: 25))

    static let plainText = StubReply.events(
        [
            messageStart(input: 30),
            event("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
            event("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Because it is."}}"#),
            event("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
        ] + messageEnd("end_turn", output: 4))

    /// A tool call whose input streams in pieces.
    static let toolUse = StubReply.events(
        [
            messageStart(input: 120),
            event("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
            event("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Let me look that up."}}"#),
            event("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
            event(
                "content_block_start",
                #"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01A","name":"exchangeRate","input":{}}}"#),
            event("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}"#),
            event(
                "content_block_delta",
                #"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"from\": \"EU"}}"#),
            event(
                "content_block_delta",
                #"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"R\", \"to\": \"JPY\"}"}}"#),
            event("content_block_stop", #"{"type":"content_block_stop","index":1}"#),
        ] + messageEnd("tool_use", output: 40))

    static let textAfterTool = StubReply.events(
        [
            messageStart(input: 180),
            event("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
            event("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"1 EUR is 162 JPY."}}"#),
            event("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
        ] + messageEnd("end_turn", output: 9))

    /// A structured answer: the forced answer tool's input.
    static func structuredAnswer(_ pieces: [String], toolName: String = "structured_answer") -> StubReply {
        StubReply.events(
            [
                messageStart(input: 60),
                event(
                    "content_block_start",
                    #"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_02","name":"\#(toolName)","input":{}}}"#),
            ]
                + pieces.map { piece in
                    let escaped = piece.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    return event(
                        "content_block_delta",
                        #"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\#(escaped)"}}"#)
                } + [event("content_block_stop", #"{"type":"content_block_stop","index":0}"#)] + messageEnd("tool_use", output: 12))
    }

    static let refusal = StubReply.events(
        [
            messageStart(input: 10),
            event("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
            event("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"I can't help with that."}}"#),
            event("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
        ] + messageEnd("refusal", output: 7))

    static let overloadedMidStream = StubReply.events([
        messageStart(input: 10),
        event("error", #"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#),
    ])
}

/// A tool the replayed model calls.
struct ExchangeRate: Tool {
    let name = "exchangeRate"
    let description = "Looks up an exchange rate."

    @Generable
    struct Arguments {
        var from: String
        var to: String
    }

    func call(arguments: Arguments) async throws -> String {
        arguments.from == "EUR" && arguments.to == "JPY" ? "162" : "unknown"
    }
}

@Suite("AnthropicLanguageModel on the Messages API's wire format")
struct AnthropicWireTests {
    static func model(_ stub: StubServer) throws -> AnthropicLanguageModel {
        try AnthropicLanguageModel(baseURL: stub.url, model: "claude-test", apiKey: "sk-ant-test", options: ServerOptions(maximumRetries: 0))
    }

    @Test("thinking with its signature becomes a reasoning entry, is sent back as a thinking block, and usage counts cache reads")
    func thinking() async throws {
        let stub = try StubServer([AnthropicFixtures.thinkingThenText, AnthropicFixtures.plainText])
        defer { stub.stop() }
        let session = LanguageModelSession(model: try Self.model(stub), instructions: "Be brief.")
        let first = try await session.respond(to: "What is 2+2?", contextOptions: ContextOptions(reasoningLevel: .moderate))
        #expect(first.content == "The answer is 4.")
        #expect(first.usage.input.totalTokenCount == 56)
        #expect(first.usage.input.cachedTokenCount == 16)
        #expect(first.usage.output.totalTokenCount == 25)
        let reasoning = session.transcript.compactMap { if case .reasoning(let r) = $0 { r } else { nil } }
        let thought = try #require(reasoning.first)
        #expect(thought.signature == Data("EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds".utf8))
        guard case .text(let text) = try #require(thought.segments.first) else { Issue.record("reasoning text"); return }
        #expect(text.content == "Two plus two is four.")

        let sent = try #require(stub.requests.first)
        #expect(sent.path == "/v1/messages")
        #expect(sent.headers["x-api-key"] == "sk-ant-test")
        #expect(sent.headers["anthropic-version"] == "2023-06-01")
        let body = try #require(sent.json)
        #expect(body["system"] as? String == "Be brief.")
        #expect((body["thinking"] as? [String: Any])?["budget_tokens"] as? Int == 4096)
        #expect(body["stream"] as? Bool == true)

        _ = try await session.respond(to: "Why?")
        let replay = try #require(stub.requests.last?.json?["messages"] as? [[String: Any]])
        #expect(replay.map { $0["role"] as? String } == ["user", "assistant", "user"])
        let assistant = try #require(replay[1]["content"] as? [[String: Any]])
        #expect(assistant.map { $0["type"] as? String } == ["thinking", "text"])
        #expect(assistant[0]["signature"] as? String == "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds")
        #expect(assistant[0]["thinking"] as? String == "Two plus two is four.")
    }

    @Test("a streamed tool_use runs the tool, and the tool_result answers it by id")
    func toolUse() async throws {
        let stub = try StubServer([AnthropicFixtures.toolUse, AnthropicFixtures.textAfterTool])
        defer { stub.stop() }
        let session = LanguageModelSession(model: try Self.model(stub), tools: [ExchangeRate()])
        var snapshots = 0
        var last = ""
        for try await snapshot in session.streamResponse(to: "How many yen for a euro?") {
            snapshots += 1
            last = snapshot.content
        }
        #expect(last == "1 EUR is 162 JPY.")
        #expect(snapshots >= 1)
        let calls = session.transcript.compactMap { if case .toolCalls(let calls) = $0 { calls } else { nil } }
        let call = try #require(calls.first?.first)
        #expect(call.id == "toolu_01A")
        #expect(call.arguments.jsonString == #"{"from":"EUR","to":"JPY"}"#)

        let first = try #require(stub.requests.first?.json)
        let tools = try #require(first["tools"] as? [[String: Any]])
        #expect(tools.map { $0["name"] as? String } == ["exchangeRate"])
        #expect((tools[0]["input_schema"] as? [String: Any])?["type"] as? String == "object")
        let second = try #require(stub.requests.last?.json?["messages"] as? [[String: Any]])
        #expect(second.map { $0["role"] as? String } == ["user", "assistant", "user"])
        let result = try #require((second[2]["content"] as? [[String: Any]])?.first)
        #expect(result["type"] as? String == "tool_result")
        #expect(result["tool_use_id"] as? String == "toolu_01A")
        #expect(result["content"] as? String == "162")
        let use = try #require((second[1]["content"] as? [[String: Any]])?.first)
        #expect(use["type"] as? String == "tool_use")
        #expect((use["input"] as? [String: Any])?["to"] as? String == "JPY")
    }

    @Test("a schema is a forced tool; its streamed input is the typed answer, checked against the schema")
    func structuredAnswer() async throws {
        let stub = try StubServer([
            AnthropicFixtures.structuredAnswer([#"{"title": "Du"#, #"ne", "score": 9}"#]),
            AnthropicFixtures.structuredAnswer([#"{"title": "Dune", "score": 11}"#]),
        ])
        defer { stub.stop() }
        let session = LanguageModelSession(model: try Self.model(stub))
        var partials: [Rating.PartiallyGenerated] = []
        for try await snapshot in session.streamResponse(to: "Rate Dune", generating: Rating.self) {
            partials.append(snapshot.content)
        }
        #expect(partials.last?.title == "Dune")
        #expect(partials.last?.score == 9)
        #expect(partials.count >= 2)
        let body = try #require(stub.requests.first?.json)
        let choice = try #require(body["tool_choice"] as? [String: Any])
        #expect(choice["type"] as? String == "tool")
        #expect(choice["name"] as? String == "structured_answer")
        #expect(body["thinking"] == nil)

        // 11 is outside the guide's 0...10: never returned.
        await #expect(throws: GeneratedContent.ParsingError.self) {
            try await session.respond(to: "Rate Dune again", generating: Rating.self)
        }
    }

    @Test("a non-object answer is wrapped for the tool and unwrapped for the caller")
    func wrappedAnswer() async throws {
        let stub = try StubServer([AnthropicFixtures.structuredAnswer([#"{"value": ["a", "#, #""b"]}"#])])
        defer { stub.stop() }
        let response = try await LanguageModelSession(model: try Self.model(stub)).respond(to: "Two letters", generating: [String].self)
        #expect(response.content == ["a", "b"])
        let tools = try #require(stub.requests.first?.json?["tools"] as? [[String: Any]])
        let schema = try #require(tools.first?["input_schema"] as? [String: Any])
        #expect(schema["required"] as? [String] == ["value"])
    }

    @Test("refusal, overload mid-stream, rate limits and prompt-too-long map into the seam's errors")
    func errors() async throws {
        let stub = try StubServer([
            AnthropicFixtures.refusal,
            AnthropicFixtures.overloadedMidStream,
            .json(
                429, #"{"type":"error","error":{"type":"rate_limit_error","message":"Number of requests has exceeded your rate limit"}}"#,
                headers: [("retry-after", "12")]),
            .json(400, #"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#),
        ])
        defer { stub.stop() }
        let session = LanguageModelSession(model: try Self.model(stub))
        await #expect {
            try await session.respond(to: "a")
        } throws: { error in
            guard case LanguageModelError.refusal(let info) = error else { return false }
            return info.debugDescription == "I can't help with that."
        }
        await #expect {
            try await session.respond(to: "b")
        } throws: { error in
            if case SystemLanguageModel.Error.assetsUnavailable = error { return true }
            return false
        }
        await #expect {
            try await session.respond(to: "c")
        } throws: { error in
            guard case LanguageModelError.rateLimited(let info) = error else { return false }
            return info.resetDate != nil
        }
        await #expect {
            try await session.respond(to: "d")
        } throws: { error in
            guard case LanguageModelError.contextSizeExceeded(let info) = error else { return false }
            return info.tokenCount == 210_000 && info.contextSize == 200_000
        }
        #expect(session.transcript.isEmpty)
    }

    @Test("no key for a remote server is a clear error")
    func missingKey() {
        #expect(throws: ServerModelError.self) {
            try AnthropicLanguageModel(model: "claude-test", apiKeyEnvironmentVariable: "FM_TEST_NO_SUCH_VARIABLE")
        }
    }
}

@Suite("Server-sent events and schema conformance")
struct ServerMechanicsTests {
    @Test("events split anywhere across reads, with CRLF, comments and multi-line data, come out whole")
    func serverSentEvents() {
        let stream = Array(": comment\r\nevent: a\r\ndata: {\"x\":\r\ndata: 1}\r\n\r\ndata: é\n\ndata: last".utf8)
        for split in 1..<stream.count {
            var parser = ServerSentEventParser()
            var events = parser.feed(Array(stream[..<split]))
            events += parser.feed(Array(stream[split...]))
            events += parser.finish()
            #expect(events.map { [$0.event, $0.data] } == [["a", "{\"x\":\n1}"], ["", "é"], ["", "last"]], "split at \(split)")
        }
    }
}
