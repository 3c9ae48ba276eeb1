import FoundationModels
import Hummingbird

// `POST /v1/chat/completions`: the request read and checked, answered by
// ``ChatCompletion``, written whole or as Chat Completions' server-sent events.

extension ChatCompletionsServer {
    func chatCompletions(_ request: Request) async -> Response {
        let prepared: Prepared<ChatCompletionRequest>
        do {
            prepared = try await prepare(request)
        } catch {
            return Self.error(error)
        }
        let (parsed, completion) = (prepared.request, prepared.completion)
        let events = completion.events(for: parsed)
        if !parsed.stream {
            return await collect(events) { events in
                var content = ""
                var calls: Transcript.ToolCalls?
                var logProbabilities = parsed.logProbabilities.map { _ in [TokenLogProbability]() }
                for event in events {
                    switch event {
                    case .delta(let text): content += text
                    case .logProbabilities(let values): logProbabilities? += values
                    case .toolCalls(let made): calls = made
                    case .finished(let reason, let usage):
                        return Self.completionBody(
                            completion, content: content, toolCalls: calls, reason: reason, usage: usage, logProbabilities: logProbabilities)
                    }
                }
                return nil
            }
        }
        let includeUsage = parsed.includeUsage
        // Server-sent events: the role, each piece of text, the finish
        // reason, usage when asked for, `[DONE]`.
        return await stream(events) { events, write in
            func send(_ json: String) async throws { try await write("data: \(json)\n\n") }
            try await send(Self.chunk(completion, delta: [("role", WireJSON.string("assistant")), ("content", WireJSON.string(""))], reason: nil))
            // Each piece of text carries the log-probabilities of its
            // tokens, when asked for; what no text followed, the last chunk.
            var logProbabilities: [TokenLogProbability] = []
            do {
                for try await event in events {
                    switch event {
                    case .logProbabilities(let values):
                        logProbabilities += values
                    case .delta(let text):
                        let carried = parsed.logProbabilities.map { _ in logProbabilities }
                        logProbabilities = []
                        try await send(Self.chunk(completion, delta: [("content", WireJSON.string(text))], reason: nil, logProbabilities: carried))
                    case .toolCalls(let calls):
                        // Each call whole, in one piece: the arguments are
                        // complete JSON once the grammar has closed them.
                        try await send(Self.chunk(completion, delta: [("tool_calls", Self.toolCalls(calls, indexed: true))], reason: nil))
                    case .finished(let reason, let usage):
                        let carried = logProbabilities.isEmpty ? nil : logProbabilities
                        try await send(Self.chunk(completion, delta: [], reason: reason, logProbabilities: carried))
                        if includeUsage { try await send(Self.usageChunk(completion, usage: usage)) }
                    }
                }
            } catch let error where !(error is CancellationError) {
                try await send(APIError.from(error, gateway: configuration.isGateway).body)
            }
            try await write("data: [DONE]\n\n")
        }
    }
}
