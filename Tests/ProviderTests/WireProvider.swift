// A model provider written the way third-party provider packages are: its
// own `LanguageModel` and `LanguageModelExecutor`, translating the
// framework's transcript into a server's wire format and the server's
// streamed chunks back into channel events. The "server" here is scripted:
// it replays chunks and records the requests it was sent, so tests can check
// what the provider sent (reasoning signatures replayed, tool outputs) as
// well as what the session made of the answers. Only the public API is
// used: this target cannot see the module's internals.

import Foundation
import FoundationModels
import Synchronization

/// One chunk of a streamed answer, as a server sends it (a JSON object per
/// line in a real API).
enum WireChunk: Sendable {
    case reasoningDelta(String)
    /// The server's opaque signature of the reasoning, base64 on the wire.
    case reasoningSignature(String)
    case textDelta(String)
    case toolCallDelta(id: String, name: String, arguments: String)
    /// Response metadata: the tier that served the request, the model, the cost.
    case responseMetadata([String: String])
    case toolCallMetadata(id: String, name: String, [String: String])
    case usage(input: Int, cached: Int, output: Int, reasoning: Int, cost: Double)
    /// An error the server reports instead of (or in the middle of) an answer.
    case error(code: String, message: String)
    /// The connection stalls until the latch opens.
    case stall(Latch)
}

/// Holds a stalled answer until a test opens it.
final class Latch: Sendable {
    private let stream = AsyncStream<Void>.makeStream()

    func wait() async {
        for await _ in stream.stream { return }
    }

    func open() {
        stream.continuation.yield()
        stream.continuation.finish()
    }
}

/// One message of a request in the wire format.
struct WireMessage: Equatable, Sendable {
    var role: String
    var text: String
    var reasoningSignature: String? = nil
    var toolCalls: [String] = []
    var toolCallID: String? = nil
}

/// A request as the server received it.
struct WireRequest: Sendable {
    var messages: [WireMessage]
    var tools: [String]
    var reasoningEffort: String?
    var metadata: [String: String]
}

/// The scripted server: answers each request with the next script.
final class ScriptedServer: Sendable, Hashable {
    private let state: Mutex<(scripts: [[WireChunk]], requests: [WireRequest])>

    init(_ scripts: [[WireChunk]]) {
        self.state = Mutex((scripts, []))
    }

    func answer(_ request: WireRequest) -> [WireChunk] {
        state.withLock { state in
            state.requests.append(request)
            return state.scripts.isEmpty ? [] : state.scripts.removeFirst()
        }
    }

    var requests: [WireRequest] { state.withLock { $0.requests } }

    static func == (lhs: ScriptedServer, rhs: ScriptedServer) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The provider's model.
struct WireModel: LanguageModel {
    typealias Executor = WireExecutor

    let server: ScriptedServer

    var capabilities: LanguageModelCapabilities {
        LanguageModelCapabilities(capabilities: [.toolCalling, .reasoning])
    }

    var executorConfiguration: WireExecutor.Configuration {
        WireExecutor.Configuration(server: server)
    }
}

/// The provider's executor: transcript → wire request, wire chunks → channel events.
struct WireExecutor: LanguageModelExecutor {
    struct Configuration: Hashable, Sendable {
        let server: ScriptedServer
    }

    typealias Model = WireModel

    let server: ScriptedServer

    init(configuration: Configuration) {
        self.server = configuration.server
    }

    func respond(
        to request: LanguageModelExecutorGenerationRequest,
        model: WireModel,
        streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
        let wire = WireRequest(
            messages: Self.messages(for: request.transcript),
            tools: request.enabledToolDefinitions.map(\.name),
            reasoningEffort: request.contextOptions.reasoningLevel.map(Self.effort),
            metadata: request.metadata.compactMapValues { try? $0.value(String.self) }
        )
        let responseID = UUID().uuidString
        let reasoningID = UUID().uuidString
        for chunk in server.answer(wire) {
            switch chunk {
            case .reasoningDelta(let text):
                await channel.send(.reasoning(entryID: reasoningID, action: .appendText(text, tokenCount: 1)))
            case .reasoningSignature(let base64):
                guard let signature = Data(base64Encoded: base64) else {
                    throw LanguageModelError.refusal(.init(debugDescription: "The server sent a malformed signature."))
                }
                await channel.send(.reasoning(entryID: reasoningID, action: .updateSignature(signature, tokenCount: 2)))
            case .textDelta(let text):
                await channel.send(.response(entryID: responseID, action: .appendText(text, tokenCount: 1)))
            case .toolCallDelta(let id, let name, let arguments):
                await channel.send(.toolCalls(action: .toolCall(id: id, name: name, action: .appendArguments(arguments, tokenCount: 1))))
            case .responseMetadata(let values):
                await channel.send(.response(entryID: responseID, action: .updateMetadata(values)))
            case .toolCallMetadata(let id, let name, let values):
                await channel.send(.toolCalls(action: .toolCall(id: id, name: name, action: .updateMetadata(values))))
            case .usage(let input, let cached, let output, let reasoning, let cost):
                await channel.send(
                    .response(
                        entryID: responseID,
                        action: .updateUsage(
                            input: .init(totalTokenCount: input, cachedTokenCount: cached),
                            output: .init(totalTokenCount: output, reasoningTokenCount: reasoning),
                            metadata: ["cost": cost]
                        )))
            case .error(let code, let message):
                throw Self.error(code: code, message: message)
            case .stall(let latch):
                await latch.wait()
            }
        }
    }

    /// The server's error codes as the framework's errors.
    static func error(code: String, message: String) -> LanguageModelError {
        switch code {
        case "rate_limit_exceeded":
            .rateLimited(.init(resetDate: Date(timeIntervalSince1970: 1_900_000_000), debugDescription: message, metadata: ["code": code]))
        case "context_length_exceeded":
            .contextSizeExceeded(.init(contextSize: 8192, tokenCount: 9000, debugDescription: message, metadata: ["code": code]))
        case "content_filter":
            .guardrailViolation(.init(debugDescription: message, metadata: ["code": code]))
        case "refusal":
            // Beta 5's shape: the model's own words travel with the refusal.
            .refusal(.init(explanation: message, debugDescription: "refused", metadata: ["code": code]))
        default:
            .timeout(.init(debugDescription: message, metadata: ["code": code]))
        }
    }

    static func effort(_ level: ContextOptions.ReasoningLevel) -> String {
        switch level {
        case .light: "low"
        case .moderate: "medium"
        case .deep: "high"
        case .custom(let value): value
        }
    }

    /// The transcript in the server's message format: reasoning goes back
    /// with its signature, tool calls and outputs keep their ids.
    static func messages(for transcript: Transcript) -> [WireMessage] {
        transcript.map { entry -> WireMessage in
            switch entry {
            case .instructions(let instructions):
                WireMessage(role: "system", text: text(of: instructions.segments))
            case .prompt(let prompt):
                WireMessage(role: "user", text: text(of: prompt.segments))
            case .reasoning(let reasoning):
                WireMessage(role: "reasoning", text: text(of: reasoning.segments), reasoningSignature: reasoning.signature?.base64EncodedString())
            case .toolCalls(let calls):
                WireMessage(role: "assistant", text: "", toolCalls: calls.map { "\($0.id) \($0.toolName) \($0.arguments.jsonString)" })
            case .toolOutput(let output):
                WireMessage(role: "tool", text: text(of: output.segments), toolCallID: output.id)
            case .response(let response):
                WireMessage(role: "assistant", text: text(of: response.segments))
            @unknown default:
                WireMessage(role: "unknown", text: "")
            }
        }
    }

    static func text(of segments: [Transcript.Segment]) -> String {
        segments.map { segment -> String in
            switch segment {
            case .text(let text): text.content
            case .structure(let structure): structure.content.jsonString
            default: ""
            }
        }.joined(separator: "\n")
    }
}
