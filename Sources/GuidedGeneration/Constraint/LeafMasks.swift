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
    /// Exit tokens sorted by their bytes after the leaf; the tokens whose
    /// remainder starts with byte `b` are `exits[exitStart[b] ..< exitStart[b + 1]]`.
    var exits: [Exit]
    var exitStart: [Int32]
    /// The tokens of ``always`` that end exactly at the leaf's closing byte
    /// (`"`, `."`, `!"` for a string): with the valid exits, the tokens
    /// that finish the leaf in one step (see ``GuidedDecoder/closingTokens(into:)``).
    var closers: [Int32]

    /// For the masks of a counted string (``Grammar/Leaf/counted``, or
    /// the free string's, which counted free strings share): what its
    /// bounds need, counted from the state the masks are for. The tokens
    /// of ``always`` after which the string must still have at least one
    /// character, with the fewest it then has (the characters the token
    /// writes, and the fewest from the state it reaches), most first; and
    /// those after which it can have only so many, with the most, fewest
    /// first (``closers`` among them). Exits carry the characters they
    /// write.
    var alwaysByFewest: [(token: Int32, characters: Int32)] = []
    var alwaysByMost: [(token: Int32, characters: Int32)] = []

    struct Exit: Sendable {
        var token: Int32
        /// Index in the token's bytes of the first byte after the leaf.
        var offset: Int32
        /// The characters it writes inside the string before closing it
        /// (counted for the free string only).
        var characters: Int32 = 0
    }

    /// Walks the trie with the leaf's automaton alone from `state`: from
    /// the root, or — for the tokens below trie node `start`, whose bytes
    /// up to `start` were read before the automaton reached `state` — from
    /// that node.
    ///
    /// The nodes below `start` are read in their numbering (depth-first
    /// preorder), each one's state from its parent's, which is the last
    /// node read one level up: no stack, and a subtree the automaton rules
    /// out (or takes whole) is jumped over. `characters` (a counted string
    /// from the root) has the characters each token writes counted, for
    /// ``alwaysByFewest``, ``alwaysByMost`` and the exits. `textReach`
    /// (``textReach(_:)`` of the automaton) lets the walk take a subtree's
    /// text tokens at once where no text as long as they are, or of their
    /// bytes, can close or kill the string, and read only its other tokens
    /// byte by byte. `shapeSplits` (``ByteShape/splits(_:)`` of the
    /// automaton) lets a walk from the root read the vocabulary's
    /// ``TokenVocabulary/shapeTrie``, where a node stands for every token
    /// of one shape, in place of its byte trie: at a node whose class the
    /// state splits, the walk reads the byte-trie nodes it stands for.
    init(
        automaton: ByteDFA, state: Int32, vocabulary: TokenVocabulary, start: Int32 = TokenTrie.root, characters: CharacterCounts? = nil,
        textReach: TextReach? = nil, shapeSplits: [UInt64]? = nil
    ) {
        guard state >= 0, Int(state) < automaton.stateCount else {
            self = LeafMasks(vocabulary: vocabulary)
            return
        }
        if start == TokenTrie.root, characters == nil, let textReach,
            textReach.distances[Int(state) &* TextPlace.count &+ Int(TextPlace.boundary)] == Int32.max
        {
            self = Self(textStaysFrom: state, automaton: automaton, vocabulary: vocabulary)
            return
        }
        let byShape = start == TokenTrie.root && shapeSplits != nil
        let splits = shapeSplits ?? []
        var always = TokenMask(count: vocabulary.count)
        // What the walk finds, passed to it `inout` (captured, these
        // would be checked for exclusive access at every append).
        var found = Found(loops: [ByteSet?](repeating: nil, count: automaton.stateCount))
        // (A counted walk lists most of what it keeps: one allocation,
        // not a doubling copy at every power of two.)
        if characters != nil { found.byFewest.reserveCapacity(vocabulary.count) }
        // Characters are counted as a counted string counts them (see
        // `Grammar.leafNext`).
        let counts = characters != nil
        let startsCharacter = characters?.startsCharacter ?? []
        let fewest = characters?.fewest ?? []
        let most = characters?.most ?? []
        // The bytes on which a state stays where it is, worked out on the
        // state's first need: a subtree whose bytes all loop keeps every
        // token below inside the leaf. In the shape trie a byte stands for
        // its class, which loops only if the state splits it not.
        func loopBytes(_ state: Int32, splitting splits: UnsafeBufferPointer<UInt64>?, _ loops: inout [ByteSet?]) -> ByteSet {
            let set: ByteSet
            if let known = loops[Int(state)] {
                set = known
            } else {
                var looping = ByteSet()
                for byte in UInt8.min...UInt8.max where automaton.next(state, byte) == state { looping.insert(byte) }
                loops[Int(state)] = looping
                set = looping
            }
            guard let splits, !splits.isEmpty else { return set }
            let row = Int(state) * 4
            return set.subtracting(ByteSet(words: (splits[row], splits[row + 1], splits[row + 2], splits[row + 3])))
        }
        let classCount = automaton.classCount
        let spellings = vocabulary.tokens
        let byteTrie = vocabulary.trie
        let shapeTrie = vocabulary.shapeTrie
        // The state (and characters written) of the last node read at each
        // depth below where a walk starts (index 0: where it starts); the
        // byte trie's walks below a shape node have their own.
        var states = [Int32](repeating: 0, count: byteTrie.maximumDepth + 1)
        var written = [Int32](repeating: 0, count: counts ? states.count : 0)
        var byteStates = [Int32](repeating: 0, count: byShape ? states.count : 0)
        var byteWritten = [Int32](repeating: 0, count: byShape && counts ? states.count : 0)
        byteTrie.withWalkTables { byteNodes in
            shapeTrie.withWalkTables { shapeNodes in
                automaton.withTables { classes, transitions, flags in
                    always.withUnsafeMutableWords { words in
                        states.withUnsafeMutableBufferPointer { states in
                            written.withUnsafeMutableBufferPointer { written in
                                byteStates.withUnsafeMutableBufferPointer { byteStates in
                                    byteWritten.withUnsafeMutableBufferPointer { byteWritten in
                                        splits.withUnsafeBufferPointer { splits in
                                            @inline(__always) func insert(_ token: Int32) {
                                                words[Int(token) >> 6] |= 1 << UInt64(Int(token) & 63)
                                            }
                                            /// Reads the nodes `first ..< end` of `trie`, whose parents
                                            /// above `first` are `base` bytes deep, from `states[0]` (and
                                            /// `written[0]`); with `byShape`, the shape trie, handing the
                                            /// nodes whose class a state splits to the byte trie.
                                            func walk(
                                                _ trie: TokenTrie, _ nodes: TokenTrie.WalkTables, from first: Int, to end: Int, base: Int,
                                                _ states: UnsafeMutableBufferPointer<Int32>, _ written: UnsafeMutableBufferPointer<Int32>,
                                                byShape: Bool, _ found: inout Found
                                            ) {
                                                var node = first
                                                while node < end {
                                                    let level = Int(nodes.depths[node]) - base
                                                    let current = states[level - 1]
                                                    let byte = nodes.bytes[node]
                                                    if byShape, !splits.isEmpty,
                                                        splits[Int(current) &* 4 &+ Int(byte >> 6)] >> UInt64(byte & 63) & 1 != 0
                                                    {
                                                        // Bytes of this class lead to different states:
                                                        // read the byte-trie nodes this node stands for.
                                                        for index in Int(shapeTrie.sourceStart[node])..<Int(shapeTrie.sourceStart[node + 1]) {
                                                            let source = Int(shapeTrie.sources[index])
                                                            byteStates[0] = current
                                                            if counts { byteWritten[0] = written[level - 1] }
                                                            walk(
                                                                byteTrie, byteNodes, from: source, to: Int(byteNodes.ends[source]),
                                                                base: Int(byteNodes.depths[source]) - 1, byteStates, byteWritten, byShape: false,
                                                                &found)
                                                        }
                                                        node = Int(nodes.ends[node])
                                                        continue
                                                    }
                                                    let next = transitions[Int(current) &* classCount &+ Int(classes[Int(byte)])]
                                                    guard next != ByteDFA.dead else {
                                                        node = Int(nodes.ends[node])
                                                        continue
                                                    }
                                                    var characters: Int32 = 0
                                                    if counts {
                                                        characters = written[level - 1]
                                                        if startsCharacter[Int(current)], CharacterCounts.startsCharacter(byte) { characters += 1 }
                                                        written[level] = characters
                                                    }
                                                    let ending = Int(nodes.firstToken[node])..<Int(nodes.firstToken[node + 1])
                                                    for position in ending {
                                                        let token = nodes.tokenList[position]
                                                        insert(token)
                                                        if counts {
                                                            let least = characters + Int32(fewest[Int(next)])
                                                            if least > 0 { found.byFewest.append((token, least)) }
                                                            if most[Int(next)] != CharacterCounts.unlimited {
                                                                found.byMost.append((token, characters + Int32(most[Int(next)])))
                                                            }
                                                        }
                                                    }
                                                    let subtreeEndNode = Int(nodes.ends[node])
                                                    if flags[Int(next)] & ByteDFA.finalFlag != 0 {
                                                        for position in ending { found.closers.append(nodes.tokenList[position]) }
                                                        // The leaf closes here; everything longer goes on past it.
                                                        let offset = Int32(level + base)
                                                        for position in ending.upperBound..<Int(nodes.subtreeEnd[node]) {
                                                            found.exits.append(
                                                                Exit(token: nodes.tokenList[position], offset: offset, characters: characters))
                                                        }
                                                        node = subtreeEndNode
                                                        continue
                                                    }
                                                    guard subtreeEndNode > node + 1 else {
                                                        node += 1
                                                        continue
                                                    }
                                                    // (A state that loops on no byte, as in a counter or a
                                                    // search, takes no subtree whole: its bytes are not read.)
                                                    if !counts || startsCharacter[Int(next)],
                                                        case let loop = loopBytes(next, splitting: byShape ? splits : nil, &found.loops),
                                                        !loop.isEmpty,
                                                        trie.bytesBelow(Int32(node)).isSubset(of: loop)
                                                    {
                                                        // (Bytes that loop between characters are ASCII
                                                        // characters, one each; a state that loops has no
                                                        // most.)
                                                        let depth = Int32(level + base)
                                                        for position in ending.upperBound..<Int(nodes.subtreeEnd[node]) {
                                                            let token = nodes.tokenList[position]
                                                            insert(token)
                                                            if counts {
                                                                found.byFewest.append(
                                                                    (
                                                                        token,
                                                                        characters + nodes.tokenLengths[position] - depth + Int32(fewest[Int(next)])
                                                                    ))
                                                            }
                                                        }
                                                        node = subtreeEndNode
                                                        continue
                                                    }
                                                    if let textReach, !counts, case let place = trie.place(Int32(node)), place != TextPlace.notText,
                                                        textReach.textStays(
                                                            state: next, place: place, height: trie.height(Int32(node)),
                                                            below: trie.bytesBelow(Int32(node)))
                                                    {
                                                        // No text as long as the longest token below, or of
                                                        // the bytes below, can close or kill the string: every
                                                        // text token stays inside it. The others are read
                                                        // byte by byte.
                                                        let below = trie.positionsBelow(Int32(node))
                                                        var others = trie.nonTextPositions(in: below).makeIterator()
                                                        var other = others.next().map(Int.init)
                                                        for position in below {
                                                            let token = nodes.tokenList[position]
                                                            guard position == other else {
                                                                insert(token)
                                                                continue
                                                            }
                                                            other = others.next().map(Int.init)
                                                            switch Self.read(
                                                                spellings[Int(token)], from: level + base, state: next, classes, transitions, flags,
                                                                classCount: classCount)
                                                            {
                                                            case .dies: break
                                                            case .stays: insert(token)
                                                            case .closes:
                                                                insert(token)
                                                                found.closers.append(token)
                                                            case .exits(let offset): found.exits.append(Exit(token: token, offset: offset))
                                                            }
                                                        }
                                                        node = subtreeEndNode
                                                        continue
                                                    }
                                                    states[level] = next
                                                    node += 1
                                                }
                                            }
                                            states[0] = state
                                            if byShape {
                                                walk(
                                                    shapeTrie, shapeNodes, from: Int(TokenTrie.root) + 1,
                                                    to: Int(shapeTrie.subtreeEndNode(TokenTrie.root)), base: 0, states, written, byShape: true, &found
                                                )
                                            } else {
                                                walk(
                                                    byteTrie, byteNodes, from: Int(start) + 1, to: Int(byteTrie.subtreeEndNode(start)),
                                                    base: Int(byteTrie.depth(start)), states, written, byShape: false, &found)
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        self.alwaysByFewest = Self.sortedByCharacters(found.byFewest)
        self.alwaysByMost = found.byMost.sorted { $0.characters < $1.characters }
        (self.exits, self.exitStart) = Self.grouped(found.exits, tokens: vocabulary.tokens)
        self.always = always
        self.closers = found.closers
    }

    /// The masks from `state` where no text can close or kill the string
    /// (``TextReach/distances`` unbounded at a character's boundary: a search
    /// not yet matched, a key that can no longer be a declared one): every
    /// text token of the vocabulary (``TokenVocabulary/textTokens``) stays
    /// inside it, and only the others — quotes, escapes, control
    /// characters, broken UTF-8, a few thousand of 150,000 — are read, byte
    /// by byte. The walk would take the same text a subtree at a time, but
    /// setting its tokens' bits one by one was most of a mask's first visit.
    private init(textStaysFrom state: Int32, automaton: ByteDFA, vocabulary: TokenVocabulary) {
        var always = vocabulary.textTokens
        var closers: [Int32] = []
        var exits: [Exit] = []
        let trie = vocabulary.trie
        let spellings = vocabulary.tokens
        let classCount = automaton.classCount
        automaton.withTables { classes, transitions, flags in
            for position in trie.nonTextPositions {
                let token = trie.token(at: Int(position))
                switch Self.read(spellings[Int(token)], from: 0, state: state, classes, transitions, flags, classCount: classCount) {
                case .dies: break
                case .stays: always.insert(token)
                case .closes:
                    always.insert(token)
                    closers.append(token)
                case .exits(let offset): exits.append(Exit(token: token, offset: offset))
                }
            }
        }
        self.always = always
        (self.exits, self.exitStart) = Self.grouped(exits, tokens: spellings)
        self.closers = closers
    }

    /// What a token does to the leaf when its bytes from `index` on are
    /// read from `state`.
    private enum Reading {
        /// The leaf refuses a byte before it closes.
        case dies
        /// Every byte stays inside the leaf.
        case stays
        /// The last byte closes the leaf.
        case closes
        /// The leaf closes part-way; `offset` is the index of the first
        /// byte after it.
        case exits(offset: Int32)
    }

    /// Reads `bytes[index...]` from `state` with the automaton's tables,
    /// up to where the leaf dies or closes.
    @inline(__always)
    private static func read(
        _ bytes: [UInt8], from index: Int, state: Int32, _ classes: UnsafeBufferPointer<UInt8>, _ transitions: UnsafeBufferPointer<Int32>,
        _ flags: UnsafeBufferPointer<UInt8>, classCount: Int
    ) -> Reading {
        var current = state
        var index = index
        while index < bytes.count {
            let after = transitions[Int(current) &* classCount &+ Int(classes[Int(bytes[index])])]
            guard after != ByteDFA.dead else { return .dies }
            if flags[Int(after)] & ByteDFA.finalFlag != 0 {
                return index == bytes.count - 1 ? .closes : .exits(offset: Int32(index) + 1)
            }
            current = after
            index += 1
        }
        return .stays
    }

    /// `exits` sorted by what follows the leaf, byte by byte — exits that
    /// go on the same way lie together, so ``GuidedDecoder/addExits``
    /// steps the stack through each shared beginning once — and where
    /// each first byte's begin (``exitStart``).
    private static func grouped(_ exits: [Exit], tokens: [[UInt8]]) -> (exits: [Exit], exitStart: [Int32]) {
        var exits = exits
        exits.sort { tokens[Int($0.token)][Int($0.offset)...].lexicographicallyPrecedes(tokens[Int($1.token)][Int($1.offset)...]) }
        var exitStart = [Int32](repeating: 0, count: 257)
        var cursor = 0
        for byte in 0...256 {
            while cursor < exits.count, Int(tokens[Int(exits[cursor].token)][Int(exits[cursor].offset)]) < byte { cursor += 1 }
            exitStart[byte] = Int32(cursor)
        }
        return (exits, exitStart)
    }

    /// What a walk finds, and the loops of the states it has met.
    private struct Found {
        var exits: [Exit] = []
        var closers: [Int32] = []
        var byFewest: [(token: Int32, characters: Int32)] = []
        var byMost: [(token: Int32, characters: Int32)] = []
        var loops: [ByteSet?]
    }

    /// `entries`, most characters first, by counting: the free string's
    /// list holds most of the vocabulary, and a comparison sort of it took
    /// longer than the walk that made it.
    private static func sortedByCharacters(_ entries: [(token: Int32, characters: Int32)]) -> [(token: Int32, characters: Int32)] {
        guard let most = entries.lazy.map(\.characters).max() else { return [] }
        // starts[c]: where the entries with c characters begin, the
        // largest count first.
        var starts = [Int](repeating: 0, count: Int(most) + 2)
        for entry in entries { starts[Int(most - entry.characters) + 1] += 1 }
        for index in 1..<starts.count { starts[index] += starts[index - 1] }
        // Every slot is written once, so none is filled first.
        return [(token: Int32, characters: Int32)](unsafeUninitializedCapacity: entries.count) { sorted, count in
            for entry in entries {
                let slot = Int(most - entry.characters)
                (sorted.baseAddress! + starts[slot]).initialize(to: entry)
                starts[slot] += 1
            }
            count = entries.count
        }
    }

    /// Nothing allowed: the masks of a state no closed leaf reaches.
    init(vocabulary: TokenVocabulary) {
        always = TokenMask(count: vocabulary.count)
        exits = []
        exitStart = [Int32](repeating: 0, count: 257)
        closers = []
    }

    /// The most entries (states times ``TextPlace/count``) a ``TextReach``
    /// may have; a larger automaton is walked node by node.
    static let textDistanceLimit = 1 << 20

    /// The most entries a ``TextReach/endings`` table may have (32 bytes
    /// each); past it a walk judges subtrees by their height alone.
    static let textEndingLimit = 1 << 16

    /// What text (``TextPlace``) can do to a string from each state of its
    /// automaton and place in a character (`state * TextPlace.count +
    /// place`): how soon it can close or kill the string, and with which
    /// bytes. A walk takes a trie subtree's text tokens at once where
    /// neither can happen below it: its tokens are shorter than the
    /// distance, or none of them holds an ending byte.
    struct TextReach: Sendable {
        /// The fewest bytes of text after which the string may be closed
        /// or dead: 1 where one byte can do it, `Int32.max` where no text
        /// ever does (a search not yet matched, a free string). A token of
        /// fewer text bytes stays inside the string.
        var distances: [Int32]
        /// The bytes that can be the last of a text that closes or kills
        /// the string, whole ``ByteShape`` classes at a time (so the shape
        /// trie's bytes can be checked against them too): a token none of
        /// whose bytes is one of them stays inside the string whatever its
        /// length (no token without `:` completes the search `sdkrel:`).
        /// Empty past ``textEndingLimit``.
        var endings: [ByteSet]

        /// Whether every text token below a trie node whose prefix leaves
        /// the automaton in `state` at `place`, at most `height` bytes
        /// below it and of bytes `below`, stays inside the string.
        @inline(__always)
        func textStays(state: Int32, place: UInt8, height: Int32, below: @autoclosure () -> ByteSet) -> Bool {
            let pair = Int(state) &* TextPlace.count &+ Int(place)
            return height < distances[pair] || (!endings.isEmpty && below().isDisjoint(with: endings[pair]))
        }
    }

    /// ``TextReach`` of `automaton`, worked out backwards from the pairs
    /// one byte of text away from closing or dying, over one byte of each
    /// class: distances breadth-first, ending bytes carried to every pair
    /// that reaches one. Nil past ``textDistanceLimit``.
    static func textReach(_ automaton: ByteDFA) -> TextReach? {
        let count = automaton.stateCount * TextPlace.count
        guard count <= textDistanceLimit else { return nil }
        let withEndings = count <= textEndingLimit
        // The moves of text at each place: one byte of each class with the
        // place after it, and (for the endings) every byte that moves the
        // same way, widened to whole shape classes.
        var moves: [[(byte: UInt8, after: UInt8)]] = Array(repeating: [], count: TextPlace.count)
        var moveBytes: [[ByteSet]] = Array(repeating: [], count: TextPlace.count)
        for place in 0..<UInt8(TextPlace.count) {
            var index: [Int: Int] = [:]
            for byte in UInt8.min...UInt8.max {
                let after = TextPlace.after(place, byte)
                guard after != TextPlace.notText else { continue }
                let key = Int(automaton.byteClasses[Int(byte)]) << 8 | Int(after)
                if let known = index[key] {
                    if withEndings { moveBytes[Int(place)][known].formUnion(ByteShape.classMembers(of: byte)) }
                    continue
                }
                index[key] = moves[Int(place)].count
                moves[Int(place)].append((byte, after))
                if withEndings { moveBytes[Int(place)].append(ByteShape.classMembers(of: byte)) }
            }
        }
        // Edges reversed into one flat array (counted first, then filled).
        var distance = [Int32](repeating: .max, count: count)
        var endings = [ByteSet](repeating: ByteSet(), count: withEndings ? count : 0)
        var queue: [Int32] = []
        var predecessorCount = [Int32](repeating: 0, count: count + 1)
        func forEachEdge(_ body: (_ from: Int, _ move: Int, _ to: Int?) -> Void) {
            for state in 0..<Int32(automaton.stateCount) {
                for place in 0..<TextPlace.count {
                    for (move, (byte, after)) in moves[place].enumerated() {
                        let next = automaton.next(state, byte)
                        let closes = next == ByteDFA.dead || automaton.isFinal(next)
                        body(Int(state) * TextPlace.count + place, move, closes ? nil : Int(next) * TextPlace.count + Int(after))
                    }
                }
            }
        }
        forEachEdge { from, move, to in
            if let to {
                predecessorCount[to + 1] += 1
                return
            }
            if withEndings { endings[from].formUnion(moveBytes[from % TextPlace.count][move]) }
            if distance[from] != 1 {
                distance[from] = 1
                queue.append(Int32(from))
            }
        }
        for index in 0..<count { predecessorCount[index + 1] += predecessorCount[index] }
        var predecessors = [Int32](repeating: 0, count: Int(predecessorCount[count]))
        var fill = predecessorCount
        forEachEdge { from, _, to in
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
        if withEndings {
            // Each pair's endings include those of every pair it reaches:
            // carried backwards until nothing grows.
            var pending = queue
            var waiting = [Bool](repeating: false, count: count)
            for pair in pending { waiting[Int(pair)] = true }
            while let current = pending.popLast().map(Int.init) {
                waiting[current] = false
                let carried = endings[current]
                for index in Int(predecessorCount[current])..<Int(predecessorCount[current + 1]) {
                    let previous = Int(predecessors[index])
                    guard !carried.isSubset(of: endings[previous]) else { continue }
                    endings[previous].formUnion(carried)
                    if !waiting[previous] {
                        waiting[previous] = true
                        pending.append(Int32(previous))
                    }
                }
            }
        }
        return TextReach(distances: distance, endings: endings)
    }
}
