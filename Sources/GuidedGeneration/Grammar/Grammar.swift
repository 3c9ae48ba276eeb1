/// A schema compiled for matching: a graph of value nodes over leaf automata.
///
/// Exists because the schema IR is a tree of Apple's concepts (guides,
/// definitions by name), while matching needs integer-indexed nodes, each
/// object's possible next keys as byte tries, and every string, number,
/// boolean and null as a small automaton. Compiled once per schema (see
/// ``GrammarCompiler``) and shared, read-only, by every generation.
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
        /// keys may start there or later.
        var optionalTail: Int32 {
            var position = properties.count
            while position > 0, properties[position - 1].isOptional { position -= 1 }
            return Int32(position)
        }
        /// `keyTries[position * 2 + (emittedAny ? 1 : 0)]`: the trie of
        /// `,"key":` (or `"key":` before the first emitted property) for each
        /// property that can come next, and `}` where the rest are optional.
        var keyTries: [KeyTrie]
    }

    enum Leaf: Sendable {
        case string(ByteDFA)
        case number(NumberConstraint)
        /// A free JSON string (``ByteDFA/anyJSONString``) of `minimum` to
        /// `maximum` characters: the state's `high` word counts the
        /// characters so far (a character starts at a byte that is not a
        /// UTF-8 continuation, read in state `body`, the string's content).
        case counted(ByteDFA, body: Int32, minimum: UInt64, maximum: UInt64)
    }

    var nodes: [Node]
    var objects: [ObjectShape]
    var tuples: [TupleShape] = []
    var leaves: [Leaf]
    /// The node of the whole value.
    var root: Int32
    /// Leaves worth precomputing at compile time: the schema's patterns and
    /// choices, whose states prune the vocabulary quickly. (Free text and
    /// free strings allow nearly every token: their masks are built on
    /// first use, the free string's once per vocabulary.)
    var precomputedLeaves: [Int32] = []

    /// Whether `leaf` is one of the vocabulary-wide shared leaves.
    func sharedLeaf(_ leaf: Int32) -> SharedLeaf? {
        SharedLeaf(rawValue: leaf)
    }

    // MARK: Leaf automata (hot path)

    @inline(__always)
    func leafInitial(_ leaf: Int32) -> LeafState {
        switch leaves[Int(leaf)] {
        case .string(let dfa), .counted(let dfa, _, _, _): LeafState(low: UInt64(UInt32(bitPattern: dfa.start)))
        case .number(let number): number.initial
        }
    }

    @inline(__always)
    func leafNext(_ leaf: Int32, _ state: LeafState, _ byte: UInt8) -> LeafState? {
        switch leaves[Int(leaf)] {
        case .string(let dfa):
            let next = dfa.next(Int32(truncatingIfNeeded: state.low), byte)
            return next == ByteDFA.dead ? nil : LeafState(low: UInt64(UInt32(bitPattern: next)))
        case .number(let number):
            return number.next(state, byte)
        case .counted(let dfa, let body, let minimum, let maximum):
            let current = Int32(truncatingIfNeeded: state.low)
            let next = dfa.next(current, byte)
            guard next != ByteDFA.dead else { return nil }
            var count = state.high
            if current == body, byte & 0xC0 != 0x80, byte != UInt8(ascii: "\"") {
                count += 1
                guard count <= maximum else { return nil }
            }
            if dfa.isFinal(next), count < minimum { return nil }
            return LeafState(low: UInt64(UInt32(bitPattern: next)), high: count)
        }
    }

    @inline(__always)
    func leafIsAccepting(_ leaf: Int32, _ state: LeafState) -> Bool {
        switch leaves[Int(leaf)] {
        case .string(let dfa): dfa.isAccepting(Int32(truncatingIfNeeded: state.low))
        case .number(let number): number.isAccepting(state)
        case .counted(let dfa, _, let minimum, _): dfa.isAccepting(Int32(truncatingIfNeeded: state.low)) && state.high >= minimum
        }
    }

    @inline(__always)
    func leafIsFinal(_ leaf: Int32, _ state: LeafState) -> Bool {
        switch leaves[Int(leaf)] {
        case .string(let dfa): dfa.isFinal(Int32(truncatingIfNeeded: state.low))
        case .number(let number): number.isFinal(state)
        case .counted(let dfa, _, let minimum, _): dfa.isFinal(Int32(truncatingIfNeeded: state.low)) && state.high >= minimum
        }
    }

    /// Whether the leaf's automaton has a closing byte (strings, literals):
    /// its masks can be computed once per state, independent of what
    /// surrounds it.
    func leafIsClosed(_ leaf: Int32) -> Bool {
        switch leaves[Int(leaf)] {
        case .string, .counted: true
        case .number: false
        }
    }

    // MARK: Arrays and tuples

    /// The node of element `index` of array or tuple `node`, or nil when it
    /// may have no such element.
    func element(of node: Int32, at index: Int32) -> Int32? {
        switch nodes[Int(node)] {
        case .array(let item, _, let maximum):
            return maximum.map { index < $0 } ?? true ? item : nil
        case .tuple(let id):
            let shape = tuples[Int(id)]
            if let maximum = shape.maximum, index >= maximum { return nil }
            if Int(index) < shape.prefix.count { return shape.prefix[Int(index)] }
            return shape.rest >= 0 ? shape.rest : nil
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

/// The possible continuations at one point of an object, as a byte trie.
///
/// Exists so optional properties cost nothing at match time: after property
/// 2 of an object whose properties 3 and 4 are optional, the trie holds
/// `,"p3":`, `,"p4":`, `,"p5":` and (if 5 is optional too) `}`, and a byte
/// walks it in one step.
struct KeyTrie: Sendable {
    /// What reaching a node completes.
    enum Outcome: Sendable, Hashable {
        case none
        /// The key of property `index` and its colon: its value follows.
        case property(Int32)
        /// The closing brace: the object is done.
        case close
    }

    private(set) var edges: [[(byte: UInt8, node: Int32)]] = [[]]
    private(set) var outcomes: [Outcome] = [.none]

    init() {}

    mutating func insert(_ bytes: [UInt8], outcome: Outcome) {
        var node: Int32 = 0
        for byte in bytes {
            if let next = child(of: node, byte: byte) {
                node = next
            } else {
                let next = Int32(edges.count)
                edges.append([])
                outcomes.append(.none)
                edges[Int(node)].append((byte, next))
                node = next
            }
        }
        outcomes[Int(node)] = outcome
    }

    @inline(__always)
    func child(of node: Int32, byte: UInt8) -> Int32? {
        for edge in edges[Int(node)] where edge.byte == byte { return edge.node }
        return nil
    }

    @inline(__always)
    func outcome(_ node: Int32) -> Outcome { outcomes[Int(node)] }
}
