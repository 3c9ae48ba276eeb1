import Testing

@testable import GuidedGeneration

/// A leaf's masks against each token read by itself, byte by byte, from the
/// same state: whichever trie the walk reads (the tokens' bytes or their
/// shapes, ``ByteShape``) and whatever subtrees it takes whole (bytes that
/// all loop, text that cannot close the string soon), it finds what every
/// token does alone — stays inside, closes the leaf exactly, goes on past
/// it, or dies — and, for a counted string, the characters it writes.
@Suite("Leaf masks")
struct LeafMasksTests {
    /// Thousands of tokens drawn from pieces that matter to string
    /// automata (letters of each shape class, spaces, quotes, escapes,
    /// separators, characters of two and three bytes and their halves), so
    /// the tries have subtrees large enough for the walk's shortcuts, some
    /// that leave the leaf deep inside and some that never do.
    static let vocabulary: TokenVocabulary = {
        let pieces: [[UInt8]] =
            [
                "a", "b", "x", "K", "F", "_", "1", "@", "/", "=", ",", "-", ".", " ", "  ", "\"", "\\n", "\\\"", "\\u00e9", "é", "£", "日",
                "}", "]", "g", "z",
            ].map { Array($0.utf8) } + [[0xC3], [0xA9], [0xE6, 0x97], [0xA5], [0x7F], [0x09]]
        var random = SplitMix(state: 29)
        var seen = Set<[UInt8]>()
        var tokens: [[UInt8]] = []
        func add(_ token: [UInt8]) {
            if seen.insert(token).inserted { tokens.append(token) }
        }
        for byte in UInt8(32)..<127 { add([byte]) }
        for piece in pieces { add(piece) }
        while tokens.count < 4000 {
            let length = 2 + Int(random.next() % 9)
            // Mostly letters, so that long runs of bytes that stay inside
            // a pattern share subtrees.
            add(
                (0..<length).flatMap { _ in
                    random.next() % 3 == 0 ? pieces[Int(random.next() % UInt64(pieces.count))] : pieces[Int(random.next() % 5)]
                })
        }
        return TokenVocabulary(tokens: tokens, endOfGeneration: [])
    }()

    static let strings: [(name: String, node: StringNode)] = [
        ("an address", StringNode(pattern: #"\S+@\S+"#)),
        ("an address, counted", StringNode(pattern: #"\S+@\S+"#, minimumLength: 3, maximumLength: 9)),
        ("assignments", StringNode(pattern: #"(K_\w+=\S+)*(\sK_\w+=\S+)*"#)),
        ("a path", StringNode(pattern: "(/[^/]+)+")),
        ("words, counted", StringNode(pattern: #"(?:\S+\s+){0,4}\S+"#, maximumLength: 30)),
        ("no commas or quotes, counted", StringNode(pattern: #"[^,"]+"#, maximumLength: 12)),
        ("characters of several bytes, counted", StringNode(pattern: "[a-cé日]+", minimumLength: 2, maximumLength: 7)),
        ("a pound sign among letters", StringNode(pattern: "[A-Za-z £]{1,8}")),
        ("a hash", StringNode(pattern: "[^:]+:[a-fA-F0-9]+|[a-fA-F0-9]{8}")),
        ("escapes, counted", StringNode(pattern: #"[a\n"]+"#, minimumLength: 2, maximumLength: 5)),
        ("a search", StringNode(searchPatterns: ["b@x"])),
        // Text kills it only with the `x` of `b@x`: subtrees without one
        // are taken whole by their bytes, whatever their height (in the
        // shape trie, without a letter of `x`'s class).
        ("no search, and none of two names", StringNode(excludedValues: ["xb", "K_x"], excludedPatterns: ["b@x"])),
        ("a short counter", StringNode(pattern: ".{0,12}")),
        ("the free string, counted", StringNode(minimumLength: 1, maximumLength: 20)),
        ("the free string", StringNode()),
    ]

    @Test(arguments: strings.indices)
    func everyTokenAsIfReadAlone(_ index: Int) throws {
        let (name, node) = Self.strings[index]
        // Counted beside the automaton whatever its size.
        let grammar = try GrammarCompiler.compile(root: .string(node), definitions: [], countedStates: 0)
        var checked = 0
        for leaf in grammar.leaves.indices {
            guard let automaton = grammar.closedAutomaton(Int32(leaf)) else { continue }
            let characters = grammar.characterCounts(Int32(leaf))
            let splits = ByteShape.splits(automaton)
            for state in 0..<Int32(automaton.stateCount) {
                let expected = Self.readAlone(automaton, from: state, characters: characters)
                for shapes in [nil, splits] {
                    for reach in characters == nil ? Self.reaches(automaton) : [nil] {
                        let masks = LeafMasks(
                            automaton: automaton, state: state, vocabulary: Self.vocabulary, characters: characters,
                            textReach: reach, shapeSplits: shapes
                        )
                        let found = Self.Outcome(masks, vocabulary: Self.vocabulary)
                        #expect(found == expected, "\(name), leaf \(leaf), state \(state), \(shapes == nil ? "bytes" : "shapes")")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 0)
    }

    /// The trie of shapes merged from the byte trie is the trie of the
    /// tokens' shapes built afresh: the same nodes in the same order, each
    /// with the same byte, depth, subtree and tokens; and it is smaller.
    /// The vocabulary's masks by automaton hold at most their budget of
    /// bytes: past it, each new state's masks take the place of kept ones
    /// (emptied at once, the cache freed thousands of masks inside one
    /// mask), and what a decoder allows stays what it allowed, from masks
    /// kept patched or walked afresh.
    @Test func masksByAutomatonStayWithinBudget() throws {
        let budget = 48 << 10
        let vocabulary = TokenVocabulary(tokens: Self.vocabulary.tokens, endOfGeneration: [], automatonMaskBudget: budget)
        func allowedAfterQuote(_ pattern: String) throws -> TokenMask {
            let constraint = try TokenConstraint(root: .string(StringNode(pattern: pattern)), definitions: [], vocabulary: vocabulary)
            var decoder = constraint.makeDecoder()
            let opened = decoder.accept(bytes: Array("\"".utf8))
            try #require(opened)
            return decoder.allowedTokens()
        }
        let first = try allowedAfterQuote("x0[a-z]+")
        #expect(try allowedAfterQuote("x0[a-z]+").tokens == first.tokens, "found kept")
        var most = 0
        for index in 1...400 {
            _ = try allowedAfterQuote("x\(index)[a-z]+")
            let (count, bytes) = vocabulary.automatonMasks.withLock { ($0.count, $0.byteCount) }
            #expect(bytes <= budget)
            most = max(most, count)
        }
        // It filled, and dropped some: 400 states' masks do not fit.
        #expect(most > 20 && vocabulary.automatonMasks.withLock { $0.count } < 400)
        #expect(try allowedAfterQuote("x0[a-z]+").tokens == first.tokens)
        #expect(!first.tokens.isEmpty)
    }

    /// A mask patched against no token, the text tokens, or neither, comes
    /// back as it was, and a mask like either is kept in a few of its words.
    @Test func patchedMasksComeBackWhole() {
        let text = Self.vocabulary.textTokens
        let count = text.count
        var random = SplitMix(state: 41)
        var sparse = TokenMask(count: count)
        for _ in 0..<3 { sparse.insert(Int32(random.next() % UInt64(count))) }
        var nearlyText = text
        nearlyText.remove(text.tokens[0])
        nearlyText.insert(Int32(count - 1))
        var scattered = TokenMask(count: count)
        for token in 0..<Int32(count) where random.next() % 2 == 0 { scattered.insert(token) }
        for mask in [sparse, nearlyText, scattered, TokenMask(count: count), text] {
            let patched = PatchedMask(mask, text: text)
            #expect(patched.expanded(text: text) == mask)
            #expect(patched.byteCount <= mask.words.count * 8 * 3 / 2)
        }
        #expect(PatchedMask(sparse, text: text).byteCount <= 3 * 12)
        #expect(PatchedMask(nearlyText, text: text).byteCount <= 2 * 12)
    }

    @Test func shapeTrieIsTheTrieOfShapes() {
        let merged = Self.vocabulary.shapeTrie
        let built = TokenTrie(tokens: Self.vocabulary.tokens.map(ByteShape.shape(of:)))
        #expect(merged.nodeCount == built.nodeCount)
        #expect(merged.nodeCount < Self.vocabulary.trie.nodeCount)
        for node in 0..<Int32(min(merged.nodeCount, built.nodeCount)) {
            #expect(merged.depth(node) == built.depth(node) && merged.subtreeEndNode(node) == built.subtreeEndNode(node), "node \(node)")
            #expect(merged.children(of: node).map(merged.childByte(at:)) == built.children(of: node).map(built.childByte(at:)), "node \(node)")
            var tokens: (merged: Set<Int32>, built: Set<Int32>) = ([], [])
            merged.forEachToken(endingAt: node) { tokens.merged.insert($0) }
            built.forEachToken(endingAt: node) { tokens.built.insert($0) }
            #expect(tokens.merged == tokens.built, "node \(node)")
        }
    }

    /// Which classes a state splits: none in the free string's text, a
    /// hexadecimal counter's or a pattern's past its literal letters; both
    /// lowercase classes inside an escape (`b` from `a`, `n` from `x`), `x`
    /// from the other letters before a literal `x`, and `£` from other
    /// two-byte characters.
    @Test func classesThatStatesSplit() throws {
        func splits(_ automaton: ByteDFA, after text: String) throws -> ByteSet {
            let state = automaton.walk(Array(text.utf8), from: automaton.start)
            try #require(state != ByteDFA.dead, "\(text)")
            let words = ByteShape.splits(automaton)
            guard !words.isEmpty else { return ByteSet() }
            let row = Int(state) * 4
            return ByteSet(words: (words[row], words[row + 1], words[row + 2], words[row + 3]))
        }
        func splits(_ node: StringNode, after text: String) throws -> ByteSet {
            let grammar = try GrammarCompiler.compile(root: .string(node), definitions: [], countedStates: 0)
            let leaf = try #require(grammar.leaves.indices.last { grammar.closedAutomaton(Int32($0)) != nil })
            return try splits(#require(grammar.closedAutomaton(Int32(leaf))), after: text)
        }
        func classes(_ bytes: String) -> ByteSet {
            var set = ByteSet()
            for byte in bytes.utf8 { set.insert(byte) }
            return set
        }
        var twoByteLead = ByteSet()
        twoByteLead.insert(0xC2)
        #expect(try splits(ByteDFA.anyJSONString, after: "\"ab") == ByteSet())
        #expect(try splits(ByteDFA.anyJSONString, after: "\"ab\\") == classes("ag"))
        #expect(try splits(StringNode(pattern: "[0-9a-f]+"), after: "\"") == ByteSet())
        #expect(try splits(StringNode(pattern: "x[a-z]+"), after: "\"") == classes("g"))
        #expect(try splits(StringNode(pattern: "x[a-z]+"), after: "\"x") == ByteSet())
        #expect(try splits(StringNode(pattern: "[a-z£]+"), after: "\"") == twoByteLead)
    }

    /// What a leaf's masks say, in a form to compare: sets, and the
    /// counted lists sorted as the walk promises.
    struct Outcome: Equatable {
        var always: Set<Int32> = []
        var closers: Set<Int32> = []
        var exits: Set<[Int32]> = []
        var fewest: Set<[Int32]> = []
        var most: Set<[Int32]> = []
        var sorted = true

        init() {}

        init(_ masks: LeafMasks, vocabulary: TokenVocabulary) {
            always = Set(masks.always.tokens)
            closers = Set(masks.closers)
            exits = Set(masks.exits.map { [$0.token, $0.offset, $0.characters] })
            fewest = Set(masks.alwaysByFewest.map { [$0.token, $0.characters] })
            most = Set(masks.alwaysByMost.map { [$0.token, $0.characters] })
            sorted =
                zip(masks.alwaysByFewest, masks.alwaysByFewest.dropFirst()).allSatisfy { $0.characters >= $1.characters }
                && zip(masks.alwaysByMost, masks.alwaysByMost.dropFirst()).allSatisfy { $0.characters <= $1.characters }
            // Exits grouped by the byte after the leaf.
            for byte in 0..<256 {
                for exit in masks.exits[Int(masks.exitStart[byte])..<Int(masks.exitStart[byte + 1])] {
                    sorted = sorted && vocabulary.tokens[Int(exit.token)][Int(exit.offset)] == UInt8(byte)
                }
            }
        }
    }

    /// The ways a walk may judge a subtree's text: not at all, by
    /// ``LeafMasks/textReach(_:)`` whole, and by its ending bytes alone
    /// (every distance zero, so no subtree is short enough).
    static func reaches(_ automaton: ByteDFA) -> [LeafMasks.TextReach?] {
        guard let reach = LeafMasks.textReach(automaton) else { return [nil] }
        var endingsOnly = reach
        endingsOnly.distances = [Int32](repeating: 0, count: reach.distances.count)
        return [nil, reach, endingsOnly]
    }

    /// Every token read by itself from `state`.
    static func readAlone(_ automaton: ByteDFA, from state: Int32, characters: CharacterCounts?) -> Outcome {
        var outcome = Outcome()
        for (id, bytes) in vocabulary.tokens.enumerated() where !bytes.isEmpty {
            let token = Int32(id)
            var current = state
            var written: Int32 = 0
            func staysWith(_ end: Int32) {
                outcome.always.insert(token)
                guard let characters else { return }
                let fewest = written + Int32(characters.fewest[Int(end)])
                if fewest > 0 { outcome.fewest.insert([token, fewest]) }
                if characters.most[Int(end)] != CharacterCounts.unlimited {
                    outcome.most.insert([token, written + Int32(characters.most[Int(end)])])
                }
            }
            for (index, byte) in bytes.enumerated() {
                let next = automaton.next(current, byte)
                guard next != ByteDFA.dead else { break }
                if let characters, characters.startsCharacter[Int(current)], CharacterCounts.startsCharacter(byte) { written += 1 }
                if automaton.isFinal(next) {
                    if index == bytes.count - 1 {
                        staysWith(next)
                        outcome.closers.insert(token)
                    } else {
                        outcome.exits.insert([token, Int32(index + 1), characters == nil ? 0 : written])
                    }
                    break
                }
                current = next
                if index == bytes.count - 1 { staysWith(next) }
            }
        }
        return outcome
    }
}
