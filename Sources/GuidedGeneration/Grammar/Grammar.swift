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
        /// `keyTries[position * 2 + (emittedAny ? 1 : 0)]`: the trie of
        /// `,"key":` (or `"key":` before the first emitted property) for each
        /// property that can come next, and `}` where the rest are optional.
        var keyTries: [KeyTrie]
    }

    enum Leaf: Sendable {
        case string(ByteDFA)
        case number(NumberConstraint)
    }

    var nodes: [Node]
    var objects: [ObjectShape]
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
        case .string(let dfa): LeafState(low: UInt64(UInt32(bitPattern: dfa.start)))
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
        }
    }

    @inline(__always)
    func leafIsAccepting(_ leaf: Int32, _ state: LeafState) -> Bool {
        switch leaves[Int(leaf)] {
        case .string(let dfa): dfa.isAccepting(Int32(truncatingIfNeeded: state.low))
        case .number(let number): number.isAccepting(state)
        }
    }

    @inline(__always)
    func leafIsFinal(_ leaf: Int32, _ state: LeafState) -> Bool {
        switch leaves[Int(leaf)] {
        case .string(let dfa): dfa.isFinal(Int32(truncatingIfNeeded: state.low))
        case .number(let number): number.isFinal(state)
        }
    }

    /// Whether the leaf's automaton has a closing byte (strings, literals):
    /// its masks can be computed once per state, independent of what
    /// surrounds it.
    func leafIsClosed(_ leaf: Int32) -> Bool {
        if case .string = leaves[Int(leaf)] { return true }
        return false
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
