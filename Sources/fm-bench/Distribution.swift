import Dispatch

/// Summary figures of many timings: mean, median, 99th percentile, maximum.
struct Distribution {
    var count: Int
    var mean: Double
    var p50: Double
    var p99: Double
    var max: Double

    /// Nearest-rank percentiles of `values` (any unit; the summary keeps it).
    init(_ values: [Double]) {
        let sorted = values.sorted()
        count = sorted.count
        mean = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
        func rank(_ fraction: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, index))]
        }
        p50 = rank(0.5)
        p99 = rank(0.99)
        max = sorted.last ?? 0
    }

    static func median(_ values: [Double]) -> Double { Distribution(values).p50 }
}

/// A monotonic nanosecond clock cheap enough to wrap calls that take
/// microseconds (`clock_gettime(CLOCK_MONOTONIC)` through the vDSO).
enum Nanoseconds {
    @inline(__always) static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Runs `body` and returns its result with the nanoseconds it took.
    @inline(__always) static func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = now()
        let result = try body()
        return (result, Double(now() - start))
    }
}

/// SplitMix64: a small seeded generator, so every walk can be repeated.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
