extension ByteDFA {
    /// The automaton that runs `automata` side by side and accepts where
    /// `accepts` says so, given which of them accept (the product
    /// construction): intersection is `allSatisfy`, difference `[0] && !$0[1]`.
    ///
    /// Exists so the constraints JSON Schema puts on one string — a choice
    /// list, several `pattern`s, a `format`, `minLength`/`maxLength`, keys
    /// that must not be a declared property — become the one automaton a
    /// string leaf runs. A component that has died stays dead (a missing
    /// component reads as not accepting), so a difference keeps running its
    /// first component after the second has refused. Throws past
    /// ``maximumStateCount`` states, and past ``maximumCombineWork``
    /// component transitions (each state of the product costs one per
    /// automaton and joint byte class: many automata at once, say a schema with hundreds of
    /// `patternProperties`, would otherwise take minutes before the state
    /// limit); a result that accepts nothing has ``start`` ``dead``.
    package static func combine(
        _ automata: [ByteDFA], subject: String, workLimit: Int = maximumCombineWork, accepts: ([Bool]) -> Bool
    ) throws(GuidedGenerationError) -> ByteDFA {
        let count = automata.count
        var work = 0
        // Product states as `count` components each, flat; indexed by the
        // components in mixed radix (a component's dead state as 0) in a
        // flat table where the whole product space is small (the common
        // case: a universe less the declared names, one pattern with a
        // length), else by the components' array.
        var components: [Int32] = []
        var strides: [Int] = []
        var space = 1
        for automaton in automata {
            strides.append(space)
            let (product, overflow) = space.multipliedReportingOverflow(by: automaton.stateCount + 1)
            space = overflow ? Int.max : product
        }
        var directIndex = [Int32](repeating: -1, count: space <= Self.directProductLimit ? space : 0)
        var arrayIndex: [[Int32]: Int32] = [:]
        var targets: [Int32] = []
        var accepting: [Bool] = []
        let limit = maximumStateCount * 4
        func state(_ next: [Int32]) throws(GuidedGenerationError) -> Int32 {
            var key = 0
            if !directIndex.isEmpty {
                for position in 0..<count { key &+= (Int(next[position]) &+ 1) &* strides[position] }
                if key == 0 { return ByteDFA.dead }
                let known = directIndex[key]
                if known >= 0 { return known }
            } else {
                if next.allSatisfy({ $0 < 0 }) { return ByteDFA.dead }
                if let known = arrayIndex[next] { return known }
            }
            guard accepting.count < limit else { throw ByteNFA.tooLarge(subject, limit: maximumStateCount) }
            let id = Int32(accepting.count)
            if !directIndex.isEmpty { directIndex[key] = id } else { arrayIndex[next] = id }
            components.append(contentsOf: next)
            accepting.append(accepts((0..<count).map { automata[$0].isAccepting(next[$0]) }))
            return id
        }
        var next = [Int32](repeating: ByteDFA.dead, count: count)
        for position in 0..<count { next[position] = automata[position].start }
        let start = try state(next)
        guard start >= 0 else { return ByteDFA.literals([]) }
        // Bytes that every component maps to the same class lead every
        // product state to the same state: one transition per joint class.
        var jointClass = [UInt8](repeating: 0, count: 256)
        var representatives: [UInt8] = []
        var classOfSignature: [[UInt8]: UInt8] = [:]
        for byte in 0..<256 {
            let signature = automata.map { $0.byteClasses[byte] }
            if let known = classOfSignature[signature] {
                jointClass[byte] = known
            } else {
                let id = UInt8(representatives.count)
                classOfSignature[signature] = id
                representatives.append(UInt8(byte))
                jointClass[byte] = id
            }
        }
        // The components' transitions in one array, each automaton's at an
        // offset, and each one's class of each representative byte, so a
        // step reads flat arrays (reading a ``ByteDFA`` out of `automata`
        // would retain and release its arrays at every transition).
        var table: [Int32] = []
        var offsets: [Int] = []
        var classCounts: [Int] = []
        var classes: [Int] = []
        for automaton in automata {
            offsets.append(table.count)
            classCounts.append(automaton.classCount)
            table.append(contentsOf: automaton.transitions)
        }
        for byte in representatives {
            for automaton in automata { classes.append(Int(automaton.byteClasses[Int(byte)])) }
        }
        var cursor = 0
        while cursor < accepting.count {
            let base = cursor * count
            cursor += 1
            work += representatives.count * count
            guard work <= workLimit else {
                throw .unsupportedGuide("\(subject) combines \(count) automata, more than \(workLimit) transitions of work")
            }
            for representative in representatives.indices {
                for position in 0..<count {
                    let current = components[base + position]
                    next[position] =
                        current < 0
                        ? ByteDFA.dead
                        : table[offsets[position] + Int(current) * classCounts[position] + classes[representative * count + position]]
                }
                targets.append(try state(next))
            }
        }
        let product = TransitionTable(
            classOfByte: jointClass, classCount: representatives.count, targets: targets, accepting: accepting, start: start
        )
        let minimal = product.pruned().minimized()
        guard minimal.stateCount <= maximumStateCount else {
            throw ByteNFA.tooLarge(subject, limit: maximumStateCount)
        }
        return ByteDFA(minimal.canonical())
    }

    /// The largest product space (each component's states and its dead
    /// state, multiplied) that ``combine(_:subject:accepts:)`` indexes in a
    /// flat table (1 MiB) rather than by hashing the components.
    static let directProductLimit = 1 << 18

    /// The most component transitions ``combine(_:subject:accepts:)``
    /// computes before it gives up: room for the state limit with three
    /// automata (universe, names, one pattern), a fraction of a second.
    package static let maximumCombineWork = 1 << 25

    /// Strings every one of `automata` accepts.
    package static func intersection(_ automata: [ByteDFA], subject: String, workLimit: Int = maximumCombineWork) throws(GuidedGenerationError)
        -> ByteDFA
    {
        guard automata.count > 1 else { return automata[0] }
        return try combine(automata, subject: subject, workLimit: workLimit) { $0.allSatisfy { $0 } }
    }

    /// The most content bytes (quotes not counted) of any string the
    /// automaton accepts, or nil when there is no limit (a loop).
    func longestLength() -> Int? {
        guard start >= 0 else { return 0 }
        // Longest path in the graph of live states, which must have no cycle.
        var longest = [Int?](repeating: nil, count: stateCount)
        var onPath = [Bool](repeating: false, count: stateCount)
        func visit(_ state: Int32) -> Int? {
            if let known = longest[Int(state)] { return known }
            if onPath[Int(state)] { return nil }
            onPath[Int(state)] = true
            defer { onPath[Int(state)] = false }
            var best = 0
            for byte in 0..<256 {
                let next = self.next(state, UInt8(byte))
                guard next >= 0 else { continue }
                guard let rest = visit(next) else { return nil }
                best = max(best, rest + 1)
            }
            longest[Int(state)] = best
            return best
        }
        return visit(start).map { max($0 - 2, 0) }
    }

    /// Whether the automaton accepts nothing at all.
    package var isEmpty: Bool { start < 0 }

    /// Any JSON string in canonical encoding (``JSONStringEncoding``): the
    /// spelling the model writes for a string with any constraint.
    package static let canonicalString: ByteDFA = {
        do { return try jsonString(node: .repetition(.scalars(ScalarSet.all), min: 0, max: nil), subject: "any string") } catch {
            preconditionFailure("the automaton for any canonical string cannot be built: \(error)")
        }
    }()

    /// A JSON string (canonical encoding) of `minimum` to `maximum`
    /// Unicode scalars.
    package static func jsonString(length minimum: Int, _ maximum: Int?) throws(GuidedGenerationError) -> ByteDFA {
        try BuiltAutomata.automaton(for: .length(minimum, maximum)) { () throws(GuidedGenerationError) in
            try jsonString(
                node: .repetition(.scalars(ScalarSet.all), min: minimum, max: maximum),
                subject: "a string of \(minimum) to \(maximum.map(String.init) ?? "any number of") characters"
            )
        }
    }

    /// A JSON string (with quotes, canonical encoding) whose content is `node`.
    static func jsonString(node: PatternNode, subject: String) throws(GuidedGenerationError) -> ByteDFA {
        var nfa = ByteNFA(stateLimit: maximumNFAStateCount, subject: subject)
        let start = try nfa.addState()
        let open = try nfa.addState()
        let quote = UInt8(ascii: "\"")
        nfa.addEdge(start, quote...quote, open)
        let close = try nfa.add(node, from: open)
        nfa.accept = try nfa.addState()
        nfa.addEdge(close, quote...quote, nfa.accept)
        return try build(nfa, from: start)
    }
}
