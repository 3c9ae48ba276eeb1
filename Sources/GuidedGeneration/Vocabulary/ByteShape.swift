/// The shape of a token: its bytes with each one replaced by the first byte
/// of its class (`a`–`f`, `g`–`z`, `A`–`F`, `G`–`Z`, and the bytes of a
/// UTF-8 character in the ranges a validator tells apart; every other
/// ASCII byte is a class of its own), up to a backslash; from a backslash
/// on, the bytes themselves.
///
/// Exists because a leaf automaton that keeps most of the vocabulary alive
/// (a free string, `\S+@\S+`, `[\w-]{5,96}`, `[^:]+:[a-fA-F0-9]+`) rarely
/// tells two letters of one class apart, yet a walk of the byte trie reads
/// every node it keeps alive: 333,028 at a 151,936-token vocabulary. The
/// trie of the tokens' shapes (``TokenVocabulary/shapeTrie``) has 57,629:
/// the lowercase words of one length are a few paths. A leaf's walk from
/// the root reads it; where a state tells two bytes of a node's class
/// apart (``splits(_:)``: `K` in `^KONG_`, `£` among other characters), the
/// walk reads the byte-trie nodes that node stands for. Hexadecimal letters
/// are classes of their own because patterns of hashes and identifiers name
/// them; escapes keep their bytes because every string automaton tells them
/// apart (`\n`, `\u00e9`).
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

    /// The bytes of `byte`'s class (all that share its representative).
    @inline(__always)
    static func classMembers(of byte: UInt8) -> ByteSet { members[Int(representative[Int(byte)])] }

    /// For each representative, its class's bytes.
    private static let members: [ByteSet] = {
        var members = [ByteSet](repeating: ByteSet(), count: 256)
        for byte in UInt8.min...UInt8.max { members[Int(representative[Int(byte)])].insert(byte) }
        return members
    }()

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

    /// For each state of `automaton`, the shape bytes (class
    /// representatives) whose class it splits: two bytes of the class lead
    /// from it to different states. Four words a state, a bit a byte
    /// (`splits[state * 4 + byte >> 6] >> (byte & 63) & 1`); a walk of the
    /// shape trie that meets such a node reads the bytes of the nodes it
    /// stands for instead. Empty where no state splits a class.
    package static func splits(_ automaton: ByteDFA) -> [UInt64] {
        let classes = automaton.byteClasses
        let classCount = automaton.classCount
        // The pairs of automaton classes that one shape class joins, with
        // the shape byte.
        var joined = Set<Int>()
        for byte in 0..<256 {
            let first = Int(classes[Int(representative[byte])])
            let own = Int(classes[byte])
            if first != own { joined.insert(Int(representative[byte]) << 16 | first << 8 | own) }
        }
        guard !joined.isEmpty else { return [] }
        let pairs = joined.map { (shape: $0 >> 16, first: $0 >> 8 & 0xFF, other: $0 & 0xFF) }
        var splits = [UInt64](repeating: 0, count: automaton.stateCount * 4)
        for state in 0..<automaton.stateCount {
            let row = state * classCount
            for pair in pairs where automaton.transitions[row + pair.first] != automaton.transitions[row + pair.other] {
                splits[state * 4 + pair.shape >> 6] |= 1 << UInt64(pair.shape & 63)
            }
        }
        return splits.contains { $0 != 0 } ? splits : []
    }
}
