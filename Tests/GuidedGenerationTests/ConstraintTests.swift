import GuidedGeneration
import Testing

/// A byte-level toy vocabulary: every printable ASCII byte, a few multi-byte
/// tokens that span structure, and an end-of-generation token.
enum ToyVocabulary {
    static let words = ["{\"", "\":", "\",", "\"}", "\":\"", "},{", "name", "age", "tags", "true", "false", "null", "12", "ab", "\"]", "\":\"Ad"]
    static let make: TokenVocabulary = {
        var tokens = (32..<127).map { [UInt8($0)] }
        tokens += words.map { Array($0.utf8) }
        tokens.append([])
        return TokenVocabulary(tokens: tokens, endOfGeneration: [Int32(tokens.count - 1)])
    }()
    static var endOfGeneration: Int32 { make.endOfGeneration[0] }

    static func token(_ text: String) -> Int32 {
        Int32(make.tokens.firstIndex(of: Array(text.utf8))!)
    }
}

/// Feeds `text` byte by byte, checking each byte's token is in the mask.
func accepts(_ constraint: TokenConstraint, _ text: String) -> Bool {
    var decoder = constraint.makeDecoder()
    for byte in text.utf8 {
        let token = ToyVocabulary.token(String(UnicodeScalar(byte)))
        guard decoder.allowedTokens().contains(token), decoder.accept(token) else { return false }
    }
    return decoder.canEnd
}

func constraint(_ root: SchemaNode, _ definitions: [SchemaDefinition] = []) throws -> TokenConstraint {
    try TokenConstraint(root: root, definitions: definitions, vocabulary: ToyVocabulary.make)
}

@Suite("Token constraints on a toy vocabulary")
struct ConstraintTests {
    static let person = SchemaNode.object(
        ObjectNode(properties: [
            PropertyNode(name: "name", node: .string(StringNode())),
            PropertyNode(name: "age", node: .integer(NumberNode(minimum: 0, maximum: 130)), isOptional: true),
            PropertyNode(name: "tags", node: .array(ArrayNode(items: .boolean, minimumCount: 1, maximumCount: 2))),
        ]))

    @Test func compactJSONInPropertyOrderOnly() throws {
        let person = try constraint(Self.person)
        #expect(accepts(person, #"{"name":"Ada","age":36,"tags":[true]}"#))
        #expect(accepts(person, #"{"name":"Ada","tags":[true,false]}"#))
        #expect(!accepts(person, #"{"name": "Ada","tags":[true]}"#), "no free whitespace")
        #expect(!accepts(person, #"{"tags":[true],"name":"Ada"}"#), "schema order")
        #expect(!accepts(person, #"{"name":"Ada","age":131,"tags":[true]}"#), "range")
        #expect(!accepts(person, #"{"name":"Ada","tags":[]}"#), "minimum count")
        #expect(!accepts(person, #"{"name":"Ada","tags":[true,true,true]}"#), "maximum count")
        #expect(!accepts(person, #"{"name":"Ada"}"#), "required property")
    }

    /// A choice among the schema's own strings (patterns, choice lists, a
    /// `oneOf` of patterns) is one leaf, the union of their automata:
    /// inside it the decoder holds one reading, so a mask there is one walk
    /// of the vocabulary rather than one per choice. Literals one of which
    /// begins another (`1`, `12`) stay apart, and each still ends where it
    /// may.
    @Test func aChoiceAmongStringsIsOneReading() throws {
        let strings = try constraint(
            .array(
                ArrayNode(
                    items: .anyOf([
                        .string(StringNode(searchPatterns: ["ab"])), .string(StringNode(choices: ["name", "age"])),
                        .string(StringNode(pattern: "[0-9]{2}")),
                    ]))))
        var decoder = strings.makeDecoder()
        let opened = decoder.accept(bytes: Array(#"[""#.utf8))
        #expect(opened)
        #expect(decoder.readings == 1)
        #expect(accepts(strings, #"["xaby","age","12"]"#))
        #expect(!accepts(strings, #"["xy"]"#))
        #expect(!accepts(strings, #"["123"]"#))
        let numbers = try constraint(.array(ArrayNode(items: .anyOf([.literal("1"), .literal("12")]))))
        var numberDecoder = numbers.makeDecoder()
        let one = numberDecoder.accept(bytes: Array("[1".utf8))
        #expect(one)
        #expect(numberDecoder.readings == 2)
        #expect(accepts(numbers, "[1,12,1]"))
        #expect(!accepts(numbers, "[121]"))
    }

    /// A pattern under a length bound past what its automaton could hold
    /// keeps the pattern's own states and counts its characters beside
    /// them: a long string walks the vocabulary for a few states, not for
    /// each count. The count is exact on both sides, escapes and all, and
    /// never leads where the bounds cannot be met (`@` needs a letter
    /// after it).
    @Test func aPatternUnderALengthBoundCountsBesideItsAutomaton() throws {
        let bounded = try constraint(.string(StringNode(pattern: "[a-z]+@[a-z]+", minimumLength: 5, maximumLength: 2000)))
        #expect(accepts(bounded, "\"" + String(repeating: "a", count: 1500) + "@b\""))
        #expect(bounded.keptLeafStates < 10, "\(bounded.keptLeafStates) states walked")
        #expect(accepts(bounded, #""ab@cd""#))
        #expect(!accepts(bounded, #""a@cd""#))
        #expect(!accepts(bounded, "\"" + String(repeating: "a", count: 1998) + "@bc\""))
        // With 1,999 characters written and one left, only a letter that
        // ends the string may follow `@`; before `@`, only `@` itself.
        var decoder = bounded.makeDecoder()
        let opened = decoder.accept(bytes: Array(("\"" + String(repeating: "a", count: 1998)).utf8))
        let beforeAt = Set(decoder.allowedTokens().tokens)
        let at = decoder.accept(bytes: Array("@z".utf8))
        let atTheEnd = Set(decoder.allowedTokens().tokens)
        #expect(opened && at)
        #expect(beforeAt == [ToyVocabulary.token("@")])
        #expect(atTheEnd == [ToyVocabulary.token("\"")])

        // Escapes count one character each (counted at any bound here).
        let escapes = try counted(.string(StringNode(pattern: "[a\\n\"]+", minimumLength: 2, maximumLength: 3)))
        #expect(accepts(escapes, #""a\n""#))
        #expect(accepts(escapes, #""\"\"\"""#))
        #expect(!accepts(escapes, #""\n""#))
        #expect(!accepts(escapes, #""a\n\na""#))
        // Lengths that skip (`(ab)+` has only even ones) and a pattern
        // whose states are reached both inside an escape and between
        // characters cannot be counted beside the automaton: the bound
        // goes into it, as exactly, and past what it can hold is refused.
        let even = try counted(.string(StringNode(pattern: "(ab)+", maximumLength: 5)))
        #expect(accepts(even, #""abab""#))
        #expect(!accepts(even, #""ababab""#))
        #expect(!accepts(even, #""aba""#))
        let merged = try counted(.string(StringNode(pattern: "(a\\nn|bnn)+", minimumLength: 4, maximumLength: 6)))
        #expect(accepts(merged, #""bnna\nn""#))
        #expect(!accepts(merged, #""bnn""#))
        #expect(!accepts(merged, #""a\nnbnnbnn""#))
        #expect(throws: GuidedGenerationError.unsupportedGuide("#: a length bound above 1000 together with a pattern, format or choices")) {
            try constraint(.string(StringNode(pattern: "(ab)+", maximumLength: 1001)))
        }
    }

    /// `root` compiled with every bounded pattern counted beside its
    /// automaton where that is exact, however small its product would be.
    func counted(_ root: SchemaNode) throws -> TokenConstraint {
        TokenConstraint(grammar: try GrammarCompiler.compile(root: root, definitions: [], countedStates: 0), vocabulary: ToyVocabulary.make)
    }

    /// Optional properties on both sides of a required one: each run of
    /// positions shares one key trie, read from the position on, so a key
    /// before the position is refused however the run was entered.
    @Test func keysBeforeThePositionAreGoneInARunOfOptionalProperties() throws {
        let number = SchemaNode.integer(NumberNode())
        let object = try constraint(
            .object(
                ObjectNode(properties: [
                    PropertyNode(name: "a", node: number, isOptional: true),
                    PropertyNode(name: "b", node: number, isOptional: true),
                    PropertyNode(name: "c", node: number),
                    PropertyNode(name: "d", node: number, isOptional: true),
                    PropertyNode(name: "e", node: number, isOptional: true),
                ])))
        #expect(accepts(object, #"{"c":1}"#))
        #expect(accepts(object, #"{"a":1,"b":2,"c":3,"d":4,"e":5}"#))
        #expect(accepts(object, #"{"b":2,"c":3,"e":5}"#))
        #expect(!accepts(object, #"{"b":2,"a":1,"c":3}"#), "a after b")
        #expect(!accepts(object, #"{"a":1,"a":1,"c":3}"#), "a twice")
        #expect(!accepts(object, #"{"c":3,"e":5,"d":4}"#), "d after e")
        #expect(!accepts(object, #"{"a":1,"b":2}"#), "c is required")
        #expect(!accepts(object, #"{"c":3,"c":3}"#), "c twice")
        #expect(!accepts(object, #"{}"#))
        // The shortest completion from each position counts only what may
        // still come: the required c, then the brace.
        for (prefix, rest) in [
            ("", #"{"c":0}"#), (#"{"a":1"#, #","c":0}"#), (#"{"b":1"#, #","c":0}"#), (#"{"c":1,"d":1"#, "}"), (#"{"c":1,"e":1"#, "}"),
        ] {
            var decoder = object.makeDecoder()
            if !prefix.isEmpty { do { let accepted = decoder.accept(bytes: Array(prefix.utf8)); #expect(accepted, "\(prefix)") } }
            #expect(decoder.completionLength() == rest.utf8.count, "after \(prefix)")
        }
    }

    @Test func tokensSpanningStructureAreAllowedWhenEveryByteIsValid() throws {
        var decoder = try constraint(Self.person).makeDecoder()
        for byte in #"{"name":"Ada"#.utf8 { do { let accepted = decoder.accept(bytes: [byte]); #expect(accepted) } }
        let mask = decoder.allowedTokens()
        #expect(mask.contains(ToyVocabulary.token("\",")))
        #expect(!mask.contains(ToyVocabulary.token("\"}")), "tags is required")
        #expect(!mask.contains(ToyVocabulary.token("\"]")))
        #expect(mask.contains(ToyVocabulary.token("ab")))
    }

    @Test func forcedRunsStopWhereALongerTokenCouldCrossTheBoundary() throws {
        var decoder = try constraint(Self.person).makeDecoder()
        #expect(decoder.forcedBytes() == Array(#"{"name":""#.utf8))
        // The vocabulary has `":"Ad`, a token that would run on past the
        // forced text into the value, so forcing stops before `":"`.
        let forced = decoder.forcedTokens()
        let spelled = forced.flatMap { ToyVocabulary.make.tokens[Int($0)] }
        #expect(String(decoding: spelled, as: UTF8.self) == #"{"name"#)
        for token in forced { do { let accepted = decoder.accept(token); #expect(accepted) } }
        let mask = decoder.allowedTokens()
        #expect(mask.contains(ToyVocabulary.token("\":\"")))
        #expect(mask.contains(ToyVocabulary.token("\":\"Ad")))
    }

    @Test func alternativesStayOpenUntilTheBytesDecide() throws {
        let tagged = SchemaNode.anyOf([
            .object(
                ObjectNode(properties: [
                    PropertyNode(name: "case", node: .string(StringNode(constant: "skip")))
                ])),
            .object(
                ObjectNode(properties: [
                    PropertyNode(name: "case", node: .string(StringNode(constant: "replay"))),
                    PropertyNode(name: "times", node: .integer(NumberNode(minimum: 1, maximum: 3))),
                ])),
        ])
        let schema = try constraint(tagged)
        #expect(accepts(schema, #"{"case":"skip"}"#))
        #expect(accepts(schema, #"{"case":"replay","times":2}"#))
        #expect(!accepts(schema, #"{"case":"skip","times":2}"#))
        var decoder = schema.makeDecoder()
        #expect(decoder.forcedBytes() == Array(#"{"case":""#.utf8))
    }

    @Test func recursionAndItsWayOut() throws {
        let node = SchemaDefinition(
            name: "Node",
            node: .object(
                ObjectNode(properties: [
                    PropertyNode(name: "next", node: .anyOf([.reference("Node"), .null]))
                ])))
        let list = try constraint(.reference("Node"), [node])
        #expect(accepts(list, #"{"next":{"next":{"next":null}}}"#))
        // A required self-reference with no way out admits no value.
        let endless = SchemaDefinition(
            name: "Endless",
            node: .object(
                ObjectNode(properties: [
                    PropertyNode(name: "next", node: .reference("Endless"))
                ])))
        #expect(throws: GuidedGenerationError.self) { try constraint(.reference("Endless"), [endless]) }
    }

    /// MaskBench regression (GeoJSON polygons: `minItems: 4` of a `$ref`):
    /// an array whose items are a definition compiled after it starts the
    /// shortest-completion fixpoint at "infinite" item lengths; a minimum of
    /// 4 or more overflowed the sum, and of 5 or more the product.
    @Test(arguments: [2, 4, 5, 1000, Int(Int32.max)])
    func theShortestCompletionOfManyItemsDefinedLaterDoesNotOverflow(minimum: Int) throws {
        let position = SchemaDefinition(name: "Position", node: .array(ArrayNode(items: .integer(NumberNode()), minimumCount: 2, maximumCount: 3)))
        let ring = SchemaNode.array(ArrayNode(items: .reference("Position"), minimumCount: minimum))
        guard minimum <= 1000 else {
            // More elements than any generation could write: refused, not built.
            #expect(throws: GuidedGenerationError.self) { try constraint(ring, [position]) }
            return
        }
        let compiled = try constraint(.object(ObjectNode(properties: [PropertyNode(name: "ring", node: ring)])), [position])
        var decoder = compiled.makeDecoder()
        let closing = #"{"ring":["# + Array(repeating: "[0,0]", count: minimum).joined(separator: ",") + "]}"
        #expect(decoder.completionLength() == closing.utf8.count)
        #expect(accepts(compiled, closing))
    }

    @Test func impossibleSchemasAreRefusedAtCompileTime() throws {
        #expect(throws: GuidedGenerationError.self) { try constraint(.integer(NumberNode(minimum: 0.2, maximum: 0.8))) }
        #expect(throws: GuidedGenerationError.self) { try constraint(.array(ArrayNode(items: .boolean, minimumCount: 3, maximumCount: 2))) }
        #expect(throws: GuidedGenerationError.self) { try constraint(.string(StringNode(choices: ["a"], pattern: "[0-9]+"))) }
        let error = #expect(throws: GuidedGenerationError.self) {
            try constraint(.string(StringNode(pattern: #"(a)\1"#)))
        }
        #expect(error.map { "\($0)".contains("backreference") } == true)
    }

    @Test func theShortestCompletionFitsAnyBudgetItCan() throws {
        let schema = try constraint(Self.person)
        var decoder = schema.makeDecoder()
        #expect(decoder.completionLength() == #"{"name":"","tags":[true]}"#.utf8.count)
        for byte in #"{"name":"Adaline"#.utf8 { do { let accepted = decoder.accept(bytes: [byte]); #expect(accepted) } }
        // A token that would leave too little room is refused…
        do { let accepted = decoder.accept(ToyVocabulary.token("ab"), completableWithin: 5); #expect(!accepted) }
        // …and the completion closes the value validly.
        let completion = decoder.completionTokens()
        let closing = try #require(completion)
        for token in closing { do { let accepted = decoder.accept(token); #expect(accepted) } }
        #expect(decoder.isComplete)
        #expect(String(decoding: decoder.output, as: UTF8.self) == #"{"name":"Adaline","tags":[true]}"#)
    }

    @Test func theFewestTokensToFinishAreKnownBeforeTheFirst() throws {
        let schema = try constraint(Self.person)
        let decoder = schema.makeDecoder()
        let needed = try #require(decoder.tokensToFinish())
        // Asking changes nothing: the decoder is still at the start.
        #expect(decoder.output.isEmpty && decoder.acceptedTokens == 0)
        // The forced tokens, then the shortest completion: exactly that
        // many tokens finish the value, and no fewer bytes would.
        var finishing = schema.makeDecoder()
        var spent = 0
        let forced = finishing.forcedTokens()
        for token in forced { do { let accepted = finishing.accept(token); #expect(accepted) } }
        spent += forced.count
        let completion = finishing.completionTokens()
        let rest = try #require(completion)
        for token in rest { do { let accepted = finishing.accept(token); #expect(accepted) } }
        spent += rest.count
        #expect(finishing.isComplete)
        #expect(String(decoding: finishing.output, as: UTF8.self) == #"{"name":"","tags":[true]}"#)
        #expect(needed == spent)
        #expect(needed < #"{"name":"","tags":[true]}"#.utf8.count, "the toy vocabulary's multi-byte tokens count as one")
        // Further on, fewer are needed; once complete, none.
        var later = schema.makeDecoder()
        for byte in #"{"name":"Ada","tags":[true"#.utf8 { do { let accepted = later.accept(bytes: [byte]); #expect(accepted) } }
        #expect(later.tokensToFinish() == 2)
        for byte in "]}".utf8 { do { let accepted = later.accept(bytes: [byte]); #expect(accepted) } }
        #expect(later.tokensToFinish() == 0)
    }

    @Test func theEndOfGenerationTokenOnlyWhereTheValueMayEnd() throws {
        let number = try constraint(.integer(NumberNode(minimum: 10, maximum: 99)))
        var decoder = number.makeDecoder()
        #expect(!decoder.allowedTokens().contains(ToyVocabulary.endOfGeneration))
        do { let accepted = decoder.accept(bytes: Array("4".utf8)); #expect(accepted) }
        #expect(!decoder.allowedTokens().contains(ToyVocabulary.endOfGeneration))
        do { let accepted = decoder.accept(bytes: Array("2".utf8)); #expect(accepted) }
        #expect(decoder.allowedTokens().contains(ToyVocabulary.endOfGeneration))
        do { let accepted = decoder.accept(ToyVocabulary.endOfGeneration); #expect(accepted) }
        #expect(decoder.isComplete)
    }
}
