/// A minimal deterministic automaton over bytes for one JSON leaf: a string
/// value (with its quotes) or a literal such as `true` or `null`.
///
/// Exists so the matcher can decide in O(1) per byte, token by token,
/// whether a vocabulary token keeps the output inside the leaf's language.
/// Every state reachable from ``start`` is live (some accepting state is
/// reachable from it), so a walk that never hits ``dead`` can always be
/// completed; the automaton is minimal and canonically numbered (``start``
/// is 0, states in breadth-first order), so two automata for the same
/// language compare equal.
///
/// Strings are matched in their canonical JSON encoding (see
/// ``JSONStringEncoding``) except for ``anyJSONString``, which admits every
/// valid spelling.
package struct ByteDFA: Sendable, Hashable {
    /// The state after a byte that no string in the language continues with.
    package static let dead: Int32 = -1
    /// The most states a pattern (or a combination of leaves) may need;
    /// a list of string choices has its own, ``maximumChoiceStateCount``.
    package static let maximumStateCount = 10_000
    /// The most NFA states built on the way (patterns with large counts).
    static let maximumNFAStateCount = 200_000
    /// The most states a list of string choices may need. Higher than
    /// ``maximumStateCount`` because a choice list cannot blow up: its
    /// automaton is at most the trie of its words, one state per distinct
    /// prefix, so the limit bounds memory (a row of transitions a state),
    /// not compile time. Real vocabularies need it: the 2,461 variable
    /// names of SchemaStore's CryEngine project schema take 31,434 trie
    /// states, 16,829 once shared suffixes merge.
    package static let maximumChoiceStateCount = 60_000

    /// The initial state (0), or ``dead`` for an automaton that accepts nothing.
    package let start: Int32
    /// The class of each byte: bytes of one class lead from every state to
    /// the same state.
    @usableFromInline let byteClasses: [UInt8]
    @usableFromInline let classCount: Int
    /// `transitions[state * classCount + byteClasses[byte]]`.
    @usableFromInline let transitions: [Int32]
    /// Per state: ``acceptingFlag`` and ``finalFlag``.
    @usableFromInline let flags: [UInt8]
    @inlinable static var acceptingFlag: UInt8 { 1 }
    @inlinable static var finalFlag: UInt8 { 2 }

    package var stateCount: Int { flags.count }

    init(_ table: TransitionTable) {
        start = table.start
        byteClasses = table.classOfByte
        classCount = table.classCount
        transitions = table.targets
        var flags = [UInt8](repeating: 0, count: table.stateCount)
        for state in 0..<table.stateCount where table.accepting[state] {
            let hasExit = (0..<table.classCount).contains { table.target(state, $0) >= 0 }
            flags[state] = hasExit ? Self.acceptingFlag : Self.acceptingFlag | Self.finalFlag
        }
        self.flags = flags
    }

    /// Whether every value starts with a quote and ends at its closing one:
    /// the start state moves on `"` alone and no complete value goes on.
    /// Such languages are self-delimiting: no value of one begins a value
    /// of another.
    var isQuotedString: Bool {
        guard start >= 0 else { return false }
        let quote = Int(byteClasses[Int(UInt8(ascii: "\""))])
        for byteClass in 0..<classCount where byteClass != quote {
            if transitions[Int(start) * classCount + byteClass] != Self.dead { return false }
        }
        return (0..<Int32(stateCount)).allSatisfy { !isAccepting($0) || isFinal($0) }
    }

    /// Calls `body` with ``byteClasses``, ``transitions`` and ``flags`` as
    /// buffers, for loops that step through many bytes.
    func withTables<Result>(
        _ body: (_ classes: UnsafeBufferPointer<UInt8>, _ transitions: UnsafeBufferPointer<Int32>, _ flags: UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        byteClasses.withUnsafeBufferPointer { classes in
            transitions.withUnsafeBufferPointer { transitions in
                flags.withUnsafeBufferPointer { flags in body(classes, transitions, flags) }
            }
        }
    }

    /// The state after `byte`, or ``dead``: one table lookup. `state` must
    /// be ``dead`` or a state of this automaton.
    @inlinable
    package func next(_ state: Int32, _ byte: UInt8) -> Int32 {
        guard state >= 0 else { return Self.dead }
        return transitions[Int(state) &* classCount &+ Int(byteClasses[Int(byte)])]
    }

    /// Whether the bytes read so far form a complete value.
    @inlinable
    package func isAccepting(_ state: Int32) -> Bool {
        state >= 0 && flags[Int(state)] & Self.acceptingFlag != 0
    }

    /// Accepting and no byte leads anywhere (e.g. right after a string's
    /// closing quote): the value is complete and cannot go on.
    @inlinable
    package func isFinal(_ state: Int32) -> Bool {
        state >= 0 && flags[Int(state)] & Self.finalFlag != 0
    }

    /// The state after `bytes` from `state` (``dead`` once any byte is refused).
    package func walk(_ bytes: some Sequence<UInt8>, from state: Int32) -> Int32 {
        var current = state
        for byte in bytes {
            current = next(current, byte)
            if current < 0 { return Self.dead }
        }
        return current
    }

    /// Whether `bytes`, all of them, are a value of this language.
    package func accepts(_ bytes: some Sequence<UInt8>) -> Bool {
        isAccepting(walk(bytes, from: start))
    }

    // MARK: Construction

    /// Determinizes, prunes, minimizes and canonicalizes what `nfa` accepts
    /// from `start`.
    static func build(_ nfa: ByteNFA, from start: Int32, stateLimit: Int = maximumStateCount) throws(GuidedGenerationError) -> ByteDFA {
        // Subset construction may need more states than the minimal
        // automaton (a trie of choices before suffixes merge).
        let raw = try TransitionTable.determinize(nfa, from: start, stateLimit: stateLimit * 4)
        let minimal = raw.pruned().minimized()
        guard minimal.stateCount <= stateLimit else {
            throw ByteNFA.tooLarge(nfa.subject, limit: stateLimit)
        }
        return ByteDFA(minimal.canonical())
    }

    // MARK: Leaves

    /// Any JSON string value including its two quotes: raw UTF-8 that is
    /// valid (no overlong forms, no surrogates, nothing above U+10FFFF), no
    /// raw bytes below 0x20, the escapes `\"` `\\` `\/` `\b` `\f` `\n` `\r`
    /// `\t`, and `\uXXXX` (hex digits of either case) outside D800–DFFF:
    /// surrogate escapes, even paired ones, are refused.
    package static let anyJSONString: ByteDFA = {
        do {
            var nfa = ByteNFA(stateLimit: maximumNFAStateCount, subject: "any JSON string")
            let start = try nfa.addState()
            let body = try nfa.addState()
            nfa.accept = try nfa.addState()
            let quote = UInt8(ascii: "\"")
            nfa.addEdge(start, quote...quote, body)
            nfa.addEdge(body, quote...quote, nfa.accept)
            // Raw characters.
            try nfa.addScalars(ScalarSet.all.subtracting(JSONStringEncoding.escapedScalars), from: body, to: body)
            // Short escapes.
            let backslash = try nfa.addState()
            nfa.addEdge(body, UInt8(ascii: "\\")...UInt8(ascii: "\\"), backslash)
            try nfa.addWords("\"\\/bfnrt".utf8.map { [$0] }, from: backslash, to: body)
            // \uXXXX outside D800–DFFF.
            let hex: [ClosedRange<UInt8>] = [
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "F"),
                UInt8(ascii: "a")...UInt8(ascii: "f"),
            ]
            let u = try nfa.addState()
            nfa.addEdge(backslash, UInt8(ascii: "u")...UInt8(ascii: "u"), u)
            let twoLeft = try nfa.addState()
            let threeLeft = try nfa.addState()
            let oneLeft = try nfa.addState()
            let afterD = try nfa.addState()
            // First digit other than d/D: any three hex digits follow.
            for range in [
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "C"),
                UInt8(ascii: "E")...UInt8(ascii: "F"), UInt8(ascii: "a")...UInt8(ascii: "c"),
                UInt8(ascii: "e")...UInt8(ascii: "f"),
            ] {
                nfa.addEdge(u, range, threeLeft)
            }
            // d/D: the second digit must be 0–7.
            nfa.addEdge(u, UInt8(ascii: "D")...UInt8(ascii: "D"), afterD)
            nfa.addEdge(u, UInt8(ascii: "d")...UInt8(ascii: "d"), afterD)
            nfa.addEdge(afterD, UInt8(ascii: "0")...UInt8(ascii: "7"), twoLeft)
            for range in hex {
                nfa.addEdge(threeLeft, range, twoLeft)
                nfa.addEdge(twoLeft, range, oneLeft)
                nfa.addEdge(oneLeft, range, body)
            }
            return try build(nfa, from: start)
        } catch {
            preconditionFailure("the automaton for any JSON string cannot be built: \(error)")
        }
    }()

    /// A JSON string value (with quotes) whose decoded content matches
    /// `pattern` in full, in canonical encoding only. The dialect is
    /// described at ``PatternParser``; unsupported constructs and malformed
    /// patterns throw ``GuidedGenerationError/unsupportedGuide(_:)``, a
    /// pattern that matches nothing throws
    /// ``GuidedGenerationError/unsatisfiable(_:)``.
    package static func jsonString(matching pattern: String, search: Bool = false) throws(GuidedGenerationError) -> ByteDFA {
        try BuiltAutomata.automaton(for: .pattern(pattern, search: search)) { () throws(GuidedGenerationError) in
            try buildJSONString(matching: pattern, search: search)
        }
    }

    private static func buildJSONString(matching pattern: String, search: Bool) throws(GuidedGenerationError) -> ByteDFA {
        let node = search ? try PatternParser.parseSearch(pattern) : try PatternParser.parse(pattern)
        let dfa = try jsonString(node: node, subject: "pattern \"\(pattern)\"")
        guard dfa.start >= 0 else {
            throw .unsatisfiable("pattern \"\(pattern)\" matches no string")
        }
        return dfa
    }

    /// A JSON string value (with quotes) whose decoded content is exactly
    /// one of `choices`, canonical encoding. An empty list throws
    /// ``GuidedGenerationError/unsatisfiable(_:)``.
    package static func jsonString(oneOf choices: [String]) throws(GuidedGenerationError) -> ByteDFA {
        guard !choices.isEmpty else {
            throw .unsatisfiable("an empty list of string choices admits no value")
        }
        var nfa = ByteNFA(stateLimit: maximumNFAStateCount, subject: "a list of \(choices.count) string choices")
        let start = try nfa.addState()
        nfa.accept = try nfa.addState()
        try nfa.addWords(choices.map { JSONStringEncoding.quoted($0) }, from: start, to: nfa.accept)
        return try build(nfa, from: start, stateLimit: maximumChoiceStateCount)
    }

    /// Exactly one of these raw byte strings (`true`/`false`, `null`). An
    /// empty list gives an automaton whose ``start`` is ``dead``; an empty
    /// word is accepted at the start.
    package static func literals(_ words: [[UInt8]]) -> ByteDFA {
        do {
            var nfa = ByteNFA(stateLimit: maximumNFAStateCount, subject: "a list of \(words.count) literals")
            let start = try nfa.addState()
            nfa.accept = try nfa.addState()
            try nfa.addWords(words, from: start, to: nfa.accept)
            return try build(nfa, from: start)
        } catch {
            preconditionFailure("the automaton for \(words.count) literals is too large: \(error)")
        }
    }
}

extension ByteDFA {
    /// The automaton of what may follow once `state` is reached (the
    /// residual language), numbered so that two automata with the same
    /// residual give equal values: states breadth-first from `state` along
    /// bytes in increasing order, bytes in classes by how they move those
    /// states, numbered by their first byte.
    ///
    /// Exists so the masks of a state can be kept by what the state
    /// accepts rather than by the automaton it belongs to: a key set's
    /// state after an undeclared prefix, a pattern's after its fixed start,
    /// and a format's states recur across schemas as residuals of
    /// different automata (``TokenVocabulary/automatonMasks``). An
    /// automaton that is not minimal only shares less.
    package func residual(from state: Int32) -> ByteDFA {
        // (This automaton's classes are numbered by their lowest byte, as
        // `canonical()` numbers them: renumbering from `state` keeps that.)
        let table = TransitionTable(
            classOfByte: byteClasses, classCount: classCount, targets: transitions,
            accepting: (0..<Int32(stateCount)).map(isAccepting), start: state
        )
        return ByteDFA(table.canonical())
    }
}

/// Automata built from a pattern, a length bound or all of a string's
/// constraints, by what they were built from. Exists because building one
/// (parse, subset construction, product, minimization) is most of what
/// compiling a string costs, and the same inputs come back: the schema
/// reader checks a pattern, the disjointness test and the compiler build
/// it again, and schemas share their patterns (identifiers, dates),
/// lengths and whole strings (a format with a length bound). Only
/// automata are kept, never errors: up to ``capacity`` of them and
/// ``transitionCapacity`` transitions (16 MiB), by ``KeptGenerations``.
enum BuiltAutomata {
    enum Key: Hashable, Sendable {
        case pattern(String, search: Bool)
        case length(Int, Int?)
        /// Everything a schema says of one string, where that combines
        /// several automata (``GrammarCompiler``'s string leaves).
        case string(StringNode)
    }

    static let capacity = 1024
    static let transitionCapacity = 1 << 22
    private static let kept = KeptGenerations<Key, ByteDFA>(capacity: capacity, weightCapacity: transitionCapacity) {
        $0.transitions.count
    }

    /// The automaton kept for `key`, or the one `build` makes, then kept.
    static func automaton(for key: Key, build: () throws(GuidedGenerationError) -> ByteDFA) throws(GuidedGenerationError) -> ByteDFA {
        try kept.value(for: key, make: build)
    }

    /// The automaton kept for `key`, if any.
    static func known(_ key: Key) -> ByteDFA? {
        kept.value(for: key)
    }

    static func keep(_ automaton: ByteDFA, for key: Key) {
        kept.keep(automaton, for: key)
    }
}
