/// A set of Unicode scalar values, kept as sorted, disjoint, non-adjacent
/// closed ranges.
///
/// Exists so regex character classes (`[a-zé]`, `\D`, `[^"]`, `.`) can be
/// combined and negated exactly over all of Unicode before they are lowered
/// to UTF-8 byte ranges. Surrogate code points (U+D800–U+DFFF) are never
/// members: they are not scalars and have no UTF-8 encoding.
struct ScalarSet: Hashable, Sendable {
    /// The members, sorted; no two ranges overlap or touch.
    private(set) var ranges: [ClosedRange<UInt32>]

    /// The highest Unicode scalar value.
    static let maximum: UInt32 = 0x10FFFF
    /// The surrogate code points, which no set contains.
    static let surrogates: ClosedRange<UInt32> = 0xD800...0xDFFF

    /// The empty set.
    init() {
        self.ranges = []
    }

    /// The union of `ranges`, in any order, overlapping or not; surrogates
    /// and values above U+10FFFF are dropped.
    init(_ ranges: some Sequence<ClosedRange<UInt32>>) {
        var sorted: [ClosedRange<UInt32>] = []
        for range in ranges where range.lowerBound <= Self.maximum {
            let clamped = range.lowerBound...min(range.upperBound, Self.maximum)
            // Cut the surrogate block out.
            if clamped.upperBound < Self.surrogates.lowerBound || clamped.lowerBound > Self.surrogates.upperBound {
                sorted.append(clamped)
                continue
            }
            if clamped.lowerBound < Self.surrogates.lowerBound {
                sorted.append(clamped.lowerBound...(Self.surrogates.lowerBound - 1))
            }
            if clamped.upperBound > Self.surrogates.upperBound {
                sorted.append((Self.surrogates.upperBound + 1)...clamped.upperBound)
            }
        }
        sorted.sort { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = []
        merged.reserveCapacity(sorted.count)
        for range in sorted {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        self.ranges = merged
    }

    /// The set holding `scalar` alone.
    init(scalar: UInt32) {
        self.init(CollectionOfOne(scalar...scalar))
    }

    /// Every Unicode scalar.
    static let all = ScalarSet(CollectionOfOne(0...maximum))

    var isEmpty: Bool { ranges.isEmpty }

    func contains(_ scalar: UInt32) -> Bool {
        // Binary search for the last range starting at or below `scalar`.
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].lowerBound <= scalar {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low > 0 && ranges[low - 1].upperBound >= scalar
    }

    func union(_ other: ScalarSet) -> ScalarSet {
        ScalarSet(ranges + other.ranges)
    }

    /// Every scalar not in this set.
    func inverted() -> ScalarSet {
        var gaps: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in ranges {
            if range.lowerBound > next {
                gaps.append(next...(range.lowerBound - 1))
            }
            next = range.upperBound &+ 1
        }
        if next <= Self.maximum {
            gaps.append(next...Self.maximum)
        }
        return ScalarSet(gaps)
    }

    func intersection(_ other: ScalarSet) -> ScalarSet {
        var result: [ClosedRange<UInt32>] = []
        var i = 0
        var j = 0
        while i < ranges.count, j < other.ranges.count {
            let a = ranges[i]
            let b = other.ranges[j]
            let low = max(a.lowerBound, b.lowerBound)
            let high = min(a.upperBound, b.upperBound)
            if low <= high {
                result.append(low...high)
            }
            if a.upperBound < b.upperBound {
                i += 1
            } else {
                j += 1
            }
        }
        return ScalarSet(result)
    }

    func subtracting(_ other: ScalarSet) -> ScalarSet {
        intersection(other.inverted())
    }
}
