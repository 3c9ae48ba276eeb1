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
        lines.append("## Throughput: LanguageModelSession against llama-bench")
        lines.append("")
        lines.append("| | session | llama-bench | ratio |")
        lines.append("| --- | ---: | ---: | ---: |")
        if let reference {
            lines.append("| prefill (tokens/s) | \(f(sessionPrefill)) | \(f(reference.prefillTokensPerSecond)) (pp64) | \(f(sessionPrefill / reference.prefillTokensPerSecond, 2)) |")
            lines.append("| decode (tokens/s) | \(f(sessionDecode)) | \(f(reference.decodeTokensPerSecond)) (tg64) | \(f(sessionDecode / reference.decodeTokensPerSecond, 2)) |")
            lines.append("")
            lines.append("Reference command: `\(reference.command)`")
        } else {
            lines.append("| prefill (tokens/s) | \(f(sessionPrefill)) | – | – |")
            lines.append("| decode (tokens/s) | \(f(sessionDecode)) | – | – |")
            lines.append("")
            lines.append("llama-bench did not run: \(referenceError ?? "unknown reason")")
        }
        lines.append("")
        lines.append("Measured as llama-bench does, through the public API (`streamResponse`, greedy): session")
        lines.append("prefill is the uncached prompt tokens (~80, chat template included) over the whole time of a")
        lines.append("1-token answer (prompt evaluation plus one sampling step); session decode is the tokens")
        lines.append("after the first of a 64-token answer to an equally long uncached prompt, over the extra time")
        lines.append("it took. Mean of 5 runs each; llama-bench repeats 5 times.")
        lines.append("")
        lines.append("## Latency")
        lines.append("")
        lines.append("| measurement | value |")
        lines.append("| --- | ---: |")
        lines.append("| session creation | \(f(sessionCreationMicroseconds, 2)) µs |")
        lines.append("| time to first token, cold (new process: start, model load, prompt) | \(ms(coldTTFT)) |")
        lines.append("| time to first token, warm, \(instructionTokens)-token instructions | \(ms(warmTTFT)) |")
        lines.append("| time to first token after `prewarm`, same instructions | \(ms(prewarmedTTFT)) (\(f(prewarmedTTFT / max(warmTTFT, 1e-9) * 100, 0))% of warm) |")
        lines.append("| second turn of a conversation (\(transcriptTokens) tokens, \(secondTurnCached) cached) | \(ms(secondTurnTTFT)) |")
        lines.append("| same turn, whole transcript re-evaluated | \(ms(reevaluatedTTFT)) (\(f(reevaluatedTTFT / max(secondTurnTTFT, 1e-9), 1))× slower) |")
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
