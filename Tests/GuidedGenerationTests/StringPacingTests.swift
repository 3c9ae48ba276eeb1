import GuidedGeneration
import Testing

@Suite("Pacing free strings")
struct StringPacingTests {
    static func threeStrings(description: String? = nil) -> SchemaNode {
        .object(ObjectNode(properties: ["a", "b", "c"].map {
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

    @Test func aStringLeavesEachFollowingStringItsShareOfTheBudget() throws {
        var decoder = try constraint(Self.threeStrings()).makeDecoder()
        Self.feed(&decoder, #"{"a":""#)
        // Room 40: the rest needs `","b":"","c":""}` (16 bytes) at least;
        // 24 spare tokens shared by this string and the two after it.
        let room = 40
        var used = 0
        while true {
            let pace = decoder.pace(room: room - used)
            if pace != .free { break }
            Self.take(&decoder, Self.token("ab"))
            used += 1
            try #require(used < 40)
        }
        #expect(used == 8, "a third of the 24 spare tokens")
        do { let pace = decoder.pace(room: room - used); #expect(pace == .endAtWordBoundary) }
        #expect(decoder.continuesPast(.endAtWordBoundary, with: Self.token(" ")))
        #expect(!decoder.continuesPast(.endAtWordBoundary, with: Self.token("ab")))
        var closing = TokenMask(count: ToyVocabulary.make.count)
        let closes = decoder.closingTokens(into: &closing)
        #expect(closes)
        #expect(closing.contains(Self.token("\"")))
        #expect(closing.contains(Self.token("\",")))
        #expect(!closing.contains(Self.token("\"}")), "b and c are required")
        #expect(!closing.contains(Self.token("ab")))
    }

    @Test func longStringsEndAtASentenceThenAWord() throws {
        var decoder = try constraint(Self.threeStrings()).makeDecoder()
        Self.feed(&decoder, #"{"a":""#)
        let pacing = StringPacing(soft: 4, hard: 8, elementSoft: 2, elementHard: 4, overrun: 2)
        for _ in 0..<4 { Self.take(&decoder, Self.token("ab")) }
        do { let pace = decoder.pace(room: 1000, pacing: pacing); #expect(pace == .endAtSentenceEnd) }
        #expect(!decoder.continuesPast(.endAtSentenceEnd, with: Self.token(" ")), "mid-sentence")
        Self.take(&decoder, Self.token("."))
        #expect(decoder.continuesPast(.endAtSentenceEnd, with: Self.token(" ")), "a new sentence would start")
        for _ in 0..<3 { Self.take(&decoder, Self.token("ab")) }
        do { let pace = decoder.pace(room: 1000, pacing: pacing); #expect(pace == .endAtWordBoundary) }
        for _ in 0..<2 { Self.take(&decoder, Self.token("ab")) }
        do { let pace = decoder.pace(room: 1000, pacing: pacing); #expect(pace == .endNow) }
    }

    @Test func aStatedWordLimitEndsTheStringBeforeTheNextWord() throws {
        var decoder = try constraint(Self.threeStrings(description: "A teaser of at most 3 words")).makeDecoder()
        Self.feed(&decoder, #"{"a":"ab ab"#)
        do { let pace = decoder.pace(room: 1000); #expect(pace == .endAtSentenceEnd, "two words of three: a sentence end would do") }
        Self.feed(&decoder, " ")
        Self.take(&decoder, Self.token("ab"))
        do { let pace = decoder.pace(room: 1000); #expect(pace == .endAtWordBoundary) }
        #expect(decoder.continuesPast(.endAtWordBoundary, with: Self.token(" ")))
        #expect(!decoder.continuesPast(.endAtWordBoundary, with: Self.token("ab")), "the third word may go on")
        // The next property has no limit.
        Self.feed(&decoder, #"","b":"ab ab ab ab"#)
        do { let pace = decoder.pace(room: 1000); #expect(pace == .free) }
    }

    @Test func stringsThatAreNotFreeAreNotPaced() throws {
        let schema = SchemaNode.object(ObjectNode(properties: [
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
        let constraint = try constraint(Self.threeStrings())
        var decoder = constraint.makeDecoder()
        let budget = 60
        var generated = 0
        var mask = TokenMask(count: ToyVocabulary.make.count)
        var closing = TokenMask(count: ToyVocabulary.make.count)
        let preference = [Self.token("ab"), Self.token(" ")]
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
            // The runaway model: always a word or a space when it may.
            var token = preference[generated % 2]
            if !mask.contains(token) { token = mask.tokens.first! }
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
        let text = Self.text(decoder)
        #expect(generated <= budget)
        for field in ["a", "b", "c"] {
            #expect(!text.contains(#""\#(field)":"""#), "\(field) is empty in \(text)")
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
        let two = SchemaNode.object(ObjectNode(properties: [
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
