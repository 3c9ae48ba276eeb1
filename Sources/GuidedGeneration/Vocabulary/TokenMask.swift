/// A set of token ids as a bitmask, one bit per vocabulary token.
///
/// Exists because the sampler needs the allowed set for every step and the
/// vocabulary is large (49k–262k tokens): 6–32 KB of words copy and combine
/// in well under a microsecond, where an array of flags or a `Set` would not.
package struct TokenMask: Sendable, Hashable {
    package private(set) var words: [UInt64]
    package let count: Int

    /// An empty mask over `count` tokens.
    package init(count: Int) {
        self.count = count
        self.words = [UInt64](repeating: 0, count: (count + 63) / 64)
    }

    @inline(__always)
    package func contains(_ token: Int32) -> Bool {
        let index = Int(token)
        guard index >= 0, index < count else { return false }
        return words[index >> 6] & (1 << UInt64(index & 63)) != 0
    }

    @inline(__always)
    package mutating func insert(_ token: Int32) {
        let index = Int(token)
        words[index >> 6] |= 1 << UInt64(index & 63)
    }

    @inline(__always)
    package mutating func remove(_ token: Int32) {
        let index = Int(token)
        words[index >> 6] &= ~(1 << UInt64(index & 63))
    }

    /// Calls `body` with the mask's words to change in place (token `t`
    /// is bit `t % 64` of word `t / 64`), for loops that set many bits.
    package mutating func withUnsafeMutableWords<Result>(_ body: (UnsafeMutableBufferPointer<UInt64>) throws -> Result) rethrows -> Result {
        try words.withUnsafeMutableBufferPointer { try body($0) }
    }

    package mutating func removeAll() {
        for index in words.indices { words[index] = 0 }
    }

    /// Makes this mask equal to `other` without reallocating when the sizes match.
    package mutating func assign(_ other: TokenMask) {
        if words.count == other.words.count {
            words.withUnsafeMutableBufferPointer { target in
                other.words.withUnsafeBufferPointer { source in
                    _ = target.update(fromContentsOf: source)
                }
            }
        } else {
            words = other.words
        }
    }

    /// Adds every token of `other` (of the same size).
    package mutating func formUnion(_ other: TokenMask) {
        words.withUnsafeMutableBufferPointer { target in
            other.words.withUnsafeBufferPointer { source in
                for index in 0..<min(target.count, source.count) { target[index] |= source[index] }
            }
        }
    }

    /// The number of tokens in the set.
    package var population: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    package var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    /// The token ids in the set, ascending.
    package var tokens: [Int32] {
        var result: [Int32] = []
        for (wordIndex, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                let bit = bits.trailingZeroBitCount
                result.append(Int32(wordIndex * 64 + bit))
                bits &= bits - 1
            }
        }
        return result
    }
}
