@testable import GuidedGeneration
import Testing

extension OnDeviceTests {
    /// The mask walk over the tokens' shapes (``ByteShape``), over the
    /// real vocabulary: from the states of patterns that real schemas use
    /// (addresses, assignments, paths, word counts, hashes, a character
    /// class with `£`, a search), counted and not, the masks are those of
    /// the walk over the tokens' bytes; and the shape trie is a fraction
    /// of the byte trie.
    @Suite("Mask walks over token shapes")
    struct ShapeWalks {
        /// Patterns, and whether some of their first states are walked by
        /// shape: none where every state can reach one that tells `£` from
        /// other characters, or `K` from other letters (one space away in
        /// the assignments); a search names letters until it has matched.
        static let strings: [(node: StringNode, byShape: Bool?)] = [
            (StringNode(), true),
            (StringNode(pattern: #"\S+@\S+"#), true),
            (StringNode(pattern: #"(KONG_\w+=\S+)*(\sKONG_\w+=\S+)*"#), false),
            (StringNode(pattern: "(/[^/]+)+"), true),
            (StringNode(pattern: #"[^,"]+"#, maximumLength: 255), true),
            (StringNode(pattern: #"(?:\S+\s+){0,9}\S+"#, maximumLength: 100), true),
            (StringNode(pattern: "[^:]+:[a-fA-F0-9]+|[a-fA-F0-9]{32}"), true),
            (StringNode(pattern: "[A-Za-z0-9 &'()*,./@£-]{1,32}"), false),
            (StringNode(searchPatterns: ["customer"]), nil),
        ]

        @Test(arguments: strings.indices)
        func sameMasksAsTheBytes(_ index: Int) async throws {
            let vocabulary = try await GuidedProperties.vocabulary()
            let (node, byShape) = Self.strings[index]
            let grammar = try GrammarCompiler.compile(root: .string(node), definitions: [], countedStates: 0)
            var compared = 0
            // The string's own leaf (the free string's is shared).
            let own: SharedLeaf? = node == StringNode() ? .anyString : nil
            for leaf in grammar.leaves.indices where grammar.sharedLeaf(Int32(leaf)) == own {
                guard let automaton = grammar.closedAutomaton(Int32(leaf)) else { continue }
                let characters = grammar.characterCounts(Int32(leaf))
                let walkable = ByteShape.walkableStates(automaton)
                for state in 0..<Int32(min(automaton.stateCount, 24)) where walkable[Int(state)] {
                    let shapes = LeafMasks(automaton: automaton, state: state, vocabulary: vocabulary, characters: characters, shapeWalkable: walkable)
                    let bytes = LeafMasks(automaton: automaton, state: state, vocabulary: vocabulary, characters: characters)
                    #expect(shapes.always == bytes.always, "\(node), state \(state): always")
                    #expect(Set(shapes.closers) == Set(bytes.closers), "\(node), state \(state): closers")
                    #expect(Set(shapes.exits.map { [$0.token, $0.offset, $0.characters] }) == Set(bytes.exits.map { [$0.token, $0.offset, $0.characters] }))
                    #expect(shapes.exitStart == bytes.exitStart, "\(node), state \(state): exits by byte")
                    #expect(Set(shapes.alwaysByFewest.map { [$0.token, $0.characters] }) == Set(bytes.alwaysByFewest.map { [$0.token, $0.characters] }))
                    #expect(Set(shapes.alwaysByMost.map { [$0.token, $0.characters] }) == Set(bytes.alwaysByMost.map { [$0.token, $0.characters] }))
                    if !automaton.isFinal(state) { compared += 1 }
                }
            }
            if let byShape { #expect((compared > 0) == byShape, "\(node): \(compared) states walked by shape") }
        }

        @Test func theShapeTrieIsAFractionOfTheByteTrie() async throws {
            let vocabulary = try await GuidedProperties.vocabulary()
            #expect(vocabulary.shapeTrie.nodeCount * 3 < vocabulary.trie.nodeCount, "\(vocabulary.shapeTrie.nodeCount) shapes, \(vocabulary.trie.nodeCount) nodes")
        }
    }
}
