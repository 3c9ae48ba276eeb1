extension Duration {
    /// The duration in seconds, as timings and statistics report it: one
    /// conversion for the decode statistics, the evaluation's timings and
    /// the benchmarks.
    package var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
