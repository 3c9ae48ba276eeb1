/// A schema compiled for matching: a graph of value nodes over leaf automata.
///
/// Exists because the schema IR is a tree of Apple's concepts (guides,
/// definitions by name), while matching needs integer-indexed nodes, each
/// object's possible next keys as byte tries, and every string, number,
/// boolean and null as a small automaton. Compiled once per schema (see
/// ``GrammarCompiler``) and shared, read-only, by every generation.
/// How generated JSON is laid out between its values: every byte of it is
/// forced, so the layout decides what the model reads back in its own
/// output.
///
/// Exists because small models answer better in the layout they were trained
/// to write. On the receipts eval (Qwen2.5-Coder-0.5B, greedy, same prompt)
/// `{"a": 1, "b": 2}` got all four fields right on 12 of 24 receipts where
/// `{"a":1,"b":2}` got 7; on the tickets, the urgency the model picks after
/// `"urgency": ` was the one it writes in free text on 10 of 10 tickets
/// indented, 6 of 10 spaced and 3 of 10 compact (docs/GUIDED_GENERATION.md).
package enum JSONLayout: Sendable, Hashable {
    /// `{"a":1,"b":[1,2]}`: no whitespace at all.
    case compact
    /// `{"a": 1, "b": [1, 2]}`: one space after each `:` and `,`, on one line.
    case spaced
    /// What instruction-tuned models write when they answer in JSON: every
    /// object member and every element of a list of objects or lists on a
    /// line of its own, indented by two spaces a level, `: ` between key and
    /// value; lists of strings, numbers, booleans or null on one line
    /// (`["a", "b"]`); `{}` and `[]` when empty:
    ///
    ///     {
    ///       "topic": "Cells",
    ///       "tags": ["biology", "cells"],
    ///       "cards": [
    ///         {
    ///           "question": "…"
    ///         }
    ///       ]
    ///     }
    ///
    /// Extra keys (`additionalProperties`, `patternProperties`) are members
    /// like the others, and free-form objects (`anyValue`) are written the
    /// same way. A free-form array is written either way a list is, as the
    /// model chooses at its `[`: on one line, its elements then strings,
    /// numbers, booleans or null, or one element a line.
    case indented

    /// What follows a value in an object or a one-line array when another
    /// comes (an indented layout's line break and indentation are the
    /// matcher's, after this comma).
    var comma: [UInt8] { self == .compact ? Array(",".utf8) : self == .spaced ? Array(", ".utf8) : Array(",".utf8) }
    /// What separates a key from its value.
    var colon: [UInt8] { self == .compact ? Array(":".utf8) : Array(": ".utf8) }
    /// The separator of a one-line array's elements.
    var inlineComma: [UInt8] { self == .compact ? Array(",".utf8) : Array(", ".utf8) }
    /// Spaces per level of an ``indented`` layout.
    static let indentWidth: Int32 = 2
}

package struct Grammar: Sendable {
    /// One value position.
    enum Node: Sendable, Hashable {
        /// A string, number, boolean or null: the automaton ``leaves``[id].
        case leaf(Int32)
        /// An object with fixed, ordered properties: ``objects``[id].
        case object(Int32)
        /// An array of `item`, with at least `minimum` and at most `maximum` elements.
        case array(item: Int32, minimum: Int32, maximum: Int32?)
        /// Exactly one of these nodes; the first bytes decide which.
        case anyOf([Int32])
        /// Any JSON value (objects with free keys, arrays, strings, numbers,
        /// booleans, null).
        case anyValue
        /// These nodes one after another (at least one): a tool-call block
        /// is its opening marker, a JSON array and its closing marker.
        case sequence([Int32])
        /// An array whose first elements each have their own node:
        /// ``tuples``[id].
        case tuple(Int32)
    }

    /// A tuple: `prefix[i]` for element `i`, `rest` (or nothing, when -1)
    /// after them, with at least `minimum` and at most `maximum` elements.
    struct TupleShape: Sendable {
        var prefix: [Int32]
        var rest: Int32
        var minimum: Int32
        var maximum: Int32?
    }

    /// An object's properties and, for each point between them, the byte
    /// trie of what may come next.
    struct ObjectShape: Sendable {
        struct Property: Sendable {
            var name: String
            var value: Int32
            var isOptional: Bool
            /// The most words its free strings should take, as its
            /// description states it ("at most 25 words"): a pacing hint,
            /// not a constraint (see ``StringPacing``).
            var wordLimit: Int? = nil
        }
        var properties: [Property]
        /// Keys other than the properties' (`additionalProperties`,
        /// `patternProperties`), written after them: each a string leaf of
        /// keys and the node of their values. The key languages are
        /// disjoint, and none holds a property's name.
        var extras: [Extra] = []
        struct Extra: Sendable {
            var key: Int32
            var value: Int32
        }
        /// The first position from which every property is optional: extra
        /// keys may start there or later (set with the key tries).
        var optionalTail: Int32 = 0
        /// The key tries, each serving a run of positions: from one past a
        /// required property up to and including the next required one
        /// (or the end), once before any property was emitted and once
        /// after. A trie holds `,"key":` (or `"key":` before the first
        /// emitted property) for each property of its run, and `}` where
        /// the run ends the object; at a position it is read from that
        /// position on (``KeyTrie/child(of:byte:from:)``), so the keys
        /// before it are gone. One trie per run rather than per position:
        /// an object of n optional properties has two tries of n keys, not
        /// 2n tries of n/2 keys on average.
        var keyTries: [KeyTrie]
        /// `keyTries[trieAt[slot]]` is the trie at key slot `slot`
        /// (``Frame/keySlot(position:emittedAny:)``), read from `position` on.
        var trieAt: [Int32] = []

        /// The trie at key slot `slot` (``Frame/keySlot``).
        @inline(__always)
        func keyTrie(_ slot: Int32) -> Int { Int(trieAt[Int(slot)]) }
        /// `}` only after a property (``ObjectNode/requiresAProperty``):
        /// the tries before the first emitted property have no `}`.
        var requiresAProperty = false
    }

    enum Leaf: Sendable {
        case string(ByteDFA)
        case number(NumberConstraint)
        /// A string of `minimum` to `maximum` characters: the state's
        /// `high` word counts the characters so far.
        case counted(CountedString)
    }

    /// A string with a length bound whose characters are counted beside
    /// its automaton (``CharacterCounts``): the free string under
    /// `minLength`/`maxLength`, or a pattern, format or choice list under
    /// a bound that would multiply its states.
    struct CountedString: Sendable {
        var automaton: ByteDFA
        var characters: CharacterCounts
        var minimum: UInt64
        /// `UInt64.max` where there is no maximum.
        var maximum: UInt64

        /// The free string (``ByteDFA/anyJSONString``) under bounds: its
        /// masks are the vocabulary's, those of ``SharedLeaf/anyString``.
        var isFree = false

        static func free(minimum: UInt64, maximum: UInt64) -> CountedString {
            CountedString(automaton: .anyJSONString, characters: .anyString, minimum: minimum, maximum: maximum, isFree: true)
        }
    }

    var nodes: [Node]
    var objects: [ObjectShape]
    var tuples: [TupleShape] = []
    /// The leaf automata, by id (added with ``addLeaf(_:)``).
    private(set) var leaves: [Leaf] = []
    /// The same automata flattened for the matcher's hot path.
    private(set) var tables = LeafTables()
    /// The node of the whole value.
    var root: Int32
    /// How the JSON between values is written.
    var layout: JSONLayout = .compact
    /// For each node, whether it is an array or tuple written one element
    /// a line (``JSONLayout/indented``, elements that are objects or lists);
    /// empty in the other layouts.
    var expandedArrays: [Bool] = []

    /// Whether array or tuple `node` puts each element on a line of its own.
    @inline(__always)
    func isExpanded(_ node: Int32) -> Bool {
        Int(node) < expandedArrays.count && expandedArrays[Int(node)]
    }

    /// The array and tuple nodes whose elements must all differ (JSON
    /// Schema's `uniqueItems`): their elements are strings in canonical
    /// spelling, integers, booleans, null or constants, so two elements are
    /// equal exactly when they are written the same (see
    /// ``GrammarCompiler``). The matcher keeps the elements written so far
    /// (``UniqueValues``).
    var uniqueArrays: Set<Int32> = [] {
        didSet { hasUniqueArrays = !uniqueArrays.isEmpty }
    }
    /// Whether any array needs its elements kept: the matcher's fast path
    /// skips the check otherwise.
    private(set) var hasUniqueArrays = false

    /// Whether array or tuple `node` requires distinct elements.
    @inline(__always)
    func isUnique(_ node: Int32) -> Bool {
        hasUniqueArrays && uniqueArrays.contains(node)
    }

    /// Between two elements of array or tuple `node`: `,` and a line break
    /// (its indentation is the matcher's) or the one-line separator.
    func elementSeparator(_ node: Int32) -> [UInt8] {
        isExpanded(node) ? [UInt8(ascii: ","), UInt8(ascii: "\n")] : layout.inlineComma
    }

    /// How a non-empty array or tuple `node` opens, separates its elements
    /// and closes (line breaks bare: the indentation depends on where the
    /// array is).
    func arrayPunctuation(_ node: Int32) -> (open: [UInt8], separator: [UInt8], close: [UInt8]) {
        isExpanded(node)
            ? ([UInt8(ascii: "["), UInt8(ascii: "\n")], elementSeparator(node), [UInt8(ascii: "\n"), UInt8(ascii: "]")])
            : ([UInt8(ascii: "[")], elementSeparator(node), [UInt8(ascii: "]")])
    }

    init(nodes: [Node], objects: [ObjectShape], leaves: [Leaf], root: Int32) {
        self.nodes = nodes
        self.objects = objects
        self.root = root
        for leaf in leaves { addLeaf(leaf) }
    }

    /// Adds a leaf automaton; returns its id.
    @discardableResult
    mutating func addLeaf(_ leaf: Leaf) -> Int32 {
        leaves.append(leaf)
        tables.append(leaf)
        return Int32(leaves.count - 1)
    }

    /// The automaton of closed leaf `leaf` (a string's; a counted string's
    /// is the free string's), nil for a number.
    func closedAutomaton(_ leaf: Int32) -> ByteDFA? {
        switch leaves[Int(leaf)] {
        case .string(let automaton): automaton
        case .counted(let string): string.automaton
        case .number: nil
        }
    }

    /// How the characters of closed leaf `leaf` are counted, where they
    /// are: a counted string's, and the free string's (its masks count
    /// the characters each token writes, for the counted strings that
    /// share them).
    func characterCounts(_ leaf: Int32) -> CharacterCounts? {
        if sharedLeaf(leaf) == .anyString { return .anyString }
        guard case .counted(let string) = leaves[Int(leaf)] else { return nil }
        return string.characters
    }

    /// Whether `leaf` is one of the vocabulary-wide shared leaves.
    func sharedLeaf(_ leaf: Int32) -> SharedLeaf? {
        SharedLeaf(rawValue: leaf)
    }

    // MARK: Leaf automata (hot path)
    //
    // Read from ``tables`` only: a `ByteDFA` read out of ``leaves`` would
    // retain and release its three arrays at every byte.

    @inline(__always)
    func leafInitial(_ leaf: Int32) -> LeafState {
        let info = tables.info[Int(leaf)]
        switch info.kind {
        case .string, .counted: return LeafState(low: UInt64(UInt32(bitPattern: info.start)))
        case .number: return tables.numbers[info.number].initial
        }
    }

    /// The automaton state of string or counted `info` after `byte`, or ``ByteDFA/dead``.
    @inline(__always)
    private func automatonNext(_ info: LeafTables.Info, _ state: Int32, _ byte: UInt8) -> Int32 {
        guard state >= 0 else { return ByteDFA.dead }
        let byteClass = Int(tables.byteClasses[info.classOffset &+ Int(byte)])
        return tables.transitions[info.transitionOffset &+ Int(state) &* info.classCount &+ byteClass]
    }

    @inline(__always)
    private func automatonFlags(_ info: LeafTables.Info, _ state: Int32) -> UInt8 {
        state >= 0 ? tables.flags[info.flagOffset &+ Int(state)] : 0
    }

    @inline(__always)
    func leafNext(_ leaf: Int32, _ state: LeafState, _ byte: UInt8) -> LeafState? {
        let info = tables.info[Int(leaf)]
        switch info.kind {
        case .string:
            let next = automatonNext(info, Int32(truncatingIfNeeded: state.low), byte)
            return next == ByteDFA.dead ? nil : LeafState(low: UInt64(UInt32(bitPattern: next)))
        case .number:
            return tables.numbers[info.number].next(state, byte)
        case .counted:
            let current = Int32(truncatingIfNeeded: state.low)
            let next = automatonNext(info, current, byte)
            guard next != ByteDFA.dead else { return nil }
            var count = state.high
            if automatonFlags(info, current) & LeafTables.startsCharacterFlag != 0, CharacterCounts.startsCharacter(byte) {
                count += 1
            }
            // Only to a state the bounds can still complete from.
            let counts = info.countOffset &+ Int(next)
            guard count <= info.maximum, UInt64(tables.fewestCharacters[counts]) <= info.maximum &- count else { return nil }
            let most = tables.mostCharacters[counts]
            if most != CharacterCounts.unlimited, count &+ UInt64(most) < info.minimum { return nil }
            return LeafState(low: UInt64(UInt32(bitPattern: next)), high: count)
        }
    }

    @inline(__always)
    func leafIsAccepting(_ leaf: Int32, _ state: LeafState) -> Bool {
        let info = tables.info[Int(leaf)]
        switch info.kind {
        case .string: return automatonFlags(info, Int32(truncatingIfNeeded: state.low)) & ByteDFA.acceptingFlag != 0
        case .number: return tables.numbers[info.number].isAccepting(state)
        case .counted:
            return automatonFlags(info, Int32(truncatingIfNeeded: state.low)) & ByteDFA.acceptingFlag != 0 && state.high >= info.minimum
        }
    }

    @inline(__always)
    func leafIsFinal(_ leaf: Int32, _ state: LeafState) -> Bool {
        let info = tables.info[Int(leaf)]
        switch info.kind {
        case .string: return automatonFlags(info, Int32(truncatingIfNeeded: state.low)) & ByteDFA.finalFlag != 0
        case .number: return tables.numbers[info.number].isFinal(state)
        case .counted:
            return automatonFlags(info, Int32(truncatingIfNeeded: state.low)) & ByteDFA.finalFlag != 0 && state.high >= info.minimum
        }
    }

    /// Whether the leaf's automaton has a closing byte (strings, literals):
    /// its masks can be computed once per state, independent of what
    /// surrounds it.
    @inline(__always)
    func leafIsClosed(_ leaf: Int32) -> Bool {
        tables.info[Int(leaf)].kind != .number
    }

    // MARK: Arrays and tuples

    /// The node of element `index` of array or tuple `node`, or nil when it
    /// may have no such element.
    func element(of node: Int32, at index: Int32) -> Int32? {
        switch nodes[Int(node)] {
        case .array(let item, _, let maximum):
            return maximum.map { index < $0 } ?? true ? item : nil
        case .tuple(let id):
            // (Field by field: a copy of the shape would retain its prefix.)
            if let maximum = tuples[Int(id)].maximum, index >= maximum { return nil }
            if Int(index) < tuples[Int(id)].prefix.count { return tuples[Int(id)].prefix[Int(index)] }
            let rest = tuples[Int(id)].rest
            return rest >= 0 ? rest : nil
        default:
            return nil
        }
    }

    /// The fewest elements of array or tuple `node`.
    func minimumCount(of node: Int32) -> Int32 {
        switch nodes[Int(node)] {
        case .array(_, let minimum, _): minimum
        case .tuple(let id): tuples[Int(id)].minimum
        default: 0
        }
    }
}

/// The possible continuations at the points of an object, as a byte trie.
///
/// Exists so optional properties cost nothing at match time: after property
/// 2 of an object whose properties 3 and 4 are optional, the trie read
/// from position 3 holds `,"p3":`, `,"p4":`, `,"p5":` and (if 5 is
/// optional too) `}`, and a byte walks it in one step. One trie serves
/// every position of a run of optional properties: reading it from a
/// position leaves out the keys of the properties before it.
struct KeyTrie: Sendable {
    /// What reaching a node completes.
    enum Outcome: Sendable, Hashable {
        case none
        /// The key of property `index` and its colon: its value follows.
        case property(Int32)
        /// The closing brace: the object is done.
        case close
    }

    /// For node `n`, its edges are `edgeBytes[firstEdge[n] ..< firstEdge[n + 1]]`
    /// to the nodes `edgeTargets[…]` at the same indices; node 0 is the root.
    /// Nodes are numbered in depth-first order of their bytes, so the nodes
    /// below `n` are `n + 1 ..< subtreeEnd[n]`.
    private var firstEdge: [Int32]
    private var edgeBytes: [UInt8]
    private var edgeTargets: [Int32]
    private var outcomes: [Outcome]
    private var parents: [Int32]
    /// The byte of the edge into each node (0 for the root).
    private var incoming: [UInt8]
    private var depths: [Int32]
    private var subtreeEnd: [Int32]
    /// For node `n`, the greatest property index of an outcome at or below
    /// it (`Int32.max` for the closing brace, -1 for none): whether the
    /// node leads anywhere when the trie is read from a position.
    private var greatestBelow: [Int32]
    /// The nodes with an outcome, ascending: in the order of their bytes.
    private(set) var ends: [Int32]

    /// The trie of `entries`: each a byte string and what reaching its end
    /// completes. The entries must be in ascending order of their bytes
    /// and none a prefix of another (keys are quoted and followed by a
    /// colon, so none is); then the trie is built in one pass, each node
    /// created once, in depth-first order.
    init(sorted entries: some Sequence<(bytes: [UInt8], outcome: Outcome)>) {
        var outcomes: [Outcome] = [.none]
        var parents: [Int32] = [-1]
        var incoming: [UInt8] = [0]
        var depths: [Int32] = [0]
        var ends: [Int32] = []
        // The nodes along the previous entry's bytes (path[d] at depth d).
        var path: [Int32] = [0]
        var previous: [UInt8] = []
        for (bytes, outcome) in entries {
            assert(previous.lexicographicallyPrecedes(bytes) || previous.isEmpty, "KeyTrie entries out of order")
            var shared = 0
            while shared < bytes.count, shared < previous.count, bytes[shared] == previous[shared] { shared += 1 }
            path.removeSubrange((shared + 1)...)
            for byte in bytes[shared...] {
                let node = Int32(outcomes.count)
                outcomes.append(.none)
                parents.append(path[path.count - 1])
                incoming.append(byte)
                depths.append(Int32(path.count))
                path.append(node)
            }
            let end = path[path.count - 1]
            outcomes[Int(end)] = outcome
            if ends.last != end { ends.append(end) }
            previous = bytes
        }
        // Each node's edges together, in ascending byte order (children
        // were created in that order).
        let count = outcomes.count
        var firstEdge = [Int32](repeating: 0, count: count + 1)
        for node in 1..<count { firstEdge[Int(parents[node]) + 1] += 1 }
        for node in 0..<count { firstEdge[node + 1] += firstEdge[node] }
        var cursor = firstEdge
        var edgeBytes = [UInt8](repeating: 0, count: max(count - 1, 0))
        var edgeTargets = [Int32](repeating: 0, count: max(count - 1, 0))
        var subtreeEnd = [Int32](repeating: 0, count: count)
        for node in 1..<max(count, 1) {
            let parent = Int(parents[node])
            edgeBytes[Int(cursor[parent])] = incoming[node]
            edgeTargets[Int(cursor[parent])] = Int32(node)
            cursor[parent] += 1
        }
        var greatestBelow = outcomes.map { outcome -> Int32 in
            switch outcome {
            case .none: -1
            case .property(let index): index
            case .close: Int32.max
            }
        }
        for node in stride(from: count - 1, through: 0, by: -1) {
            subtreeEnd[node] = max(subtreeEnd[node], Int32(node + 1))
            if node > 0 {
                let parent = Int(parents[node])
                subtreeEnd[parent] = max(subtreeEnd[parent], subtreeEnd[node])
                greatestBelow[parent] = max(greatestBelow[parent], greatestBelow[node])
            }
        }
        self.greatestBelow = greatestBelow
        self.firstEdge = firstEdge
        self.edgeBytes = edgeBytes
        self.edgeTargets = edgeTargets
        self.outcomes = outcomes
        self.parents = parents
        self.incoming = incoming
        self.depths = depths
        self.subtreeEnd = subtreeEnd
        self.ends = ends
    }

    /// The indices in ``ends`` of the outcomes at or below `node`.
    func ends(below node: Int32) -> Range<Int> {
        func firstIndex(atLeast id: Int32) -> Int {
            var low = 0
            var high = ends.count
            while low < high {
                let middle = (low + high) / 2
                if ends[middle] < id { low = middle + 1 } else { high = middle }
            }
            return low
        }
        if node == 0 { return ends.indices }
        return firstIndex(atLeast: node)..<firstIndex(atLeast: subtreeEnd[Int(node)])
    }

    /// The number of bytes from the root to `node`.
    @inline(__always)
    func depth(_ node: Int32) -> Int { Int(depths[Int(node)]) }

    /// The bytes from `ancestor` down to `node`.
    func bytes(from ancestor: Int32, to node: Int32) -> [UInt8] {
        var path: [UInt8] = []
        var cursor = node
        while cursor != ancestor, cursor > 0 {
            path.append(incoming[Int(cursor)])
            cursor = parents[Int(cursor)]
        }
        return path.reversed()
    }

    /// The node after `byte` from `node`, read from property `position`
    /// on: nil where no key of a property at or after `position` (nor the
    /// closing brace) goes that way.
    @inline(__always)
    func child(of node: Int32, byte: UInt8, from position: Int32) -> Int32? {
        var index = Int(firstEdge[Int(node)])
        let end = Int(firstEdge[Int(node) + 1])
        while index < end {
            if edgeBytes[index] == byte {
                let target = edgeTargets[index]
                return reaches(target, from: position) ? target : nil
            }
            index += 1
        }
        return nil
    }

    /// The bytes for which ``child(of:byte:from:)`` has a node: what may
    /// follow `node` when the trie is read from property `position` on.
    func nextBytes(of node: Int32, from position: Int32) -> ByteSet {
        var bytes = ByteSet()
        for index in Int(firstEdge[Int(node)])..<Int(firstEdge[Int(node) + 1]) where reaches(edgeTargets[index], from: position) {
            bytes.insert(edgeBytes[index])
        }
        return bytes
    }

    /// Whether `node` (an outcome, or a node above outcomes) is there when
    /// the trie is read from property `position` on.
    @inline(__always)
    func reaches(_ node: Int32, from position: Int32) -> Bool {
        greatestBelow[Int(node)] >= position
    }

    @inline(__always)
    func outcome(_ node: Int32) -> Outcome { outcomes[Int(node)] }
}

/// Every leaf automaton of a grammar in flat arrays, read by the
/// ``Grammar`` leaf functions at every byte the matcher steps.
///
/// Exists because reading a ``ByteDFA`` out of an array of leaves copies
/// it, retaining and releasing its three arrays: on the hot path that
/// reference counting cost as much as the matching. Here a byte is a few
/// loads from arrays that stay put.
struct LeafTables: Sendable {
    enum Kind: UInt8, Sendable {
        case string, number, counted
    }

    /// Where one leaf's data is.
    struct Info: Sendable {
        var kind: Kind
        var start: Int32 = 0
        /// Into ``byteClasses``: the leaf's 256 byte classes.
        var classOffset = 0
        var classCount = 0
        /// Into ``transitions``: `state * classCount + class`.
        var transitionOffset = 0
        /// Into ``flags``: per state.
        var flagOffset = 0
        /// Into ``numbers``.
        var number = 0
        /// A counted string's character bounds, and where its states'
        /// counts are in ``fewestCharacters`` and ``mostCharacters``.
        var minimum: UInt64 = 0
        var maximum: UInt64 = 0
        var countOffset = 0
    }

    var info: [Info] = []
    var byteClasses: [UInt8] = []
    var transitions: [Int32] = []
    /// Per state: ``ByteDFA``'s flags, and ``startsCharacterFlag`` for a
    /// counted string's states between characters.
    var flags: [UInt8] = []
    var numbers: [NumberConstraint] = []
    /// Counted strings' ``CharacterCounts/fewest`` and ``CharacterCounts/most``.
    var fewestCharacters: [UInt32] = []
    var mostCharacters: [UInt32] = []

    /// A byte read in the state starts a character
    /// (``CharacterCounts/startsCharacter``).
    static let startsCharacterFlag: UInt8 = 4

    mutating func append(_ leaf: Grammar.Leaf) {
        switch leaf {
        case .string(let automaton):
            info.append(add(automaton, kind: .string))
        case .counted(let string):
            var entry = add(string.automaton, kind: .counted)
            entry.minimum = string.minimum
            entry.maximum = string.maximum
            entry.countOffset = fewestCharacters.count
            for (state, starts) in string.characters.startsCharacter.enumerated() where starts {
                flags[entry.flagOffset + state] |= Self.startsCharacterFlag
            }
            fewestCharacters += string.characters.fewest
            mostCharacters += string.characters.most
            info.append(entry)
        case .number(let number):
            info.append(Info(kind: .number, number: numbers.count))
            numbers.append(number)
        }
    }

    private mutating func add(_ automaton: ByteDFA, kind: Kind) -> Info {
        let entry = Info(
            kind: kind, start: automaton.start, classOffset: byteClasses.count, classCount: automaton.classCount,
            transitionOffset: transitions.count, flagOffset: flags.count
        )
        byteClasses += automaton.byteClasses
        transitions += automaton.transitions
        flags += automaton.flags
        return entry
    }
}
