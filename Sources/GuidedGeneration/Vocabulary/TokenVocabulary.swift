import Synchronization

/// A model's vocabulary as the constraint engine sees it: each token's bytes,
/// the tokens that end generation, and the model's own tokenizer.
///
/// Exists so the engine never needs the model: tests build one from a GGUF
/// file's token list (or by hand), the llama.cpp model builds one from its
/// vocabulary. It is a class because it is built once per model and shared by
/// every constraint and generation, and because it owns the masks of leaf
/// states that do not depend on any schema (inside a free string), computed
/// once per process.
package final class TokenVocabulary: Sendable {
    /// Each token's bytes, by id. Empty for tokens the engine never emits
    /// (control and special tokens).
    package let tokens: [[UInt8]]
    /// Tokens that end generation; allowed only where the value may end.
    package let endOfGeneration: [Int32]
    package let trie: TokenTrie
    /// The trie of the tokens' shapes (``ByteShape``), which a leaf's walk
    /// from the root reads in place of ``trie``: about a sixth of its
    /// nodes at 151,936 tokens.
    package let shapeTrie: TokenTrie
    /// Text to tokens, the way the model tokenizes it (no special tokens).
    /// Returns nil if it cannot.
    package let tokenize: @Sendable ([UInt8]) -> [Int32]?
    /// Masks of states of the shared leaves (free strings, booleans, null):
    /// the free string's two common states from the start, the others on
    /// first use.
    let sharedLeafMasks = Mutex<[SharedLeafKey: LeafMasks]>([:])
    /// Masks of shared-leaf states for the tokens below one trie node (see
    /// ``TokenConstraint/subtreeMasks(leaf:state:node:)``).
    let sharedSubtreeMasks = Mutex<[SubtreeKey: LeafMasks]>([:])
    /// Masks of free-string states for strings that may take only a few
    /// more characters (see ``TokenConstraint/countedAlways(_:leaf:_:low:remaining:)``).
    let countedMasks = Mutex<[CountedKey: TokenMask]>([:])
    /// Masks of the states of schemas' own string automata (patterns,
    /// choice lists, formats, key sets), by what may follow the state
    /// (``ByteDFA/residual(from:)``): they depend on that, not on the
    /// schema, so a pattern or format that comes back in another schema,
    /// the same schema compiled again, or a key set's state past its
    /// declared names finds its masks here. Kept patched
    /// (``KeptLeafMasks``), within ``automatonMaskBudget`` bytes.
    let automatonMasks: Mutex<AutomatonMaskCache>
    /// 64 MiB: a third of what all of MaskBench's 42,540 such states'
    /// masks come to patched (about 190 MB), and enough to take a fifth
    /// off its masks over 50 µs (first visits that walk the vocabulary)
    /// against the 1,024 whole masks (20 MiB) kept before.
    package static let defaultAutomatonMaskBudget = 64 << 20
    /// Token ids, longest spelling first, and the byte length of each: a
    /// string that may take only `n` more characters allows no token
    /// spelling more than `n` bytes of it.
    let tokensByLength: [(token: Int32, length: Int32)]

    /// The tokens that are text a JSON string holds as it is (``TextPlace``:
    /// no quote, backslash or control character, UTF-8 that may stop
    /// part-way through a character), all but a few thousand: what a
    /// string allows in a state from which no text can close or kill it.
    let textTokens: TokenMask

    package var count: Int { tokens.count }

    /// Whether `token` is a token of this vocabulary that spells text (not
    /// empty, not an end-of-generation token): one the engine may force.
    package func spellsText(_ token: Int32) -> Bool {
        token >= 0 && Int(token) < tokens.count && !tokens[Int(token)].isEmpty && !endOfGeneration.contains(token)
    }

    /// - Parameters:
    ///   - tokens: each token's bytes, by id; empty for tokens never to emit.
    ///   - endOfGeneration: end-of-generation token ids.
    ///   - tokenize: the model's tokenizer; nil uses greedy longest match
    ///     over `tokens` (for tests without a model).
    ///   - automatonMaskBudget: the bytes ``automatonMasks`` may hold.
    package init(
        tokens: [[UInt8]], endOfGeneration: [Int32], tokenize: (@Sendable ([UInt8]) -> [Int32]?)? = nil,
        automatonMaskBudget: Int = defaultAutomatonMaskBudget
    ) {
        self.automatonMasks = Mutex(AutomatonMaskCache(byteBudget: automatonMaskBudget))
        self.tokens = tokens
        self.endOfGeneration = endOfGeneration.filter { $0 >= 0 && Int($0) < tokens.count }
        let trie = TokenTrie(tokens: tokens)
        self.trie = trie
        self.shapeTrie = TokenTrie(shapesOf: trie)
        self.tokenize = tokenize ?? { bytes in Self.longestMatch(bytes, trie: trie) }
        var text = TokenMask(count: tokens.count)
        var others = trie.nonTextPositions.makeIterator()
        var other = others.next().map(Int.init)
        for position in trie.positionsBelow(TokenTrie.root) {
            guard position != other else {
                other = others.next().map(Int.init)
                continue
            }
            text.insert(trie.token(at: position))
        }
        self.textTokens = text
        self.tokensByLength = tokens.indices.lazy.filter { tokens[$0].count > 1 }
            .map { (token: Int32($0), length: Int32(tokens[$0].count)) }
            .sorted { $0.length > $1.length }
        // The free string's masks before its opening quote and inside it,
        // which nearly every schema needs: worked out here, with the trie,
        // rather than on the first request that writes a string (a walk of
        // the whole vocabulary, the slowest mask a request would wait for).
        let string = ByteDFA.anyJSONString
        let splits = ByteShape.splits(string)
        var free: [SharedLeafKey: LeafMasks] = [:]
        for state in [string.start, string.next(string.start, UInt8(ascii: "\""))] {
            free[SharedLeafKey(leaf: .anyString, state: LeafState(low: UInt64(state)))] =
                LeafMasks(automaton: string, state: state, vocabulary: self, characters: .anyString, shapeSplits: splits)
        }
        sharedLeafMasks.withLock { $0 = free }
    }

    /// Greedy longest-match tokenization over the trie.
    package static func longestMatch(_ bytes: [UInt8], trie: TokenTrie) -> [Int32]? {
        var result: [Int32] = []
        var start = 0
        while start < bytes.count {
            var node = TokenTrie.root
            var best: (end: Int, token: Int32)?
            var index = start
            while index < bytes.count, let next = trie.child(of: node, byte: bytes[index]) {
                node = next
                index += 1
                trie.forEachToken(endingAt: node) { token in
                    if (best?.end ?? -1) < index { best = (index, token) }
                }
            }
            guard let found = best else { return nil }
            result.append(found.token)
            start = found.end
        }
        return result
    }
}

/// What may follow a state of a string automaton (its residual automaton,
/// started at 0) and the token-trie node a walk starts from (the root, or
/// a node whose prefix was read before the string).
struct AutomatonMaskKey: Hashable, Sendable {
    let residual: ByteDFA
    let node: Int32
    /// `residual`'s hash, worked out once: hashing an automaton reads all
    /// its tables.
    private let digest: Int

    init(residual: ByteDFA, node: Int32) {
        self.residual = residual
        self.node = node
        self.digest = residual.hashValue
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.digest == rhs.digest && lhs.node == rhs.node && lhs.residual == rhs.residual
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
        hasher.combine(node)
    }

    /// About what the key holds in memory, in bytes: its automaton's tables.
    var byteCount: Int { residual.transitions.count * 4 + residual.byteClasses.count + residual.flags.count + 64 }
}

/// A counted string's automaton state and how many more characters it may
/// take there.
struct CountedKey: Hashable, Sendable {
    var leaf: Int32
    var low: UInt64
    var remaining: Int32
}

/// Identifies a state of a leaf shared by every grammar over a vocabulary.
struct SharedLeafKey: Hashable, Sendable {
    var leaf: SharedLeaf
    var state: LeafState
}

/// A leaf state and a token-trie node: the tokens below the node, read
/// from that state once the node's prefix has been read.
struct SubtreeKey: Hashable, Sendable {
    var leaf: Int32
    var state: LeafState
    var node: Int32
}

/// The leaves every grammar has at fixed indices (see ``Grammar``).
enum SharedLeaf: Int32, Hashable, Sendable, CaseIterable {
    case anyString = 0
    case boolean = 1
    case null = 2
    case anyNumber = 3
}
