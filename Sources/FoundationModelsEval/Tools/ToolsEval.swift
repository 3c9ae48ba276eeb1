import Foundation
import FoundationModels

/// How a tools run is made.
package struct ToolsOptions: Sendable {
    /// The run's name in the report (the model, or the model and a variant).
    package var label: String
    /// How the model was reached: `library` (in process), `fm serve`, or
    /// another server (`llama-server --jinja`, the reference).
    package var mode: String
    /// Seconds an item (all its turns together) may take; past it, the item
    /// counts as timed out.
    package var timeLimit: Double
    /// Only the first `limit` items.
    package var limit: Int?
    /// The source revision `fm` was built from, recorded in the run.
    package var revision: String?

    package init(label: String, mode: String = ToolsEval.libraryMode, timeLimit: Double = 60, limit: Int? = nil, revision: String? = nil) {
        self.label = label
        self.mode = mode
        self.timeLimit = timeLimit
        self.limit = limit
        self.revision = revision
    }
}

/// One item's outcome: what the model did in each turn, and its scores.
package struct ToolsRecord: Codable, Sendable, Equatable {
    package var id: String
    package var kind: String
    package var turns: [TurnRecord]
    package var score: ToolsScore
    /// The error that ended the item, if one did (a timeout included).
    package var error: String?
    package var timedOut: Bool
    package var seconds: Double
}

/// A run of the tools corpus on one model, reached one way.
package struct ToolsRun: Codable, Sendable, Equatable {
    package var label: String
    package var mode: String
    package var timeLimit: Double
    package var records: [ToolsRecord]
    package var seconds: Double
    /// When the run was made (ISO 8601) and the source revision its `fm`
    /// was built from, as ``EvalRun`` records them; nil in runs saved
    /// before they were recorded.
    package var date: String?
    package var revision: String?
}

/// The tools eval: each item of the tools corpus in a fresh session with
/// ``ShopTables``'s four tools, `toolCallingMode` left `.allowed` and
/// greedy sampling, as an app that offers tools asks.
///
/// Exists because tool use was measured nowhere: a model that writes its
/// call again as text after the result, or calls where a plain answer was
/// wanted, fails no other eval. The same corpus runs on the model in
/// process (``SystemLanguageModel``) and through an OpenAI-compatible
/// server such as `fm serve` (``serverModel(baseURL:model:)``), so the
/// two paths' tool calling can be compared item by item.
package enum ToolsEval {
    package static let libraryMode = "library"
    package static let serverMode = "fm serve"

    /// The session's instructions.
    package static let instructions =
        "You are the assistant of a small online shop. Use the tools when a question needs the shop's live data (stock, orders, weather, exchange rates) and answer with the numbers they return. Answer other questions directly, without tools."

    /// The tools every session has.
    package static var tools: [any Tool] { [GetStockTool(), GetWeatherTool(), ConvertCurrencyTool(), LookupOrderTool()] }

    /// Greedy sampling, tools allowed (the default mode, said explicitly),
    /// no token limit: an app's options.
    package static var generationOptions: GenerationOptions {
        GenerationOptions(samplingMode: .greedy, toolCallingMode: .allowed)
    }

    /// Runs `items` one after another, each in a fresh session on `model`.
    package static func run(items: [ToolsItem], model: some LanguageModel, options: ToolsOptions) async -> ToolsRun {
        let clock = ContinuousClock()
        let start = clock.now
        var records: [ToolsRecord] = []
        for item in items.prefix(options.limit ?? items.count) {
            records.append(await run(item, model: model, timeLimit: options.timeLimit))
        }
        return ToolsRun(
            label: options.label, mode: options.mode, timeLimit: options.timeLimit, records: records,
            seconds: seconds(clock.now - start), date: ISO8601DateFormatter().string(from: Date()), revision: options.revision)
    }

    /// One item: its turns in one session, within `timeLimit` seconds together.
    package static func run(_ item: ToolsItem, model: some LanguageModel, timeLimit: Double) async -> ToolsRecord {
        let clock = ContinuousClock()
        let start = clock.now
        let session = LanguageModelSession(model: model, tools: tools, instructions: instructions)
        var turns: [TurnRecord] = []
        var failure: String?
        var timedOut = false
        for turn in item.turns {
            let left = timeLimit - seconds(clock.now - start)
            let before = session.transcript.count
            do {
                guard left > 0 else { throw TimeLimitExceeded(seconds: timeLimit) }
                let prompt = turn.prompt
                let answer = try await withTimeLimit(left) {
                    try await session.respond(to: prompt, options: generationOptions).content
                }
                turns.append(TurnRecord(calls: calls(in: Array(session.transcript.dropFirst(before))), answer: answer))
            } catch {
                if error is TimeLimitExceeded {
                    timedOut = true
                    failure = "timed out: no answer within \(Scoring.number(timeLimit)) s"
                } else {
                    failure = "error: \(error)"
                }
                // What the transcript kept of the failed turn: its calls.
                let kept = calls(in: Array(session.transcript.dropFirst(before)))
                if !kept.isEmpty { turns.append(TurnRecord(calls: kept, answer: "")) }
                break
            }
        }
        return ToolsRecord(
            id: item.id, kind: item.kind, turns: turns,
            score: ToolsScoring.score(item, turns: turns, failure: failure),
            error: failure, timedOut: timedOut, seconds: seconds(clock.now - start)
        )
    }

    /// The calls among `entries`, in order, arguments as JSON text.
    package static func calls(in entries: [Transcript.Entry]) -> [MadeCall] {
        entries.flatMap { entry -> [MadeCall] in
            guard case .toolCalls(let calls) = entry else { return [] }
            return calls.map { MadeCall(tool: $0.toolName, arguments: $0.arguments.jsonString) }
        }
    }

    /// A model behind an OpenAI-compatible server (`fm serve`, llama-server):
    /// `baseURL` is the API root (`http://127.0.0.1:8080/v1`), `model` the
    /// name sent with each request.
    package static func serverModel(baseURL: String, model: String) throws(ToolsEvalError) -> OpenAICompatibleLanguageModel {
        guard let url = URL(string: baseURL), url.scheme != nil, url.host != nil else {
            throw ToolsEvalError("not a URL: \(baseURL) (expected e.g. http://127.0.0.1:8080/v1)")
        }
        do {
            return try OpenAICompatibleLanguageModel(baseURL: url, model: model, apiKeyEnvironmentVariable: nil)
        } catch {
            throw ToolsEvalError("cannot use \(baseURL): \(error)")
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// A tools eval that cannot start (a server URL that is not one).
package struct ToolsEvalError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
