/// Where a string automaton's characters begin, and how many characters
/// each of its states may still write: what a string with a length bound
/// (JSON Schema's `minLength`/`maxLength`) needs to count its characters
/// beside the automaton rather than inside it.
///
/// Exists because a length is counted in characters while an automaton
/// reads bytes. Written into the automaton (the product with a string of
/// `minimum` to `maximum` characters) a bound multiplies the states by the
/// bound: a pattern of three states under `maxLength: 255` became hundreds,
/// each one a walk of the vocabulary on its first visit. Counted beside it
/// (``Grammar/Leaf/counted``), the states stay the pattern's own and the
/// count is a number in the leaf's state; ``fewest`` and ``most`` keep the
/// count from reaching a state the bounds cannot complete.
///
/// Only for automata where that is exact (``init(_:maximum:)``): every
/// state sits at one place in the JSON string's syntax, so whether a byte
/// starts a character depends on the state alone, and the character counts
/// that complete a state leave no gaps below the maximum, so a count
/// between ``fewest`` and ``most`` can always be reached.
struct CharacterCounts: Sendable, Hashable {
    /// Per state: whether it is between two characters inside the string,
    /// so a byte read there starts a character (unless it is the closing
    /// quote; a UTF-8 continuation byte cannot come there).
    let startsCharacter: [Bool]
    /// Per state: the fewest characters written from it to the end of the
    /// string.
    let fewest: [UInt32]
    /// Per state: the most, ``unlimited`` where a loop allows any number.
    let most: [UInt32]

    static let unlimited = UInt32.max

    /// Whether `byte`, read in a state that ``startsCharacter``, starts a
    /// character: anything but a UTF-8 continuation byte or the closing
    /// quote.
    @inline(__always)
    static func startsCharacter(_ byte: UInt8) -> Bool {
        byte & 0xC0 != 0x80 && byte != UInt8(ascii: "\"")
    }

    /// The counts of the free string (``ByteDFA/anyJSONString``), whose
    /// counts have no gaps at any bound.
    static let anyString: CharacterCounts = {
        guard let counts = CharacterCounts(ByteDFA.anyJSONString, maximum: nil) else {
            preconditionFailure("the free string's characters cannot be counted")
        }
        return counts
    }()

    /// The counts of `automaton`, a JSON string (quotes included) in any
    /// spelling; nil where counting beside it would not be exact for a
    /// string of at most `maximum` characters: a state reached both
    /// between characters and inside one (in the middle of an escape), or a
    /// state from which some count between its fewest and its most (up to
    /// `maximum`) cannot be written.
    init?(_ automaton: ByteDFA, maximum: UInt64?) {
        let stateCount = automaton.stateCount
        guard automaton.start >= 0 else { return nil }
        // Each state's place in the JSON string's syntax: the state of the
        // free string's automaton reached with it, which must be the same
        // along every path.
        let syntax = ByteDFA.anyJSONString
        let between = syntax.next(syntax.start, UInt8(ascii: "\""))
        // One byte of each class of bytes that both automata, and the
        // test for a character's first byte, treat alike.
        var representatives: [UInt8] = []
        var signatures = Set<Int>()
        for byte in UInt8.min...UInt8.max {
            let signature =
                Int(automaton.byteClasses[Int(byte)]) << 16 | Int(syntax.byteClasses[Int(byte)]) << 1 | (Self.startsCharacter(byte) ? 1 : 0)
            if signatures.insert(signature).inserted { representatives.append(byte) }
        }
        var place = [Int32](repeating: ByteDFA.dead, count: stateCount)
        place[Int(automaton.start)] = syntax.start
        var queue: [Int32] = [automaton.start]
        var head = 0
        // The edges, once per target and weight: `(target, counts)`.
        var edges = [[(target: Int32, counts: Bool)]](repeating: [], count: stateCount)
        while head < queue.count {
            let state = queue[head]
            head += 1
            let here = place[Int(state)]
            for byte in representatives {
                let target = automaton.next(state, byte)
                guard target >= 0 else { continue }
                let after = syntax.next(here, byte)
                guard after >= 0 else { return nil }
                if place[Int(target)] == ByteDFA.dead {
                    place[Int(target)] = after
                    queue.append(target)
                } else if place[Int(target)] != after {
                    return nil
                }
                let counts = here == between && Self.startsCharacter(byte)
                if !edges[Int(state)].contains(where: { $0.target == target && $0.counts == counts }) {
                    edges[Int(state)].append((target, counts))
                }
            }
        }
        let startsCharacter = place.map { $0 == between }

        // Fewest: a shortest path with edges of weight 0 or 1, from each
        // state to acceptance (0-1 breadth-first search, backwards).
        var predecessors = [[(source: Int32, counts: Bool)]](repeating: [], count: stateCount)
        for state in 0..<stateCount {
            for edge in edges[state] { predecessors[Int(edge.target)].append((Int32(state), edge.counts)) }
        }
        var fewest = [UInt32](repeating: Self.unlimited, count: stateCount)
        var deque: [Int32] = []
        var front: [Int32] = []
        for state in 0..<stateCount where automaton.isAccepting(Int32(state)) {
            fewest[state] = 0
            front.append(Int32(state))
        }
        // Two lists as a deque: `front` (popped from its end) holds the
        // states at the current distance, `deque` those one further.
        while !front.isEmpty || !deque.isEmpty {
            if front.isEmpty {
                front = deque.reversed()
                deque.removeAll()
            }
            let state = front.removeLast()
            let distance = fewest[Int(state)]
            for (source, counts) in predecessors[Int(state)] {
                let candidate = distance + (counts ? 1 : 0)
                guard candidate < fewest[Int(source)] else { continue }
                fewest[Int(source)] = candidate
                if counts { deque.append(source) } else { front.append(source) }
            }
        }

        // Most: backwards from acceptance in the order states run out of
        // successors (Kahn); a state never reached that way reaches a
        // loop, and every loop writes a character (it returns to the same
        // place in the syntax), so it may write any number.
        var most = [UInt32](repeating: Self.unlimited, count: stateCount)
        var best = [UInt32](repeating: 0, count: stateCount)
        var pending = edges.map(\.count)
        var ready = (0..<stateCount).filter { pending[$0] == 0 }.map(Int32.init)
        while let state = ready.popLast() {
            most[Int(state)] = best[Int(state)]
            for (source, counts) in predecessors[Int(state)] {
                best[Int(source)] = max(best[Int(source)], best[Int(state)] + (counts ? 1 : 0))
                pending[Int(source)] -= 1
                if pending[Int(source)] == 0 { ready.append(source) }
            }
        }

        // No gaps: each state's counts are the union of its edges' (shifted
        // by the character the edge writes), so they are every count from
        // its fewest to its most (as far as `maximum`) when, state by
        // state, the edges' ranges leave no gap between them.
        if let maximum {
            let limit = UInt64(Self.unlimited) - 1
            let cap = min(maximum, limit)
            var ranges: [(low: UInt64, high: UInt64)] = []
            for state in 0..<stateCount {
                ranges.removeAll(keepingCapacity: true)
                if automaton.isAccepting(Int32(state)) { ranges.append((0, 0)) }
                for edge in edges[state] {
                    let shift: UInt64 = edge.counts ? 1 : 0
                    let low = UInt64(fewest[Int(edge.target)]) + shift
                    let top = most[Int(edge.target)]
                    let high = top == Self.unlimited ? cap : min(UInt64(top) + shift, cap)
                    if low <= high { ranges.append((low, high)) }
                }
                ranges.sort { $0.low < $1.low }
                var reach: UInt64? = nil
                for range in ranges {
                    if let covered = reach, range.low > covered + 1 { return nil }
                    reach = max(reach ?? 0, range.high)
                }
            }
        }
        self.startsCharacter = startsCharacter
        self.fewest = fewest
        self.most = most
    }

    /// Whether a string starting in `state` with `count` characters
    /// written can end with `minimum` to `maximum` characters.
    func canComplete(_ state: Int32, count: UInt64, minimum: UInt64, maximum: UInt64) -> Bool {
        guard count <= maximum, UInt64(fewest[Int(state)]) <= maximum - count else { return false }
        let top = most[Int(state)]
        return top == Self.unlimited || count + UInt64(top) >= minimum
    }
}
