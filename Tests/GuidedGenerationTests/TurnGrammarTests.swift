import GuidedGeneration
import Testing

@Suite("A turn that may call tools")
struct TurnGrammarTests {
    static let flight = ToolSchema(
        name: "flightStatus",
        arguments: .object(
            ObjectNode(properties: [
                PropertyNode(name: "flightNumber", node: .string(StringNode(pattern: "[A-Z]{2}[0-9]{2,4}")))
            ])))
    static let lookup = ToolSchema(
        name: "findAlbum",
        arguments: .reference("Arguments"),
        definitions: [
            SchemaDefinition(
                name: "Arguments",
                node: .object(
                    ObjectNode(properties: [
                        PropertyNode(name: "artist", node: .string(StringNode())),
                        PropertyNode(name: "limit", node: .integer(NumberNode(minimum: 1, maximum: 10)), isOptional: true),
                    ])))
        ]
    )

    static func turn(answer: SchemaNode? = nil, requiresToolCall: Bool = false) throws -> TokenConstraint {
        let grammar = try GrammarCompiler.compileTurn(
            answer: answer, answerDefinitions: [], tools: [flight, lookup], requiresToolCall: requiresToolCall
        )
        return TokenConstraint(grammar: grammar, vocabulary: ToyVocabulary.make)
    }

    @Test func callsToDeclaredToolsWithValidArguments() throws {
        let turn = try Self.turn()
        #expect(accepts(turn, #"<tool_call>[{"name":"flightStatus","arguments":{"flightNumber":"LH123"}}]</tool_call>"#))
        #expect(
            accepts(
                turn,
                #"<tool_call>[{"name":"findAlbum","arguments":{"artist":"Coltrane","limit":3}},{"name":"flightStatus","arguments":{"flightNumber":"BA12"}}]</tool_call>"#
            ))
        #expect(!accepts(turn, #"<tool_call>[{"name":"bookFlight","arguments":{}}]</tool_call>"#), "unknown tool")
        #expect(!accepts(turn, #"<tool_call>[{"name":"flightStatus","arguments":{"flightNumber":"lh123"}}]</tool_call>"#), "pattern")
        #expect(!accepts(turn, #"<tool_call>[{"name":"findAlbum","arguments":{"artist":"X","limit":11}}]</tool_call>"#), "range")
        #expect(!accepts(turn, #"<tool_call>[]</tool_call>"#), "at least one call")
    }

    @Test func orAnAnswerThatIsNotACall() throws {
        let turn = try Self.turn()
        #expect(accepts(turn, "The flight is on time."))
        #expect(accepts(turn, "<b>bold</b> text"))
        #expect(!accepts(turn, "<tool_call>oops"), "the marker commits to a call")
    }

    @Test func requiredMeansACallAndNothingElse() throws {
        let turn = try Self.turn(requiresToolCall: true)
        #expect(!accepts(turn, "The flight is on time."))
        var decoder = turn.makeDecoder()
        // Both tools start with "f": that is forced too.
        #expect(decoder.forcedBytes() == Array(#"<tool_call>[{"name":"f"#.utf8))
    }

    @Test func aTypedAnswerOrACall() throws {
        let answer = SchemaNode.object(
            ObjectNode(properties: [PropertyNode(name: "status", node: .string(StringNode(choices: ["on time", "late"])))]))
        let turn = try Self.turn(answer: answer)
        #expect(accepts(turn, #"{"status":"late"}"#))
        #expect(!accepts(turn, "late"))
        #expect(accepts(turn, #"<tool_call>[{"name":"flightStatus","arguments":{"flightNumber":"AF1"}}]</tool_call>"#) == false, "AF1 has one digit")
        #expect(accepts(turn, #"<tool_call>[{"name":"flightStatus","arguments":{"flightNumber":"AF10"}}]</tool_call>"#))
    }

    @Test func theShortestCompletionOfACallIsACall() throws {
        let turn = try Self.turn(requiresToolCall: true)
        var decoder = turn.makeDecoder()
        let completion = decoder.completionTokens()
        let tokens = try #require(completion)
        for token in tokens {
            let accepted = decoder.accept(token)
            #expect(accepted)
        }
        #expect(decoder.isComplete)
        let text = String(decoding: decoder.output, as: UTF8.self)
        #expect(text.hasPrefix("<tool_call>[{\"name\":"))
        #expect(text.hasSuffix("}]</tool_call>"))
    }

    /// Prose that has spelled part of the marker can still end: its
    /// shortest completion is nothing, so any budget admits the next token.
    @Test func proseThatBeganLikeTheMarkerCanStillEnd() throws {
        let turn = try Self.turn()
        var decoder = turn.makeDecoder()
        let prefixAccepted = decoder.accept(bytes: Array("<tool_call".utf8))
        #expect(prefixAccepted)
        #expect(decoder.canEnd)
        let length = decoder.completionLength()
        #expect(length == 0)
        let mask = decoder.allowedTokens()
        let x = ToyVocabulary.token("x")
        #expect(mask.contains(x))
        let accepted = decoder.accept(x, completableWithin: 0)
        #expect(accepted)
        #expect(String(decoding: decoder.output, as: UTF8.self) == "<tool_callx")
    }
}

@Suite("Tool calls in the Hermes (Qwen2.5) format")
struct HermesTurnGrammarTests {
    static func turn(requiresToolCall: Bool = false) throws -> TokenConstraint {
        let grammar = try GrammarCompiler.compileTurn(
            answer: nil, answerDefinitions: [], tools: [TurnGrammarTests.flight, TurnGrammarTests.lookup],
            requiresToolCall: requiresToolCall, format: .hermes, maximumCallsPerTurn: 3
        )
        return TokenConstraint(grammar: grammar, vocabulary: ToyVocabulary.make)
    }

    /// Feeds `text` byte by byte (the toy vocabulary has no line-break token).
    static func accepts(_ turn: TokenConstraint, _ text: String) -> Bool {
        var decoder = turn.makeDecoder()
        for byte in text.utf8 where !decoder.accept(bytes: [byte]) { return false }
        return decoder.canEnd
    }

    static let flightCall = "<tool_call>\n{\"name\": \"flightStatus\", \"arguments\": {\"flightNumber\":\"LH123\"}}\n</tool_call>"
    static let albumCall = "<tool_call>\n{\"name\": \"findAlbum\", \"arguments\": {\"artist\":\"Coltrane\",\"limit\":3}}\n</tool_call>"

    @Test func oneBlockPerCallSeparatedByLineBreaks() throws {
        let turn = try Self.turn()
        #expect(Self.accepts(turn, Self.flightCall))
        #expect(Self.accepts(turn, Self.flightCall + "\n" + Self.albumCall))
        #expect(Self.accepts(turn, [Self.flightCall, Self.albumCall, Self.flightCall].joined(separator: "\n")))
        #expect(!Self.accepts(turn, [Self.flightCall, Self.albumCall, Self.flightCall, Self.albumCall].joined(separator: "\n")), "at most 3 calls")
        #expect(!Self.accepts(turn, Self.flightCall + "\n"), "a line break promises another call")
        #expect(!Self.accepts(turn, Self.flightCall.replacingOccurrences(of: "flightStatus", with: "bookFlight")), "unknown tool")
        #expect(!Self.accepts(turn, Self.flightCall.replacingOccurrences(of: "LH123", with: "lh123")), "pattern")
        #expect(Self.accepts(turn, "The flight is on time."))
    }

    @Test func bareCallObjectsAreCallsAndProseCannotStartLikeOne() throws {
        let turn = try Self.turn()
        let bare = "{\"name\": \"flightStatus\", \"arguments\": {\"flightNumber\":\"LH123\"}}"
        #expect(Self.accepts(turn, bare))
        #expect(Self.accepts(turn, bare + "\n" + "{\"name\": \"findAlbum\", \"arguments\": {\"artist\":\"X\"}}"))
        #expect(!Self.accepts(turn, "{\"name\": \"bookFlight\", \"arguments\": {}}"), "unknown tool")
        #expect(Self.accepts(turn, "{name} is a placeholder"), "prose may start with a brace")
        var decoder = turn.makeDecoder()
        for byte in "{\"name\"".utf8 { _ = decoder.accept(bytes: [byte]) }
        #expect(!decoder.canEnd, "past {\"name\" only a call can follow")
    }

    @Test func proseForATurnWithoutTools() throws {
        let prose = TokenConstraint(grammar: GrammarCompiler.compileProse(format: .hermes), vocabulary: ToyVocabulary.make)
        #expect(Self.accepts(prose, "Flight LH123 is on time."))
        #expect(!Self.accepts(prose, Self.flightCall))
        #expect(!Self.accepts(prose, "{\"name\": \"flightStatus\"}"))
        #expect(Self.accepts(prose, "[1] is the first reference."))
    }

    @Test func requiredForcesTheMarkerAndTheSharedStartOfTheName() throws {
        var decoder = try Self.turn(requiresToolCall: true).makeDecoder()
        // A marked block or a bare call object: nothing is forced yet.
        #expect(decoder.forcedBytes().isEmpty)
        _ = decoder.accept(bytes: Array("<".utf8))
        #expect(decoder.forcedBytes() == Array("tool_call>\n{\"name\": \"f".utf8))
    }

    @Test func theShortestCompletionIsOneCall() throws {
        let turn = try Self.turn(requiresToolCall: true)
        var decoder = turn.makeDecoder()
        for byte in "<tool_call>\n{\"name\": \"fl".utf8 { _ = decoder.accept(bytes: [byte]) }
        // The toy vocabulary cannot spell the line break; the length says
        // the completion is one call: the rest of the name, the shortest
        // flight number, the tail.
        let length = decoder.completionLength()
        #expect(length == "ightStatus\", \"arguments\": {\"flightNumber\":\"AA00\"}}\n</tool_call>".utf8.count)
    }
}
