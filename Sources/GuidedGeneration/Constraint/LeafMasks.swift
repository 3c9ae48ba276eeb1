/// What a vocabulary's tokens do from one state of a closed leaf (a string,
/// `true`/`false`, `null`), worked out once and reused at every step that
/// finds the leaf in that state.
///
/// Exists because inside a free string almost every token is allowed, so
/// walking the trie there would visit most of the vocabulary at each step.
/// A token either stays inside the leaf (or ends exactly at its closing
/// byte) — allowed whatever surrounds the leaf, so it goes in ``always`` —
/// or closes the leaf part-way through and goes on into the surrounding
/// structure (`",`, `"}`, `"]`): an *exit*, checked at each step against
/// the actual stack, grouped by the first byte after the leaf so whole
/// groups are ruled out by one step.
struct LeafMasks: Sendable {
    /// Tokens allowed from this state whatever follows the leaf.
    var always: TokenMask
    /// Exit tokens sorted by the first byte after the leaf; the tokens whose
    /// remainder starts with byte `b` are `exits[exitStart[b] ..< exitStart[b + 1]]`.
    var exits: [Exit]
    var exitStart: [Int32]
    /// The tokens of ``always`` that end exactly at the leaf's closing byte
    /// (`"`, `."`, `!"` for a string): with the valid exits, the tokens
    /// that finish the leaf in one step (see ``GuidedDecoder/closingTokens(into:)``).
    var closers: [Int32]

    /// For the free string's masks (``SharedLeaf/anyString``), what a
    /// length-bounded string (``Grammar/Leaf/counted``) needs: the
    /// characters each token writes inside the string. The tokens of
    /// ``always`` that write at least one character, most characters first;
    /// and the characters of each of ``closers``. (Exits carry their own.)
    var alwaysByCharacters: [(token: Int32, characters: Int32)] = []
    var closerCharacters: [Int32] = []

    struct Exit: Sendable {
        var token: Int32
        /// Index in the token's bytes of the first byte after the leaf.
        var offset: Int32
        /// The characters it writes inside the string before closing it
        /// (counted for the free string only).
        var characters: Int32 = 0
    }

    /// Walks the trie with the leaf's automaton alone from `state`: from
    /// the root, or — for the tokens below trie node `start` at `depth`,
    /// whose first `depth` bytes were read before the leaf reached `state`
    /// — from that node.
    ///
    /// `textDistances` (``textDistances(_:)`` of the leaf's automaton, for
    /// a leaf that is a plain string automaton) lets the walk take a
    /// subtree's text tokens at once where no text as long as they are can
    /// close or kill the string, and read only its other tokens byte by byte.
    init(grammar: Grammar, leaf: Int32, state: LeafState, vocabulary: TokenVocabulary, start: Int32 = TokenTrie.root, depth: Int32 = 0, textDistances: [Int32]? = nil) {
        let trie = vocabulary.trie
        var always = TokenMask(count: vocabulary.count)
        var exits: [Exit] = []
        var closers: [Int32] = []
        var closerCharacters: [Int32] = []
        var alwaysByCharacters: [(token: Int32, characters: Int32)] = []
        // Characters are counted as a counted string counts them (see
        // `Grammar.leafNext`): a byte read in the content state that is not
        // a UTF-8 continuation byte or the closing quote.
        let counts = leaf == SharedLeaf.anyString.rawValue && depth == 0
        let body = ByteDFA.anyJSONString.next(ByteDFA.anyJSONString.start, UInt8(ascii: "\""))
        // The bytes on which a state stays where it is: a subtree whose
        // bytes all loop keeps every token below inside the leaf.
        // (By automaton state: string leaves' states are small integers.)
        var loops: [ByteSet?] = []
        if case .string(let automaton) = grammar.leaves[Int(leaf)] { loops = Array(repeating: nil, count: automaton.stateCount) }
        func loopBytes(_ state: LeafState) -> ByteSet {
            let index = Int(state.low)
            guard state.high == 0, index < loops.count else { return ByteSet() }
            if let known = loops[index] { return known }
            var set = ByteSet()
            for byte in UInt8.min...UInt8.max where grammar.leafNext(leaf, state, byte) == state { set.insert(byte) }
            loops[index] = set
            return set
        }
        let spellings = vocabulary.tokens
        var stack: [(node: Int32, state: LeafState, depth: Int32, characters: Int32)] = [(start, state, depth, 0)]
        while let (node, current, depth, characters) = stack.popLast() {
            for index in trie.children(of: node) {
                let byte = trie.childByte(at: index)
                guard let next = grammar.leafNext(leaf, current, byte) else { continue }
                let written = counts && Int32(truncatingIfNeeded: current.low) == body && byte & 0xC0 != 0x80 && byte != UInt8(ascii: "\"") ? characters + 1 : characters
                let child = trie.childNode(at: index)
                trie.forEachToken(endingAt: child) { token in
                    always.insert(token)
                    if counts, written > 0 { alwaysByCharacters.append((token, written)) }
                }
                if grammar.leafIsFinal(leaf, next) {
                    trie.forEachToken(endingAt: child) { token in
                        closers.append(token)
                        closerCharacters.append(written)
                    }
                    // The leaf closes here; everything longer goes on past it.
                    for grandchild in trie.children(of: child) {
                        trie.forEachToken(inSubtree: trie.childNode(at: grandchild)) { token in
                            exits.append(Exit(token: token, offset: depth + 1, characters: written))
                        }
                    }
                } else if trie.hasChildren(child) {
                    // (A state that loops on no byte, as in a counter or a
                    // search, takes no subtree whole: its bytes are not read.)
                    if !counts || Int32(truncatingIfNeeded: next.low) == body, case let loop = loopBytes(next), !loop.isEmpty, trie.bytesBelow(child).isSubset(of: loop) {
                        // (Content bytes that loop are ASCII: one character each.)
                        for grandchild in trie.children(of: child) {
                            trie.forEachToken(inSubtree: trie.childNode(at: grandchild)) { token in
                                always.insert(token)
                                if counts { alwaysByCharacters.append((token, written + Int32(spellings[Int(token)].count) - depth - 1)) }
                            }
                        }
                    } else if let textDistances, !counts, next.high == 0, case let place = trie.place(child), place != TextPlace.notText,
                              trie.height(child) < textDistances[Int(next.low) &* TextPlace.count &+ Int(place)] {
                        // No text as long as the longest token below can
                        // close or kill the string: every text token stays
                        // inside it. The others are read byte by byte.
                        let below = trie.positionsBelow(child)
                        var others = trie.nonTextPositions(in: below).makeIterator()
                        var other = others.next().map(Int.init)
                        for position in below {
                            let token = trie.token(at: position)
                            guard position == other else {
                                always.insert(token)
                                continue
                            }
                            other = others.next().map(Int.init)
                            let bytes = spellings[Int(token)]
                            var current = next
                            var index = Int(depth) + 1
                            while index < bytes.count, let after = grammar.leafNext(leaf, current, bytes[index]) {
                                if grammar.leafIsFinal(leaf, after) {
                                    if index == bytes.count - 1 {
                                        always.insert(token)
                                        closers.append(token)
                                        closerCharacters.append(0)
                                    } else {
                                        exits.append(Exit(token: token, offset: Int32(index) + 1))
                                    }
                                    break
                                }
                                current = after
                                index += 1
                            }
                            if index == bytes.count { always.insert(token) }
                        }
                    } else {
                        stack.append((child, next, depth + 1, written))
                    }
                }
            }
        }
        alwaysByCharacters.sort { $0.characters > $1.characters }
        self.alwaysByCharacters = alwaysByCharacters
        self.closerCharacters = closerCharacters
        let tokens = vocabulary.tokens
        exits.sort { tokens[Int($0.token)][Int($0.offset)] < tokens[Int($1.token)][Int($1.offset)] }
        var exitStart = [Int32](repeating: 0, count: 257)
        var cursor = 0
        for byte in 0...256 {
            while cursor < exits.count, Int(tokens[Int(exits[cursor].token)][Int(exits[cursor].offset)]) < byte { cursor += 1 }
            exitStart[byte] = Int32(cursor)
        }
        self.always = always
        self.exits = exits
        self.exitStart = exitStart
        self.closers = closers
    }

    /// The most entries (states times ``TextPlace/count``) a
    /// ``textDistances(_:)`` table may have; a larger automaton is walked
    /// node by node.
    static let textDistanceLimit = 1 << 20

    /// For each state of `automaton` and place in a character (`state *
    /// TextPlace.count + place`), the fewest bytes of text (``TextPlace``)
    /// after which the string may be closed or dead: 1 where one byte can
    /// do it, `Int32.max` where no text ever does (a search not yet
    /// matched, a free string). A token of fewer text bytes stays inside
    /// the string. Worked out backwards, breadth-first, from the pairs one
    /// byte away from closing or dying, over one byte of each class; nil
    /// past ``textDistanceLimit``.
    static func textDistances(_ automaton: ByteDFA) -> [Int32]? {
        let count = automaton.stateCount * TextPlace.count
        guard count <= textDistanceLimit else { return nil }
        // The moves of text at each place: one byte of each class with the
        // place after it.
        var moves: [[(byte: UInt8, after: UInt8)]] = Array(repeating: [], count: TextPlace.count)
        for place in 0..<UInt8(TextPlace.count) {
            var seen = Set<Int>()
            for byte in UInt8.min...UInt8.max {
                let after = TextPlace.after(place, byte)
                guard after != TextPlace.notText, seen.insert(Int(automaton.byteClasses[Int(byte)]) << 8 | Int(after)).inserted else { continue }
                moves[Int(place)].append((byte, after))
            }
        }
        // Edges reversed into one flat array (counted first, then filled).
        var distance = [Int32](repeating: .max, count: count)
        var queue: [Int32] = []
        var predecessorCount = [Int32](repeating: 0, count: count + 1)
        func forEachEdge(_ body: (_ from: Int, _ to: Int?) -> Void) {
            for state in 0..<Int32(automaton.stateCount) {
                for place in 0..<TextPlace.count {
                    for (byte, after) in moves[place] {
                        let next = automaton.next(state, byte)
                        let closes = next == ByteDFA.dead || automaton.isFinal(next)
                        body(Int(state) * TextPlace.count + place, closes ? nil : Int(next) * TextPlace.count + Int(after))
                    }
                }
            }
        }
        forEachEdge { from, to in
            if let to {
                predecessorCount[to + 1] += 1
            } else if distance[from] != 1 {
                distance[from] = 1
                queue.append(Int32(from))
            }
        }
        for index in 0..<count { predecessorCount[index + 1] += predecessorCount[index] }
        var predecessors = [Int32](repeating: 0, count: Int(predecessorCount[count]))
        var fill = predecessorCount
        forEachEdge { from, to in
            guard let to else { return }
            predecessors[Int(fill[to])] = Int32(from)
            fill[to] += 1
        }
        var head = 0
        while head < queue.count {
            let current = Int(queue[head])
            head += 1
            for index in Int(predecessorCount[current])..<Int(predecessorCount[current + 1]) {
                let previous = Int(predecessors[index])
                guard distance[previous] == .max else { continue }
                distance[previous] = distance[current] + 1
                queue.append(Int32(previous))
            }
        }
        return distance
    }
}
