import Foundation
import Synchronization
@testable import FoundationModels

/// A model whose executor replays scripted turns, for unit tests of the
/// session engine. It records every request it receives so tests can assert
/// what the engine sent.
struct ScriptedModel: LanguageModel {
    typealias Executor = ScriptedExecutor

    let script: Script
    var capabilities = LanguageModelCapabilities([.guidedGeneration, .toolCalling])

    init(_ turns: [[Script.Step]], capabilities: LanguageModelCapabilities = LanguageModelCapabilities([.guidedGeneration, .toolCalling])) {
        self.script = Script(turns)
        self.capabilities = capabilities
    }

    var executorConfiguration: ScriptedExecutor.Configuration { .init(script: script) }
}

/// The turns a scripted model plays, one per executor call, and the requests it saw.
final class Script: Sendable, Hashable {
    enum Step: Sendable {
        /// Appends text to the response.
        case text(String)
        /// Appends text to the turn's reasoning.
        case reasoning(String)
        /// Appends argument text to a tool call (opening it on first use).
        case toolCall(id: String, name: String, arguments: String)
        /// Reports usage.
        case usage(input: Int, output: Int)
        /// Throws.
        case fail(any Error & Sendable)
        /// Sleeps (cancellable).
        case delay(Duration)
    }

    private let state: Mutex<(turns: [[Step]], requests: [LanguageModelExecutorGenerationRequest])>

    init(_ turns: [[Step]]) {
        self.state = Mutex((turns, []))
    }

    func nextTurn(for request: LanguageModelExecutorGenerationRequest) -> [Step] {
        state.withLock { state in
            state.requests.append(request)
            return state.turns.isEmpty ? [] : state.turns.removeFirst()
        }
    }

    var requests: [LanguageModelExecutorGenerationRequest] { state.withLock { $0.requests } }

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
        self.script = configuration.script
    }

    func respond(
        to request: LanguageModelExecutorGenerationRequest,
        model: ScriptedModel,
        streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
        for step in script.nextTurn(for: request) {
            switch step {
            case .text(let text):
                await channel.send(.response(action: .appendText(text, tokenCount: 1)))
            case .reasoning(let text):
                await channel.send(.reasoning(action: .appendText(text, tokenCount: 1)))
            case .toolCall(let id, let name, let arguments):
                await channel.send(.toolCalls(action: .toolCall(id: id, name: name, action: .appendArguments(arguments, tokenCount: 1))))
            case .usage(let input, let output):
                await channel.send(.response(action: .updateUsage(input: .init(totalTokenCount: input, cachedTokenCount: 0), output: .init(totalTokenCount: output, reasoningTokenCount: 0))))
            case .fail(let error):
                throw error
            case .delay(let duration):
                try await Task.sleep(for: duration)
            }
        }
    }
}
