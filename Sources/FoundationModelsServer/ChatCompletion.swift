import Foundation
import FoundationModels

/// One Chat Completions request served by the public API: a
/// `LanguageModelSession` on the served model, its transcript built from the
/// request's messages, answering the last one. The engine's prefix cache,
/// batched decoding, guided generation and errors are the session's own.
///
/// The answer is always generated as a stream (so `stop` can end it the
/// moment a stop sequence appears, and a client that goes away stops its
/// generation); a request without `stream` gets it collected.
struct ChatCompletion: Sendable {
    let model: any LanguageModel
    let modelName: String
    let id = "chatcmpl-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    let created = Int(Date().timeIntervalSince1970)

    /// A piece of the answer as it is generated.
    enum Event: Sendable {
        /// New text of the answer.
        case delta(String)
        /// The answer is complete.
        case finished(reason: String, usage: LanguageModelSession.Usage)
    }

    /// The session for `request`: system messages as its instructions, the
    /// conversation before the last message as its history.
    static func session(for request: ChatCompletionRequest, model: any LanguageModel) -> (LanguageModelSession, prompt: String) {
        var instructions: [String] = []
        var history: [Transcript.Entry] = []
        var prompt = ""
        for (index, message) in request.messages.enumerated() {
            let isLast = index == request.messages.count - 1
            switch message {
            case .system(let text):
                instructions.append(text)
            case .user(let text) where isLast:
                prompt = text
            case .user(let text):
                history.append(.prompt(Transcript.Prompt(segments: [.text(Transcript.TextSegment(content: text))])))
            case .assistant(let text):
                history.append(.response(Transcript.Response(segments: [.text(Transcript.TextSegment(content: text))])))
            }
        }
        var entries: [Transcript.Entry] = []
        if !instructions.isEmpty {
            let text = instructions.joined(separator: "\n\n")
            entries.append(.instructions(Transcript.Instructions(segments: [.text(Transcript.TextSegment(content: text))], toolDefinitions: [])))
        }
        return (LanguageModelSession(model: model, transcript: Transcript(entries: entries + history)), prompt)
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
        return GenerationOptions(samplingMode: sampling, temperature: temperature, maximumResponseTokens: request.maximumTokens)
    }

    /// The answer to `request`, piece by piece. Ending the iteration early
    /// (a client gone, a stop sequence) cancels the generation.
    func events(for request: ChatCompletionRequest) -> AsyncThrowingStream<Event, any Error> {
        let (session, prompt) = Self.session(for: request, model: model)
        let options = Self.options(for: request)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var sent = ""
                    var usage = LanguageModelSession.Usage(input: .init(totalTokenCount: 0, cachedTokenCount: 0), output: .init(totalTokenCount: 0, reasoningTokenCount: 0))
                    var stopped = false
                    if let schema = request.schema {
                        // A typed answer is one JSON value: sent whole, once
                        // the schema's enforcement has completed it.
                        let response = try await session.respond(to: prompt, schema: schema, options: options)
                        usage = response.usage
                        continuation.yield(.delta(response.rawContent.jsonString))
                    } else {
                        // Text snapshots grow by appending: each sends what is new.
                        for try await snapshot in session.streamResponse(to: prompt, options: options) {
                            usage = snapshot.usage
                            var text = snapshot.content
                            if let cut = Self.firstStop(in: text, stops: request.stop) {
                                text = String(text[..<cut])
                                stopped = true
                            }
                            if text.count > sent.count, text.hasPrefix(sent) {
                                continuation.yield(.delta(String(text.dropFirst(sent.count))))
                                sent = text
                            }
                            if stopped { break }
                        }
                    }
                    let hitLimit = request.maximumTokens.map { usage.output.totalTokenCount >= $0 } ?? false
                    continuation.yield(.finished(reason: !stopped && hitLimit ? "length" : "stop", usage: usage))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Where the first of `stops` begins in `text`.
    static func firstStop(in text: String, stops: [String]) -> String.Index? {
        stops.compactMap { text.range(of: $0)?.lowerBound }.min()
    }
}
