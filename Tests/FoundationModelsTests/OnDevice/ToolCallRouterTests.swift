import Testing

@testable import FoundationModels

/// How a turn's generated text is sorted into answer text and tool calls,
/// without a model.
@Suite("Tool-call router")
struct ToolCallRouterTests {
    /// Feeds `pieces` one by one; returns the streamed text and the turn.
    static func route(_ pieces: [String]) throws -> (streamed: [String], turn: ToolCallRouter.Turn) {
        var router = ToolCallRouter()
        var streamed: [String] = []
        for piece in pieces {
            if let released = router.route(piece, tokenCount: 1) { streamed.append(released.text) }
        }
        return (streamed, try router.finish())
    }

    @Test func answerTextStreamsOnceItCannotOpenABlock() throws {
        let (streamed, turn) = try Self.route(["<", "to", "ast", "> is ", "a tag"])
        // Held back while it could be "<tool_call>", then released whole.
        #expect(streamed == ["<toast", "> is ", "a tag"])
        #expect(turn == .answer(rest: "", tokenCount: 0))
    }

    @Test func plainAnswerIsNotHeldBack() throws {
        let (streamed, turn) = try Self.route(["Paris", " is the capital"])
        #expect(streamed == ["Paris", " is the capital"])
        #expect(turn == .answer(rest: "", tokenCount: 0))
    }

    @Test func anAnswerThatIsAPrefixOfTheMarkerComesOutAtTheEnd() throws {
        let (streamed, turn) = try Self.route(["<to", "ol"])
        #expect(streamed.isEmpty)
        #expect(turn == .answer(rest: "<tool", tokenCount: 2))
    }

    @Test func aCallBlockIsNeverStreamedAndParsesIntoCalls() throws {
        let block = #"<tool_call>[{"name":"findAlbum","arguments":{"artist":"Miles","limit":2}},{"name":"price","arguments":{}}]</tool_call>"#
        let pieces = stride(from: 0, to: block.count, by: 5).map { start -> String in
            let from = block.index(block.startIndex, offsetBy: start)
            let to = block.index(from, offsetBy: 5, limitedBy: block.endIndex) ?? block.endIndex
            return String(block[from..<to])
        }
        let (streamed, turn) = try Self.route(pieces)
        #expect(streamed.isEmpty)
        #expect(
            turn
                == .toolCalls(
                    [
                        .init(name: "findAlbum", arguments: #"{"artist":"Miles","limit":2}"#),
                        .init(name: "price", arguments: "{}"),
                    ], tokenCount: pieces.count))
        // Rendering the calls gives back the text the model generated.
        guard case .toolCalls(let calls, _) = turn else { return }
        #expect(ToolCallRouter.block(calls) == block)
    }

    @Test func anUnfinishedBlockIsAnError() throws {
        #expect(throws: ToolCallRouterError.self) {
            try Self.route(["<tool_call>[{\"name\":\"a\",\"argu"])
        }
    }
}

/// The Hermes (Qwen2.5) format: one `<tool_call>` block per call.
@Suite("Tool-call router, Hermes format")
struct HermesToolCallRouterTests {
    @Test func blocksParseIntoCallsAndRenderBackToTheSameText() throws {
        let calls: [ToolCallRouter.Call] = [
            .init(name: "findAlbum", arguments: #"{"artist":"Miles","limit":2}"#),
            .init(name: "price", arguments: "{}"),
        ]
        let text = ToolCallRouter.block(calls, format: .hermes)
        #expect(
            text
                == "<tool_call>\n{\"name\": \"findAlbum\", \"arguments\": {\"artist\":\"Miles\",\"limit\":2}}\n</tool_call>\n<tool_call>\n{\"name\": \"price\", \"arguments\": {}}\n</tool_call>"
        )
        var router = ToolCallRouter(format: .hermes)
        var streamed: [String] = []
        for character in text {
            if let released = router.route(String(character), tokenCount: 1) { streamed.append(released.text) }
        }
        #expect(streamed.isEmpty)
        #expect(try router.finish() == .toolCalls(calls, tokenCount: text.count))
    }

    @Test func textAfterTheLastBlockIsAnError() throws {
        var router = ToolCallRouter(format: .hermes)
        _ = router.route("<tool_call>\n{\"name\": \"a\", \"arguments\": {}}\n</tool_call>\n<tool_call>\n{\"name\"", tokenCount: 1)
        #expect(throws: ToolCallRouterError.self) { try router.finish() }
    }
}

extension HermesToolCallRouterTests {
    @Test func bareCallObjectsAreCalls() throws {
        var router = ToolCallRouter(format: .hermes)
        let text = "{\"name\": \"findAlbum\", \"arguments\": {\"artist\":\"Miles\"}}\n{\"name\": \"price\", \"arguments\": {}}"
        #expect(router.route("{\"na", tokenCount: 1) == nil, "could still be a call")
        #expect(router.route(String(text.dropFirst(4)), tokenCount: 1) == nil)
        #expect(
            try router.finish()
                == .toolCalls(
                    [
                        .init(name: "findAlbum", arguments: #"{"artist":"Miles"}"#),
                        .init(name: "price", arguments: "{}"),
                    ], tokenCount: 2))
    }

    @Test func proseStartingWithABraceStreams() throws {
        var router = ToolCallRouter(format: .hermes)
        #expect(router.route("{", tokenCount: 1) == nil)
        #expect(router.route("x} is", tokenCount: 1)?.text == "{x} is")
    }
}

/// Calls Qwen2.5 writes as text where the turn grammar leaves prose: an
/// indented call object in a `json` code fence. Held back while they may
/// be calls, then read as calls only when they are nothing but calls to
/// offered tools with valid arguments.
@Suite("Tool calls written as text, on device")
struct WrittenToolCallTests {
    static let stock = try! GenerationSchema(
        jsonSchema: GeneratedContent(
            json: #"{"type":"object","properties":{"sku":{"type":"string","pattern":"^[A-Z]{2}-[0-9]{3}$"}},"required":["sku"]}"#))
    static let tools = [Transcript.ToolDefinition(name: "getStock", description: "Units in stock.", parameters: stock)]
    static let fenced = "```json\n{\n  \"name\": \"getStock\",\n  \"arguments\": {\n    \"sku\": \"AB-123\"\n  }\n}\n```"

    @Test func aFencedCallIsHeldBackToTheEnd() throws {
        var router = ToolCallRouter(format: .hermes)
        let head = ["```", "json\n{", "\n  \"name\""]
        for piece in head + [String(Self.fenced.dropFirst(head.joined().count))] {
            #expect(router.route(piece, tokenCount: 1) == nil, "\(piece) may still be a call")
        }
        #expect(try router.finish() == .answer(rest: Self.fenced, tokenCount: 4))
    }

    @Test func otherCodeStreamsAtOnce() throws {
        var router = ToolCallRouter(format: .hermes)
        #expect(router.route("```", tokenCount: 1) == nil)
        #expect(router.route("python\nprint(1)", tokenCount: 1)?.text == "```python\nprint(1)")
    }

    @Test func writtenCallsToOfferedToolsWithValidArgumentsAreCalls() {
        #expect(OnDeviceExecutor.writtenCalls(in: Self.fenced, tools: Self.tools) == [.init(name: "getStock", arguments: #"{"sku":"AB-123"}"#)])
        #expect(OnDeviceExecutor.writtenCalls(in: " {\"name\": \"getStock\", \"arguments\": {\"sku\": \"AB-123\"}}", tools: Self.tools)?.count == 1)
        #expect(
            OnDeviceExecutor.writtenCalls(in: Self.fenced.replacingOccurrences(of: "getStock", with: "getPrice"), tools: Self.tools) == nil,
            "not offered")
        #expect(
            OnDeviceExecutor.writtenCalls(in: Self.fenced.replacingOccurrences(of: "AB-123", with: "ab123"), tools: Self.tools) == nil,
            "breaks the pattern")
        #expect(OnDeviceExecutor.writtenCalls(in: Self.fenced + "\nThis returns the stock.", tools: Self.tools) == nil, "more than calls")
        #expect(OnDeviceExecutor.writtenCalls(in: "We have 17 units.", tools: Self.tools) == nil)
    }

    @Test func theToolsATextCallOpensAreNamedWhateverFollows() {
        let offered: Set = ["getStock", "getWeather"]
        func called(_ text: String) -> [String] { TextToolCalls.calledTools(in: text, offered: offered) }
        #expect(called(Self.fenced) == ["getStock"])
        #expect(called(Self.fenced + "\nThis returns the stock.") == ["getStock"], "prose after it")
        #expect(called(#" {"name":"getStock","arguments":{"item":1}}"#) == ["getStock"], "bare")
        #expect(called("<tool_call>\n{\"name\": \"getStock\"}") == ["getStock"], "tagged")
        #expect(called(Self.fenced + "\n\n" + Self.fenced.replacingOccurrences(of: "getStock", with: "getWeather")) == ["getStock", "getWeather"])
        #expect(called(Self.fenced + "\n" + Self.fenced) == ["getStock"], "each once")
        #expect(called(Self.fenced.replacingOccurrences(of: "getStock", with: "getPrice")).isEmpty, "not offered")
        #expect(called(#"{"sku": "AB-123", "name": "getStock"}"#).isEmpty, "name not first")
        #expect(called("Call getStock with the SKU.").isEmpty)
        #expect(called("```python\n{\"name\": \"getStock\"}") == ["getStock"], "any fence language")
        #expect(called("``` json x\n{\"name\": \"getStock\"}").isEmpty, "not a fence's first line")
    }

    /// Qwen2.5 writes two calls as two fences (seen on llama-server with
    /// its own template): nothing but calls, so calls.
    @Test func callsInSeveralFencesAreCalls() {
        let weather = Self.fenced.replacingOccurrences(of: "getStock", with: "getWeather")
            .replacingOccurrences(of: "\"sku\": \"AB-123\"", with: "\"city\": \"Oslo\"")
        let calls = TextToolCalls.calls(in: Self.fenced + "\n\n" + weather, offered: ["getStock", "getWeather"])
        #expect(calls?.map(\.name) == ["getStock", "getWeather"])
        #expect(calls?.last?.arguments == #"{"city":"Oslo"}"#)
        #expect(TextToolCalls.calls(in: Self.fenced + "\nand then\n" + weather, offered: ["getStock", "getWeather"]) == nil, "prose between")
        #expect(
            TextToolCalls.calls(in: Self.fenced + "\n```json\n{\"name\": \"getWeather\"", offered: ["getStock", "getWeather"]) == nil, "unfinished")
    }

    /// Qwen2.5-Coder-1.5B explains which function does what it was asked,
    /// shows the call in a json fence and says what it returns (the tools
    /// eval's tools-06): the calls an answer introduces with a colon are
    /// calls; a call mentioned in passing, or shown beside other code,
    /// stays text.
    @Test func callsAnAnswerEndsWithAfterIntroducingThemAreCalls() {
        let intro = "To check the stock, you can use the 'getStock' function. Here's how you can do it:\n\n"
        #expect(
            TextToolCalls.introducedCalls(in: intro + Self.fenced, offered: ["getStock"]) == [
                .init(name: "getStock", arguments: #"{"sku":"AB-123"}"#)
            ])
        #expect(TextToolCalls.introducedCalls(in: "Sure: <tool_call>{\"name\": \"getStock\"}</tool_call>", offered: ["getStock"])?.count == 1)
        #expect(
            TextToolCalls.introducedCalls(in: intro + Self.fenced + "\n\nThis will return the stock.", offered: ["getStock"])?.count == 1,
            "prose after")
        #expect(
            TextToolCalls.introducedCalls(in: intro + Self.fenced + "\nOr in Python:\n```python\nstock('AB-123')\n```", offered: ["getStock"]) == nil,
            "other code after")
        #expect(TextToolCalls.introducedCalls(in: "Call it like this: " + Self.fenced + " and see", offered: ["getStock"])?.count == 1)
        #expect(TextToolCalls.introducedCalls(in: "Use getStock.\n" + Self.fenced, offered: ["getStock"]) == nil, "not introduced")
        #expect(TextToolCalls.introducedCalls(in: intro + Self.fenced, offered: ["getWeather"]) == nil, "not offered")
        #expect(TextToolCalls.introducedCalls(in: "Run this:\n```sh\nls\n```", offered: ["getStock"]) == nil, "other code")
        #expect(TextToolCalls.introducedCalls(in: Self.fenced, offered: ["getStock"]) == nil, "no prose: calls(in:) reads those")
        // An inline fence earlier in the prose does not hide the block.
        #expect(TextToolCalls.introducedCalls(in: "The ``` marks code. Call it like this:\n" + Self.fenced, offered: ["getStock"])?.count == 1)

        // In process: the streamed answer's text is read at the end, and
        // the arguments must follow the tool's schema.
        var router = ToolCallRouter(format: .hermes)
        #expect(router.route(intro, tokenCount: 20)?.text == intro)
        #expect(router.route(Self.fenced, tokenCount: 20)?.text == Self.fenced)
        #expect(router.released == intro + Self.fenced)
        #expect(OnDeviceExecutor.introducedCalls(in: router.released, tools: Self.tools)?.map(\.name) == ["getStock"])
        #expect(
            OnDeviceExecutor.introducedCalls(in: intro + Self.fenced.replacingOccurrences(of: "AB-123", with: "ab123"), tools: Self.tools) == nil,
            "breaks the pattern")
    }

    /// Qwen2.5 on llama-server with its own template copies the doubled
    /// braces of the template's example: `{{"name": …, "arguments": …}}`.
    @Test func aCallInDoubledBracesIsACall() {
        let doubled = #"{{"name": "getStock", "arguments": {"sku": "AB-123"}}}"#
        #expect(TextToolCalls.mayBeCall("{{\"na"))
        #expect(TextToolCalls.calls(in: doubled, offered: ["getStock"]) == [.init(name: "getStock", arguments: #"{"sku":"AB-123"}"#)])
        #expect(TextToolCalls.calledTools(in: doubled, offered: ["getStock"]) == ["getStock"])
        #expect(TextToolCalls.calls(in: #"{{"name": "getStock"}} and more"#, offered: ["getStock"]) == nil)
    }

    /// What the executor decodes again as a call: text that opens a call to
    /// an offered tool but is not a valid call as a whole.
    @Test func aTextCallThatIsNotAValidCallIsDecodedAgainAsACall() throws {
        func ended(with text: String) -> ToolCallRouter {
            var router = ToolCallRouter(format: .hermes)
            _ = router.route(text, tokenCount: 9)
            return router
        }
        let broken = Self.fenced.replacingOccurrences(of: "AB-123", with: "ab123")
        func meant(_ text: String, _ tools: [Transcript.ToolDefinition] = Self.tools) -> [String] {
            OnDeviceExecutor.callsWrittenAsText(ended(with: text), tools: tools).map(\.name)
        }
        #expect(meant(broken) == ["getStock"], "breaks the pattern")
        #expect(meant(Self.fenced + "\nThis returns the stock.") == ["getStock"])
        #expect(meant(Self.fenced).isEmpty, "a valid call is taken as it is")
        #expect(meant("We have 17 units.").isEmpty, "an answer")
        #expect(meant(broken, []).isEmpty, "no tools this turn")
    }
}
