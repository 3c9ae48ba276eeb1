import Foundation
import FoundationModels
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Prometheus
import ServiceLifecycle

/// An OpenAI-compatible HTTP server over a `LanguageModel` (`fm serve`):
/// `POST /v1/chat/completions` and `POST /v1/responses` (streamed or not;
/// text, or JSON that follows the request's JSON Schema, enforced token by
/// token; function tools), `GET /v1/models`, `GET /health` (the model's
/// availability), `GET /metrics`.
///
/// Services in Python, TypeScript or on another machine reach the
/// in-process model through the client they already use; a Linux box
/// running it can be the private-cloud tier of every other machine's
/// `PrivateCloudComputeLanguageModel`. Each request is a
/// `LanguageModelSession` on the one served model, so requests share its
/// parallel sequences, its prefix cache and its queue bound (beyond it:
/// 429 with `Retry-After`).
///
/// Safe by default: it binds 127.0.0.1 unless told otherwise; with an API
/// key, every route but `/health` needs `Authorization: Bearer KEY`
/// (compared in constant time, never logged); bodies, messages, tokens,
/// connections and idle connections are bounded; a malformed request is a
/// 4xx with an OpenAI-style error body; the access log has no prompt text;
/// browsers are refused unless origins are allowed (``CORS``).
/// SIGTERM or SIGINT stops it gracefully.
///
/// Every response carries an `x-request-id` (the client's, else a new
/// one), which its access log line names.
public struct ChatCompletionsServer: Sendable {
    /// How the server listens and what it accepts.
    public struct Configuration: Sendable {
        /// The address to bind: loopback unless told otherwise.
        public var host = "127.0.0.1"
        /// The port; 0 picks a free one (reported to `onListening`).
        public var port = 8080
        /// A Unix domain socket to listen on instead of `host` and `port`
        /// (Apple's `fm serve --socket`): reachable only on this machine, by
        /// whoever the file's permissions let in. A stale socket left by a
        /// server that is gone is replaced; one a server still answers on,
        /// or a file that is not a socket, is an error. Removed on exit.
        public var socketPath: String?
        /// The bearer key clients must send, or nil for none.
        public var apiKey: String?
        /// The model's name in `/v1/models` and in every response.
        public var modelName: String
        /// The tokens one request's conversation and answer may hold,
        /// reported in `/v1/models` as `max_model_len` (as vLLM does), so
        /// clients such as `PrivateCloudComputeLanguageModel` can budget.
        public var contextSize: Int?
        /// The largest request body accepted (413 beyond).
        public var maximumBodyBytes = 1 << 20
        /// The most messages a request may hold.
        public var maximumMessages = 512
        /// A cap on every answer's tokens (nil: the request's own, else the model's).
        public var maximumTokens: Int?
        /// Connections served at once; more wait to be accepted.
        public var maximumConnections = 256
        /// A connection that sends nothing for this long is closed: a slow
        /// client, and a kept-alive connection between requests. Keep it
        /// above clients' pool expiry (httpx, the `openai` client's: 5 s):
        /// a request sent just as the server closes its connection fails
        /// with a connection error the client cannot tell from a dead server.
        public var idleTimeout: Duration = .seconds(30)
        /// After SIGTERM or SIGINT, how long answers in progress may take to
        /// finish; those still running then are cancelled.
        public var shutdownTimeout: Duration = .seconds(10)
        /// Whether the model answers through another server (`fm serve
        /// --server`): a failure to serve is then that server's, reported
        /// as 502 Bad Gateway (504 for its time-outs) rather than as this
        /// server's own 503 or 500, so a client knows which end to look at.
        public var isGateway = false
        /// Where the server's metrics are recorded (through swift-metrics)
        /// and what `GET /metrics` serves: each configuration its own unless
        /// given one, so two servers in a process never mix their counts.
        public var metricsRegistry = PrometheusCollectorRegistry()
        /// The model's parallel sequences and queue bound, reported beside
        /// the live counts in `/metrics` (nil: not reported).
        public var parallelSequences: Int?
        public var maximumQueue: Int?
        /// Why the model cannot answer now, or nil when it can: what
        /// `GET /health` reports (503 while it cannot), so a load balancer
        /// stops sending it requests. Default: always available.
        public var unavailability: @Sendable () -> String? = { nil }
        /// Which browser origins may call the API; nil (the default) sends
        /// no CORS headers, so browsers refuse every other origin.
        public var cors: CORS?

        public init(modelName: String) {
            self.modelName = modelName
        }
    }

    let model: any LanguageModel
    let configuration: Configuration
    let logger: Logger

    let metrics: ServerMetrics

    public init(model: any LanguageModel, configuration: Configuration, logger: Logger = Logger(label: "fm.serve")) {
        self.model = model
        self.configuration = configuration
        self.logger = logger
        metrics = ServerMetrics(registry: configuration.metricsRegistry)
        metrics.setCapacity(parallelSequences: configuration.parallelSequences, maximumQueue: configuration.maximumQueue)
    }

    /// Browser origins allowed to call the API (CORS), answered by
    /// Hummingbird's `CORSMiddleware`: preflight requests get the allowed
    /// methods and headers, responses `Access-Control-Allow-Origin`.
    /// Credentials (cookies) are never allowed: the API's key is a header,
    /// which needs none, and `*` with credentials is what browsers forbid.
    public enum CORS: Sendable, Equatable {
        /// Any origin (`*`), said explicitly.
        case anyOrigin
        /// These origins only (`https://app.example.com`), echoed back with `Vary: Origin`.
        case origins([String])
    }

    /// Serves until SIGTERM or SIGINT, calling `onListening` with the bound
    /// port once connections are accepted. On the signal it stops accepting,
    /// lets answers in progress finish for up to
    /// ``Configuration/shutdownTimeout``, then cancels the rest.
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let router = Router()
        // Outermost first: the id and the log line cover every answer; CORS
        // answers a preflight before the key is asked for (a browser sends
        // none with it) and marks the 401s it lets through readable.
        router.add(middleware: AccessLog(logger: logger))
        router.add(middleware: RequestMetrics(metrics: metrics))
        if let cors = configuration.cors { router.add(middleware: Self.corsMiddleware(cors)) }
        router.add(middleware: Authentication(key: configuration.apiKey))
        router.get("health") { _, _ in
            Self.health(configuration.modelName, unavailability: configuration.unavailability())
        }
        router.get("metrics") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
        }
        router.get("openapi.json") { _, _ in
            Self.json(200, OpenAPIDocument.json)
        }
        router.get("v1/models") { _, _ in
            Self.json(200, Self.modelsBody(configuration.modelName, contextSize: configuration.contextSize))
        }
        router.post("v1/chat/completions") { request, _ in
            await self.chatCompletions(request)
        }
        router.post("v1/responses") { request, _ in
            await self.responses(request)
        }
        var http = ApplicationConfiguration(
            address: configuration.socketPath.map { .unixDomainSocket(path: $0) } ?? .hostname(configuration.host, port: configuration.port),
            serverName: "fm-serve"
        )
        http.availableConnectionsDelegate = MaximumAvailableConnections(configuration.maximumConnections)
        let app = Application(
            router: router,
            server: .http1(configuration: .init(idleTimeout: TimeAmount(configuration.idleTimeout))),
            configuration: http,
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        var lifecycle = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        lifecycle.maximumGracefulShutdownDuration = configuration.shutdownTimeout
        lifecycle.maximumCancellationDuration = .seconds(5)
        if let path = configuration.socketPath { try UnixSocketFile.prepare(path) }
        defer { if let path = configuration.socketPath { UnixSocketFile.remove(path) } }
        try await ServiceGroup(configuration: lifecycle).run()
    }

    // MARK: Chat completions

    func chatCompletions(_ request: Request) async -> Response {
        let start = ContinuousClock.now
        let parsed: ChatCompletionRequest
        do {
            let body = try await self.body(of: request)
            parsed = try ChatCompletionRequest(json: body, limits: limits)
            try checkModel(parsed.model)
        } catch {
            return Self.error(error)
        }
        let completion = ChatCompletion(model: model, modelName: configuration.modelName, observer: .init(metrics, start: start))
        let events = completion.events(for: parsed)
        if !parsed.stream {
            return await collect(events) { events in
                var content = ""
                var calls: Transcript.ToolCalls?
                for event in events {
                    switch event {
                    case .delta(let text): content += text
                    case .toolCalls(let made): calls = made
                    case .finished(let reason, let usage):
                        return Self.completionBody(completion, content: content, toolCalls: calls, reason: reason, usage: usage)
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
            do {
                for try await event in events {
                    switch event {
                    case .delta(let text):
                        try await send(Self.chunk(completion, delta: [("content", WireJSON.string(text))], reason: nil))
                    case .toolCalls(let calls):
                        // Each call whole, in one piece: the arguments are
                        // complete JSON once the grammar has closed them.
                        try await send(Self.chunk(completion, delta: [("tool_calls", Self.toolCalls(calls, indexed: true))], reason: nil))
                    case .finished(let reason, let usage):
                        try await send(Self.chunk(completion, delta: [], reason: reason))
                        if includeUsage { try await send(Self.usageChunk(completion, usage: usage)) }
                    }
                }
            } catch let error where !(error is CancellationError) {
                try await send(APIError.from(error, gateway: configuration.isGateway).body)
            }
            try await write("data: [DONE]\n\n")
        }
    }

    // MARK: Responses

    /// `POST /v1/responses`: the chat machinery's answer in the Responses
    /// API's wire format (``ResponsesRequest``, ``ResponsesWire``).
    func responses(_ request: Request) async -> Response {
        let start = ContinuousClock.now
        let parsed: ResponsesRequest
        do {
            let body = try await self.body(of: request)
            parsed = try ResponsesRequest(json: body, limits: limits)
            try checkModel(parsed.chat.model)
        } catch {
            return Self.error(error)
        }
        let completion = ChatCompletion(model: model, modelName: configuration.modelName, observer: .init(metrics, start: start))
        let events = completion.events(for: parsed.chat)
        let modelName = configuration.modelName
        if !parsed.chat.stream {
            return await collect(events) { events in
                ResponsesWire(request: parsed, modelName: modelName).collected(events)
            }
        }
        return await stream(events) { events, write in
            let wire = ResponsesWire(request: parsed, modelName: modelName)
            for event in wire.opening() { try await write(wire.sse(event)) }
            do {
                for try await event in events {
                    for written in wire.events(for: event) { try await write(wire.sse(written)) }
                }
            } catch let error where !(error is CancellationError) {
                try await write(wire.sse(wire.failure(APIError.from(error, gateway: configuration.isGateway))))
            }
        }
    }

    // MARK: What the routes share

    var limits: ChatCompletionRequest.Limits {
        .init(maximumMessages: configuration.maximumMessages, maximumTokens: configuration.maximumTokens)
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

    /// The model a request names: none, or the one served (404 otherwise).
    func checkModel(_ name: String?) throws(APIError) {
        if let name, !name.isEmpty, name != configuration.modelName {
            throw APIError(
                status: 404, message: "The model '\(name)' does not exist; this server serves '\(configuration.modelName)'.",
                type: "invalid_request_error", param: "model", code: "model_not_found"
            )
        }
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
        write: @escaping @Sendable (
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

    /// Hummingbird's CORS middleware for `cors`: `*`, or the request's
    /// own origin when it is one of the allowed (``AllowedOrigins`` keeps
    /// the others from reaching it, so they get no CORS headers at all).
    static func corsMiddleware<Context: RequestContext>(_ cors: CORS) -> AllowedOrigins<Context> {
        let cors: (origins: Set<String>?, allow: CORSMiddleware<Context>.AllowOriginExtended) = switch cors {
        case .anyOrigin: (nil, .all)
        case .origins(let list): (Set(list), .originBased)
        }
        return AllowedOrigins(origins: cors.origins, cors: CORSMiddleware(
            allowOrigin: cors.allow,
            // What the OpenAI SDKs send from a browser, besides the key and the body's type.
            allowHeaders: [.accept, .authorization, .contentType, .origin] + Self.clientHeaders,
            allowMethods: [.get, .post, .options],
            allowCredentials: false,
            exposedHeaders: [AllowedOrigins<Context>.exposed],
            maxAge: .seconds(600)
        ))
    }

    /// The headers the OpenAI SDKs (generated by Stainless) add to their requests.
    static let clientHeaders: [HTTPFields.Element.Name] = [
        "x-request-id", "openai-organization", "openai-project", "openai-beta",
        "x-stainless-arch", "x-stainless-lang", "x-stainless-os", "x-stainless-package-version", "x-stainless-retry-count",
        "x-stainless-runtime", "x-stainless-runtime-version", "x-stainless-timeout", "x-stainless-helper-method",
        "x-stainless-async", "x-stainless-raw-response", "x-stainless-read-timeout", "x-stainless-poll-helper",
    ].compactMap { HTTPFields.Element.Name($0) }

    // MARK: Bodies

    static func json(_ status: Int, _ body: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    static func error(_ error: APIError) -> Response {
        var response = json(error.status, error.body)
        if let wait = error.retryAfter { response.headers[.retryAfter] = String(wait) }
        return response
    }

    // The bodies are ordered JSON values, written by the package's one JSON
    // writer (as the server models write their requests), in OpenAI's key order.

    /// JSON's `null`, for the fields OpenAI sends as null.
    static let null = GeneratedContent(kind: .null)

    static func usage(_ usage: LanguageModelSession.Usage) -> GeneratedContent {
        let prompt = usage.input.totalTokenCount, completion = usage.output.totalTokenCount
        return WireJSON.object([
            ("prompt_tokens", WireJSON.number(prompt)),
            ("completion_tokens", WireJSON.number(completion)),
            ("total_tokens", WireJSON.number(prompt + completion)),
            ("prompt_tokens_details", WireJSON.object([("cached_tokens", WireJSON.number(usage.input.cachedTokenCount))])),
        ])
    }

    /// The fields every completion and chunk starts with.
    static func head(_ completion: ChatCompletion, object: String) -> [(String, GeneratedContent?)] {
        [
            ("id", WireJSON.string(completion.id)),
            ("object", WireJSON.string(object)),
            ("created", WireJSON.number(completion.created)),
            ("model", WireJSON.string(completion.modelName)),
        ]
    }

    /// OpenAI's `tool_calls`: each call's id, `function` type, name and
    /// arguments as JSON text; in a stream's delta each also has its index.
    static func toolCalls(_ calls: Transcript.ToolCalls, indexed: Bool) -> GeneratedContent {
        WireJSON.array(calls.enumerated().map { index, call in
            WireJSON.object((indexed ? [("index", WireJSON.number(index))] : []) + [
                ("id", WireJSON.string(callID(call.id))),
                ("type", WireJSON.string("function")),
                ("function", WireJSON.object([
                    ("name", WireJSON.string(call.toolName)), ("arguments", WireJSON.string(call.arguments.jsonString)),
                ])),
            ])
        })
    }

    /// A call's id as OpenAI writes one (`call_` and hex) when the engine
    /// made it (a UUID); the client's own ids come back as they were sent.
    static func callID(_ id: String) -> String {
        guard UUID(uuidString: id) != nil else { return id }
        return "call_" + id.replacingOccurrences(of: "-", with: "").lowercased()
    }

    static func completionBody(_ completion: ChatCompletion, content: String, toolCalls: Transcript.ToolCalls?, reason: String, usage: LanguageModelSession.Usage) -> String {
        var fields: [(String, GeneratedContent?)] = [("role", WireJSON.string("assistant"))]
        if let toolCalls {
            // Text the model wrote before its calls, if any, stays (as a stream sent it).
            fields += [("content", content.isEmpty ? null : WireJSON.string(content)), ("tool_calls", Self.toolCalls(toolCalls, indexed: false))]
        } else {
            fields.append(("content", WireJSON.string(content)))
        }
        let message = WireJSON.object(fields)
        let choice = WireJSON.object([
            ("index", WireJSON.number(0)), ("message", message), ("logprobs", null), ("finish_reason", WireJSON.string(reason)),
        ])
        return WireJSON.object(head(completion, object: "chat.completion") + [
            ("choices", WireJSON.array([choice])), ("usage", Self.usage(usage)),
        ]).jsonString
    }

    /// A chunk whose one choice carries `delta` (`role`, `content`, or
    /// nothing) and, on the last, the finish reason.
    static func chunk(_ completion: ChatCompletion, delta: [(String, GeneratedContent?)], reason: String?) -> String {
        let choice = WireJSON.object([
            ("index", WireJSON.number(0)), ("delta", WireJSON.object(delta)), ("logprobs", null),
            ("finish_reason", reason.map(WireJSON.string) ?? null),
        ])
        return WireJSON.object(head(completion, object: "chat.completion.chunk") + [("choices", WireJSON.array([choice]))]).jsonString
    }

    static func usageChunk(_ completion: ChatCompletion, usage: LanguageModelSession.Usage) -> String {
        WireJSON.object(head(completion, object: "chat.completion.chunk") + [
            ("choices", WireJSON.array([])), ("usage", Self.usage(usage)),
        ]).jsonString
    }

    /// `GET /health`: the server's status and each model's availability,
    /// with the reason when it is not available (then 503).
    static func health(_ name: String, unavailability reason: String?) -> Response {
        let model = WireJSON.object([
            ("id", WireJSON.string(name)), ("available", WireJSON.bool(reason == nil)), ("reason", reason.map(WireJSON.string)),
        ])
        let body = WireJSON.object([
            ("status", WireJSON.string(reason == nil ? "ok" : "unavailable")), ("models", WireJSON.array([model])),
        ])
        return json(reason == nil ? 200 : 503, body.jsonString)
    }

    static func modelsBody(_ name: String, contextSize: Int?) -> String {
        let model = WireJSON.object([
            ("id", WireJSON.string(name)), ("object", WireJSON.string("model")),
            ("created", WireJSON.number(0)), ("owned_by", WireJSON.string("fm-serve")),
            ("max_model_len", contextSize.map(WireJSON.number)),
        ])
        return WireJSON.object([("object", WireJSON.string("list")), ("data", WireJSON.array([model]))]).jsonString
    }
}

/// One structured line per request: method, path, status, time (to the
/// body's last byte) and its
/// `x-request-id`, which the response carries too (the client's own when
/// it sent a usable one, else a new one), so a client's report and the
/// server's log meet. Never the body, never the key.
struct AccessLog<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let id = request.headers[.requestID].flatMap(ChatCompletionsServer.usableRequestID) ?? "req_" + ChatCompletion.randomID()
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            // Hummingbird's own errors (404, 405), in OpenAI's shape, with
            // the headers the middleware added (CORS).
            let status = Int(error.status.code)
            let message = (error as? HTTPError)?.body ?? "\(error.status)"
            response = ChatCompletionsServer.error(APIError(status: status, message: message, type: "invalid_request_error", param: nil, code: nil))
            if let generated = try? error.response(from: request, context: context) {
                for field in generated.headers where ![.contentType, .contentLength].contains(field.name) { response.headers.append(field) }
            }
        }
        response.headers[.requestID] = id
        // Logged once the body is written: a streamed answer's time is the whole answer's.
        let status = Int(response.status.code), method = request.method, path = request.uri.path
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { [logger] writer in
            defer {
                let elapsed = ContinuousClock.now - start
                logger.info("request", metadata: [
                    "request_id": "\(id)", "method": "\(method)", "path": "\(path)", "status": .stringConvertible(status),
                    "ms": .stringConvertible(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000),
                ])
            }
            try await body.write(writer)
        }
        return response
    }
}

extension ChatCompletionsServer {
    /// A client's request id, kept when it is 1 to 128 visible ASCII
    /// characters (it goes into log lines and headers as it is).
    static func usableRequestID(_ id: String) -> String? {
        (1...128).contains(id.utf8.count) && id.utf8.allSatisfy { (33...126).contains($0) } ? id : nil
    }
}

/// Hummingbird's `CORSMiddleware` for the allowed origins only: a request
/// from any other origin goes on without CORS headers (a preflight then
/// meets the router: no `Access-Control-Allow-Origin`, so the browser
/// refuses), as does every request without an `Origin` (curl, SDKs).
struct AllowedOrigins<Context: RequestContext>: RouterMiddleware {
    /// nil: any origin.
    let origins: Set<String>?
    let cors: CORSMiddleware<Context>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let origins, !origins.contains(request.headers[.origin] ?? "") { return try await next(request, context) }
        var response = try await cors.handle(request, context: context, next: next)
        // Which headers a page may read is said on the response itself (a
        // preflight's is ignored), where Hummingbird's middleware does not say it.
        if request.method != .options, response.headers[.accessControlAllowOrigin] != nil {
            response.headers[.accessControlExposeHeaders] = Self.exposed
        }
        return response
    }

    /// The headers a page may read besides the simple ones: the request id, and how long to wait after a 429.
    static var exposed: String { "x-request-id, retry-after" }
}

/// `HTTPField.Name` (HTTPTypes, which Hummingbird exports only in part).
extension HTTPFields.Element.Name {
    static let requestID = Self("x-request-id")!
}

/// `Authorization: Bearer KEY` on every route but `/health` and
/// `/openapi.json` (the contract is public), when a key is set; compared in
/// constant time.
struct Authentication<Context: RequestContext>: RouterMiddleware {
    let key: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let key, !["/health", "/openapi.json"].contains(request.uri.path) else { return try await next(request, context) }
        let header = request.headers[.authorization] ?? ""
        let given = header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : ""
        guard Self.constantTimeEqual(Array(given.utf8), Array(key.utf8)) else {
            let message = header.isEmpty
                ? "You didn't provide an API key: send it as 'Authorization: Bearer KEY'."
                : "Incorrect API key provided."
            return ChatCompletionsServer.error(APIError(status: 401, message: message, type: "authentication_error", param: nil, code: "invalid_api_key"))
        }
        return try await next(request, context)
    }

    /// Equal byte strings, in a time that depends only on their lengths.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }
}
