/// A nondeterministic automaton over bytes, with byte-range and epsilon
/// edges, built Thompson-style from a ``PatternNode``, from literal words,
/// or edge by edge.
///
/// Exists as the easy-to-build intermediate form between a pattern and a
/// ``ByteDFA``: every scalar class is lowered here to its canonical JSON
/// spelling (``JSONStringEncoding``: escape sequences for quotes,
/// backslashes and controls, raw UTF-8 byte ranges for the rest), so the
/// determinized automaton reads the bytes a model actually writes.
struct ByteNFA {
    /// A transition on any byte in `low...high`.
    struct Edge {
        var low: UInt8
        var high: UInt8
        var target: Int32
    }

    private(set) var edges: [[Edge]] = []
    private(set) var epsilons: [[Int32]] = []
    /// The one accepting state (set by whoever builds the automaton).
    var accept: Int32 = 0
    /// The most states this automaton may grow to.
    let stateLimit: Int
    /// What is being built, for the error past ``stateLimit``
    /// (`pattern "…"`).
    let subject: String

    init(stateLimit: Int, subject: String) {
        self.stateLimit = stateLimit
        self.subject = subject
    }

    var stateCount: Int { edges.count }

    /// The error for an automaton over `limit` states.
    static func tooLarge(_ subject: String, limit: Int) -> GuidedGenerationError {
        .unsupportedGuide("\(subject) needs more than \(limit) automaton states")
    }

    mutating func addState() throws(GuidedGenerationError) -> Int32 {
        guard edges.count < stateLimit else {
            throw Self.tooLarge(subject, limit: stateLimit)
        }
        edges.append([])
        epsilons.append([])
        return Int32(edges.count - 1)
    }

    mutating func addEdge(_ from: Int32, _ bytes: ClosedRange<UInt8>, _ to: Int32) {
        edges[Int(from)].append(Edge(low: bytes.lowerBound, high: bytes.upperBound, target: to))
    }

    mutating func addEpsilon(_ from: Int32, _ to: Int32) {
        epsilons[Int(from)].append(to)
    }

    /// Byte-range paths from `from` to `to`, one range per byte.
    mutating func addSequence(_ ranges: [ClosedRange<UInt8>], from: Int32, to: Int32) throws(GuidedGenerationError) {
        guard let last = ranges.last else {
            addEpsilon(from, to)
            return
        }
        var current = from
        for range in ranges.dropLast() {
            let next = try addState()
            addEdge(current, range, next)
            current = next
        }
        addEdge(current, last, to)
    }

    /// Paths from `from` to `to` spelling exactly `words`, sharing common
    /// prefixes (a trie whose leaves are all `to`).
    mutating func addWords(_ words: [[UInt8]], from: Int32, to: Int32) throws(GuidedGenerationError) {
        try addWords(Self.inTrieOrder(words)[...], depth: 0, from: from, to: to)
    }

    /// `words` in the order the trie is laid out from: sorted, so that a
    /// word ending at a node comes before the words that go on.
    private static func inTrieOrder(_ words: [[UInt8]]) -> [[UInt8]] {
        words.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// `words`, sorted, all sharing their first `depth` bytes, spelled from
    /// the trie node `from`.
    private mutating func addWords(_ words: ArraySlice<[UInt8]>, depth: Int, from: Int32, to: Int32) throws(GuidedGenerationError) {
        var index = words.startIndex
        // Sorted, so words ending here come first.
        if index < words.endIndex, words[index].count == depth {
            addEpsilon(from, to)
            while index < words.endIndex, words[index].count == depth {
                index += 1
            }
        }
        // Runs of bytes that end every word through them go straight to
        // `to` as one range.
        var leafRun: ClosedRange<UInt8>?
        while index < words.endIndex {
            let byte = words[index][depth]
            var groupEnd = index
            var allEnd = true
            while groupEnd < words.endIndex, words[groupEnd][depth] == byte {
                allEnd = allEnd && words[groupEnd].count == depth + 1
                groupEnd += 1
            }
            if allEnd {
                if let run = leafRun, run.upperBound &+ 1 == byte {
                    leafRun = run.lowerBound...byte
                } else {
                    if let run = leafRun {
                        addEdge(from, run, to)
                    }
                    leafRun = byte...byte
                }
            } else {
                let child = try addState()
                addEdge(from, byte...byte, child)
                try addWords(words[index..<groupEnd], depth: depth + 1, from: child, to: to)
            }
            index = groupEnd
        }
        if let run = leafRun {
            addEdge(from, run, to)
        }
    }

    /// The canonical JSON spelling of one scalar of a set, as
    /// ``addScalars(_:from:to:)`` lays it out.
    private struct Spelling {
        /// The escape sequences, in trie order (``inTrieOrder(_:)``).
        var escapes: [[UInt8]]
        /// The raw UTF-8 byte-range sequences.
        var sequences: [[ClosedRange<UInt8>]]
    }

    /// The spelling of each scalar set lowered so far. A count such as
    /// `a{1000}` lowers one set a thousand times, and working its spelling
    /// out (set operations, UTF-8 ranges) costs far more than laying the
    /// edges: it was most of the time of building a large automaton in a
    /// debug build (`(a{1000}){199}`: 1.3 s). No larger than the edges laid
    /// for each set at least once.
    private var spellings: [ScalarSet: Spelling] = [:]

    /// Paths from `from` to `to` for one decoded scalar of `set`, in its
    /// canonical JSON spelling.
    mutating func addScalars(_ set: ScalarSet, from: Int32, to: Int32) throws(GuidedGenerationError) {
        let spelling: Spelling
        if let known = spellings[set] {
            spelling = known
        } else {
            spelling = Self.spelling(of: set)
            spellings[set] = spelling
        }
        if !spelling.escapes.isEmpty {
            try addWords(spelling.escapes[...], depth: 0, from: from, to: to)
        }
        for sequence in spelling.sequences {
            try addSequence(sequence, from: from, to: to)
        }
    }

    private static func spelling(of set: ScalarSet) -> Spelling {
        var escapes: [[UInt8]] = []
        for range in set.intersection(JSONStringEncoding.escapedScalars).ranges {
            for scalar in range {
                if let spelling = JSONStringEncoding.escape(scalar) {
                    escapes.append(spelling)
                }
            }
        }
        escapes = inTrieOrder(escapes)
        var sequences: [[ClosedRange<UInt8>]] = []
        for range in set.subtracting(JSONStringEncoding.escapedScalars).ranges {
            sequences.append(contentsOf: UTF8Ranges.sequences(for: range))
        }
        return Spelling(escapes: escapes, sequences: sequences)
    }

    /// Paths from `from` for the canonical JSON spelling of `node`'s
    /// strings; returns where they end. Never adds an edge into `from`, so
    /// constructs can share their start state.
    mutating func add(_ node: PatternNode, from: Int32) throws(GuidedGenerationError) -> Int32 {
        switch node {
        case .empty:
            return from
        case .scalars(let set):
            let end = try addState()
            try addScalars(set, from: from, to: end)
            return end
        case .sequence(let parts):
            var current = from
            for part in parts {
                current = try add(part, from: current)
            }
            return current
        case .alternation(let branches):
            let end = try addState()
            for branch in branches {
                let branchEnd = try add(branch, from: from)
                addEpsilon(branchEnd, end)
            }
            return end
        case .repetition(let body, let min, let max):
            var current = from
            for _ in 0..<min {
                current = try add(body, from: current)
            }
            guard let max else {
                // A fresh loop head, so the loop never reaches back into `from`.
                let head = try addState()
                addEpsilon(current, head)
                let bodyEnd = try add(body, from: head)
                addEpsilon(bodyEnd, head)
                return head
            }
            guard max > min else { return current }
            let end = try addState()
            for _ in min..<max {
                addEpsilon(current, end)
                current = try add(body, from: current)
            }
            addEpsilon(current, end)
            return end
        }
    }
}
