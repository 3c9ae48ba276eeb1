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
/// The contestants take turns per count, so the machine's drift hits both,
/// in three rounds with fresh prompts each; the table gives medians. Beside
/// them, llama.cpp alone (``DecodeCeiling``): the same prompts and token
/// counts decoded in batches by a bare `llama_decode` loop, the most any
/// scheduler over llama.cpp can reach on this machine.
struct ConcurrencyBenchmark {
    static let counts = [1, 2, 4, 8]
    static var rounds: Int { Measure.rounds }
    let maximumTokens = 128
    /// Positions per sequence (ours) and per slot (llama-server's cache is
    /// eight times this, shared by its slots).
    let contextSize = 1024
    var threads: Int

    /// One contestant's answers to one count's requests.
    struct Sample {
        var tokens: Int
        var seconds: Double
        var rate: Double { seconds > 0 ? Double(tokens) / seconds : 0 }
    }

    /// One count, every round.
    struct Row {
        var sessions: Int
        var ours: [Sample] = []
        /// Requests per forward pass, on average, per round.
        var oursSharing: [Double] = []
        /// The part of the wall time spent in `llama_decode`, per round.
        var oursBusy: [Double] = []
        var server: [Sample] = []
        /// llama.cpp alone, tokens/s per round.
        var alone: [Double] = []

        /// Ours over llama-server, the median of the rounds' ratios: each
        /// pair ran back to back.
        var oursOverServer: Double? { Self.medianRatio(ours.map(\.rate), server.map(\.rate)) }
        /// Ours over llama.cpp alone, likewise.
        var oursOverAlone: Double? { Self.medianRatio(ours.map(\.rate), alone) }

        static func medianRatio(_ numerators: [Double], _ denominators: [Double]) -> Double? {
            let ratios = zip(numerators, denominators).filter { $0.1 > 0 }.map { $0.0 / $0.1 }
            return ratios.isEmpty ? nil : Measure.median(ratios)
        }
    }

    struct Result {
        var rows: [Row]
        var model: String
        var threads: Int
        var serverCommand: String?
        var serverError: String?
        var aloneError: String?
    }

    static let subjects = [
        "a fox who learns to sail", "a lighthouse keeper's last winter", "two robots who open a bakery",
        "a city that floats on a lake", "a girl who collects thunder", "the oldest tree in a forest",
        "a train that only runs at night", "a cat who becomes mayor",
    ]

    func run(log: @Sendable (String) -> Void) async throws -> Result {
        var configuration = SystemLanguageModel.Configuration.default
        configuration.parallelSequences = Self.counts.max() ?? 8
        configuration.contextSize = contextSize
        // The same work on both sides: text is not cut where it loops.
        configuration.stopsLoops = false
        configuration.pacesStrings = false
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

        var rows = Self.counts.map { Row(sessions: $0) }
        var aloneError: String?
        for round in 1...Self.rounds {
            for (index, count) in Self.counts.enumerated() {
                let prompts = (0..<count).map {
                    "Story \(round)-\(count)-\($0): write a long story about \(Self.subjects[$0 % Self.subjects.count])."
                }

                log("sessions at once, round \(round) of \(Self.rounds): \(count), ours")
                let before = (engine.statistics.withLock { $0 }, loaded.scheduler.statistics)
                let started = Measure.clock.now
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for prompt in prompts {
                        group.addTask { _ = try await LanguageModelSession(model: model).respond(to: prompt, options: options) }
                    }
                    try await group.waitForAll()
                }
                let seconds = (Measure.clock.now - started).inSeconds
                let after = (engine.statistics.withLock { $0 }, loaded.scheduler.statistics)
                rows[index].ours.append(Sample(tokens: after.0.generatedTokens - before.0.generatedTokens, seconds: seconds))
                let steps = after.1.steps - before.1.steps
                rows[index].oursSharing.append(steps > 0 ? Double(after.1.passes - before.1.passes) / Double(steps) : 0)
                rows[index].oursBusy.append((after.1.decodeSeconds - before.1.decodeSeconds) / max(seconds, 1e-9))

                let rendered = try await Self.rendered(prompts, model: model)
                if aloneError == nil {
                    log("sessions at once, round \(round) of \(Self.rounds): \(count), llama.cpp alone")
                    do {
                        rows[index].alone.append(
                            try DecodeCeiling.measure(
                                model: configuration.modelPath, threads: configuration.threads, contextLength: contextSize,
                                tokens: maximumTokens, prompts: rendered))
                    } catch {
                        aloneError = "\(error)"
                    }
                }

                guard let server else { continue }
                log("sessions at once, round \(round) of \(Self.rounds): \(count), llama-server")
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
                rows[index].server.append(
                    Sample(
                        tokens: completions.reduce(0) { $0 + $1.predicted },
                        seconds: (Measure.clock.now - serverStarted).inSeconds))
            }
        }
        return Result(
            rows: rows, model: configuration.modelPath, threads: configuration.threads,
            serverCommand: server?.command, serverError: serverError, aloneError: aloneError)
    }

    /// The prompts as our session renders them (chat template included):
    /// the text llama-server and llama.cpp alone are given.
    static func rendered(_ prompts: [String], model: SystemLanguageModel) async throws -> [String] {
        var rendered: [String] = []
        for prompt in prompts {
            rendered.append(try await model.renderedInput(for: EvalRunner.plainTranscript(instructions: "", prompt: prompt)).text)
        }
        return rendered
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
            "same run. llama.cpp alone: the same prompts and 128 greedy tokens each, every step one `llama_decode` of all",
            "the sequences, in a bare loop in a child process (`fm-bench decode-ceiling`): what llama.cpp's batched kernels",
            "give on this machine with nothing scheduling around them, the most any server over llama.cpp can reach.",
            "\(Self.rounds) rounds with fresh prompts; in each, every count runs ours, llama.cpp alone and llama-server back",
            "to back. Rates are medians over the rounds; the ratios are medians of each round's ratio (this machine drifts",
            "by several percent from minute to minute, so a ratio of medians could pair runs minutes apart).",
            "",
            "| sessions | ours tokens/s | × one session | shared | busy | llama-server tokens/s | ours / llama-server | llama.cpp alone tokens/s | alone × one | ours / alone | tokens: ours, server |",
            "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        func median(_ values: [Double]) -> Double? { values.isEmpty ? nil : Measure.median(values) }
        let single = result.rows.first?.ours.map(\.rate) ?? []
        let singleAlone = result.rows.first?.alone ?? []
        for row in result.rows {
            let ours = median(row.ours.map(\.rate))
            let server = median(row.server.map(\.rate))
            let alone = median(row.alone)
            var cells = ["\(row.sessions)"]
            cells.append(ours.map { f($0) } ?? "–")
            cells.append(Row.medianRatio(row.ours.map(\.rate), single).map { f($0, 2) + "×" } ?? "–")
            cells.append(median(row.oursSharing).map { f($0, 2) } ?? "–")
            cells.append(median(row.oursBusy).map { f($0 * 100, 0) + " %" } ?? "–")
            cells.append(server.map { f($0) } ?? "–")
            cells.append(row.oursOverServer.map { f($0, 2) } ?? "–")
            cells.append(alone.map { f($0) } ?? "–")
            cells.append(Row.medianRatio(row.alone, singleAlone).map { f($0, 2) + "×" } ?? "–")
            cells.append(row.oursOverAlone.map { f($0, 2) } ?? "–")
            cells.append("\(row.ours.last.map { "\($0.tokens)" } ?? "–"), \(row.server.last.map { "\($0.tokens)" } ?? "–")")
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        if let command = result.serverCommand { lines.append("llama-server: `\(command)`") }
        if let error = result.serverError { lines.append("llama-server not measured: \(error)") }
        if let error = result.aloneError { lines.append("llama.cpp alone not measured: \(error)") }
        return lines
    }
}
