import Foundation
import FoundationModels
import FoundationModelsEval

/// Timing helpers shared by the measurements.
enum Measure {
    static let clock = ContinuousClock()

    /// Rounds of the measurements that take turns with a reference: 3,
    /// or `FM_BENCH_ROUNDS` where a run must fit a time budget (the GPU
    /// script, scripts/gpu/bench.sh).
    static let rounds = max(1, Int(ProcessInfo.processInfo.environment["FM_BENCH_ROUNDS"] ?? "") ?? 3)

    /// One streamed request: time to the first snapshot, total time, usage.
    struct Streamed {
        var timeToFirstToken: Double
        var total: Double
        var inputTokens: Int
        var cachedTokens: Int
        var outputTokens: Int
    }

    static func stream(_ session: LanguageModelSession, _ prompt: String, maximumTokens: Int) async throws -> Streamed {
        let start = clock.now
        var first: ContinuousClock.Instant?
        let stream = session.streamResponse(to: prompt, options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: maximumTokens))
        for try await _ in stream where first == nil {
            first = clock.now
        }
        let end = clock.now
        let response = try await stream.collect()
        return Streamed(
            timeToFirstToken: ((first ?? end) - start).inSeconds,
            total: (end - start).inSeconds,
            inputTokens: response.usage.input.totalTokenCount,
            cachedTokens: response.usage.input.cachedTokenCount,
            outputTokens: response.usage.output.totalTokenCount
        )
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }

    /// Instructions no earlier request started with, so nothing is cached.
    static func freshInstructions(words: Int) -> String {
        let topics = ["rivers", "maps", "bread", "clocks", "stars", "trains", "gardens", "violins"]
        var text = "Session \(UUID().uuidString). You are a careful assistant."
        var index = 0
        while text.split(separator: " ").count < words {
            text += " Speak plainly about \(topics[index % topics.count]) and answer in short sentences."
            index += 1
        }
        return text
    }
}

extension LlamaServer {
    /// The reference server for a benchmark, started and ready, or why it
    /// is not (the section then says so instead of failing the run).
    static func startForBenchmark(
        binary: String?, model: String, threads: Int, contextSize: Int, parallel: Int = 1
    ) async -> (LlamaServer?, String?) {
        guard let binary else { return (nil, "LLAMA_SERVER is not set (run through make bench)") }
        do {
            return (try await start(binary: binary, model: model, threads: threads, contextSize: contextSize, parallel: parallel), nil)
        } catch {
            return (nil, "\(error)")
        }
    }
}
