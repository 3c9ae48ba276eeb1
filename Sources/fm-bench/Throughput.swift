import Foundation
import FoundationModels

/// Prefill and decode through `LanguageModelSession` on one model file,
/// against llama-bench on the same file and threads doing the same work.
///
/// Exists so the session's per-token cost shows as a ratio to llama.cpp's
/// own loop, for the small and the default model. The same work means the
/// same depth: the session decodes its answer after a prompt of about 80
/// tokens, and decoding at depth 80 is slower than from an empty context
/// (SmolLM2-135M here: 170 against 185 tokens/s), so the reference decodes
/// at the session's measured depth (`-d`).
struct Throughput {
    struct Result {
        var label: String
        var modelPath: String
        var prefill: Double
        /// The part of a prefill's wall time spent inside `llama_decode`
        /// (median): the rest is the session's own work.
        var prefillInDecode: Double
        /// The uncached prompt tokens of a prefill (median): the
        /// reference's `-p`.
        var prefillTokens: Int
        var decode: Double
        /// The part of a 64-token answer's wall time spent inside
        /// `llama_decode` (median).
        var decodeInDecode: Double
        /// The prompt tokens before the decoded answer (the decode depth).
        var depth: Int
        /// The session's own time per generated token, outside
        /// `llama_decode` (median, seconds): sampling, text, the scheduler's
        /// handoffs, the stream. At GPU speed this is what separates the
        /// session from llama-bench, and it is measured the same way on a CPU.
        var overheadPerToken: Double
        var rounds: Int
        var reference: LlamaBench?
        var referenceError: String?
    }

    var label: String
    var modelPath: String
    var threads: Int
    /// Whether a prompt's last token is evaluated in a step of its own (the
    /// engine's choice where nil: on a CPU it is, with every layer on a GPU
    /// it is not), so either way can be measured on one machine.
    var promptEndsAlone: Bool? = nil

    func run(log: @Sendable (String) -> Void) async throws -> Result {
        var configuration = SystemLanguageModel.Configuration.default
        configuration.modelPath = modelPath
        configuration.threads = threads
        configuration.promptEndsAlone = promptEndsAlone
        let model = SystemLanguageModel(configuration: configuration)
        guard model.isAvailable else { throw BenchmarkError("\(modelPath) is not available (\(model.availability))") }
        // The engine the sessions use (for its decode statistics). Not
        // released afterwards: for the default model it is the one every
        // later measurement's sessions share.
        let scheduler = try await OnDeviceEngine.shared(for: configuration).loaded().scheduler
        func session() -> LanguageModelSession {
            LanguageModelSession(model: model, instructions: Measure.freshInstructions(words: 40))
        }
        log("prefill and decode through LanguageModelSession: \(label)")
        _ = try await Measure.stream(LanguageModelSession(model: model), "Hello", maximumTokens: 4)
        // Like llama-bench's pp and tg: prefill is a 1-token answer to an
        // uncached prompt (prompt evaluation plus one sampling step); decode
        // is the extra time a 64-token answer to an equally long uncached
        // prompt takes, per extra token. This machine's speed drifts by
        // several percent from minute to minute, so the session and the
        // reference take turns, three rounds, and the medians are compared.
        let prompt = "Count from 1 to 100, separated by commas."
        var prefill: [Double] = []
        var prefillInDecode: [Double] = []
        var prefillTokens: [Int] = []
        var decode: [Double] = []
        var decodeInDecode: [Double] = []
        var depths: [Int] = []
        var overheads: [Double] = []
        var references: [LlamaBench] = []
        var referenceError: String?
        let binary = ProcessInfo.processInfo.environment["LLAMA_BENCH"]
        if binary == nil { referenceError = "LLAMA_BENCH is not set (run through make bench)" }
        let rounds = Measure.rounds
        for round in 0..<rounds {
            for _ in 0..<3 {
                let before = scheduler.statistics.decodeSeconds
                let short = try await Measure.stream(session(), prompt, maximumTokens: 1)
                let shortDecode = scheduler.statistics.decodeSeconds - before
                prefillInDecode.append(shortDecode / short.total)
                prefillTokens.append(short.inputTokens - short.cachedTokens)
                let beforeLong = scheduler.statistics.decodeSeconds
                let long = try await Measure.stream(session(), prompt, maximumTokens: 64)
                let longDecode = scheduler.statistics.decodeSeconds - beforeLong
                decodeInDecode.append(longDecode / long.total)
                prefill.append(Double(short.inputTokens - short.cachedTokens) / short.total)
                if long.outputTokens > 1, long.total > short.total {
                    decode.append(Double(long.outputTokens - 1) / (long.total - short.total))
                    depths.append(long.inputTokens)
                    overheads.append(((long.total - longDecode) - (short.total - shortDecode)) / Double(long.outputTokens - 1))
                }
            }
            guard let binary, referenceError == nil else { continue }
            log("llama-bench (reference), round \(round + 1) of \(rounds): \(label)")
            let depth = depths.isEmpty ? 0 : depths.reduce(0, +) / depths.count
            let promptTokens = Int(Measure.median(prefillTokens.map(Double.init)))
            do {
                references.append(
                    try LlamaBench.run(
                        binary: binary, model: modelPath, threads: threads, promptTokens: promptTokens, generatedTokens: 64, depth: depth,
                        repetitions: 3))
            } catch {
                referenceError = "\(error)"
            }
        }
        let depth = depths.isEmpty ? 0 : depths.reduce(0, +) / depths.count
        let reference =
            references.isEmpty
            ? nil
            : LlamaBench(
                prefillTokensPerSecond: Measure.median(references.map(\.prefillTokensPerSecond)),
                decodeTokensPerSecond: Measure.median(references.map(\.decodeTokensPerSecond)),
                command: references.last?.command ?? ""
            )
        return Result(
            label: label, modelPath: modelPath, prefill: Measure.median(prefill),
            prefillInDecode: Measure.median(prefillInDecode), prefillTokens: Int(Measure.median(prefillTokens.map(Double.init))),
            decode: Measure.median(decode), decodeInDecode: Measure.median(decodeInDecode),
            depth: depth, overheadPerToken: Measure.median(overheads), rounds: rounds,
            reference: reference, referenceError: referenceError)
    }

    static func markdown(_ results: [Result]) -> [String] {
        func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        var lines = ["## Throughput: LanguageModelSession against llama-bench", ""]
        lines.append("| model | | session | llama-bench | ratio |")
        lines.append("| --- | --- | ---: | ---: | ---: |")
        for result in results {
            if let reference = result.reference {
                lines.append(
                    "| \(result.label) | prefill (tokens/s) | \(f(result.prefill)) | \(f(reference.prefillTokensPerSecond)) (pp\(result.prefillTokens)) | \(f(result.prefill / reference.prefillTokensPerSecond, 2)) |"
                )
                lines.append(
                    "| \(result.label) | decode (tokens/s) | \(f(result.decode)) | \(f(reference.decodeTokensPerSecond)) (tg64 @ d\(result.depth)) | \(f(result.decode / reference.decodeTokensPerSecond, 2)) |"
                )
            } else {
                lines.append("| \(result.label) | prefill (tokens/s) | \(f(result.prefill)) | – | – |")
                lines.append("| \(result.label) | decode (tokens/s) | \(f(result.decode)) | – | – |")
            }
        }
        lines.append("")
        for result in results {
            lines.append(
                "- \(result.label): inside `llama_decode`: \(f(result.prefillInDecode * 100)) % of a prefill's wall time, \(f(result.decodeInDecode * 100)) % of a 64-token answer's (the rest is the session's own work: rendering, tokens, sampling, text); the session's own time per generated token, outside `llama_decode`: \(f(result.overheadPerToken * 1e6, 0)) µs."
            )
        }
        for result in results {
            if let reference = result.reference {
                lines.append("- \(result.label): `\(reference.command)`")
            } else {
                lines.append("- \(result.label): llama-bench did not run: \(result.referenceError ?? "unknown reason")")
            }
        }
        lines.append("")
        lines.append("Measured as llama-bench does, through the public API (`streamResponse`, greedy): session")
        lines.append("prefill is the uncached prompt tokens (~110, chat template included) over the whole time of a")
        lines.append("1-token answer (prompt evaluation plus one sampling step), against llama-bench's prefill of")
        lines.append("as many tokens (`-p`, the median of the session's); session decode is the tokens")
        lines.append("after the first of a 64-token answer to an equally long uncached prompt, over the extra time")
        lines.append("it took. The reference decodes at the same depth (`-d`, the session's prompt tokens):")
        lines.append(
            "decoding after 80 tokens of context costs more than from an empty one. \(results.first?.rounds ?? 3) round\(results.first?.rounds == 1 ? "" : "s"), each"
        )
        lines.append("3 session runs then llama-bench `-r 3`; medians (this machine drifts by several percent).")
        lines.append("")
        return lines
    }
}
