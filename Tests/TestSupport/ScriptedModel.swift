import Foundation
import FoundationModels
import Synchronization

/// A model whose executor plays fixed turns, on the public executor API:
/// the session engine's unit tests and the server's in-process tests run
/// their whole path (request, session, events, wire) with no model file,
/// know exactly what the answer will be, and see every request the engine
/// sent.
public struct ScriptedModel: LanguageModel {
    public typealias Executor = ScriptedExecutor

    public let script: Script
    public var capabilities: LanguageModelCapabilities

    /// One turn per request, in order; a request after the last gets an
    /// empty answer.
    public init(
        _ turns: [[Script.Step]],
        capabilities: LanguageModelCapabilities = LanguageModelCapabilities(capabilities: [.guidedGeneration, .toolCalling])
    ) {
        self.init(script: Script(turns), capabilities: capabilities)
    }

    /// A model playing `script`, which the test keeps to see the requests
    /// that reached it.
    public init(
        script: Script,
        capabilities: LanguageModelCapabilities = LanguageModelCapabilities(capabilities: [.guidedGeneration, .toolCalling])
    ) {
        self.script = script
        self.capabilities = capabilities
    }

    public var executorConfiguration: ScriptedExecutor.Configuration { .init(script: script) }
}

/// The turns a scripted model plays, one per executor call, and the requests it saw.
public final class Script: Sendable, Hashable {
    public enum Step: Sendable {
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

    public init(_ turns: [[Step]]) {
        state = Mutex((turns, []))
    }

    func nextTurn(for request: LanguageModelExecutorGenerationRequest) -> [Step] {
        state.withLock { state in
            state.requests.append(request)
            return state.turns.isEmpty ? [] : state.turns.removeFirst()
        }
    }

    /// The requests that reached the model, in order.
    public var requests: [LanguageModelExecutorGenerationRequest] { state.withLock { $0.requests } }

    public static func == (lhs: Script, rhs: Script) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

public struct ScriptedExecutor: LanguageModelExecutor {
    public struct Configuration: Hashable, Sendable {
        let script: Script
    }

    public typealias Model = ScriptedModel

    let script: Script

    public init(configuration: Configuration) throws {
        script = configuration.script
    }

    public func respond(
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
                await channel.send(
                    .response(
                        action: .updateUsage(
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
