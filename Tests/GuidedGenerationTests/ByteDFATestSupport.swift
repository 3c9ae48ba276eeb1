import Foundation
import GuidedGeneration
import PropertyBased
import Testing

/// Oracles and structural checks shared by the ``ByteDFA`` tests.
enum DFACheck {
    /// `content` as a JSON string, quotes included, the way JSONEncoder
    /// writes it without escaping `/`: the canonical encoding.
    static func encoded(_ content: String) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(content)).map { Array($0) } ?? []
    }

    /// The string a JSON string value decodes to, or `nil` when it is not one.
    static func decoded(_ bytes: [UInt8]) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) as? String
    }

    /// `pattern` anchored at both ends, so that lazy quantifiers cannot
    /// stop a match early.
    static func wholeMatchRegex(_ pattern: String) throws -> NSRegularExpression {
        try NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z")
    }

    /// Whether `regex` (from ``wholeMatchRegex(_:)``) matches the whole of `string`.
    static func wholeMatch(_ regex: NSRegularExpression, _ string: String) -> Bool {
        let length = (string as NSString).length
        let match = regex.firstMatch(in: string, options: [.anchored], range: NSRange(location: 0, length: length))
        return match?.range.length == length
    }

    /// Every state reached from the start by some byte string.
    static func reachable(_ dfa: ByteDFA) -> [Int32] {
        guard dfa.start != ByteDFA.dead else { return [] }
        var seen: Set<Int32> = [dfa.start]
        var queue = [dfa.start]
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            for byte in 0...255 {
                let next = dfa.next(state, UInt8(byte))
                if next != ByteDFA.dead, seen.insert(next).inserted {
                    queue.append(next)
                }
            }
        }
        return queue
    }

    /// The automaton as a matrix over representative bytes (bytes that
    /// lead every state to the same place share one column).
    struct Matrix {
        var representatives: [UInt8] = []
        /// `rows[state][column]`.
        var rows: [[Int32]] = []

        init(_ dfa: ByteDFA) {
            var columns: [[Int32]: Int] = [:]
            for byte in 0...255 {
                let column = (0..<Int32(dfa.stateCount)).map { dfa.next($0, UInt8(byte)) }
                if columns[column] == nil {
                    columns[column] = representatives.count
                    representatives.append(UInt8(byte))
                }
            }
            rows = (0..<Int32(dfa.stateCount)).map { state in representatives.map { dfa.next(state, $0) } }
        }

        /// The fewest bytes from each state to acceptance (`Int.max`: never).
        func distances(_ dfa: ByteDFA) -> [Int] {
            var predecessors = [[Int]](repeating: [], count: rows.count)
            for (state, row) in rows.enumerated() {
                for target in row where target != ByteDFA.dead {
                    predecessors[Int(target)].append(state)
                }
            }
            var distance = (0..<rows.count).map { dfa.isAccepting(Int32($0)) ? 0 : Int.max }
            var queue = (0..<rows.count).filter { distance[$0] == 0 }
            var head = 0
            while head < queue.count {
                let state = queue[head]
                head += 1
                for predecessor in predecessors[state] where distance[predecessor] == Int.max {
                    distance[predecessor] = distance[state] + 1
                    queue.append(predecessor)
                }
            }
            return distance
        }
    }

    /// Records an issue for each broken structural invariant: transitions in
    /// range, every state reachable and live, minimality, `isFinal`.
    static func expectInvariants(_ dfa: ByteDFA, sourceLocation: SourceLocation = #_sourceLocation) {
        let count = dfa.stateCount
        #expect(dfa.start == 0, "start is state 0", sourceLocation: sourceLocation)
        let matrix = Matrix(dfa)
        let inRange = matrix.rows.allSatisfy { row in
            row.allSatisfy { $0 == ByteDFA.dead || (0..<Int32(count)).contains($0) }
        }
        #expect(inRange, "every transition is dead or a state", sourceLocation: sourceLocation)
        guard inRange else { return }
        #expect(dfa.next(ByteDFA.dead, 0x22) == ByteDFA.dead, sourceLocation: sourceLocation)
        let reached = reachable(dfa)
        #expect(reached.count == count, "every state is reachable", sourceLocation: sourceLocation)

        // Live: some accepting state is reachable from every state.
        let distance = matrix.distances(dfa)
        #expect(distance.allSatisfy { $0 != Int.max }, "every state is live", sourceLocation: sourceLocation)

        // Minimal: Moore's refinement finds no two equivalent states.
        var block = (0..<count).map { dfa.isAccepting(Int32($0)) ? 1 : 0 }
        var blockCount = Set(block).count
        while true {
            var signatures: [[Int]: Int] = [:]
            var refined = [Int](repeating: 0, count: count)
            for state in 0..<count {
                var signature = [block[state]]
                for next in matrix.rows[state] {
                    signature.append(next == ByteDFA.dead ? -1 : block[Int(next)])
                }
                if let id = signatures[signature] {
                    refined[state] = id
                } else {
                    refined[state] = signatures.count
                    signatures[signature] = signatures.count
                }
            }
            block = refined
            if signatures.count == blockCount { break }
            blockCount = signatures.count
        }
        #expect(blockCount == count, "no two states are equivalent", sourceLocation: sourceLocation)

        let finalIsRight = (0..<count).allSatisfy { state in
            let hasExit = matrix.rows[state].contains { $0 != ByteDFA.dead }
            return dfa.isFinal(Int32(state)) == (dfa.isAccepting(Int32(state)) && !hasExit)
        }
        #expect(finalIsRight, "final means accepting with no way on", sourceLocation: sourceLocation)
        #expect(!dfa.isAccepting(ByteDFA.dead) && !dfa.isFinal(ByteDFA.dead), sourceLocation: sourceLocation)
    }

    /// All byte strings a finite language accepts (at most `limit`).
    static func acceptedStrings(_ dfa: ByteDFA, limit: Int = 10_000) -> Set<[UInt8]> {
        var result: Set<[UInt8]> = []
        var prefix: [UInt8] = []
        func visit(_ state: Int32, depth: Int) {
            guard result.count < limit, depth < 200 else { return }
            if dfa.isAccepting(state) {
                result.insert(prefix)
            }
            for byte in 0...255 {
                let next = dfa.next(state, UInt8(byte))
                if next != ByteDFA.dead {
                    prefix.append(UInt8(byte))
                    visit(next, depth: depth + 1)
                    prefix.removeLast()
                }
            }
        }
        if dfa.start != ByteDFA.dead {
            visit(dfa.start, depth: 0)
        }
        return result
    }

    /// Random byte strings an automaton accepts: random walks that head for
    /// acceptance once they have gone `softLimit` bytes.
    struct Sampler {
        let dfa: ByteDFA
        let distance: [Int]

        init(_ dfa: ByteDFA) {
            self.dfa = dfa
            self.distance = Matrix(dfa).distances(dfa)
        }

        func sample(using rng: inout some RandomNumberGenerator, softLimit: Int = 24) -> [UInt8] {
            var bytes: [UInt8] = []
            var state = dfa.start
            while state != ByteDFA.dead {
                if dfa.isFinal(state) { return bytes }
                if dfa.isAccepting(state), bytes.count >= softLimit || Int.random(in: 0..<4, using: &rng) == 0 {
                    return bytes
                }
                var choices = (0...255).filter { dfa.next(state, UInt8($0)) != ByteDFA.dead }
                if bytes.count >= softLimit {
                    let best = choices.map { distance[Int(dfa.next(state, UInt8($0)))] }.min() ?? 0
                    choices = choices.filter { distance[Int(dfa.next(state, UInt8($0)))] == best }
                }
                guard let byte = choices.randomElement(using: &rng) else { return bytes }
                bytes.append(UInt8(byte))
                state = dfa.next(state, UInt8(byte))
            }
            return bytes
        }
    }
}

/// A small deterministic generator for tests that need many random values
/// outside a property check.
struct DFATestRNG: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Gen where Value == Character {
    /// Random characters drawn from `alphabet`.
    static func character(drawnFrom alphabet: [Character]) -> Generator<Character, Shrink.Integer<Int>> {
        Gen<Int>.int(in: 0...(alphabet.count - 1)).map { alphabet[$0] }
    }

    /// Random single-scalar characters from all of Unicode, weighted
    /// towards ASCII, controls and the BMP.
    static var singleScalarCharacter: Generator<Character, Shrink.Integer<Int>> {
        Gen<Int>.int(in: 0...(1 << 24)).map { value in
            let payload = UInt32(value >> 2)
            let scalar: UInt32
            switch value & 3 {
            case 0: scalar = payload % 0x80
            case 1: scalar = payload % 0x800
            case 2:
                let bmp = payload % (0x10000 - 0x800)
                scalar = bmp >= 0xD800 ? bmp + 0x800 : bmp
            default: scalar = 0x10000 + payload % 0x100000
            }
            return Character(Unicode.Scalar(scalar) ?? "?")
        }
    }
}
