import Foundation
import FoundationModels
import FoundationModelsEval

/// Aggregate throughput of sessions answering at once on one model, against
/// llama-server with eight parallel slots on the same model and threads.
///
/// Exists to show that concurrent sessions share the model's forward passes
/// (``DecodeScheduler``): a server's users then get several times one
/// session's throughput in total, as llama-server's slots do, instead of
/// one session's throughput split between them.
///
/// Both sides do the same work: for 1, 2, 4 and 8 requests at once, each
/// request a distinct prompt (nothing cached), greedy, at most
/// ``maximumTokens`` tokens; throughput is every generated token over the
/// wall time from the first request to the last answer (prompts included).
/// The contestants take turns per count, so the machine's drift hits both.
struct ConcurrencyBenchmark {
    static let counts = [1, 2, 4, 8]
    let maximumTokens = 128
    /// Positions per sequence (ours) and per slot (llama-server's cache is
    /// eight times this, shared by its slots).
    let contextSize = 1024
    var threads: Int

    struct Row {
        var sessions: Int
        var oursTokens = 0
        var oursSeconds = 0.0
        /// Requests per forward pass, on average.
        var oursSharing = 0.0
        /// The part of the wall time spent in `llama_decode`.
        var oursBusy = 0.0
        var serverTokens = 0
        var serverSeconds = 0.0
        var oursRate: Double { oursSeconds > 0 ? Double(oursTokens) / oursSeconds : 0 }
        var serverRate: Double { serverSeconds > 0 ? Double(serverTokens) / serverSeconds : 0 }
    }

    struct Result {
        var rows: [Row]
        var model: String
        var threads: Int
        var serverCommand: String?
        var serverError: String?
    }

    static let subjects = [
        "a fox who learns to sail", "a lighthouse keeper's last winter", "two robots who open a bakery",
        "a city that floats on a lake", "a girl who collects thunder", "the oldest tree in a forest",
        "a train that only runs at night", "a cat who becomes mayor",
    ]

    func run(log: @Sendable (String) -> Void) async throws -> Result {
        var configuration = OnDeviceConfiguration.current
        configuration.contexts = Self.counts.max() ?? 8
        configuration.contextSize = contextSize
        // The same work on both sides: text is not cut where it loops.
        configuration.stopsLoops = false
        configuration.stringPacing = nil
        let model = SystemLanguageModel(configuration: configuration)
        guard model.isAvailable else { throw BenchmarkError("the model is not available (\(model.availability))") }
        let engine = OnDeviceEngine.shared(for: configuration)
        defer { OnDeviceEngine.release(engine) }
        let loaded = try await engine.loaded()
        let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: maximumTokens)
        _ = try await LanguageModelSession(model: model).respond(to: "Hello", options: GenerationOptions(maximumResponseTokens: 4))

        log("sessions at once: starting llama-server -np 8")
        let slots = Self.counts.max() ?? 8
        let (server, serverError) = await LlamaServer.startForBenchmark(
            binary: ProcessInfo.processInfo.environment["LLAMA_SERVER"], model: configuration.modelPath,
            threads: configuration.threads, contextSize: contextSize * slots, parallel: slots)
        defer { server?.stop() }

        var rows: [Row] = []
        var round = 0
        for count in Self.counts {
            var row = Row(sessions: count)
            round += 1
            let prompts = (0..<count).map { "Story \(round)-\($0): write a long story about \(Self.subjects[$0 % Self.subjects.count])." }

            log("sessions at once: \(count), ours")
            let before = (engine.statistics.withLock { $0 }, loaded.scheduler.statistics)
            let started = Measure.clock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for prompt in prompts {
                    group.addTask { _ = try await LanguageModelSession(model: model).respond(to: prompt, options: options) }
                }
                try await group.waitForAll()
            }
            row.oursSeconds = Measure.seconds(Measure.clock.now - started)
            let after = (engine.statistics.withLock { $0 }, loaded.scheduler.statistics)
            row.oursTokens = after.0.generatedTokens - before.0.generatedTokens
            let steps = after.1.steps - before.1.steps
            row.oursSharing = steps > 0 ? Double(after.1.passes - before.1.passes) / Double(steps) : 0
            row.oursBusy = (after.1.decodeSeconds - before.1.decodeSeconds) / max(row.oursSeconds, 1e-9)

            if let server {
                log("sessions at once: \(count), llama-server")
                var rendered: [String] = []
                for prompt in prompts {
                    // The same text, rendered as our session renders it.
                    rendered.append(try await model.renderedInput(for: EvalRunner.plainTranscript(instructions: "", prompt: prompt)).text)
                }
                let port = server.port
                let serverStarted = Measure.clock.now
                let completions = try await withThrowingTaskGroup(of: LlamaServer.Completion.self) { group in
                    for text in rendered {
                        group.addTask { try await LlamaServer.complete(port: port, prompt: text, constraint: nil, maximumTokens: maximumTokens) }
                    }
                    var all: [LlamaServer.Completion] = []
                    for try await completion in group { all.append(completion) }
                    return all
                }
                row.serverSeconds = Measure.seconds(Measure.clock.now - serverStarted)
                row.serverTokens = completions.reduce(0) { $0 + $1.predicted }
            }
            rows.append(row)
        }
        return Result(rows: rows, model: configuration.modelPath, threads: configuration.threads,
                      serverCommand: server?.command, serverError: serverError)
    }

    static func markdown(_ result: Result?, error: String?) -> [String] {
        var lines = ["## Sessions at once: shared forward passes against llama-server -np 8", ""]
        guard let result else {
            lines.append("Not measured: \(error ?? "unknown error").")
            return lines
        }
        lines += [
            "Requests answering at the same time on one model (\(URL(fileURLWithPath: result.model).lastPathComponent), \(result.threads) threads):",
            "each a distinct story prompt, greedy, at most 128 tokens; tokens/s is every generated token over the wall",
            "time from the first request to the last answer, prompts included. Ours: `LanguageModelSession`s on one model",
            "with 8 sequences (`FOUNDATION_MODELS_CONTEXTS=8`), whose requests share each `llama_decode`",
            "(`DecodeScheduler`); *shared* is requests per forward pass, *busy* the part of the wall time spent in",
            "`llama_decode`. llama-server: the same prompts rendered by our chat template, `/completion`, greedy, in the",
            "same run, taking turns with ours per row.",
            "",
            "| sessions | ours tokens | ours tokens/s | × one session | shared | busy | llama-server tokens | llama-server tokens/s | ours / llama-server |",
            "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        let single = result.rows.first?.oursRate ?? 0
        func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        for row in result.rows {
            let server = row.serverSeconds > 0
            lines.append("| \(row.sessions) | \(row.oursTokens) | \(f(row.oursRate)) | \(single > 0 ? f(row.oursRate / single, 2) + "×" : "–") | \(f(row.oursSharing, 2)) | \(f(row.oursBusy * 100, 0)) % | "
                + "\(server ? "\(row.serverTokens)" : "–") | \(server ? f(row.serverRate) : "–") | \(server && row.serverRate > 0 ? f(row.oursRate / row.serverRate, 2) : "–") |")
        }
        lines.append("")
        if let command = result.serverCommand { lines.append("llama-server: `\(command)`") }
        if let error = result.serverError { lines.append("llama-server not measured: \(error)") }
        return lines
    }
}
