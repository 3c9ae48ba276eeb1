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
    /// For node `n`, the range `subtreeTokens[subtreeStart[n] ..< subtreeEnd[n]]`
    /// holds every token at or below it (tokens laid out in depth-first order).
    private(set) var subtreeStart: [Int32]
    private(set) var subtreeEnd: [Int32]

    package var nodeCount: Int { firstChild.count - 1 }

    /// Builds the trie of `tokens` (token id = index); empty tokens are left out.
    package init(tokens: [[UInt8]]) {
        // Sort ids by their bytes so that children come out grouped and the
        // depth-first order of tokens is the sorted order.
        let ids = tokens.indices.filter { !tokens[$0].isEmpty }.sorted { lhs, rhs in
            tokens[lhs].lexicographicallyPrecedes(tokens[rhs])
        }
        // Build with per-node child lists, then flatten breadth-first.
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
        // Renumber breadth-first so each node's children are contiguous.
        var order: [Int32] = [0]
        var newIndex = [Int32](repeating: 0, count: children.count)
        var cursor = 0
        while cursor < order.count {
            let node = Int(order[cursor])
            newIndex[node] = Int32(cursor)
            cursor += 1
            for (_, child) in children[node] { order.append(child) }
        }
        firstChild = []
        childBytes = []
        childNodes = []
        firstToken = []
        tokenList = []
        firstChild.reserveCapacity(order.count + 1)
        firstToken.reserveCapacity(order.count + 1)
        for old in order {
            firstChild.append(Int32(childBytes.count))
            for (byte, child) in children[Int(old)] {
                childBytes.append(byte)
                childNodes.append(newIndex[Int(child)])
            }
            firstToken.append(Int32(tokenList.count))
            tokenList.append(contentsOf: ending[Int(old)])
        }
        firstChild.append(Int32(childBytes.count))
        firstToken.append(Int32(tokenList.count))
        // Subtree ranges over a depth-first listing of tokens.
        var subtreeTokens: [Int32] = []
        subtreeTokens.reserveCapacity(ids.count)
        subtreeStart = [Int32](repeating: 0, count: order.count)
        subtreeEnd = [Int32](repeating: 0, count: order.count)
        var stack: [(node: Int32, expanded: Bool)] = [(0, false)]
        var renumberedChildren: [Int32] = []
        while let (node, expanded) = stack.popLast() {
            if expanded {
                subtreeEnd[Int(node)] = Int32(subtreeTokens.count)
                continue
            }
            subtreeStart[Int(node)] = Int32(subtreeTokens.count)
            for index in Int(firstToken[Int(node)])..<Int(firstToken[Int(node) + 1]) {
                subtreeTokens.append(tokenList[index])
            }
            stack.append((node, true))
            renumberedChildren.removeAll(keepingCapacity: true)
            for index in Int(firstChild[Int(node)])..<Int(firstChild[Int(node) + 1]) {
                renumberedChildren.append(childNodes[index])
            }
            for child in renumberedChildren.reversed() { stack.append((child, false)) }
        }
        self.subtreeTokens = subtreeTokens
        // The bytes below each node, bottom-up (children have higher
        // numbers than their parent), shared between nodes with equal sets.
        let nodeCount = order.count
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
    }

    /// For node `n`, `alphabets[subtreeAlphabet[n]]` is every byte of every
    /// token below it after its prefix: a leaf state that loops on all of
    /// them keeps every such token inside the leaf, without walking them.
    private(set) var alphabets: [ByteSet]
    private(set) var subtreeAlphabet: [Int32]

    /// The bytes that follow `node`'s prefix in the tokens below it.
    @inline(__always)
    package func bytesBelow(_ node: Int32) -> ByteSet { alphabets[Int(subtreeAlphabet[Int(node)])] }

    private(set) var subtreeTokens: [Int32]

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
        for index in Int(subtreeStart[Int(node)])..<Int(subtreeEnd[Int(node)]) { body(subtreeTokens[index]) }
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

    @inline(__always)
    package func isSubset(of other: ByteSet) -> Bool {
        words.0 & ~other.words.0 == 0 && words.1 & ~other.words.1 == 0 && words.2 & ~other.words.2 == 0 && words.3 & ~other.words.3 == 0
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
