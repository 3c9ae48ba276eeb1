import Foundation
import FoundationModels
import FoundationModelsEval

/// The measurements, in the order they run, and the report they make.
struct Suite {
    let environment = ProcessInfo.processInfo.environment
    var modelPath: String { environment["FOUNDATION_MODELS_MODEL"] ?? "(installed default)" }
    var threads: Int { Int(environment["FOUNDATION_MODELS_THREADS"] ?? "") ?? ProcessInfo.processInfo.activeProcessorCount }

    struct Report {
        var machine: String
        var model: String
        var threads: Int
        var throughput: [Throughput.Result]
        var concurrency: ConcurrencyBenchmark.Result?
        var concurrencyError: String?
        var serve: ServeBenchmark.Result?
        var serveError: String?
        var sessionCreationMicroseconds: Double
        var coldTTFT: Double
        var warmTTFT: Double
        var prewarmedTTFT: Double
        var instructionTokens: Int
        var secondTurnTTFT: Double
        var secondTurnCached: Int
        var reevaluatedTTFT: Double
        var transcriptTokens: Int
        var guided: GuidedBenchmarks.Report
        var toolRound: ToolRound.Result?
        var toolRoundError: String?
        var tiers: TiersBenchmark.Result?
        var tiersError: String?
    }

    func run() async throws -> Report {
        @Sendable func log(_ message: String) { Benchmark.log(message) }
        guard SystemLanguageModel.default.isAvailable else {
            throw BenchmarkError("the default model is not available (\(SystemLanguageModel.default.availability)); run make setup")
        }

        log("cold start (a new process loads the model and answers)")
        let cold = try (0..<3).map { _ in try ColdStart.measure() }

        log("warming up")
        _ = try await Measure.stream(LanguageModelSession(), "Hello", maximumTokens: 4)

        log("session creation")
        let count = 10_000
        let creation = Measure.clock.measure {
            for _ in 0..<count { _ = LanguageModelSession(instructions: "Be brief.") }
        }

        log("time to first token with ~500-token instructions, warm and prewarmed")
        var warm: [Double] = []
        var prewarmed: [Double] = []
        var instructionTokens = 0
        for _ in 0..<3 {
            let instructions = Measure.freshInstructions(words: 380)
            instructionTokens = try await SystemLanguageModel.default.tokenCount(for: Instructions(instructions))
            warm.append(
                try await Measure.stream(LanguageModelSession(instructions: instructions + " "), "Say hello.", maximumTokens: 4).timeToFirstToken)
            let session = LanguageModelSession(instructions: instructions)
            session.prewarm(promptPrefix: Prompt("Say"))
            try await Task.sleep(for: .seconds(3))
            prewarmed.append(try await Measure.stream(session, "Say hello.", maximumTokens: 4).timeToFirstToken)
        }

        log("second turn against re-evaluating the whole transcript")
        var second: [Double] = []
        var reevaluated: [Double] = []
        var secondCached = 0
        var transcriptTokens = 0
        for _ in 0..<3 {
            let session = LanguageModelSession(instructions: Measure.freshInstructions(words: 380))
            _ = try await Measure.stream(session, "Describe a river in two sentences.", maximumTokens: 48)
            let turn = try await Measure.stream(session, "Now describe a mountain.", maximumTokens: 4)
            second.append(turn.timeToFirstToken)
            secondCached = turn.cachedTokens
            transcriptTokens = turn.inputTokens
            // The same transcript in a new session whose conversation is not
            // cached: its prompt must be evaluated from the start. Occupy the
            // contexts with other conversations first.
            for _ in 0..<2 {
                _ = try await Measure.stream(LanguageModelSession(instructions: Measure.freshInstructions(words: 20)), "Hi", maximumTokens: 2)
            }
            var entries = Array(session.transcript)
            entries.removeLast(2)
            let resumed = LanguageModelSession(transcript: Transcript(entries: entries))
            reevaluated.append(try await Measure.stream(resumed, "Now describe a mountain.", maximumTokens: 4).timeToFirstToken)
        }

        // Throughput on the small and the default model (the one apps get),
        // and on the bench model when it is another file.
        var throughput: [Throughput.Result] = []
        var files: [String] = []
        for path in [
            environment["FOUNDATION_MODELS_SMALL_MODEL"], environment["FOUNDATION_MODELS_DEFAULT_MODEL"], environment["FOUNDATION_MODELS_MODEL"],
        ] {
            if let path, !path.isEmpty, !files.contains(path) { files.append(path) }
        }
        for path in files {
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            throughput.append(try await Throughput(label: name, modelPath: path, threads: threads).run(log: log))
        }

        log("sessions at once against llama-server -np 8")
        var concurrency: ConcurrencyBenchmark.Result?
        var concurrencyError: String?
        do {
            concurrency = try await ConcurrencyBenchmark(threads: threads).run(log: log)
        } catch {
            concurrencyError = "\(error)"
        }

        log("fm serve against llama-server -np 8")
        var serve: ServeBenchmark.Result?
        var serveError: String?
        do {
            serve = try await ServeBenchmark(threads: threads).run(log: log)
        } catch {
            serveError = "\(error)"
        }

        log("tool round against a plain answer")
        var toolRound: ToolRound.Result?
        var toolRoundError: String?
        do {
            toolRound = try await ToolRound().run(log: log)
        } catch {
            toolRoundError = "\(error)"
        }

        log("tiers: server against device, router overhead")
        var tiers: TiersBenchmark.Result?
        var tiersError: String?
        do {
            tiers = try await TiersBenchmark().run(log: log)
        } catch {
            tiersError = "\(error)"
        }

        log("guided generation")
        let guided = await GuidedBenchmarks(threads: threads).run(log: log)

        return Report(
            machine: Self.machine(),
            model: modelPath,
            threads: threads,
            throughput: throughput,
            concurrency: concurrency,
            concurrencyError: concurrencyError,
            serve: serve,
            serveError: serveError,
            sessionCreationMicroseconds: creation.inSeconds / Double(count) * 1e6,
            coldTTFT: Measure.mean(cold),
            warmTTFT: Measure.mean(warm),
            prewarmedTTFT: Measure.mean(prewarmed),
            instructionTokens: instructionTokens,
            secondTurnTTFT: Measure.mean(second),
            secondTurnCached: secondCached,
            reevaluatedTTFT: Measure.mean(reevaluated),
            transcriptTokens: transcriptTokens,
            guided: guided,
            toolRound: toolRound,
            toolRoundError: toolRoundError,
            tiers: tiers,
            tiersError: tiersError
        )
    }

    /// The load averages over 1, 5 and 15 minutes, as `/proc/loadavg`
    /// prints them; none where there is no such file.
    static func loadAverages() -> [String] {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).map(String.init)
    }

    static func machine() -> String {
        MachineDescription.current
    }
}
