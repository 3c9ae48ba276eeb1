import Foundation
import FoundationModels
import Synchronization

/// A model whose executor plays fixed turns (FoundationModelsTests'
/// scripted model, on the public executor API), so the server's routes run
/// their whole path — request, session, events, wire — with no model file,
/// and a test knows exactly what the answer will be.
struct ScriptedModel: LanguageModel {
    typealias Executor = ScriptedExecutor

    let script: Script
    var capabilities: LanguageModelCapabilities { LanguageModelCapabilities(capabilities: [.guidedGeneration, .toolCalling]) }

    /// One turn per request, in order; a request after the last gets an empty answer.
    init(_ turns: [[Script.Step]]) {
        script = Script(turns)
    }

    /// A model playing `script`, which the test keeps to see how many requests reached it.
    init(script: Script) {
        self.script = script
    }

    var executorConfiguration: ScriptedExecutor.Configuration { .init(script: script) }
}

/// The turns a scripted model plays, one per executor call, and the requests it saw.
final class Script: Sendable, Hashable {
    enum Step: Sendable {
        /// Appends text to the answer.
        case text(String)
        /// Appends argument text to a tool call (opening it on first use).
        case toolCall(id: String, name: String, arguments: String)
        /// Reports usage.
        case usage(input: Int, output: Int)
        /// Throws.
        case fail(any Error & Sendable)
        /// Sleeps (cancellable).
        case delay(Duration)
    }

    private let state: Mutex<(turns: [[Step]], requests: Int)>

    init(_ turns: [[Step]]) {
        state = Mutex((turns, 0))
    }

    func nextTurn() -> [Step] {
        state.withLock { state in
            state.requests += 1
            return state.turns.isEmpty ? [] : state.turns.removeFirst()
        }
    }

    /// How many requests reached the model.
    var requests: Int { state.withLock { $0.requests } }

    static func == (lhs: Script, rhs: Script) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

struct ScriptedExecutor: LanguageModelExecutor {
    struct Configuration: Hashable, Sendable {
        let script: Script
    }

    typealias Model = ScriptedModel

    let script: Script

    init(configuration: Configuration) throws {
        script = configuration.script
    }

    func respond(
        to request: LanguageModelExecutorGenerationRequest,
        model: ScriptedModel,
        streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
        for step in script.nextTurn() {
            switch step {
            case .text(let text):
                await channel.send(.response(action: .appendText(text, tokenCount: 1)))
            case .toolCall(let id, let name, let arguments):
                await channel.send(.toolCalls(action: .toolCall(id: id, name: name, action: .appendArguments(arguments, tokenCount: 1))))
            case .usage(let input, let output):
                await channel.send(.response(action: .updateUsage(
                    input: .init(totalTokenCount: input, cachedTokenCount: 0), output: .init(totalTokenCount: output, reasoningTokenCount: 0)
                )))
            case .fail(let error):
                throw error
            case .delay(let duration):
                try await Task.sleep(for: duration)
            }
        }
    }
}
