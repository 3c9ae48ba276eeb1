/// Turns a stream of token byte pieces into text without ever emitting a
/// broken character: a multi-byte UTF-8 sequence split across tokens is held
/// back until its last byte arrives.
struct UTF8Accumulator {
    private var pending: [UInt8] = []

    /// Adds one token's bytes; returns the text that is now complete, if any.
    mutating func append(_ bytes: [UInt8]) -> String? {
        pending.append(contentsOf: bytes)
        let complete = Self.completePrefixLength(pending)
        guard complete > 0 else { return nil }
        let text = String(decoding: pending[..<complete], as: UTF8.self)
        pending.removeFirst(complete)
        return text
    }

    /// The bytes still held back, decoded (invalid bytes become U+FFFD).
    mutating func flush() -> String? {
        guard !pending.isEmpty else { return nil }
        defer { pending.removeAll() }
        return String(decoding: pending, as: UTF8.self)
    }

    /// The length of the longest prefix that does not end inside a UTF-8
    /// sequence. Only the last three bytes can start an unfinished sequence;
    /// anything invalid is released (and decoded as U+FFFD) rather than held.
    static func completePrefixLength(_ bytes: [UInt8]) -> Int {
        let count = bytes.count
        var index = count - 1
        let lowest = max(0, count - 4)
        while index >= lowest {
            let byte = bytes[index]
            if byte & 0b1100_0000 != 0b1000_0000 {
                // A lead byte (or ASCII): how long should its sequence be?
                let length: Int
                switch byte {
                case 0x00...0x7F: length = 1
                case 0xC2...0xDF: length = 2
                case 0xE0...0xEF: length = 3
                case 0xF0...0xF4: length = 4
                default: return count
                }
                return index + length > count ? index : count
            }
            index -= 1
        }
        return count
    }
}
