import FoundationModels
import Hummingbird
import NIOCore

// What the answering routes share: the prelude that reads and admits a
// request (its body within its limit, parsed and checked, the model it
// names), and the answer collected or streamed.

/// A request one of the answering routes reads: its own wire format,
/// read into the chat request every answer is generated from. Lets
/// ``ChatCompletionsServer/prepare(_:)`` be the one prelude of both routes.
protocol AnswerableRequest {
    /// Parses and checks `body`.
    /// - Throws: ``APIError`` with status 400 naming what is wrong.
    init(json body: String, limits: ChatCompletionRequest.Limits) throws(APIError)
    /// The question, as the chat machinery answers it.
    var chat: ChatCompletionRequest { get }
}

extension ChatCompletionRequest: AnswerableRequest {
    var chat: ChatCompletionRequest { self }
}

extension ResponsesRequest: AnswerableRequest {}

extension ChatCompletionsServer {
    var limits: ChatCompletionRequest.Limits {
        .init(maximumMessages: configuration.maximumMessages, maximumTokens: configuration.maximumTokens)
    }

    /// A request ready to be answered: read and checked, and the answer
    /// that will be generated for it, on the model it names.
    struct Prepared<Asked: AnswerableRequest> {
        var request: Asked
        var completion: ChatCompletion
    }

    /// The prelude both answering routes share (the key was checked by
    /// ``Authentication`` before): the body read within its limit, parsed
    /// and checked against ``limits``, the model it names found (and told
    /// to the request counter, for its `model` label), and its answer's
    /// bookkeeping in that model's metrics started from the moment the
    /// request arrived. Admission to the model's queue comes with the
    /// answer's first event (``stream(_:write:)``, ``collect(_:body:)``).
    /// - Throws: the ``APIError`` to answer with instead (400, 404, 413).
    func prepare<Asked: AnswerableRequest>(_ request: Request, as _: Asked.Type = Asked.self) async throws(APIError) -> Prepared<Asked> {
        let start = ContinuousClock.now
        let body = try await self.body(of: request)
        let parsed = try Asked(json: body, limits: limits)
        let served = try self.served(parsed.chat.model)
        ServerMetrics.RequestModel.current?.name = served.name
        let completion = ChatCompletion(model: served.model, modelName: served.name, observer: .init(metrics.model(served.name), start: start))
        return Prepared(request: parsed, completion: completion)
    }

    /// The body as text: at most ``Configuration/maximumBodyBytes`` (413
    /// beyond), and valid UTF-8 (400 otherwise: JSON is UTF-8, and a body
    /// repaired with replacement characters would be answered as a
    /// question the client never asked).
    func body(of request: Request) async throws(APIError) -> String {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: configuration.maximumBodyBytes)
        } catch is NIOTooManyBytesError {
            throw APIError(
                status: 413, message: "The body is larger than the limit of \(configuration.maximumBodyBytes) bytes.",
                type: "invalid_request_error", param: nil, code: "request_too_large"
            )
        } catch {
            throw .invalid("The body could not be read: \(error)", param: nil)
        }
        guard let text = String(validating: body.readableBytesView, as: UTF8.self) else {
            throw .invalid("The body is not valid UTF-8.", param: nil, code: "invalid_encoding")
        }
        return text
    }

    /// The model a request names: none (the first), a served model's
    /// name or an alias of one; otherwise a 404 whose message lists the
    /// names it could have used.
    func served(_ name: String?) throws(APIError) -> ServedModel {
        guard let name, !name.isEmpty else { return models[0] }
        let wanted = configuration.aliases[name] ?? name
        if let model = models.first(where: { $0.name == wanted }) { return model }
        let names = (models.map(\.name) + configuration.aliases.keys.sorted()).map { "'\($0)'" }
        let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
        throw APIError(
            status: 404, message: "The model '\(name)' does not exist; this server serves \(list).",
            type: "invalid_request_error", param: "model", code: "model_not_found"
        )
    }

    /// A request that did not stream: its answer collected, then written by
    /// `body` (nil: the answer never finished, a 500).
    func collect(
        _ events: AsyncThrowingStream<ChatCompletion.Event, any Error>, body: ([ChatCompletion.Event]) -> String?
    ) async -> Response {
        var collected: [ChatCompletion.Event] = []
        do {
            for try await event in events { collected.append(event) }
        } catch {
            return Self.error(APIError.from(error, gateway: configuration.isGateway))
        }
        guard let text = body(collected) else {
            return Self.error(APIError(status: 500, message: "The answer ended without finishing.", type: "server_error", param: nil, code: nil))
        }
        return Self.json(200, text)
    }

    /// A streamed answer, as server-sent events that `write` produces from
    /// the answer's events. The status waits for the first event, so a
    /// request that fails before it (a full queue: 429 with `Retry-After`;
    /// a context overflow: 400) gets an ordinary error response a client
    /// can act on; a failure after it is `write`'s to report in the
    /// stream. A write to a client that went away throws, which ends the
    /// iteration and with it the generation.
    func stream(
        _ events: AsyncThrowingStream<ChatCompletion.Event, any Error>,
        write:
            @escaping @Sendable (
                AsyncThrowingStream<ChatCompletion.Event, any Error>, (String) async throws -> Void
            ) async throws -> Void
    ) async -> Response {
        var iterator = events.makeAsyncIterator()
        let first: ChatCompletion.Event?
        do {
            first = try await iterator.next()
        } catch {
            return Self.error(APIError.from(error, gateway: configuration.isGateway))
        }
        // The first event and the rest go to the body through a stream of
        // their own: the iterator moves into the task that drains it, which
        // the body's end (the client gone, or the answer done) cancels,
        // ending the generation with it.
        let (rest, output) = AsyncThrowingStream<ChatCompletion.Event, any Error>.makeStream()
        if let first { output.yield(first) }
        let draining = Task { [iterator] in
            var iterator = iterator
            do {
                while let event = try await iterator.next() { output.yield(event) }
                output.finish()
            } catch {
                output.finish(throwing: error)
            }
        }
        output.onTermination = { _ in draining.cancel() }
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        let body = ResponseBody { writer in
            try await write(rest) { text in try await writer.write(ByteBuffer(string: text)) }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}
