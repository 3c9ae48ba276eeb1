import Testing

@testable import GuidedGeneration

extension OnDeviceTests {
    /// The mask walk over the tokens' shapes (``ByteShape``), over the
    /// real vocabulary: from the states of patterns that real schemas use
    /// (addresses, assignments, paths, word counts, hashes, a character
    /// class with `£`, a search), counted and not, the masks are those of
    /// the walk over the tokens' bytes, including where a state splits a
    /// class and the walk reads bytes; and the shape trie is a fraction of
    /// the byte trie.
    @Suite("Mask walks over token shapes")
    struct ShapeWalks {
        /// Patterns, and for some whether one of their first states
        /// splits a class, so that the comparison covers walks that read
        /// bytes below a shape (a state inside an escape splits letters, so
        /// most patterns have one).
        static let strings: [(node: StringNode, splits: Bool?)] = [
            (StringNode(), nil),
            (StringNode(pattern: #"\S+@\S+"#), nil),
            (StringNode(pattern: #"(KONG_\w+=\S+)*(\sKONG_\w+=\S+)*"#), true),
            (StringNode(pattern: "(/[^/]+)+"), nil),
            (StringNode(pattern: #"[^,"]+"#, maximumLength: 255), nil),
            (StringNode(pattern: #"(?:\S+\s+){0,9}\S+"#, maximumLength: 100), nil),
            (StringNode(pattern: "[^:]+:[a-fA-F0-9]+|[a-fA-F0-9]{32}"), nil),
            (StringNode(pattern: "[A-Za-z0-9 &'()*,./@£-]{1,32}"), true),
            (StringNode(searchPatterns: ["customer"]), true),
        ]

        @Test(arguments: strings.indices)
        func sameMasksAsTheBytes(_ index: Int) async throws {
            let vocabulary = try await GuidedProperties.vocabulary()
            let (node, splitting) = Self.strings[index]
            let grammar = try GrammarCompiler.compile(root: .string(node), definitions: [], countedStates: 0)
            var split = 0
            // The string's own leaf (the free string's is shared).
            let own: SharedLeaf? = node == StringNode() ? .anyString : nil
            for leaf in grammar.leaves.indices where grammar.sharedLeaf(Int32(leaf)) == own {
                guard let automaton = grammar.closedAutomaton(Int32(leaf)) else { continue }
                let characters = grammar.characterCounts(Int32(leaf))
                let splits = ByteShape.splits(automaton)
                for state in 0..<Int32(min(automaton.stateCount, 24)) {
                    let shapes = LeafMasks(automaton: automaton, state: state, vocabulary: vocabulary, characters: characters, shapeSplits: splits)
                    let bytes = LeafMasks(automaton: automaton, state: state, vocabulary: vocabulary, characters: characters)
                    #expect(shapes.always == bytes.always, "\(node), state \(state): always")
                    #expect(Set(shapes.closers) == Set(bytes.closers), "\(node), state \(state): closers")
                    #expect(
                        Set(shapes.exits.map { [$0.token, $0.offset, $0.characters] })
                            == Set(bytes.exits.map { [$0.token, $0.offset, $0.characters] }))
                    #expect(shapes.exitStart == bytes.exitStart, "\(node), state \(state): exits by byte")
                    #expect(
                        Set(shapes.alwaysByFewest.map { [$0.token, $0.characters] }) == Set(bytes.alwaysByFewest.map { [$0.token, $0.characters] }))
                    #expect(Set(shapes.alwaysByMost.map { [$0.token, $0.characters] }) == Set(bytes.alwaysByMost.map { [$0.token, $0.characters] }))
                    if !splits.isEmpty, splits[Int(state) * 4..<Int(state) * 4 + 4].contains(where: { $0 != 0 }) { split += 1 }
                }
            }
            if let splitting { #expect((split > 0) == splitting, "\(node): \(split) of its first states split a class") }
        }

        @Test func theShapeTrieIsAFractionOfTheByteTrie() async throws {
            let vocabulary = try await GuidedProperties.vocabulary()
            #expect(
                vocabulary.shapeTrie.nodeCount * 3 < vocabulary.trie.nodeCount,
                "\(vocabulary.shapeTrie.nodeCount) shapes, \(vocabulary.trie.nodeCount) nodes")
        }
    }
}
