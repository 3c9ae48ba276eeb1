import Foundation

extension Suite.Report {
    func markdown() -> String {
        func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        func ms(_ seconds: Double) -> String { f(seconds * 1000) + " ms" }
        var lines: [String] = []
        lines.append("# Benchmarks")
        lines.append("")
        lines.append("Written by `make bench` (`fm-bench`); every figure below comes from one run.")
        lines.append("")
        lines.append("- Machine: \(machine)")
        lines.append("- Model: `\(model)`")
        lines.append("- Threads: \(threads)")
        lines.append("- Command: `make bench` (release build of `fm-bench`, greedy sampling)")
        lines.append("")
        lines += Throughput.markdown(throughput)
        lines.append("")
        lines += ConcurrencyBenchmark.markdown(concurrency, error: concurrencyError)
        lines.append("")
        lines += ServeBenchmark.markdown(serve, error: serveError)
        lines.append("")
        lines.append("## Latency")
        lines.append("")
        lines.append("| measurement | value |")
        lines.append("| --- | ---: |")
        lines.append("| session creation | \(f(sessionCreationMicroseconds, 2)) µs |")
        lines.append("| time to first token, cold (new process: start, model load, prompt) | \(ms(coldTTFT)) |")
        lines.append("| time to first token, warm, \(instructionTokens)-token instructions | \(ms(warmTTFT)) |")
        lines.append(
            "| time to first token after `prewarm`, same instructions | \(ms(prewarmedTTFT)) (\(f(prewarmedTTFT / max(warmTTFT, 1e-9) * 100, 0))% of warm) |"
        )
        lines.append("| second turn of a conversation (\(transcriptTokens) tokens, \(secondTurnCached) cached) | \(ms(secondTurnTTFT)) |")
        lines.append(
            "| same turn, whole transcript re-evaluated | \(ms(reevaluatedTTFT)) (\(f(reevaluatedTTFT / max(secondTurnTTFT, 1e-9), 1))× slower) |")
        lines.append("")
        lines.append("Each latency is the mean of 3 runs; instructions are unique per run so nothing is cached")
        lines.append("unless the measurement says so.")
        lines.append("")
        lines += ToolRound.markdown(toolRound, error: toolRoundError)
        lines += TiersBenchmark.markdown(tiers, error: tiersError)
        lines += guided.markdown()
        return lines.joined(separator: "\n")
    }
}
