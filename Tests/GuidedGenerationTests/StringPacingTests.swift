import GuidedGeneration
import Testing

@Suite("Pacing free strings")
struct StringPacingTests {
    static func threeStrings(description: String? = nil) -> SchemaNode {
        .object(
            ObjectNode(
                properties: ["a", "b", "c"].map {
                    PropertyNode(name: $0, description: $0 == "a" ? description : nil, node: .string(StringNode()))
                }))
    }

    static func token(_ text: String) -> Int32 { ToyVocabulary.token(text) }

    static func text(_ decoder: GuidedDecoder) -> String { String(decoding: decoder.output, as: UTF8.self) }

    /// Accepts `token`, expecting the grammar to allow it.
    static func take(_ decoder: inout GuidedDecoder, _ token: Int32) {
        let accepted = decoder.accept(token)
        #expect(accepted, "token \(token) after \(Self.text(decoder))")
    }

    /// Accepts `text` one byte-token at a time.
    static func feed(_ decoder: inout GuidedDecoder, _ text: String) {
        for byte in text.utf8 {
            let accepted = decoder.accept(Self.token(String(UnicodeScalar(byte))))
            #expect(accepted, "\(String(UnicodeScalar(byte))) after \(Self.text(decoder))")
        }
    }

    @Test func wordLimitsAreReadFromDescriptions() {
        #expect(LengthHint.wordLimit(in: "A teaser, max 10 words") == 10)
        #expect(LengthHint.wordLimit(in: "At most twenty-five words.") == 25)
        #expect(LengthHint.wordLimit(in: "no more than 8 words") == 8)
        #expect(LengthHint.wordLimit(in: "Summarize in 10-15 words") == 15)
        #expect(LengthHint.wordLimit(in: "between 5 to 12 words") == 12)
        #expect(LengthHint.wordLimit(in: "fewer than 10 words") == 9)
        #expect(LengthHint.wordLimit(in: "A three-word title") == 3)
        #expect(LengthHint.wordLimit(in: "Tags of one or two words") == 2)
        #expect(LengthHint.wordLimit(in: "At least 20 words") == nil)
        #expect(LengthHint.wordLimit(in: "Two sentences on the album") == nil)
        #expect(LengthHint.wordLimit(in: "Use words the customer used") == nil)
        #expect(LengthHint.wordLimit(in: nil) == nil)
    }

    @Test func textMeasures() {
        #expect(GuidedDecoder.wordCount(ArraySlice(Array("one two  three\\nfour".utf8))) == 4)
        #expect(GuidedDecoder.wordCount(ArraySlice(Array(" ".utf8))) == 0)
        #expect(GuidedDecoder.endsSentence(ArraySlice(Array("It works. ".utf8))))
        #expect(GuidedDecoder.endsSentence(ArraySlice(Array(#"He said \"no.\""#.utf8))))
        #expect(!GuidedDecoder.endsSentence(ArraySlice(Array("It works and".utf8))))
        #expect(GuidedDecoder.emptyStringCount(in: Array(#"","b":"","c":""}"#.utf8)) == 2)
        #expect(GuidedDecoder.emptyStringCount(in: Array(#""]}"#.utf8)) == 0)
        #expect(GuidedDecoder.emptyStringCount(in: Array(#"",[""]}"#.utf8)) == 1)
    }

    /// The toy vocabulary with the keys after `a` as whole tokens, the way a
    /// real vocabulary spells common JSON: the rest of an answer takes far
    /// fewer tokens than bytes.
    static let keyTokens: TokenVocabulary = {
        var tokens = ToyVocabulary.make.tokens.dropLast().map { $0 }
        tokens += [#"","second":""#, #"","third":""#].map { Array($0.utf8) }
        tokens.append([])
        return TokenVocabulary(tokens: tokens, endOfGeneration: [Int32(tokens.count - 1)])
    }()

    static let longKeys = SchemaNode.object(
        ObjectNode(
            properties: ["first", "second", "third"].map {
                PropertyNode(name: $0, node: .string(StringNode()))
            }))

    @Test func theRoomTheRestNeedsIsCountedInTokens() throws {
        let vocabulary = Self.keyTokens
        var decoder = try TokenConstraint(root: Self.longKeys, definitions: [], vocabulary: vocabulary).makeDecoder()
        for byte in #"{"first":""#.utf8 { _ = decoder.accept(bytes: [byte]) }
        // The rest, `","second":"","third":""}`, is 25 bytes but 3 tokens.
        let rest = decoder.completionTokens()
        #expect(rest?.count == 3)
        let bytes = decoder.completionLength()
        #expect(bytes == 25)
        // Room 40: 37 tokens to spare, 16 of them kept for the two strings
        // still to come (8 each): the string ends after 21 tokens. Counted
        // in bytes, the rest would have left it 15 tokens and ended it at once.
        let word = Int32(vocabulary.tokens.firstIndex(of: Array("ab".utf8))!)
        let room = 40
        var used = 0
        // Not a loop: one word over and over would be ended as one.
        let pacing = StringPacing(stopsLoops: false)
        while decoder.pace(room: room - used, pacing: pacing) == .free {
            let accepted = decoder.accept(word)
            try #require(accepted)
            used += 1
            try #require(used < 40)
        }
        #expect(used == 21)
        do { let pace = decoder.pace(room: room - used, pacing: pacing); #expect(pace == .endAtWordBoundary) }
        let space = Int32(vocabulary.tokens.firstIndex(of: Array(" ".utf8))!)
        #expect(decoder.continuesPast(.endAtWordBoundary, with: space))
        #expect(!decoder.continuesPast(.endAtWordBoundary, with: word))
        // Looking for a word boundary may eat half of what is kept, no more.
        for _ in 0..<7 {
            _ = decoder.accept(word)
            used += 1
        }
        do { let pace = decoder.pace(room: room - used, pacing: pacing); #expect(pace == .endAtWordBoundary) }
        _ = decoder.accept(word)
        used += 1
        do { let pace = decoder.pace(room: room - used, pacing: pacing); #expect(pace == .endNow) }
        var closing = TokenMask(count: vocabulary.count)
        let closes = decoder.closingTokens(into: &closing)
        #expect(closes)
        #expect(closing.contains(Int32(vocabulary.tokens.firstIndex(of: Array(#"","second":""#.utf8))!)))
        #expect(!closing.contains(word))
    }

    /// The sampling loop of the on-device model (ContextSlot's guided
    /// generation, pacing included) over a scripted model: `choose` picks
    /// the model's token from the output so far and the tokens generated;
    /// where it picks none or one the mask refuses, the first allowed.
    static func sample(
        _ constraint: TokenConstraint, budget: Int, choose: (GuidedDecoder, Int) -> Int32?
    ) throws -> (text: String, tokens: Int) {
        let vocabulary = constraint.vocabulary
        var decoder = constraint.makeDecoder()
        var mask = TokenMask(count: vocabulary.count)
        var closing = TokenMask(count: vocabulary.count)
        var generated = 0
        while !decoder.isComplete {
            let room = budget - generated
            try #require(room > 0)
            let forced = decoder.forcedTokens()
            if !forced.isEmpty {
                for token in forced { Self.take(&decoder, token) }
                generated += forced.count
                continue
            }
            let pace = decoder.pace(room: room - 1)
            decoder.allowedTokens(into: &mask)
            var token = choose(decoder, generated).flatMap { mask.contains($0) ? $0 : nil } ?? mask.tokens.first!
            if pace != .free, decoder.continuesPast(pace, with: token), decoder.closingTokens(into: &closing) {
                token = closing.tokens.first!
            }
            if decoder.accept(token, completableWithin: room - 1) {
                generated += 1
            } else {
                let completion = decoder.completionTokens()
                let rest = try #require(completion)
                for token in rest { Self.take(&decoder, token) }
                generated += rest.count
            }
        }
        return (String(decoding: decoder.output, as: UTF8.self), generated)
    }

    /// ``sample(_:budget:choose:)`` over a model that writes `answer`: its
    /// token for what is written so far, as long as the output follows it.
    static func generate(_ answer: String, schema: SchemaNode, budget: Int, vocabulary: TokenVocabulary) throws -> (text: String, tokens: Int) {
        let script = try #require(vocabulary.tokenize(Array(answer.utf8)))
        let offsets = script.reduce(into: [0]) { $0.append($0.last! + vocabulary.tokens[Int($1)].count) }
        let constraint = try TokenConstraint(root: schema, definitions: [], vocabulary: vocabulary)
        return try sample(constraint, budget: budget) { decoder, _ in
            offsets.firstIndex(of: decoder.output.count).flatMap { $0 < script.count ? script[$0] : nil }
        }
    }

    @Test func aBudgetTheAnswerFitsLeavesItAsTheModelWroteIt() throws {
        let answer =
            #"{"first":"Rain fell on the quiet harbor all night.","second":"Boats rocked; gulls slept.","third":"By dawn the sky was clear."}"#
        let unpaced = try Self.generate(answer, schema: Self.longKeys, budget: 10_000, vocabulary: Self.keyTokens)
        #expect(unpaced.text == answer)
        for budget in [unpaced.tokens, unpaced.tokens + 1, 2 * unpaced.tokens] {
            let paced = try Self.generate(answer, schema: Self.longKeys, budget: budget, vocabulary: Self.keyTokens)
            #expect(paced.text == answer, "budget \(budget)")
        }
        // Short of it, the first string gives way and no field is emptied.
        let short = try Self.generate(answer, schema: Self.longKeys, budget: unpaced.tokens - 12, vocabulary: Self.keyTokens)
        #expect(short.text != answer)
        for field in ["first", "second", "third"] {
            #expect(!short.text.contains(#""\#(field)":"""#), "\(field) is empty in \(short.text)")
        }
    }

    @Test func longStringsEndAtASentenceThenAClauseThenAWord() throws {
        var decoder = try constraint(Self.threeStrings()).makeDecoder()
        Self.feed(&decoder, #"{"a":""#)
        let pacing = StringPacing(soft: 4, hard: 8, elementSoft: 2, elementHard: 4, overrun: 2)
        for _ in 0..<4 { Self.take(&decoder, Self.token("ab")) }
        do { let pace = decoder.pace(room: 1000, pacing: pacing); #expect(pace == .endAtSentenceEnd) }
        #expect(!decoder.continuesPast(.endAtSentenceEnd, with: Self.token(" ")), "mid-sentence")
        #expect(!decoder.continuesPast(.endAtSentenceEnd, with: Self.token(",")), "a clause goes on")
        Self.take(&decoder, Self.token("."))
        #expect(decoder.continuesPast(.endAtSentenceEnd, with: Self.token(" ")), "a new sentence would start")
        for _ in 0..<3 { Self.take(&decoder, Self.token("ab")) }
        do { let pace = decoder.pace(room: 1000, pacing: pacing); #expect(pace == .endAtClauseEnd) }
        #expect(decoder.continuesPast(.endAtClauseEnd, with: Self.token(",")), "ends where the clause would go on")
        #expect(!decoder.continuesPast(.endAtClauseEnd, with: Self.token(" ")), "mid-clause")
        for _ in 0..<2 { Self.take(&decoder, Self.token("ab")) }
        do { let pace = decoder.pace(room: 1000, pacing: pacing); #expect(pace == .endAtWordBoundary) }
        #expect(decoder.continuesPast(.endAtWordBoundary, with: Self.token(" ")))
        for _ in 0..<2 { Self.take(&decoder, Self.token("ab")) }
        do { let pace = decoder.pace(room: 1000, pacing: pacing); #expect(pace == .endNow) }
    }

    @Test func aStatedWordLimitIsATargetNotAGuillotine() throws {
        var decoder = try constraint(Self.threeStrings(description: "A teaser of at most 4 words")).makeDecoder()
        Self.feed(&decoder, #"{"a":"ab ab ab"#)
        do { let pace = decoder.pace(room: 1000); #expect(pace == .endAtSentenceEnd, "three words of four: a sentence end would do") }
        Self.feed(&decoder, " ab")
        // At the limit: the sentence may finish, a clause may not start.
        do { let pace = decoder.pace(room: 1000); #expect(pace == .endAtClauseEnd) }
        #expect(!decoder.continuesPast(.endAtClauseEnd, with: Self.token(" ")), "the sentence goes on past the limit")
        #expect(!decoder.continuesPast(.endAtClauseEnd, with: Self.token("ab")), "the word goes on")
        #expect(decoder.continuesPast(.endAtClauseEnd, with: Self.token(",")), "no new clause past the limit")
        Self.feed(&decoder, " ab")
        do { let pace = decoder.pace(room: 1000); #expect(pace == .endAtClauseEnd, "within the tolerance: 2 words past 4") }
        Self.feed(&decoder, ".")
        #expect(decoder.continuesPast(.endAtClauseEnd, with: Self.token(" ")), "the sentence ended")
        Self.feed(&decoder, " ab")
        do { let pace = decoder.pace(room: 1000); #expect(pace == .endAtWordBoundary, "past the tolerance") }
        #expect(decoder.continuesPast(.endAtWordBoundary, with: Self.token(" ")))
        #expect(!decoder.continuesPast(.endAtWordBoundary, with: Self.token("ab")), "never mid-word")
        // The next property has no limit.
        Self.feed(&decoder, #"","b":"ab ab ab ab"#)
        do { let pace = decoder.pace(room: 1000); #expect(pace == .free) }
    }

    @Test func theWordToleranceIsAFractionOfTheLimit() {
        let pacing = StringPacing.standard
        #expect(pacing.wordSlack(for: 3) == 2)
        #expect(pacing.wordSlack(for: 10) == 5)
        #expect(pacing.wordSlack(for: 25) == 13)
    }

    @Test func stringsThatAreNotFreeAreNotPaced() throws {
        let schema = SchemaNode.object(
            ObjectNode(properties: [
                PropertyNode(name: "a", node: .string(StringNode(pattern: "[a-z ]+"))),
                PropertyNode(name: "b", node: .string(StringNode())),
            ]))
        var decoder = try constraint(schema).makeDecoder()
        Self.feed(&decoder, #"{"a":""#)
        for _ in 0..<10 { Self.take(&decoder, Self.token("ab")) }
        do { let pace = decoder.pace(room: 12); #expect(pace == .free) }
    }

    /// The sampling loop of the on-device model, with a "model" that never
    /// wants to stop writing: every string still gets its share, every
    /// field ends up non-empty, and the document is complete within the
    /// budget.
    @Test func aRunawayModelStillFillsEveryField() throws {
        let budget = 60
        // The runaway model: always a word or a space when it may.
        let preference = [Self.token("ab"), Self.token(" ")]
        let run = try Self.sample(constraint(Self.threeStrings()), budget: budget) { _, generated in preference[generated % 2] }
        #expect(run.tokens <= budget)
        for field in ["a", "b", "c"] {
            #expect(!run.text.contains(#""\#(field)":"""#), "\(field) is empty in \(run.text)")
        }
    }
}

@Suite("Stopping loops")
struct RepetitionStopTests {
    static func loops(_ text: String) -> Bool { RepetitionStop.endsInLoop(ArraySlice(Array(text.utf8))) }

    @Test func degenerateLoopsAreRecognized() {
        #expect(Self.loops("Tags: soulful soulful soulful "))
        #expect(Self.loops("soulfuljazz, soulfuljazzrecs, soulfuljazzrecs, soulfuljazzrecs, "))
        #expect(Self.loops("Intro. The sound is a mix of sound from the records. The sound is a mix of sound from the records."), "a sentence twice")
        #expect(Self.loops("Rhymes:\n4. Soulfulness\n5. Soulfulness\n6. Soulfulness\n"), "numbered copies of one line")
    }

    @Test func ordinaryTextIsNot() {
        #expect(!Self.loops("The sound is warm. The records fit together like a late-night set."))
        #expect(!Self.loops("ha ha ha ha ha ha ha ha"), "short repeats")
        #expect(!Self.loops("| --- | --- | --- | --- | --- | --- | --- |"), "no letters")
        #expect(!Self.loops("1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18"), "counting")
        #expect(!Self.loops("Miles Davis and John Coltrane, then Miles Davis and Bill Evans"))
        #expect(!Self.loops(""))
    }
}

@Suite("Lists that repeat an element")
struct RepeatedElementTests {
    static let tags = SchemaNode.array(ArrayNode(items: .string(StringNode()), minimumCount: 1, maximumCount: 4))

    @Test func anElementCannotEndAsACopyOfAnEarlierOne() throws {
        var decoder = try constraint(Self.tags).makeDecoder()
        for byte in #"["ab", "a"#.utf8 { _ = decoder.accept(bytes: [byte]) }
        var mask = TokenMask(count: ToyVocabulary.make.count)
        decoder.allowedTokens(into: &mask)
        let early = decoder.forbidRepeatedElement(in: &mask)
        #expect(!early, "\"a\" is not a copy: nothing to remove yet")
        _ = decoder.accept(bytes: Array("b".utf8))
        decoder.allowedTokens(into: &mask)
        for closing in ["\"", "\",", "\"]"] { #expect(mask.contains(ToyVocabulary.token(closing))) }
        let removed = decoder.forbidRepeatedElement(in: &mask)
        #expect(removed)
        for closing in ["\"", "\",", "\"]"] { #expect(!mask.contains(ToyVocabulary.token(closing)), "\(closing) would repeat \"ab\"") }
        #expect(mask.contains(ToyVocabulary.token("c")), "the element goes on")
        _ = decoder.accept(bytes: Array("c".utf8))
        decoder.allowedTokens(into: &mask)
        let late = decoder.forbidRepeatedElement(in: &mask)
        #expect(!late)
        #expect(mask.contains(ToyVocabulary.token("\"]")), "\"abc\" is new")
    }

    @Test func caseAndClosingPunctuationDoNotMakeACopyNew() throws {
        var decoder = try constraint(Self.tags).makeDecoder()
        for byte in #"["ab", "AB"#.utf8 { _ = decoder.accept(bytes: [byte]) }
        var mask = TokenMask(count: ToyVocabulary.make.count)
        decoder.allowedTokens(into: &mask)
        let removed = decoder.forbidRepeatedElement(in: &mask)
        #expect(removed)
        #expect(!mask.contains(ToyVocabulary.token("\"")))
        _ = decoder.accept(bytes: Array(".".utf8))
        decoder.allowedTokens(into: &mask)
        let again = decoder.forbidRepeatedElement(in: &mask)
        #expect(again)
        #expect(!mask.contains(ToyVocabulary.token("\"]")), "\"AB.\" repeats \"ab\"")
    }

    @Test func onlyTheSameListCounts() throws {
        let two = SchemaNode.object(
            ObjectNode(properties: [
                PropertyNode(name: "a", node: Self.tags),
                PropertyNode(name: "b", node: Self.tags),
            ]))
        var decoder = try constraint(two).makeDecoder()
        for byte in #"{"a":["ab"],"b":["ab"#.utf8 { _ = decoder.accept(bytes: [byte]) }
        var mask = TokenMask(count: ToyVocabulary.make.count)
        decoder.allowedTokens(into: &mask)
        let other = decoder.forbidRepeatedElement(in: &mask)
        #expect(!other, "another list may hold the same tag")
        #expect(mask.contains(ToyVocabulary.token("\"]")))
    }
}
