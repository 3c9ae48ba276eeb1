import GuidedGeneration
import Testing

/// Arrays whose elements must differ (JSON Schema's `uniqueItems`): the
/// matcher keeps the elements written, refuses a byte where the element
/// could then only end as one the array has, and refuses the comma before
/// an element no value is left for; the shortest completion writes new
/// values. (Masks against the matcher: ``MaskExactnessTests``.)
@Suite("Distinct elements")
struct UniqueItemsTests {
    static func unique(_ items: SchemaNode, minimum: Int? = nil, maximum: Int? = nil) throws -> TokenConstraint {
        try constraint(.array(ArrayNode(items: items, minimumCount: minimum, maximumCount: maximum, uniqueItems: true)))
    }

    /// The decoder after `text`, which must be accepted.
    static func decoder(_ constraint: TokenConstraint, after text: String) throws -> GuidedDecoder {
        var decoder = constraint.makeDecoder()
        let accepted = decoder.accept(bytes: Array(text.utf8))
        try #require(accepted, "\(text) refused")
        return decoder
    }

    @Test func anElementThatCouldOnlyRepeatIsRefusedAtItsFirstByte() throws {
        let integers = try Self.unique(.integer(NumberNode(minimum: 1, maximum: 12)))
        // 1, 10, 11 and 12 are written: "1" can only become one of them.
        var decoder = try Self.decoder(integers, after: "[1,10,11,12,")
        let mask = decoder.allowedTokens()
        #expect(!mask.contains(ToyVocabulary.token("1")))
        #expect(!mask.contains(ToyVocabulary.token("12")))
        #expect(mask.contains(ToyVocabulary.token("2")))
        let again = decoder.accept(bytes: Array("1".utf8))
        #expect(!again)
        // With 12 not yet written, "1" may still become 12.
        var open = try Self.decoder(integers, after: "[1,10,11,")
        #expect(open.allowedTokens().contains(ToyVocabulary.token("1")))
        #expect(open.allowedTokens().contains(ToyVocabulary.token("12")))
        let one = open.accept(bytes: Array("1".utf8))
        let repeated = open.accept(bytes: Array(",".utf8))
        let twelve = open.accept(bytes: Array("2]".utf8))
        #expect(one && !repeated && twelve)
    }

    @Test func noCommaOnceEveryValueIsWritten() throws {
        let flags = try Self.unique(.anyOf([.boolean, .null]))
        var decoder = try Self.decoder(flags, after: "[true,null,false")
        let mask = decoder.allowedTokens()
        #expect(!mask.contains(ToyVocabulary.token(",")))
        #expect(mask.contains(ToyVocabulary.token("]")))
        var two = try Self.decoder(flags, after: "[true,null")
        #expect(two.allowedTokens().contains(ToyVocabulary.token(",")))
    }

    @Test func aTokenThatWouldCloseARepeatIsMasked() throws {
        let strings = try Self.unique(.string(StringNode()))
        var decoder = try Self.decoder(strings, after: #"["ab","a"#)
        let mask = decoder.allowedTokens()
        // `b` may go on ("abc"), but `b` then `"` or `",` or `"]` repeats "ab".
        #expect(mask.contains(ToyVocabulary.token("b")))
        #expect(mask.contains(ToyVocabulary.token("\"")))
        var after = try Self.decoder(strings, after: #"["ab","ab"#)
        let closing = after.allowedTokens()
        #expect(!closing.contains(ToyVocabulary.token("\"")))
        #expect(!closing.contains(ToyVocabulary.token("\"]")))
        #expect(!closing.contains(ToyVocabulary.token("\",")))
        #expect(closing.contains(ToyVocabulary.token("c")))
        // Another spelling of a written string is refused: the elements are
        // written in one spelling per value.
        #expect(!accepts(strings, #"["A","\u0041"]"#))
        #expect(accepts(strings, #"["A","a"]"#))
    }

    /// The search along a written element's text is as long as the text:
    /// a long one (16,000 bytes, a stack's worth of frames
    /// were it recursive) is followed to its end.
    @Test func aLongElementIsFollowedToItsEnd() throws {
        let long = String(repeating: "ab", count: 8_000)
        let strings = try Self.unique(.string(StringNode(pattern: "(ab)*")))
        var decoder = try Self.decoder(strings, after: #"[""# + long + #"",""# + long)
        let mask = decoder.allowedTokens()
        #expect(!mask.contains(ToyVocabulary.token("\"")))
        #expect(!mask.contains(ToyVocabulary.token("\"]")))
        #expect(mask.contains(ToyVocabulary.token("ab")))
        #expect(mask.contains(ToyVocabulary.token("a")))
    }

    @Test func anEnumValueThatIsTakenCannotBeStarted() throws {
        let choices = try Self.unique(.string(StringNode(choices: ["ab", "name"])))
        var decoder = try Self.decoder(choices, after: #"["ab",""#)
        let mask = decoder.allowedTokens()
        #expect(!mask.contains(ToyVocabulary.token("ab")))
        #expect(!mask.contains(ToyVocabulary.token("a")))
        #expect(mask.contains(ToyVocabulary.token("name")))
        // Forced: the only value left.
        #expect(String(decoding: decoder.forcedBytes(), as: UTF8.self) == #"name"]"#)
    }

    @Test func theShortestCompletionWritesNewValues() throws {
        let strings = try Self.unique(.string(StringNode(maximumLength: 3)), minimum: 3)
        var decoder = try Self.decoder(strings, after: #"["a",""#)
        let completion = String(decoding: decoder.completionTokens()!.flatMap { ToyVocabulary.make.tokens[Int($0)] }, as: UTF8.self)
        #expect(completion == #"","b"]"#)
        let integers = try Self.unique(.integer(NumberNode(minimum: 0, maximum: 9)), minimum: 3)
        var fresh = try Self.decoder(integers, after: "[0,1")
        let rest = String(decoding: fresh.completionTokens()!.flatMap { ToyVocabulary.make.tokens[Int($0)] }, as: UTF8.self)
        #expect(rest == ",2]")
        #expect(accepts(integers, "[0,1" + rest))
    }

    /// Choices that begin one another, written in a shuffled order until
    /// none is left: before each element, exactly the choices not yet
    /// written can be, and a comma is refused once all are. (What an
    /// array answered carries over to the array one element longer; this
    /// checks it against the values themselves, element after element.)
    @Test(arguments: [1, 2, 3])
    func everyChoiceUntilItIsTaken(_ seed: Int) throws {
        let choices = ["a", "ab", "abc", "b", "ba", "name", "nam", "n", "x", "ab c", "é", "éa", "12", "1"]
        let constraint = try Self.unique(.string(StringNode(choices: choices)))
        var random = SplitMix(state: UInt64(seed))
        var order = choices
        order.shuffle(using: &random)
        var decoder = try Self.decoder(constraint, after: "[")
        for (index, next) in order.enumerated() {
            let written = Set(order[..<index])
            for choice in choices {
                var copy = decoder
                let accepted = copy.accept(bytes: Array("\"\(choice)\"".utf8))
                #expect(accepted == !written.contains(choice), "\(choice) after \(order[..<index])")
            }
            let wrote = decoder.accept(bytes: Array("\"\(next)\"".utf8))
            try #require(wrote)
            var comma = decoder
            let more = comma.accept(bytes: Array(",".utf8))
            #expect(more == (index < order.count - 1), "a comma after \(index + 1) of \(order.count)")
            if more { decoder = comma }
        }
        let closed = decoder.accept(bytes: Array("]".utf8))
        #expect(closed)
    }

    @Test func tooFewValuesForTheMinimumIsUnsatisfiable() throws {
        #expect(throws: GuidedGenerationError.self) { try Self.unique(.boolean, minimum: 3) }
        #expect(throws: Never.self) { try Self.unique(.boolean, minimum: 2) }
        // Objects cannot be compared as they are written.
        #expect(throws: GuidedGenerationError.self) { try Self.unique(.object(ObjectNode(properties: []))) }
    }
}
