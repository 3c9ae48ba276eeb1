/// The shape of a token: its bytes with each one replaced by the first byte
/// of its class (`a`–`f`, `g`–`z`, `A`–`F`, `G`–`Z`, and the bytes of a
/// UTF-8 character in the ranges a validator tells apart; every other
/// ASCII byte is a class of its own), up to a backslash; from a backslash
/// on, the bytes themselves.
///
/// Exists because a leaf automaton that keeps most of the vocabulary alive
/// (a free string, `\S+@\S+`, `[\w-]{5,96}`, `[^:]+:[a-fA-F0-9]+`) rarely
/// tells two letters of one class apart, yet a walk of the byte trie reads
/// every node it keeps alive: 333,783 at a 151,936-token vocabulary. The
/// trie of the tokens' shapes (``TokenVocabulary/shapeTrie``) has about a
/// sixth as many: the lowercase words of one length are a few paths. A walk
/// may read it from a state from which no state reachable without a
/// backslash tells two bytes of one class apart (``walkableStates(_:)``).
/// Hexadecimal letters are classes of their own because patterns of hashes
/// and identifiers name them; escapes keep their bytes because every
/// string automaton tells them apart (`\n`, `\u00e9`).
///
/// The classes keep apart every byte that ``TextPlace`` and
/// ``CharacterCounts/startsCharacter(_:)`` do, so a shape's text places,
/// height and characters are its tokens' own.
package enum ByteShape {
    /// For each byte, the byte that stands for its class.
    static let representative: [UInt8] = (0...255).map { value in
        let byte = UInt8(value)
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt8(ascii: "a")
        case UInt8(ascii: "g")...UInt8(ascii: "z"): return UInt8(ascii: "g")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt8(ascii: "A")
        case UInt8(ascii: "G")...UInt8(ascii: "Z"): return UInt8(ascii: "G")
        case 0x80...0x8F: return 0x80
        case 0x90...0x9F: return 0x90
        case 0xA0...0xBF: return 0xA0
        case 0xC0...0xC1: return 0xC0
        case 0xC2...0xDF: return 0xC2
        case 0xE1...0xEC: return 0xE1
        case 0xEE...0xEF: return 0xEE
        case 0xF1...0xF3: return 0xF1
        case 0xF5...0xFF: return 0xF5
        default: return byte
        }
    }

    /// `token`'s shape: each byte's representative up to the first
    /// backslash, the bytes themselves from it on.
    package static func shape(of token: [UInt8]) -> [UInt8] {
        var shape = token
        for index in shape.indices {
            if shape[index] == UInt8(ascii: "\\") { break }
            shape[index] = representative[Int(shape[index])]
        }
        return shape
    }

    /// For each state of `automaton`, whether a walk from it may read the
    /// shape trie in place of the byte trie: no state it reaches without
    /// reading a backslash (where the shapes stop standing for bytes) goes
    /// to different states on two bytes of one class. Worked out backwards
    /// from the states that do, over the automaton's byte classes.
    package static func walkableStates(_ automaton: ByteDFA) -> [Bool] {
        let classes = automaton.byteClasses
        let classCount = automaton.classCount
        let stateCount = automaton.stateCount
        // The pairs of automaton classes that one shape class joins.
        var joined = Set<Int>()
        for byte in 0..<256 {
            let first = Int(classes[Int(representative[byte])])
            let own = Int(classes[byte])
            if first != own { joined.insert(first << 8 | own) }
        }
        guard !joined.isEmpty else { return [Bool](repeating: true, count: stateCount) }
        let pairs = joined.map { ($0 >> 8, $0 & 0xFF) }
        var walkable = [Bool](repeating: true, count: stateCount)
        var queue: [Int32] = []
        for state in 0..<stateCount {
            let row = state * classCount
            if pairs.contains(where: { automaton.transitions[row + $0.0] != automaton.transitions[row + $0.1] }) {
                walkable[state] = false
                queue.append(Int32(state))
            }
        }
        guard !queue.isEmpty else { return walkable }
        // A class that holds a byte other than the backslash is read
        // before one.
        var readBefore = [Bool](repeating: false, count: classCount)
        for byte in 0..<256 where byte != Int(UInt8(ascii: "\\")) { readBefore[Int(classes[byte])] = true }
        // Edges reversed into one flat array (counted first, then filled).
        var start = [Int32](repeating: 0, count: stateCount + 1)
        for state in 0..<stateCount {
            for byteClass in 0..<classCount where readBefore[byteClass] {
                let next = automaton.transitions[state * classCount + byteClass]
                if next >= 0 { start[Int(next) + 1] += 1 }
            }
        }
        for state in 0..<stateCount { start[state + 1] += start[state] }
        var from = [Int32](repeating: 0, count: Int(start[stateCount]))
        var fill = start
        for state in 0..<stateCount {
            for byteClass in 0..<classCount where readBefore[byteClass] {
                let next = Int(automaton.transitions[state * classCount + byteClass])
                guard next >= 0 else { continue }
                from[Int(fill[next])] = Int32(state)
                fill[next] += 1
            }
        }
        var head = 0
        while head < queue.count {
            let state = Int(queue[head])
            head += 1
            for index in Int(start[state])..<Int(start[state + 1]) {
                let previous = Int(from[index])
                guard walkable[previous] else { continue }
                walkable[previous] = false
                queue.append(Int32(previous))
            }
        }
        return walkable
    }
}
