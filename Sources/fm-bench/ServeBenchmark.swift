import ChildProcess
import Foundation
import FoundationModels
import FoundationModelsEval

/// Aggregate throughput through `fm serve` (the OpenAI-compatible server,
/// the program fm-serve) against llama-server with eight slots, on the same
/// model and threads, in the same run.
///
/// Exists to show what the HTTP server adds to the in-process sessions
/// (``ConcurrencyBenchmark``): request parsing, a `LanguageModelSession` per
/// request, one server-sent event per piece of text, the connection's writes.
///
/// The client is the same for both servers: this package's
/// ``OpenAICompatibleLanguageModel`` in `LanguageModelSession`s,
/// `streamResponse`, 1 or 8 requests at once, each a distinct story prompt,
/// greedy, at most ``maximumTokens`` tokens; the tokens are each response's
/// usage as its server reported it (the client asks for
/// `stream_options.include_usage`); throughput is every generated token over
/// the wall time from the first request to the last answer. Each server has
/// 8 parallel sequences of ``contextSize`` positions. Only one runs at a
/// time (the cores are few): per round, one server is started, warmed up,
/// measured at both counts and stopped, then the other; the order
/// alternates from round to round, starting with llama-server; both are
/// killed if fm-bench is interrupted (``OrphanGuard``). Five rounds
/// with fresh prompts; medians, medians of each round's ratio, and every
/// round's ratio, so whether the ratio holds from run to run is in the table.
struct ServeBenchmark {
    static let counts = [1, 8]
    static let rounds = 5
    let maximumTokens = 128
    /// Positions per sequence: fm-serve's `--context-size`, llama-server's
    /// per slot (its `-c` is eight times this, shared by the slots).
    let contextSize = 1024
    let parallel = 8
    var threads: Int

    typealias Sample = ConcurrencyBenchmark.Sample

    /// One count of clients, every round.
    struct Row {
        var clients: Int
        var ours: [Sample] = []
        var server: [Sample] = []

        /// fm serve over llama-server, the median of the rounds' ratios.
        var oursOverServer: Double? { ConcurrencyBenchmark.Row.medianRatio(ours.map(\.rate), server.map(\.rate)) }
        /// Each round's ratio, in round order.
        var roundRatios: [Double] { zip(ours, server).map { $0.rate / max($1.rate, 1e-9) } }
    }

    struct Result {
        var rows: [Row]
        var model: String
        var threads: Int
        var serveCommand: String
        var serverCommand: String
    }

    static let subjects = [
        "a clockmaker who builds a bird", "a ship lost in a sea of fog", "a village where it never stops snowing",
        "a dragon who is afraid of the dark", "an astronaut who finds a garden on the moon", "a detective who is a dog",
        "a library that rearranges itself", "a boy who can talk to rivers",
    ]

    /// Sent as the system message: each server then renders the same
    /// prompt (without one, llama-server's Qwen template adds its own
    /// default system prompt and ours does not, and the answers differ).
    static let instructions = "You are a storyteller. You write long, vivid stories."

    func run(log: @Sendable (String) -> Void) async throws -> Result {
        let environment = ProcessInfo.processInfo.environment
        guard let llamaServer = environment["LLAMA_SERVER"], !llamaServer.isEmpty else {
            throw BenchmarkError("LLAMA_SERVER is not set (run through make bench)")
        }
        let modelPath = SystemLanguageModel.Configuration.default.modelPath
        guard FileManager.default.fileExists(atPath: modelPath) else {
            throw BenchmarkError("the model \(modelPath) is not there; run make setup")
        }
        let binary = try ServeProcess.binary()

        var rows = Self.counts.map { Row(clients: $0) }
        var serveCommand = ""
        var serverCommand = ""
        for round in 1...Self.rounds {
            let prompts = Self.counts.map { count in
                (0..<count).map { "Write a long story about \(Self.subjects[$0 % Self.subjects.count]). (Story \(round).\(count).\($0))" }
            }
            // llama-server first in odd rounds, fm serve first in even ones.
            for serverTurn in round % 2 == 1 ? [true, false] : [false, true] {
                if serverTurn {
                    log("fm serve, round \(round) of \(Self.rounds): starting llama-server -np \(parallel)")
                    let server = try await LlamaServer.start(
                        binary: llamaServer, model: modelPath, threads: threads,
                        contextSize: contextSize * parallel, parallel: parallel)
                    defer { server.stop() }
                    serverCommand = server.command
                    let samples = try await measure(port: server.port, prompts: prompts, round: round, name: "llama-server", log: log)
                    for index in rows.indices { rows[index].server.append(samples[index]) }
                } else {
                    log("fm serve, round \(round) of \(Self.rounds): starting fm-serve --parallel \(parallel)")
                    let serve = try ServeProcess(binary: binary, model: modelPath, threads: threads, contextSize: contextSize, parallel: parallel)
                    defer { serve.stop() }
                    serveCommand = serve.command
                    let port = try await serve.waitUntilListening()
                    let samples = try await measure(port: port, prompts: prompts, round: round, name: "fm serve", log: log)
                    for index in rows.indices { rows[index].ours.append(samples[index]) }
                }
            }
        }
        return Result(rows: rows, model: modelPath, threads: threads, serveCommand: serveCommand, serverCommand: serverCommand)
    }

    /// One server's turn: a warm-up request, then each count's prompts at once.
    func measure(port: Int, prompts: [[String]], round: Int, name: String, log: @Sendable (String) -> Void) async throws -> [Sample] {
        let model = try OpenAICompatibleLanguageModel(
            baseURL: URL(string: "http://127.0.0.1:\(port)/v1")!, model: ServeProcess.modelName, apiKeyEnvironmentVariable: nil)
        _ = try await LanguageModelSession(model: model).respond(
            to: "Hello", options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 4))
        let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: maximumTokens)
        var samples: [Sample] = []
        for batch in prompts {
            log("fm serve, round \(round) of \(Self.rounds): \(batch.count) at once, \(name)")
            let started = Measure.clock.now
            let tokens = try await withThrowingTaskGroup(of: Int.self) { group in
                for prompt in batch {
                    group.addTask {
                        let session = LanguageModelSession(model: model, instructions: Self.instructions)
                        // Streamed, as a client of the server reads; collect iterates it.
                        return try await session.streamResponse(to: prompt, options: options).collect().usage.output.totalTokenCount
                    }
                }
                return try await group.reduce(0, +)
            }
            samples.append(Sample(tokens: tokens, seconds: (Measure.clock.now - started).inSeconds))
        }
        return samples
    }

    static func markdown(_ result: Result?, error: String?) -> [String] {
        var lines = ["## fm serve: the HTTP server against llama-server -np 8", ""]
        guard let result else {
            lines.append("Not measured: \(error ?? "unknown error").")
            return lines
        }
        let counts = result.rows.map { "\($0.clients)" }.joined(separator: " or ")
        lines += [
            "Aggregate throughput through `fm serve` (the OpenAI-compatible server, fm-serve) against llama-server, on one",
            "model (\(URL(fileURLWithPath: result.model).lastPathComponent), \(result.threads) threads), each server with 8 parallel",
            "sequences of 1024 positions. The client is the same for both: this package's `OpenAICompatibleLanguageModel`",
            "in `LanguageModelSession`s, `streamResponse` (Chat Completions, server-sent events), \(counts) clients at once,",
            "each a distinct story prompt (the same system message for all), greedy, at most 128 tokens; tokens are each answer's usage as its server",
            "reported it (`stream_options.include_usage`), tokens/s every generated token over the wall time from the",
            "first request to the last answer. Only one server runs at a time: per round, one is started, warmed up with",
            "one short request, measured and stopped, then the other (the order alternates from round to round).",
            "\(Self.rounds) rounds with fresh prompts; rates are medians over the rounds, the ratio the median of each",
            "round's ratio (each round's in the last column). The sessions-at-once table above is the same model in process: the difference is what",
            "HTTP, JSON and each server's scheduling add. The goal: fm serve at least 0.9× llama-server.",
            "",
            "| clients | fm serve tokens/s | llama-server tokens/s | fm serve / llama-server | tokens, all rounds: fm serve, llama-server | ratio by round |",
            "| ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        func median(_ samples: [Sample]) -> String { samples.isEmpty ? "–" : f(Measure.median(samples.map(\.rate))) }
        for row in result.rows {
            let tokens = "\(row.ours.reduce(0) { $0 + $1.tokens }), \(row.server.reduce(0) { $0 + $1.tokens })"
            let rounds = row.roundRatios.map { f($0, 2) }.joined(separator: ", ")
            lines.append(
                "| \(row.clients) | \(median(row.ours)) | \(median(row.server)) | \(row.oursOverServer.map { f($0, 2) } ?? "–") | \(tokens) | \(rounds) |"
            )
        }
        lines += [
            "",
            "fm serve: `\(result.serveCommand)`",
            "",
            "llama-server: `\(result.serverCommand)`",
        ]
        return lines
    }
}

/// fm-serve started for the benchmark: the program beside fm-bench, on a
/// free port of 127.0.0.1 (`--port 0`, read back from its first line), as
/// a ``ChildServer`` (never left running). ``stop()`` ends it; call it on
/// every path.
final class ServeProcess {
    static let modelName = "bench"
    private let server: ChildServer
    var command: String { server.command }

    /// fm-serve beside this program (as `fm serve` finds it beside fm).
    static func binary() throws -> URL {
        let me = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).resolvingSymlinksInPath()
        let binary = me.deletingLastPathComponent().appendingPathComponent("fm-serve")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw BenchmarkError("fm-serve is not built beside fm-bench (\(binary.path)): swift build -c release --product fm-serve")
        }
        return binary
    }

    init(binary: URL, model: String, threads: Int, contextSize: Int, parallel: Int) throws {
        // The same work as llama-server's: text is not cut where it loops.
        let variables = [
            "FOUNDATION_MODELS_THREADS": "\(threads)", "FOUNDATION_MODELS_REPETITION": "off", "FOUNDATION_MODELS_STRING_PACING": "off",
        ]
        let arguments = [
            "--port", "0", "--model", model, "--model-name", Self.modelName,
            "--parallel", "\(parallel)", "--context-size", "\(contextSize)",
        ]
        // Standard error, the access log (a line per request), is kept for an error's message.
        do {
            server = try ChildServer(binary, arguments, environment: variables, unsetting: ["FM_SERVE_API_KEY"], standardError: .log)
        } catch {
            throw BenchmarkError(error.description)
        }
    }

    /// The port from `fm serve: listening on http://HOST:PORT/v1 ...`,
    /// once the model is loaded and connections are accepted.
    func waitUntilListening(timeout: Double = 120) async throws -> Int {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        while clock.now < deadline {
            switch await server.nextLine(within: deadline - clock.now) {
            case .line(let line):
                if line.hasPrefix("fm serve: listening on http://"), let port = ChildServer.loopbackPort(in: line) { return port }
            case .ended:
                throw BenchmarkError("fm-serve exited before listening: \(server.logTail())")
            case .timedOut:
                break
            }
        }
        throw BenchmarkError("fm-serve did not listen within \(Int(timeout)) s: \(server.logTail())")
    }

    /// Kills the server (SIGKILL, as for llama-server: nothing is left to
    /// finish) and waits (at most 5 s) until it is gone.
    func stop() {
        server.stop()
    }
}
