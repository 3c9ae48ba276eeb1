import Foundation
import FoundationModels
import Synchronization

/// One Chat Completions request served by the public API: a
/// `LanguageModelSession` on the served model, its transcript built from the
/// request's messages, answering the last one. The engine's prefix cache,
/// batched decoding, guided generation and errors are the session's own.
///
/// The answer is always generated as a stream (so `stop` can end it the
/// moment a stop sequence appears, and a client that goes away stops its
/// generation); a request without `stream` gets it collected.
///
/// The Responses API (`/v1/responses`) is answered by the same machinery:
/// its request is read into a ``ChatCompletionRequest`` and only its wire
/// format differs (``ResponsesWire``).
struct ChatCompletion: Sendable {
    let model: any LanguageModel
    let modelName: String
    /// Told of the answer's progress: the server's metrics, when it keeps them.
    var observer: ServerMetrics.Generation?
    let id = "chatcmpl-" + ChatCompletion.randomID()
    let created = Int(Date().timeIntervalSince1970)

    /// 32 lowercase hex digits, as OpenAI's ids carry after their prefix.
    static func randomID() -> String {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// A piece of the answer as it is generated.
    enum Event: Sendable {
        /// New text of the answer.
        case delta(String)
        /// The log-probabilities of the tokens generated since the last
        /// such event (the request asked for `logprobs`); they come before
        /// the text they carry.
        case logProbabilities([TokenLogProbability])
        /// The model calls tools: the client runs them.
        case toolCalls(Transcript.ToolCalls)
        /// The answer is complete.
        case finished(reason: String, usage: LanguageModelSession.Usage)
    }

    /// What a request asks the session: system messages as its
    /// instructions, with the request's tools; the conversation before the
    /// last user message as its history; that message as the prompt; and
    /// the tool rounds after it as the request's earlier rounds.
    struct Turn {
        var session: LanguageModelSession
        var prompt: String
        var earlierRounds: [Transcript.Entry]
    }

    static func turn(for request: ChatCompletionRequest, model: any LanguageModel) -> Turn {
        let lastUser = request.messages.lastIndex { if case .user = $0 { true } else { false } } ?? 0
        var instructions: [String] = []
        var history: [Transcript.Entry] = []
        var rounds: [Transcript.Entry] = []
        var prompt = ""
        func text(_ content: String) -> [Transcript.Segment] { [.text(Transcript.TextSegment(content: content))] }
        for (index, message) in request.messages.enumerated() {
            let entry: Transcript.Entry
            switch message {
            case .system(let content):
                instructions.append(content)
                continue
            case .user(let content) where index == lastUser:
                prompt = content
                continue
            case .user(let content):
                entry = .prompt(Transcript.Prompt(segments: text(content)))
            case .assistant(let content):
                entry = .response(Transcript.Response(segments: text(content)))
            case .toolCalls(let calls):
                entry = .toolCalls(Transcript.ToolCalls(calls.map { Transcript.ToolCall(id: $0.id, toolName: $0.name, arguments: $0.arguments) }))
            case .toolOutput(let id, let name, let content):
                entry = .toolOutput(Transcript.ToolOutput(id: id, toolName: name, segments: text(content)))
            }
            if index < lastUser { history.append(entry) } else { rounds.append(entry) }
        }
        let tools: [ClientTool]
        switch request.toolChoice {
        case .none where request.tools.isEmpty: tools = []
        case .function(let name): tools = request.tools.filter { $0.name == name }.map(ClientTool.init)
        default: tools = request.tools.map(ClientTool.init)
        }
        var entries: [Transcript.Entry] = []
        if !instructions.isEmpty || !tools.isEmpty {
            entries.append(
                .instructions(
                    Transcript.Instructions(
                        segments: instructions.isEmpty ? [] : text(instructions.joined(separator: "\n\n")),
                        toolDefinitions: tools.map { Transcript.ToolDefinition(tool: $0) }
                    )))
        }
        let session = LanguageModelSession(model: model, tools: tools, transcript: Transcript(entries: entries + history))
        return Turn(session: session, prompt: prompt, earlierRounds: rounds)
    }

    /// The options the request asks for.
    static func options(for request: ChatCompletionRequest) -> GenerationOptions {
        let sampling: GenerationOptions.SamplingMode?
        if let topP = request.topP {
            sampling = .random(probabilityThreshold: topP, seed: request.seed)
        } else if request.topK == 1 || request.temperature == 0 {
            sampling = .greedy
        } else if let topK = request.topK {
            sampling = .random(top: topK, seed: request.seed)
        } else if let seed = request.seed {
            sampling = .random(probabilityThreshold: 1, seed: seed)
        } else {
            sampling = nil
        }
        let temperature = request.temperature == 0 ? nil : request.temperature
        var options = GenerationOptions(samplingMode: sampling, temperature: temperature, maximumResponseTokens: request.maximumTokens)
        switch request.toolChoice {
        case .auto: options.toolCallingMode = .allowed
        case .none: options.toolCallingMode = .disallowed
        case .required, .function: options.toolCallingMode = .required
        }
        return options
    }

    /// The answer to `request`, piece by piece. Ending the iteration early
    /// (a client gone, a stop sequence) cancels the generation.
    ///
    /// The answer is sent as it grows, each piece what is new since the
    /// last: text cut at the first stop sequence, a typed answer as the JSON
    /// text the schema's enforcement lets through; tool calls are sent once
    /// their arguments are complete.
    func events(for request: ChatCompletionRequest) -> AsyncThrowingStream<Event, any Error> {
        let turn = Self.turn(for: request, model: model)
        let options = Self.options(for: request)
        let typed = request.schema != nil
        let observer = observer
        let recorder = request.logProbabilities.map { TokenLogProbabilityRecorder(topCount: $0) }
        return AsyncThrowingStream { continuation in
            let task = Task {
                // Stop sequences cut text; a typed answer is never cut
                // (it would no longer be the JSON its schema promises).
                let text = TextDeltas(stops: typed ? [] : request.stop)
                @Sendable func sendLogProbabilities() {
                    if let values = recorder?.take(), !values.isEmpty { continuation.yield(.logProbabilities(values)) }
                }
                do {
                    // The in-process model records each token's log-probability here.
                    let result = try await TokenLogProbabilityRecorder.$current.withValue(recorder) {
                        try await turn.session.turn(
                            to: Prompt(turn.prompt), schema: request.schema, earlierRounds: turn.earlierRounds, options: options
                        ) { snapshot, usage in
                            if let delta = text.delta(after: snapshot, usage: usage) {
                                observer?.firstToken()
                                sendLogProbabilities()
                                continuation.yield(.delta(delta))
                            }
                            // A stop sequence ends the answer: cancel this
                            // request's generation (the task this runs on).
                            if text.stopped { withUnsafeCurrentTask { $0?.cancel() } }
                        }
                    }
                    observer?.finished(usage: result.usage)
                    if let calls = result.toolCalls {
                        continuation.yield(.toolCalls(calls))
                        continuation.yield(.finished(reason: "tool_calls", usage: result.usage))
                    } else {
                        // Every snapshot has been sent; a typed answer with
                        // none (it cannot happen, but the answer must not be
                        // lost) is sent whole.
                        if typed, text.isEmpty {
                            continuation.yield(.delta(result.content.jsonString))
                        }
                        // The last tokens' (a piece of text the answer's
                        // end flushed), before the finish.
                        sendLogProbabilities()
                        let hitLimit = request.maximumTokens.map { result.usage.output.totalTokenCount >= $0 } ?? false
                        continuation.yield(.finished(reason: !text.stopped && hitLimit ? "length" : "stop", usage: result.usage))
                    }
                    continuation.finish()
                } catch {
                    if text.stopped {
                        observer?.finished(usage: text.usage)
                        continuation.yield(.finished(reason: "stop", usage: text.usage))
                        continuation.finish()
                    } else {
                        let error = APIError.limitTooSmall(error, for: request) ?? error
                        observer?.failed(rateLimited: APIError.from(error).status == 429)
                        continuation.finish(throwing: error)
                    }
                }
            }
            continuation.onTermination = { termination in
                // Before the end: the client went away (a no-op after it).
                if case .cancelled = termination { observer?.cancelled() }
                task.cancel()
            }
        }
    }

    /// Where the first of `stops` begins in `text`.
    static func firstStop(in text: String, stops: [String]) -> String.Index? {
        stops.compactMap { text.range(of: $0)?.lowerBound }.min()
    }
}

/// The new text of each snapshot of a growing answer, cut at the first
/// stop sequence; once one is seen, nothing more.
final class TextDeltas: Sendable {
    private struct State {
        var sent = ""
        var stopped = false
        var usage = LanguageModelSession.Usage()
    }

    private let stops: [String]
    private let state = Mutex(State())

    init(stops: [String]) {
        self.stops = stops
    }

    /// Whether a stop sequence has ended the answer.
    var stopped: Bool { state.withLock(\.stopped) }
    /// Whether nothing has been sent.
    var isEmpty: Bool { state.withLock(\.sent.isEmpty) }
    /// The tokens of the last snapshot.
    var usage: LanguageModelSession.Usage { state.withLock(\.usage) }

    /// What `snapshot` adds to the text sent so far, or nil for nothing.
    func delta(after snapshot: String, usage: LanguageModelSession.Usage) -> String? {
        state.withLock { state in
            guard !state.stopped else { return nil }
            state.usage = usage
            var text = snapshot
            if let cut = ChatCompletion.firstStop(in: text, stops: stops) {
                text = String(text[..<cut])
                state.stopped = true
            }
            guard text.count > state.sent.count, text.hasPrefix(state.sent) else { return nil }
            let delta = String(text.dropFirst(state.sent.count))
            state.sent = text
            return delta
        }
    }
}

/// A function the client offers: the model may call it, and the call goes
/// back to the client, who runs it (the session never does: its turns run
/// with ``LanguageModelSession/turn(to:schema:earlierRounds:options:onSnapshot:)``).
struct ClientTool: Tool {
    typealias Arguments = GeneratedContent
    let name: String
    let description: String
    let parameters: GenerationSchema

    init(_ tool: ChatCompletionRequest.Tool) {
        name = tool.name
        description = tool.description
        parameters = tool.parameters
    }

    func call(arguments: GeneratedContent) async throws -> String {
        throw APIError(status: 500, message: "The client runs \(name), not the server.", type: "server_error", param: nil, code: nil)
    }
}
