/// Every token of a vocabulary in a byte trie, flattened into arrays.
///
/// Exists because an allowed-token mask is computed by walking the trie
/// alongside the grammar: a byte the grammar rejects prunes every token that
/// starts with the bytes so far at once, so a restrictive position (a key, a
/// digit, a closing bracket) costs only the few nodes it can reach instead of
/// a pass over the whole vocabulary.
package struct TokenTrie: Sendable {
    /// Node 0 is the root (the empty prefix).
    package static let root: Int32 = 0

    /// For node `n`, its children are `childBytes[firstChild[n] ..< firstChild[n + 1]]`
    /// (sorted by byte) with the nodes `childNodes[…]` at the same indices.
    private(set) var firstChild: [Int32]
    private(set) var childBytes: [UInt8]
    private(set) var childNodes: [Int32]
    /// For node `n`, the tokens whose bytes are exactly its prefix:
    /// `tokenList[firstToken[n] ..< firstToken[n + 1]]`.
    private(set) var firstToken: [Int32]
    private(set) var tokenList: [Int32]
    /// The byte length of each token of ``tokenList``, at the same
    /// position: read in a run, where the tokens' own spellings would be a
    /// cache miss each.
    private(set) var tokenLengths: [Int32]
    /// For node `n`, `tokenList[firstToken[n] ..< subtreeEnd[n]]` holds
    /// every token at or below it (nodes, and so tokens, are in depth-first
    /// preorder).
    private(set) var subtreeEnd: [Int32]

    package var nodeCount: Int { firstChild.count - 1 }

    /// For a trie of shapes (``init(shapesOf:)``), the nodes of the byte
    /// trie that node `n` stands for: `sources[sourceStart[n] ..< sourceStart[n + 1]]`.
    /// Empty for a trie of bytes.
    private(set) var sourceStart: [Int32] = []
    private(set) var sources: [Int32] = []

    /// By node, in the depth-first preorder of the numbering: the byte on
    /// the edge into it, its depth (the length of its prefix) and the first
    /// node after its subtree. A walk over every node below one reads these
    /// front to back, jumping over a subtree it rules out, instead of
    /// keeping a stack of children to visit (see ``LeafMasks``).
    private(set) var nodeBytes: [UInt8]
    private(set) var nodeDepths: [Int32]
    private(set) var nodeEnds: [Int32]
    /// The longest token's length in bytes.
    package private(set) var maximumDepth: Int

    /// Builds the trie of `tokens` (token id = index); empty tokens are left out.
    package init(tokens: [[UInt8]]) {
        // Sort ids by their bytes so that children come out grouped and the
        // depth-first order of tokens is the sorted order.
        let ids = tokens.indices.filter { !tokens[$0].isEmpty }.sorted { lhs, rhs in
            tokens[lhs].lexicographicallyPrecedes(tokens[rhs])
        }
        // Build with per-node child lists, then flatten. The ids are sorted,
        // so nodes are created in depth-first preorder: a node's subtree is
        // the run of nodes after it, and a walk down the trie reads each
        // array front to back rather than jumping between levels, which
        // matters because the arrays outgrow the caches.
        var children: [[(UInt8, Int32)]] = [[]]
        var ending: [[Int32]] = [[]]
        for id in ids {
            var node = 0
            for byte in tokens[id] {
                if let last = children[node].last, last.0 == byte {
                    node = Int(last.1)
                } else {
                    let next = Int32(children.count)
                    children.append([])
                    ending.append([])
                    children[node].append((byte, next))
                    node = Int(next)
                }
            }
            ending[node].append(Int32(id))
        }
        self.init(children: children, ending: ending)
    }

    /// The trie of `trie`'s tokens' shapes (``ByteShape/shape(of:)``): the
    /// nodes of one shape merged, each new node's tokens those of the
    /// nodes merged into it, in preorder as they are made. No sort of the
    /// tokens: a node's children come out in byte order because its
    /// merged nodes' children are grouped by shape byte, each group's in
    /// byte order. Each node keeps the nodes of `trie` it stands for
    /// (``sourceStart``), for a walk that must read their bytes.
    package init(shapesOf trie: TokenTrie) {
        var children: [[(UInt8, Int32)]] = [[]]
        var ending: [[Int32]] = [[]]
        var sources: [[Int32]] = [[Self.root]]
        func make(_ merged: [Int32], raw: Bool) -> Int32 {
            let made = children.count - 1
            for node in merged {
                ending[made].append(contentsOf: trie.tokenList[Int(trie.firstToken[Int(node)])..<Int(trie.firstToken[Int(node) + 1])])
            }
            // (Shape byte, the child's byte, the child), grouped by shape.
            var below: [(shape: UInt8, byte: UInt8, node: Int32)] = []
            for node in merged {
                for index in trie.children(of: node) {
                    let byte = trie.childBytes[index]
                    below.append((raw ? byte : ByteShape.representative[Int(byte)], byte, trie.childNodes[index]))
                }
            }
            below.sort { ($0.shape, $0.byte) < ($1.shape, $1.byte) }
            var start = 0
            while start < below.count {
                var end = start + 1
                while end < below.count, below[end].shape == below[start].shape { end += 1 }
                let shape = below[start].shape
                children.append([])
                ending.append([])
                sources.append(below[start..<end].map(\.node))
                let child = make(sources[sources.count - 1], raw: raw || shape == UInt8(ascii: "\\"))
                children[made].append((shape, child))
                start = end
            }
            return Int32(made)
        }
        _ = make([Self.root], raw: false)
        self.init(children: children, ending: ending)
        sourceStart = [0]
        sourceStart.reserveCapacity(sources.count + 1)
        self.sources.reserveCapacity(trie.nodeCount)
        for merged in sources {
            self.sources.append(contentsOf: merged)
            sourceStart.append(Int32(self.sources.count))
        }
    }

    /// The flat tables of a trie given as each node's children (byte
    /// order) and tokens, its nodes numbered in depth-first preorder.
    private init(children: [[(UInt8, Int32)]], ending: [[Int32]]) {
        let nodeCount = children.count
        firstChild = []
        childBytes = []
        childNodes = []
        firstToken = []
        tokenList = []
        tokenLengths = []
        firstChild.reserveCapacity(nodeCount + 1)
        firstToken.reserveCapacity(nodeCount + 1)
        var nodeBytes = [UInt8](repeating: 0, count: nodeCount)
        var nodeDepths = [Int32](repeating: 0, count: nodeCount)
        for node in 0..<nodeCount {
            firstChild.append(Int32(childBytes.count))
            for (byte, child) in children[node] {
                childBytes.append(byte)
                childNodes.append(child)
                nodeBytes[Int(child)] = byte
                nodeDepths[Int(child)] = nodeDepths[node] + 1
            }
            firstToken.append(Int32(tokenList.count))
            tokenList.append(contentsOf: ending[node])
            tokenLengths.append(contentsOf: repeatElement(nodeDepths[node], count: ending[node].count))
        }
        firstChild.append(Int32(childBytes.count))
        firstToken.append(Int32(tokenList.count))
        // In preorder the tokens at or below a node follow its own in
        // `tokenList`, up to those of the first node after its subtree: the
        // one after its last child's subtree, found bottom-up.
        var endNode = [Int32](repeating: 0, count: nodeCount)
        for node in stride(from: nodeCount - 1, through: 0, by: -1) {
            let last = Int(firstChild[node + 1]) - 1
            endNode[node] = last >= Int(firstChild[node]) ? endNode[Int(childNodes[last])] : Int32(node + 1)
        }
        let tokenStarts = firstToken
        subtreeEnd = endNode.map { tokenStarts[Int($0)] }
        self.nodeBytes = nodeBytes
        self.nodeDepths = nodeDepths
        self.nodeEnds = endNode
        self.maximumDepth = Int(nodeDepths.max() ?? 0)
        // The bytes below each node, bottom-up (children have higher
        // numbers than their parent), shared between nodes with equal sets.
        var below = [ByteSet](repeating: ByteSet(), count: nodeCount)
        for node in stride(from: nodeCount - 1, through: 0, by: -1) {
            var set = ByteSet()
            for index in Int(firstChild[node])..<Int(firstChild[node + 1]) {
                set.insert(childBytes[index])
                set.formUnion(below[Int(childNodes[index])])
            }
            below[node] = set
        }
        var alphabets: [ByteSet] = []
        var alphabetIndex: [ByteSet: Int32] = [:]
        var subtreeAlphabet = [Int32](repeating: 0, count: nodeCount)
        for node in 0..<nodeCount {
            if let known = alphabetIndex[below[node]] {
                subtreeAlphabet[node] = known
            } else {
                alphabetIndex[below[node]] = Int32(alphabets.count)
                subtreeAlphabet[node] = Int32(alphabets.count)
                alphabets.append(below[node])
            }
        }
        self.alphabets = alphabets
        self.subtreeAlphabet = subtreeAlphabet
        // Heights bottom-up, places top-down (a parent comes before its
        // children in preorder).
        var heights = [UInt8](repeating: 0, count: nodeCount)
        for node in stride(from: nodeCount - 1, through: 0, by: -1) {
            var height = 0
            for index in Int(firstChild[node])..<Int(firstChild[node + 1]) {
                height = max(height, 1 + Int(heights[Int(childNodes[index])]))
            }
            heights[node] = UInt8(min(height, Int(UInt8.max)))
        }
        var places = [UInt8](repeating: TextPlace.notText, count: nodeCount)
        places[Int(Self.root)] = TextPlace.boundary
        var nonText: [Int32] = []
        for node in 0..<nodeCount {
            for index in Int(firstChild[node])..<Int(firstChild[node + 1]) {
                places[Int(childNodes[index])] = TextPlace.after(places[node], childBytes[index])
            }
            if places[node] == TextPlace.notText {
                nonText.append(contentsOf: firstToken[node]..<firstToken[node + 1])
            }
        }
        self.heights = heights
        self.places = places
        self.nonTextPositions = nonText
    }

    /// For node `n`, the most bytes any token below it has after its prefix
    /// (255 for 255 or more).
    private(set) var heights: [UInt8]
    /// For node `n`, where its prefix leaves a UTF-8 character when read as
    /// text a JSON string holds as it is (``TextPlace``), or
    /// ``TextPlace/notText`` when it is not such text.
    private(set) var places: [UInt8]
    /// The positions in `tokenList` of the tokens that are not text
    /// (``TextPlace``), ascending: the few a walk that takes a subtree's
    /// text whole must still read byte by byte.
    private(set) var nonTextPositions: [Int32]

    /// The most bytes a token below `node` has after its prefix; for 255 or
    /// more, `Int32.max - 1`, longer than any finite distance.
    @inline(__always)
    package func height(_ node: Int32) -> Int32 {
        let height = heights[Int(node)]
        return height == UInt8.max ? Int32.max - 1 : Int32(height)
    }

    /// Where `node`'s prefix leaves a character (``TextPlace``).
    @inline(__always)
    package func place(_ node: Int32) -> UInt8 { places[Int(node)] }

    /// The positions of the tokens strictly below `node` (longer than its
    /// prefix), for ``token(at:)``.
    @inline(__always)
    package func positionsBelow(_ node: Int32) -> Range<Int> {
        Int(firstToken[Int(node) + 1])..<Int(subtreeEnd[Int(node)])
    }

    @inline(__always) package func token(at position: Int) -> Int32 { tokenList[position] }

    /// The positions in `range` of tokens that are not text, ascending.
    package func nonTextPositions(in range: Range<Int>) -> ArraySlice<Int32> {
        var low = 0
        var high = nonTextPositions.count
        while low < high {
            let middle = (low + high) / 2
            if Int(nonTextPositions[middle]) < range.lowerBound { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < nonTextPositions.count, Int(nonTextPositions[end]) < range.upperBound { end += 1 }
        return nonTextPositions[low..<end]
    }

    /// For node `n`, `alphabets[subtreeAlphabet[n]]` is every byte of every
    /// token below it after its prefix: a leaf state that loops on all of
    /// them keeps every such token inside the leaf, without walking them.
    private(set) var alphabets: [ByteSet]
    private(set) var subtreeAlphabet: [Int32]

    /// The bytes that follow `node`'s prefix in the tokens below it.
    @inline(__always)
    package func bytesBelow(_ node: Int32) -> ByteSet { alphabets[Int(subtreeAlphabet[Int(node)])] }

    /// The tables a walk over the nodes in their numbering reads (see
    /// ``LeafMasks``), as buffers for the duration of `body`: a walk reads
    /// them hundreds of thousands of times, without bounds checks or
    /// reference counting this way.
    package struct WalkTables {
        /// ``nodeBytes``, ``nodeDepths``, ``nodeEnds``.
        let bytes: UnsafeBufferPointer<UInt8>
        let depths: UnsafeBufferPointer<Int32>
        let ends: UnsafeBufferPointer<Int32>
        /// ``firstToken``, ``tokenList``, ``tokenLengths``, ``subtreeEnd``.
        let firstToken: UnsafeBufferPointer<Int32>
        let tokenList: UnsafeBufferPointer<Int32>
        let tokenLengths: UnsafeBufferPointer<Int32>
        let subtreeEnd: UnsafeBufferPointer<Int32>
    }

    package func withWalkTables<Result>(_ body: (WalkTables) -> Result) -> Result {
        nodeBytes.withUnsafeBufferPointer { bytes in
            nodeDepths.withUnsafeBufferPointer { depths in
                nodeEnds.withUnsafeBufferPointer { ends in
                    firstToken.withUnsafeBufferPointer { firstToken in
                        tokenList.withUnsafeBufferPointer { tokenList in
                            tokenLengths.withUnsafeBufferPointer { tokenLengths in
                                subtreeEnd.withUnsafeBufferPointer { subtreeEnd in
                                    body(
                                        WalkTables(
                                            bytes: bytes, depths: depths, ends: ends, firstToken: firstToken, tokenList: tokenList,
                                            tokenLengths: tokenLengths, subtreeEnd: subtreeEnd
                                        ))
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The length of `node`'s prefix.
    @inline(__always) package func depth(_ node: Int32) -> Int32 { nodeDepths[Int(node)] }

    /// The first node after `node`'s subtree in the numbering.
    @inline(__always) package func subtreeEndNode(_ node: Int32) -> Int32 { nodeEnds[Int(node)] }

    /// The child of `node` along `byte`, if any.
    @inline(__always)
    package func child(of node: Int32, byte: UInt8) -> Int32? {
        var low = Int(firstChild[Int(node)])
        var high = Int(firstChild[Int(node) + 1])
        while low < high {
            let middle = (low + high) / 2
            let value = childBytes[middle]
            if value == byte { return childNodes[middle] }
            if value < byte { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// The index range of `node`'s children in ``childByte(at:)``/``childNode(at:)``.
    @inline(__always)
    package func children(of node: Int32) -> Range<Int> {
        Int(firstChild[Int(node)])..<Int(firstChild[Int(node) + 1])
    }

    @inline(__always) package func childByte(at index: Int) -> UInt8 { childBytes[index] }
    @inline(__always) package func childNode(at index: Int) -> Int32 { childNodes[index] }

    /// Whether any token is longer than `node`'s prefix and starts with it.
    @inline(__always)
    package func hasChildren(_ node: Int32) -> Bool {
        firstChild[Int(node)] < firstChild[Int(node) + 1]
    }

    /// Calls `body` with each token whose bytes are exactly `node`'s prefix.
    @inline(__always)
    package func forEachToken(endingAt node: Int32, _ body: (Int32) -> Void) {
        for index in Int(firstToken[Int(node)])..<Int(firstToken[Int(node) + 1]) { body(tokenList[index]) }
    }

    /// Calls `body` with every token at or below `node`.
    @inline(__always)
    package func forEachToken(inSubtree node: Int32, _ body: (Int32) -> Void) {
        for index in Int(firstToken[Int(node)])..<Int(subtreeEnd[Int(node)]) { body(tokenList[index]) }
    }

    /// The node reached by following `bytes` from `node`, or nil where the
    /// path leaves the trie.
    package func walk(from node: Int32 = TokenTrie.root, _ bytes: some Sequence<UInt8>) -> Int32? {
        var current = node
        for byte in bytes {
            guard let next = child(of: current, byte: byte) else { return nil }
            current = next
        }
        return current
    }
}

/// A set of bytes, as four words.
package struct ByteSet: Hashable, Sendable {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    package init() {}

    /// The bytes of `words`' set bits: byte `b` is bit `b & 63` of word `b >> 6`.
    package init(words: (UInt64, UInt64, UInt64, UInt64)) {
        self.words = words
    }

    /// The bytes of this set that are not in `other`.
    package func subtracting(_ other: ByteSet) -> ByteSet {
        ByteSet(words: (words.0 & ~other.words.0, words.1 & ~other.words.1, words.2 & ~other.words.2, words.3 & ~other.words.3))
    }

    @inline(__always)
    package mutating func insert(_ byte: UInt8) {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: words.0 |= bit
        case 1: words.1 |= bit
        case 2: words.2 |= bit
        default: words.3 |= bit
        }
    }

    @inline(__always)
    package mutating func formUnion(_ other: ByteSet) {
        words.0 |= other.words.0
        words.1 |= other.words.1
        words.2 |= other.words.2
        words.3 |= other.words.3
    }

    package var isEmpty: Bool { words.0 | words.1 | words.2 | words.3 == 0 }

    @inline(__always)
    package func contains(_ byte: UInt8) -> Bool {
        let word =
            switch byte >> 6 {
            case 0: words.0
            case 1: words.1
            case 2: words.2
            default: words.3
            }
        return word >> UInt64(byte & 63) & 1 != 0
    }

    @inline(__always)
    package func isSubset(of other: ByteSet) -> Bool {
        words.0 & ~other.words.0 == 0 && words.1 & ~other.words.1 == 0 && words.2 & ~other.words.2 == 0 && words.3 & ~other.words.3 == 0
    }

    @inline(__always)
    package func isDisjoint(with other: ByteSet) -> Bool {
        words.0 & other.words.0 == 0 && words.1 & other.words.1 == 0 && words.2 & other.words.2 == 0 && words.3 & other.words.3 == 0
    }

    package static func == (lhs: ByteSet, rhs: ByteSet) -> Bool {
        lhs.words == rhs.words
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}

/// Where a run of bytes leaves a UTF-8 character, for bytes that a JSON
/// string holds as they are: no quote, backslash or control character, and
/// well-formed UTF-8 (no overlong forms, surrogates or code points past
/// U+10FFFF), possibly ending part-way through a character.
///
/// Exists so a mask walk can tell, from a state of a string automaton, that
/// no such text of up to `n` bytes can close or kill the string (see
/// `LeafMasks`), and then take every text token of a trie subtree at once.
/// The places are those of a UTF-8 validator, so text never meets a byte
/// the automaton of well-formed strings would refuse.
package enum TextPlace {
    /// Between characters.
    package static let boundary: UInt8 = 0
    /// One continuation byte to go (80–BF).
    static let lastContinuation: UInt8 = 1
    /// After E0: A0–BF, then one more.
    static let afterE0: UInt8 = 2
    /// Two continuation bytes to go (80–BF each).
    static let twoContinuations: UInt8 = 3
    /// After ED: 80–9F (no surrogates), then one more.
    static let afterED: UInt8 = 4
    /// After F0: 90–BF, then two more.
    static let afterF0: UInt8 = 5
    /// Three continuation bytes to go (80–BF, then two more).
    static let threeContinuations: UInt8 = 6
    /// After F4: 80–8F (up to U+10FFFF), then two more.
    static let afterF4: UInt8 = 7
    /// How many places there are (indices into per-place tables).
    package static let count = 8
    /// Not text: a quote, backslash, control character or malformed UTF-8.
    package static let notText: UInt8 = 0xFF

    /// The place after `byte` read at `place`, or ``notText``.
    @inline(__always)
    package static func after(_ place: UInt8, _ byte: UInt8) -> UInt8 {
        switch place {
        case boundary:
            switch byte {
            case 0x20...0x7F where byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\"): return boundary
            case 0xC2...0xDF: return lastContinuation
            case 0xE0: return afterE0
            case 0xE1...0xEC, 0xEE...0xEF: return twoContinuations
            case 0xED: return afterED
            case 0xF0: return afterF0
            case 0xF1...0xF3: return threeContinuations
            case 0xF4: return afterF4
            default: return notText
            }
        case lastContinuation: return (0x80...0xBF).contains(byte) ? boundary : notText
        case afterE0: return (0xA0...0xBF).contains(byte) ? lastContinuation : notText
        case twoContinuations: return (0x80...0xBF).contains(byte) ? lastContinuation : notText
        case afterED: return (0x80...0x9F).contains(byte) ? lastContinuation : notText
        case afterF0: return (0x90...0xBF).contains(byte) ? twoContinuations : notText
        case threeContinuations: return (0x80...0xBF).contains(byte) ? twoContinuations : notText
        case afterF4: return (0x80...0x8F).contains(byte) ? twoContinuations : notText
        default: return notText
        }
    }
}
