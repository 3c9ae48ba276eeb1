import GuidedGeneration
import Testing

/// The mask is exactly the set of tokens the matcher accepts, whatever
/// shortcut computed it (leaf masks kept per state and their exits, counted
/// strings' character bounds, several readings at once, the trie walk):
/// at every step of random walks, each token is tried by itself on a copy
/// of the decoder and the two sets are compared.
@Suite("Masks are exact")
struct MaskExactnessTests {
    /// Single bytes, multi-byte characters (whole and split), escapes, and
    /// tokens that close a string and go on into the structure around it.
    static let vocabulary: TokenVocabulary = {
        var tokens: [[UInt8]] = (32..<127).map { [UInt8($0)] }
        let words = [
            "é", "日本", "ab", "abc", "abcd", "abcdefgh", "\\n", "\\\"", "\\u00e9", "\\u", "\",", "\"}", "\"]", "\",\"", "\":\"", "\":",
            "{\"", "},{", "é\"", "ab\"", "ab\",", "a\"}", "ab\"}]", "\"}]}", "12", "1,", "],", "true", "null", ",\"", "\":[\"", "é,",
            "abcdefghabcdefgh", "日本語の", "éab", "a3f", "3f9e", "ab c",
        ]
        tokens += words.map { Array($0.utf8) }
        tokens += [[0xC3], [0xA9], [0xE6, 0x97], [0xA5]]
        tokens.append([])
        return TokenVocabulary(tokens: tokens, endOfGeneration: [Int32(tokens.count - 1)])
    }()

    static let schemas: [(name: String, root: SchemaNode)] = [
        (
            "counted strings",
            .object(
                ObjectNode(properties: [
                    PropertyNode(name: "a", node: .string(StringNode(minimumLength: 2, maximumLength: 3))),
                    PropertyNode(name: "b", node: .string(StringNode(maximumLength: 1)), isOptional: true),
                    PropertyNode(name: "c", node: .array(ArrayNode(items: .string(StringNode(minimumLength: 3)), maximumCount: 3))),
                ]))
        ),
        (
            "free strings and numbers",
            .object(
                ObjectNode(properties: [
                    PropertyNode(name: "s", node: .string(StringNode())),
                    PropertyNode(name: "n", node: .integer(NumberNode(minimum: -5, maximum: 120))),
                    PropertyNode(name: "t", node: .array(ArrayNode(items: .string(StringNode()))), isOptional: true),
                ]))
        ),
        (
            "choices, patterns and unions",
            .anyOf([
                .object(
                    ObjectNode(properties: [
                        PropertyNode(name: "kind", node: .string(StringNode(constant: "ab"))),
                        PropertyNode(name: "v", node: .string(StringNode(pattern: "[a-c]{1,3}"))),
                    ])),
                .object(
                    ObjectNode(properties: [
                        PropertyNode(name: "kind", node: .string(StringNode(constant: "abc"))),
                        PropertyNode(name: "w", node: .anyOf([.string(StringNode(maximumLength: 2)), .null, .boolean])),
                    ])),
                .array(ArrayNode(items: .string(StringNode(choices: ["é", "ab", "日本"])), minimumCount: 1, maximumCount: 2)),
            ])
        ),
        ("free values", .object(ObjectNode(properties: [], additionalProperties: .any))),
        // Objects that must have a property though none is required, one
        // nested in the other: `{}` is refused at each level.
        (
            "a property required, none in particular",
            .object(
                ObjectNode(
                    properties: [
                        PropertyNode(
                            name: "a",
                            node: .object(
                                ObjectNode(
                                    properties: [
                                        PropertyNode(name: "b", node: .null, isOptional: true)
                                    ], additionalProperties: .boolean, requiresAProperty: true)), isOptional: true),
                        PropertyNode(name: "ab", node: .boolean, isOptional: true),
                    ], requiresAProperty: true))
        ),
        // Plain text through automata that move on it: a counter that
        // ends (tokens past its end are refused), a search that has not
        // matched yet (no quote until it has), words with a space; and
        // optional keys that share prefixes, declared out of byte order.
        (
            "plain text through counters and searches",
            .object(
                ObjectNode(properties: [
                    PropertyNode(name: "abc", node: .string(StringNode(pattern: ".{2,9}")), isOptional: true),
                    PropertyNode(name: "ab", node: .string(StringNode(searchPatterns: ["[0-9a-f]{3}"])), isOptional: true),
                    PropertyNode(name: "a", node: .string(StringNode(pattern: "[a-z]+ [a-z]{1,4}")), isOptional: true),
                    PropertyNode(name: "b", node: .string(StringNode(maximumLength: 4)), isOptional: true),
                    PropertyNode(name: "z", node: .boolean),
                ]))
        ),
        // Text taken a trie subtree at a time where no text as long as its
        // longest token can close or kill the string (a search not yet
        // matched, a counter far from its end), the other tokens below
        // read byte by byte: quotes that close the string part-way,
        // characters split between tokens, a search for a character that
        // is not ASCII.
        (
            "text a subtree at a time",
            .object(
                ObjectNode(properties: [
                    PropertyNode(name: "s", node: .string(StringNode(searchPatterns: ["é[a-c]"]))),
                    PropertyNode(name: "t", node: .string(StringNode(pattern: ".{0,12}"))),
                    PropertyNode(name: "u", node: .string(StringNode(searchPatterns: ["[0-9a-f]{4}"])), isOptional: true),
                ]))
        ),
        // A choice among the schema's own strings is one leaf (the union
        // of their automata); literals one of which begins another stay
        // apart.
        (
            "choices among strings",
            .object(
                ObjectNode(properties: [
                    PropertyNode(
                        name: "a",
                        node: .anyOf([
                            .string(StringNode(searchPatterns: ["ab"])), .string(StringNode(choices: ["é", "abcd"])),
                            .string(StringNode(pattern: "[0-9a-f]{2,3}")),
                        ])),
                    PropertyNode(
                        name: "b",
                        node: .array(ArrayNode(items: .anyOf([.literal("1"), .literal("12"), .string(StringNode(constant: "ab"))]), maximumCount: 3))),
                ]))
        ),
        (
            "distinct elements",
            .object(
                ObjectNode(properties: [
                    PropertyNode(
                        name: "t", node: .array(ArrayNode(items: .string(StringNode()), minimumCount: 2, maximumCount: 4, uniqueItems: true))),
                    PropertyNode(name: "e", node: .array(ArrayNode(items: .string(StringNode(choices: ["ab", "abc", "é"])), uniqueItems: true))),
                    PropertyNode(
                        name: "n", node: .array(ArrayNode(items: .integer(NumberNode(minimum: 1, maximum: 12)), minimumCount: 1, uniqueItems: true))),
                    PropertyNode(
                        name: "b", node: .array(ArrayNode(items: .anyOf([.boolean, .null, .literal("12")]), uniqueItems: true)), isOptional: true),
                ]))
        ),
    ]

    @Test(arguments: schemas.indices)
    func theMaskIsWhatTheMatcherAccepts(_ index: Int) throws {
        let (name, root) = Self.schemas[index]
        let constraint = try TokenConstraint(root: root, definitions: [], vocabulary: Self.vocabulary)
        Self.expectExactMasks(constraint, name: name)
    }

    /// Patterns and a search under length bounds, their characters
    /// counted beside their automata (compiled so even at these small
    /// bounds): characters of several bytes, escapes, tokens that close
    /// the string and go on, and bounds that a state can or cannot still
    /// meet.
    @Test func countedPatternsAreExact() throws {
        let root = SchemaNode.object(
            ObjectNode(properties: [
                PropertyNode(name: "a", node: .string(StringNode(pattern: "[a-cé\\n\"]+", minimumLength: 2, maximumLength: 5))),
                PropertyNode(name: "b", node: .string(StringNode(pattern: "[a-z]+@[a-z]+", minimumLength: 4, maximumLength: 7)), isOptional: true),
                PropertyNode(
                    name: "c", node: .array(ArrayNode(items: .string(StringNode(searchPatterns: ["[0-9a-f]{3}"], maximumLength: 6)), maximumCount: 2))
                ),
            ]))
        let grammar = try GrammarCompiler.compile(root: root, definitions: [], countedStates: 0)
        Self.expectExactMasks(TokenConstraint(grammar: grammar, vocabulary: Self.vocabulary), name: "patterns under length bounds")
    }

    /// The masks of a pattern's states are kept by the vocabulary, by
    /// automaton: a second schema with the same pattern, elsewhere in its
    /// structure, takes the first one's and they are still exact there
    /// (on a vocabulary of its own, so no other test has filled it).
    @Test func masksSharedBetweenSchemasStayExact() throws {
        let vocabulary = TokenVocabulary(tokens: Self.vocabulary.tokens, endOfGeneration: Self.vocabulary.endOfGeneration)
        let pattern = SchemaNode.string(StringNode(pattern: "[a-c]{2,4}"))
        let first = try TokenConstraint(
            root: .object(ObjectNode(properties: [PropertyNode(name: "v", node: pattern)])), definitions: [], vocabulary: vocabulary
        )
        let second = try TokenConstraint(
            root: .array(ArrayNode(items: pattern, minimumCount: 1, maximumCount: 3)), definitions: [], vocabulary: vocabulary
        )
        Self.expectExactMasks(first, name: "first schema", vocabulary: vocabulary)
        Self.expectExactMasks(second, name: "second schema", vocabulary: vocabulary)
    }

    /// Tokens that close a string and go on share their beginnings (`"}`,
    /// `"},`, `"}]`, `"}]}`…) and are judged together, a beginning the
    /// stack refuses ruling out every one that shares it; and the bytes a
    /// reading of the structure may take, once worked out, serve later
    /// steps and generations on other stacks (numbers that end inside
    /// arrays and objects at several depths, keys that come or do not).
    @Test func exitsThatShareBeginningsAndKeptFirstBytes() throws {
        var tokens: [[UInt8]] = (32..<127).map { [UInt8($0)] }
        let words = [
            "\"}", "\"},", "\"},{", "\"},{\"", "\"}]", "\"}]}", "\"}],", "\"}]]", "\",", "\",\"", "\",\"a", "\",\"b\":", "\"]", "\"],",
            "\"]]", "\"]}", "a\"}]", "ab\"},{\"", "1]", "1],", "1]}", "1}", "1},", "1,", "12]]", "\":[", "\":{\"", "{\"a\":",
        ]
        tokens += words.map { Array($0.utf8) }
        tokens.append([])
        let vocabulary = TokenVocabulary(tokens: tokens, endOfGeneration: [Int32(tokens.count - 1)])
        let number = SchemaNode.integer(NumberNode(minimum: 0, maximum: 99))
        let item = SchemaNode.object(
            ObjectNode(properties: [
                PropertyNode(name: "a", node: .string(StringNode())),
                PropertyNode(name: "b", node: .array(ArrayNode(items: number, maximumCount: 3)), isOptional: true),
            ]))
        let root = SchemaNode.object(
            ObjectNode(properties: [
                PropertyNode(name: "a", node: .array(ArrayNode(items: item, maximumCount: 3))),
                PropertyNode(
                    name: "b", node: .array(ArrayNode(items: .array(ArrayNode(items: number, minimumCount: 1)), maximumCount: 2)), isOptional: true),
            ]))
        let constraint = try TokenConstraint(root: root, definitions: [], vocabulary: vocabulary)
        Self.expectExactMasks(constraint, name: "exits that share beginnings", vocabulary: vocabulary)
    }

    /// Random walks from the start of `constraint`, comparing the mask with
    /// the tokens accepted one by one at every step.
    static func expectExactMasks(_ constraint: TokenConstraint, name: String, vocabulary: TokenVocabulary = vocabulary) {
        let count = vocabulary.count
        for seed in 0..<40 {
            var random = SplitMix(state: UInt64(seed))
            var decoder = constraint.makeDecoder()
            for _ in 0..<40 where !decoder.isComplete {
                let mask = decoder.allowedTokens()
                var accepted: [Int32] = []
                for token in 0..<Int32(count) {
                    var copy = decoder
                    if copy.accept(token) { accepted.append(token) }
                }
                let output = String(decoding: decoder.output, as: UTF8.self)
                let wrong = Set(mask.tokens).symmetricDifference(accepted).map { String(decoding: vocabulary.tokens[Int($0)], as: UTF8.self) }
                #expect(wrong.isEmpty, "\(name), seed \(seed), after \(output): the mask is wrong about \(wrong)")
                guard !accepted.isEmpty else { break }
                let token = accepted[Int(random.next() % UInt64(accepted.count))]
                _ = decoder.accept(token)
            }
        }
    }
}
