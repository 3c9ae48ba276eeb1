import Foundation
import FoundationModels
import FoundationModelsEval
import FoundationModelsTiers

/// The server tier against the device, and the router's own cost.
///
/// One typed answer (the same `@Generable` type, prompt and greedy budget)
/// served by llama-server through ``OpenAICompatibleLanguageModel`` — the
/// same model file and threads, started on 127.0.0.1 for the measurement and
/// stopped before the on-device runs, so the two never share the cores —
/// against the in-process model. The server enforces the schema with its
/// JSON-schema grammar, the session checks the answer with the matcher.
/// Router overhead: `ModelRouter.respond` against a plain session on a model
/// that answers at once, so only the routing is timed.
struct TiersBenchmark {
    var runs = 5
    var answerTokens = 96

    @Generable
    struct Forecast {
        @Guide(description: "The city")
        var city: String
        @Guide(description: "Temperature in degrees Celsius", .range(-40...50))
        var temperature: Int
        @Guide(description: "One short sentence")
        var summary: String
    }

    struct Result {
        var runs: Int
        var serverSeconds: Double
        var deviceSeconds: Double
        var serverOutputTokens: Double
        var deviceOutputTokens: Double
        var serverExample: String
        var deviceExample: String
        var routerMicroseconds: Double
        var plainMicroseconds: Double
    }

    static let prompt = "The weather in Lisbon today: sunny, 23 degrees. Describe it."

    func run(log: @Sendable (String) -> Void) async throws -> Result {
        let environment = ProcessInfo.processInfo.environment
        guard let binary = environment["LLAMA_SERVER"], let model = environment["FOUNDATION_MODELS_MODEL"] else {
            throw BenchmarkError("LLAMA_SERVER or FOUNDATION_MODELS_MODEL is not set (run through make bench)")
        }
        let threads = Int(environment["FOUNDATION_MODELS_THREADS"] ?? "") ?? ProcessInfo.processInfo.activeProcessorCount
        let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: answerTokens)

        log("tiers: the typed answer from llama-server (same model, \(threads) threads)")
        let server = try LlamaServer(binary: binary, model: model, threads: threads, contextSize: 4096)
        var serverTimes: [Double] = []
        var serverTokens: [Double] = []
        var serverExample = ""
        do {
            try await server.waitUntilReady()
            let remote = try OpenAICompatibleLanguageModel(baseURL: URL(string: "http://127.0.0.1:\(server.port)/v1")!, model: "bench")
            _ = try await LanguageModelSession(model: remote).respond(
                to: "Hi", options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 2))
            for _ in 0..<runs {
                let (seconds, response) = try await Self.timed {
                    try await LanguageModelSession(model: remote).respond(to: Self.prompt, generating: Forecast.self, options: options)
                }
                serverTimes.append(seconds)
                serverTokens.append(Double(response.usage.output.totalTokenCount))
                serverExample = response.rawContent.jsonString
            }
        } catch {
            server.stop()
            throw error
        }
        server.stop()

        log("tiers: the same answer on device")
        var deviceTimes: [Double] = []
        var deviceTokens: [Double] = []
        var deviceExample = ""
        _ = try await LanguageModelSession().respond(to: "Hi", options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 2))
        for _ in 0..<runs {
            let (seconds, response) = try await Self.timed {
                try await LanguageModelSession().respond(to: Self.prompt, generating: Forecast.self, options: options)
            }
            deviceTimes.append(seconds)
            deviceTokens.append(Double(response.usage.output.totalTokenCount))
            deviceExample = response.rawContent.jsonString
        }

        log("tiers: router overhead")
        let instant = InstantModel()
        let router = ModelRouter(onDevice: instant, privateCloud: instant)
        let count = 2000
        var routed: [Double] = []
        var plain: [Double] = []
        for _ in 0..<3 {
            routed.append(
                try await Self.timed {
                    for _ in 0..<count { _ = try await router.respond(to: "x", policy: .cloudFree) }
                }.0 / Double(count))
            plain.append(
                try await Self.timed {
                    for _ in 0..<count { _ = try await LanguageModelSession(model: instant).respond(to: "x") }
                }.0 / Double(count))
        }
        return Result(
            runs: runs,
            serverSeconds: Measure.mean(serverTimes),
            deviceSeconds: Measure.mean(deviceTimes),
            serverOutputTokens: Measure.mean(serverTokens),
            deviceOutputTokens: Measure.mean(deviceTokens),
            serverExample: serverExample,
            deviceExample: deviceExample,
            routerMicroseconds: (routed.min() ?? 0) * 1e6,
            plainMicroseconds: (plain.min() ?? 0) * 1e6
        )
    }

    static func timed<T>(_ body: () async throws -> T) async throws -> (Double, T) {
        let start = Measure.clock.now
        let value = try await body()
        return ((Measure.clock.now - start).inSeconds, value)
    }

    static func markdown(_ result: Result?, error: String?) -> [String] {
        func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        var lines = ["## Tiers: the server tier against the device, and the router", ""]
        guard let result else {
            return lines + ["Did not run: \(error ?? "unknown reason")", ""]
        }
        lines += [
            "| one typed answer (`Forecast`, greedy) | wall time | output tokens |",
            "| --- | ---: | ---: |",
            "| llama-server, same model and threads, through `OpenAICompatibleLanguageModel` | \(f(result.serverSeconds * 1000)) ms | \(f(result.serverOutputTokens)) |",
            "| on device (`SystemLanguageModel.default`) | \(f(result.deviceSeconds * 1000)) ms | \(f(result.deviceOutputTokens)) |",
            "",
            "Mean of \(result.runs) runs each, after one warm-up request; the server is stopped before the",
            "on-device runs. Server: `\(result.serverExample)`. Device: `\(result.deviceExample)`.",
            "",
            "| router overhead | per request |",
            "| --- | ---: |",
            "| `ModelRouter.respond(policy: .cloudFree)`, model answering at once | \(f(result.routerMicroseconds)) µs |",
            "| `LanguageModelSession.respond`, same model | \(f(result.plainMicroseconds)) µs |",
            "| routing itself | \(f(result.routerMicroseconds - result.plainMicroseconds)) µs |",
            "",
            "Best of 3 batches of 2,000 requests; the router makes a session per request, as a plain call does.",
            "",
        ]
        return lines
    }
}

/// A model that answers at once, so only what surrounds generation is timed.
struct InstantModel: LanguageModel {
    struct Executor: LanguageModelExecutor {
        typealias Model = InstantModel
        struct Configuration: Hashable, Sendable {}
        init(configuration: Configuration) {}
        func respond(
            to request: LanguageModelExecutorGenerationRequest,
            model: InstantModel,
            streamingInto channel: LanguageModelExecutorGenerationChannel
        ) async throws {
            await channel.send(.response(action: .appendText("ok", tokenCount: 1)))
        }
    }

    var capabilities: LanguageModelCapabilities { LanguageModelCapabilities([]) }
    var executorConfiguration: Executor.Configuration { Executor.Configuration() }
}
