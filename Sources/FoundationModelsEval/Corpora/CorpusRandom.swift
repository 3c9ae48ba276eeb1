/// The seeded source of every choice the corpus generators make.
///
/// Exists so a corpus is the same bytes on every machine and Swift release:
/// the standard library's `shuffled(using:)`, `randomElement(using:)` and
/// `Int.random(in:using:)` promise no stable sequence for a given
/// generator, so the generators draw only through the helpers here, which
/// are defined on the raw 64-bit outputs of SplitMix64.
package struct CorpusRandom {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    /// SplitMix64's next output.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<count` (`count` > 0): the high half of the 128-bit
    /// product, whose bias is far below anything a corpus could show.
    package mutating func below(_ count: Int) -> Int {
        precondition(count > 0, "below(\(count))")
        return Int(next().multipliedFullWidth(by: UInt64(count)).high)
    }

    /// A number in `range`.
    package mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True with probability `probability`.
    package mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < probability
    }

    /// One of `items` (not empty).
    package mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }

    /// `items` in a random order (Fisher–Yates).
    package mutating func shuffled<T>(_ items: [T]) -> [T] {
        var items = items
        for index in stride(from: items.count - 1, to: 0, by: -1) {
            items.swapAt(index, below(index + 1))
        }
        return items
    }

    /// `count` distinct elements of `items`, in a random order.
    package mutating func sample<T>(_ items: [T], count: Int) -> [T] {
        Array(shuffled(items).prefix(count))
    }
}
