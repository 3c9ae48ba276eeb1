// Servers that fail on cue (a loopback stub): every failure a server can
// answer with reaches the caller as the error the seam defines, and the
// router walks down exactly when it should.

import Foundation
import FoundationModels
import FoundationModelsTiers
import TestSupport
import Testing

@Generable
struct Rating: Equatable {
    var title: String
    @Guide(description: "Out of ten", .range(0...10))
    var score: Int
}

@Suite("Server faults through the seam and the router")
struct ServerFaultTests {
    static func model(_ stub: StubServer) throws -> OpenAICompatibleLanguageModel {
        try OpenAICompatibleLanguageModel(baseURL: stub.url, model: "stub", apiKey: "sk-test-secret-123", options: ServerOptions(maximumRetries: 0))
    }

    @Test("429 with Retry-After is rateLimited with its reset date; PCC calls it quotaLimitReached; the router degrades")
    func rateLimited() async throws {
        let limited = StubReply.json(429, #"{"error":{"message":"slow down","type":"rate_limit_error"}}"#, headers: [("Retry-After", "30")])
        let stub = try StubServer([limited])
        defer { stub.stop() }
        let before = Date()
        var reset: Date?
        await #expect {
            try await LanguageModelSession(model: try Self.model(stub)).respond(to: "hello")
        } throws: { error in
            guard case LanguageModelError.rateLimited(let info) = error else { return false }
            reset = info.resetDate
            return info.debugDescription == "slow down"
        }
        // Thirty seconds after the answer came, however long it took on a busy machine.
        let after = Date()
        let resetDate = try #require(reset)
        #expect(resetDate >= before.addingTimeInterval(29) && resetDate <= after.addingTimeInterval(31), "\(resetDate) for \(before)…\(after)")

        let pcc = try PrivateCloudComputeLanguageModel(url: stub.url, model: "stub", options: ServerOptions(maximumRetries: 0))
        await #expect {
            try await LanguageModelSession(model: pcc).respond(to: "hello")
        } throws: { error in
            guard case PrivateCloudComputeLanguageModel.Error.quotaLimitReached(let info) = error else { return false }
            return info.resetDate.map { $0.timeIntervalSince(before) > 25 } ?? false
        }
        #expect(pcc.quotaUsage.isLimitReached)
        let requestsSoFar = stub.requests.count
        // While the quota is used up, PCC refuses before sending anything.
        await #expect(throws: PrivateCloudComputeLanguageModel.Error.self) {
            try await LanguageModelSession(model: pcc).respond(to: "again")
        }
        #expect(stub.requests.count == requestsSoFar)

        let local = try StubServer([OpenAIWire.answer(["from ", "the device"])])
        defer { local.stop() }
        let router = ModelRouter(onDevice: try Self.model(local), privateCloud: pcc)
        let routed = try await router.respond(to: "hello", policy: .cloudFree)
        #expect(routed.content == "from the device")
        #expect(routed.tier == .onDevice)
        #expect(routed.skipped.map(\.tier) == [.privateCloud])
        // Without degrading, the ceiling's error is the answer.
        await #expect(throws: PrivateCloudComputeLanguageModel.Error.self) {
            try await router.respond(to: "hello", policy: TierPolicy(ceiling: .privateCloud, degrades: false))
        }
    }

    @Test("an answer that breaks the schema fails with decodingFailure, never a wrong value")
    func schemaViolation() async throws {
        // The score is out of its guide's range: it decodes as an Int, only
        // the schema check catches it.
        let outOfRange = OpenAIWire.answer([#"{"title": "Dune", "#, #""score": 42}"#])
        let wrongType = OpenAIWire.answer([#"{"title": 7, "score": 3}"#])
        let stub = try StubServer([outOfRange, wrongType])
        defer { stub.stop() }
        let session = LanguageModelSession(model: try Self.model(stub))
        for _ in 0..<2 {
            await #expect(throws: GeneratedContent.ParsingError.self) {
                try await session.respond(to: "Rate Dune", generating: Rating.self)
            }
        }
        #expect(session.transcript.count == 0)
        // The request asked for the schema as structured output.
        let body = try #require(stub.requests.first?.json)
        let format = try #require(body["response_format"] as? [String: Any])
        #expect(format["type"] as? String == "json_schema")
        let schema = try #require((format["json_schema"] as? [String: Any])?["schema"] as? [String: Any])
        #expect((schema["properties"] as? [String: Any])?.keys.sorted() == ["score", "title"])
    }

    @Test("a valid answer in another key order, spacing and number spelling is accepted")
    func validAnswerInAnotherSpelling() async throws {
        let stub = try StubServer([OpenAIWire.answer(["{ \"score\" : 7.0,\n", "  \"title\": \"Dune\" }"])])
        defer { stub.stop() }
        let response = try await LanguageModelSession(model: try Self.model(stub)).respond(to: "Rate Dune", generating: Rating.self)
        #expect(response.content == Rating(title: "Dune", score: 7))
        #expect(response.usage.input.totalTokenCount == 12)
    }

    @Test("a context-length error is contextSizeExceeded with the server's counts, and the router does not walk down")
    func contextLength() async throws {
        let body =
            #"{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}}"#
        let stub = try StubServer([.json(400, body)])
        defer { stub.stop() }
        await #expect {
            try await LanguageModelSession(model: try Self.model(stub)).respond(to: "long")
        } throws: { error in
            guard case LanguageModelError.contextSizeExceeded(let info) = error else { return false }
            return info.contextSize == 4096 && info.tokenCount == 5000
        }
        let local = try StubServer([OpenAIWire.answer(["never"])])
        defer { local.stop() }
        let router = ModelRouter(onDevice: try Self.model(local), privateCloud: try Self.model(stub))
        await #expect {
            try await router.respond(to: "long", policy: .cloudFree)
        } throws: { error in
            if case LanguageModelError.contextSizeExceeded = error { return true }
            return false
        }
        #expect(local.requests.isEmpty)
    }

    @Test("a refusal and a content filter propagate through the router, never retried on another tier")
    func refusalAndGuardrail() async throws {
        let refusal = StubReply.events([
            (nil, OpenAIWire.chunk(refusal: "I can't help with that request.")),
            (nil, OpenAIWire.chunk(finish: "stop")), (nil, "[DONE]"),
        ])
        let filtered = StubReply.events([
            (nil, OpenAIWire.chunk(content: "Well")), (nil, OpenAIWire.chunk(finish: "content_filter")), (nil, "[DONE]"),
        ])
        let stub = try StubServer([refusal, filtered])
        defer { stub.stop() }
        let local = try StubServer([OpenAIWire.answer(["never"])])
        defer { local.stop() }
        let router = ModelRouter(onDevice: try Self.model(local), privateCloud: try Self.model(stub))
        await #expect {
            try await router.respond(to: "something bad", as: Rating.self, policy: .cloudFree)
        } throws: { error in
            guard case LanguageModelError.refusal(let info) = error else { return false }
            return info.debugDescription == "I can't help with that request."
        }
        await #expect {
            try await router.respond(to: "something bad", policy: .premium)
        } throws: { error in
            if case LanguageModelError.guardrailViolation = error { return true }
            return false
        }
        #expect(local.requests.isEmpty)
    }

    @Test("a 5xx, and a stream cut short, are assetsUnavailable; the key never shows")
    func unavailable() async throws {
        let cut = StubReply(chunks: ["data: " + OpenAIWire.chunk(content: "par") + "\n\n"], cutShort: true)
        let stub = try StubServer([.json(503, #"{"error":{"message":"loading model","type":"unavailable_error"}}"#), cut])
        defer { stub.stop() }
        let model = try Self.model(stub)
        for _ in 0..<2 {
            await #expect {
                try await LanguageModelSession(model: model).respond(to: "hello")
            } throws: { error in
                guard case SystemLanguageModel.Error.assetsUnavailable = error else { return false }
                return !"\(error)".contains("sk-test-secret") && !String(reflecting: error).contains("sk-test-secret")
            }
        }
        #expect(stub.requests.first?.headers["authorization"] == "Bearer sk-test-secret-123")
        #expect(!String(reflecting: model).contains("sk-test-secret"))
        #expect(!"\(model.executorConfiguration)".contains("sk-test-secret"))
    }

    @Test("a server that is not there: the request fails saying the connection was refused")
    func nothingListening() async throws {
        let model = try OpenAICompatibleLanguageModel(
            baseURL: URL(string: "http://127.0.0.1:9/v1")!, model: "none", options: ServerOptions(maximumRetries: 0))
        do {
            _ = try await LanguageModelSession(model: model).respond(to: "hello")
            Issue.record("a request to a closed port answered")
        } catch {
            let text = String(describing: error)
            #expect(text.contains("the connection was refused"), "\(text)")
            #expect(!text.contains("errno: 111)"), "\(text)")
        }
    }

    @Test("plain HTTP is refused for hosts other than this machine")
    func plainHTTPOnlyToLoopback() throws {
        #expect(throws: ServerModelError.self) {
            try OpenAICompatibleLanguageModel(baseURL: URL(string: "http://10.1.2.3:8080/v1")!, model: "m")
        }
        #expect(throws: ServerModelError.self) {
            try PrivateCloudComputeLanguageModel(url: URL(string: "http://models.example.com/v1")!, model: "m")
        }
        _ = try OpenAICompatibleLanguageModel(baseURL: URL(string: "http://localhost:8080/v1")!, model: "m")
        _ = try OpenAICompatibleLanguageModel(baseURL: URL(string: "http://[::1]:8080/v1")!, model: "m")
        _ = try OpenAICompatibleLanguageModel(baseURL: URL(string: "https://models.example.com/v1")!, model: "m")
    }
}

@Suite("OpenAI-compatible tool calls on the wire")
struct ServerToolCallTests {
    static func toolCallChunk(index: Int, id: String?, name: String?, arguments: String) -> String {
        var function: [String: Any] = ["arguments": arguments]
        if let name { function["name"] = name }
        var call: [String: Any] = ["index": index, "function": function]
        if let id { call["id"] = id; call["type"] = "function" }
        let choice: [String: Any] = ["index": 0, "delta": ["tool_calls": [call]], "finish_reason": NSNull()]
        return OpenAIWire.json(["id": "chatcmpl-2", "object": "chat.completion.chunk", "choices": [choice]])
    }

    @Test("streamed tool_calls run the tool; the next request carries the call and its output by id")
    func toolCalls() async throws {
        let call = StubReply.events([
            (nil, Self.toolCallChunk(index: 0, id: "call_9", name: "exchangeRate", arguments: "")),
            (nil, Self.toolCallChunk(index: 0, id: nil, name: nil, arguments: #"{"from": "EUR", "#)),
            (nil, Self.toolCallChunk(index: 0, id: nil, name: nil, arguments: #""to": "JPY"}"#)),
            (nil, OpenAIWire.chunk(finish: "tool_calls")), (nil, OpenAIWire.usage(prompt: 80, completion: 20)), (nil, "[DONE]"),
        ])
        let stub = try StubServer([call, OpenAIWire.answer(["1 EUR is 162 JPY."])])
        defer { stub.stop() }
        let session = LanguageModelSession(model: try ServerFaultTests.model(stub), tools: [ExchangeRate()])
        let response = try await session.respond(to: "How many yen for a euro?", options: GenerationOptions(toolCallingMode: .required))
        #expect(response.content == "1 EUR is 162 JPY.")
        let outputs = session.transcript.compactMap { if case .toolOutput(let output) = $0 { output } else { nil } }
        #expect(outputs.map(\.id) == ["call_9"])

        let first = try #require(stub.requests.first?.json)
        #expect(first["tool_choice"] as? String == "required")
        let tools = try #require(first["tools"] as? [[String: Any]])
        #expect((tools.first?["function"] as? [String: Any])?["name"] as? String == "exchangeRate")
        let messages = try #require(stub.requests.last?.json?["messages"] as? [[String: Any]])
        #expect(messages.map { $0["role"] as? String } == ["user", "assistant", "tool"])
        let sent = try #require((messages[1]["tool_calls"] as? [[String: Any]])?.first)
        #expect(sent["id"] as? String == "call_9")
        #expect((sent["function"] as? [String: Any])?["arguments"] as? String == #"{"from":"EUR","to":"JPY"}"#)
        #expect(messages[2]["tool_call_id"] as? String == "call_9")
        #expect(messages[2]["content"] as? String == "162")
        // The second round answers: toolCallingMode .required asks for calls in the first only.
        #expect(stub.requests.last?.json?["tool_choice"] == nil)
    }

    /// A call the server left in the text: the whole answer, streamed in
    /// pieces, or the end of an answer that introduces it (streamed as
    /// text, then dropped: a turn with calls has no answer).
    static let callsAsText: [[String]] = [
        [" {\"name\": \"exchange", "Rate\", \"arguments\": {\"from\": \"EUR\",", " \"to\": \"JPY\"}}"],
        [
            "To convert, you can use the exchangeRate function. Here's how:\n\n",
            "```json\n{\"name\": \"exchangeRate\", \"arguments\": {\"from\": \"EUR\", \"to\": \"JPY\"}}\n```",
        ],
    ]

    @Test("a call the server left in the text (no tool_calls) runs the tool, streamed in pieces", arguments: callsAsText)
    func callWrittenAsText(pieces: [String]) async throws {
        let stub = try StubServer([OpenAIWire.answer(pieces), OpenAIWire.answer(["1 EUR is 162 JPY."])])
        defer { stub.stop() }
        let session = LanguageModelSession(model: try ServerFaultTests.model(stub), tools: [ExchangeRate()])
        let response = try await session.respond(to: "How many yen for a euro?")
        #expect(response.content == "1 EUR is 162 JPY.")
        let outputs = session.transcript.compactMap { if case .toolOutput(let output) = $0 { output } else { nil } }
        #expect(outputs.map { Transcript.wireText($0.segments) } == ["162"])
        #expect(session.transcript.filter { if case .response = $0 { true } else { false } }.count == 1, "only the answer is a response")
        // The call goes back to the server as a call, not as the text it came as.
        let messages = try #require(stub.requests.last?.json?["messages"] as? [[String: Any]])
        #expect(messages.map { $0["role"] as? String } == ["user", "assistant", "tool"])
        let sent = try #require((messages[1]["tool_calls"] as? [[String: Any]])?.first)
        #expect((sent["function"] as? [String: Any])?["name"] as? String == "exchangeRate")
    }

    @Test("an answer that only looks like JSON, or names no offered tool, stays text and streams")
    func answersStayText() async throws {
        for answer in [#"{"name": "Ada", "born": 1815}"#, #"{"name": "weather", "arguments": {}}"#, "The rate is 162.", #"{"currency": "JPY"}"#] {
            let stub = try StubServer([OpenAIWire.answer([String(answer.prefix(5)), String(answer.dropFirst(5))])])
            defer { stub.stop() }
            let session = LanguageModelSession(model: try ServerFaultTests.model(stub), tools: [ExchangeRate()])
            var snapshots: [String] = []
            for try await snapshot in session.streamResponse(to: "Tell me.") { snapshots.append(snapshot.content) }
            #expect(snapshots.last == answer)
            #expect(!session.transcript.contains { if case .toolCalls = $0 { true } else { false } })
        }
    }

    /// The token counts a stream's events carry, by kind, after `deltas`
    /// went through one ``OpenAIStreamState``.
    static func countedTokens(_ deltas: [String]) async throws -> (text: Int, calls: Int, content: String) {
        var state = OpenAIStreamState(schema: nil, offeredTools: ["exchangeRate"])
        let channel = LanguageModelExecutorGenerationChannel()
        for delta in deltas {
            let choice: [String: Any] = ["index": 0, "delta": ["content": delta], "finish_reason": NSNull()]
            try await state.apply(ServerSentEvent(event: "", data: OpenAIWire.json(["choices": [choice]])), channel: channel)
        }
        await state.settleHeldText(channel: channel)
        channel.finish()
        var text = 0, calls = 0, content = ""
        for try await event in channel {
            switch event.kind {
            case .response(let response):
                if case .appendText(let fragment) = response.action.storage {
                    text += fragment.tokenCount
                    content += fragment.content
                }
            case .toolCalls(let toolCalls):
                if case .toolCall(let call) = toolCalls.action.storage, case .appendArguments(let fragment) = call.action.storage {
                    calls += fragment.tokenCount
                }
            case .reasoning:
                break
            #if DataAttachments
            case .data:
                break
            #endif
            }
        }
        return (text, calls, content)
    }

    @Test("text held back while it may be a call counts every delta it came in, released as text or as a call")
    func heldTextCountsItsDeltas() async throws {
        let text = try await Self.countedTokens([" {\"na", "me\": \"Ad", "a\", ", "\"born\": 1815}"])
        #expect(text.content == #" {"name": "Ada", "born": 1815}"#)
        #expect(text.text == 4 && text.calls == 0)
        let call = try await Self.countedTokens([" {\"name\": \"exchange", "Rate\", \"arguments\": {\"from\": \"EUR\",", " \"to\": \"JPY\"}}"])
        #expect(call.text == 0 && call.calls == 3)
    }

    @Test("TextToolCalls: bare objects, <tool_call> blocks, string arguments; anything more is not a call")
    func textToolCallRules() {
        let offered: Set = ["weather", "exchangeRate"]
        #expect(
            TextToolCalls.calls(in: #" {"name": "weather", "arguments": {"city": "Paris"}} "#, offered: offered)
                == [.init(name: "weather", arguments: #"{"city":"Paris"}"#)])
        #expect(
            TextToolCalls.calls(
                in:
                    "<tool_call>\n{\"name\": \"weather\", \"arguments\": {\"city\": \"Oslo\"}}\n</tool_call>\n<tool_call>{\"name\": \"exchangeRate\", \"arguments\": \"{\\\"from\\\": \\\"EUR\\\", \\\"to\\\": \\\"USD\\\"}\"}",
                offered: offered)
                == [.init(name: "weather", arguments: #"{"city":"Oslo"}"#), .init(name: "exchangeRate", arguments: #"{"from":"EUR","to":"USD"}"#)])
        #expect(TextToolCalls.calls(in: #"{"name": "weather"}"#, offered: offered) == [.init(name: "weather", arguments: "{}")])
        #expect(
            TextToolCalls.calls(in: "```json\n{\n  \"name\": \"weather\",\n  \"arguments\": {\"city\": \"Rome\"}\n}\n```", offered: offered)
                == [.init(name: "weather", arguments: #"{"city":"Rome"}"#)])
        #expect(TextToolCalls.calls(in: "```json\n{\"name\": \"weather\"}\n```\nThat is the call.", offered: offered) == nil)
        #expect(TextToolCalls.calls(in: #"{"name": "search", "arguments": {}}"#, offered: offered) == nil)
        #expect(TextToolCalls.calls(in: #"{"name": "weather", "arguments": {}} and then"#, offered: offered) == nil)
        #expect(TextToolCalls.calls(in: #"{"name": "weather", "arguments": {}, "note": 1}"#, offered: offered) == nil)
        #expect(TextToolCalls.calls(in: #"{"name": "weather", "arguments": [1]}"#, offered: offered) == nil)
        #expect(TextToolCalls.calls(in: "Sure: <tool_call>{\"name\": \"weather\"}</tool_call>", offered: offered) == nil)
        for prefix in ["", "  ", "<tool", "<tool_call>{", "{", "{ \"na", #"{"name": "w"#, "`", "```js", "```json\n", "```\n{\"name\""] {
            #expect(TextToolCalls.mayBeCall(prefix), "\(prefix)")
        }
        for prefix in ["The", "{\"city\"", "[", "<b>", "```swift\nlet", "``` x"] {
            #expect(!TextToolCalls.mayBeCall(prefix), "\(prefix)")
        }
    }
}
