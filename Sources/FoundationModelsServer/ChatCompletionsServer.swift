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
package struct ChatCompletionsServer: Sendable {
    /// How the server listens and what it accepts.
    package struct Configuration: Sendable {
        /// The address to bind: loopback unless told otherwise.
        package var host = "127.0.0.1"
        /// The port; 0 picks a free one (reported to `onListening`).
        package var port = 8080
        /// A Unix domain socket to listen on instead of `host` and `port`
        /// (Apple's `fm serve --socket`): reachable only on this machine, by
        /// whoever the file's permissions let in. A stale socket left by a
        /// server that is gone is replaced; one a server still answers on,
        /// or a file that is not a socket, is an error. Removed on exit.
        package var socketPath: String?
        /// The bearer key clients must send, or nil for none.
        package var apiKey: String?
        /// The model's name in `/v1/models` and in every response (one
        /// model: ``ChatCompletionsServer/init(model:configuration:logger:)``;
        /// several are named by their ``ServedModel``).
        package var modelName: String
        /// Other names clients may ask for (`gpt-4o-mini` → `qwen`): each
        /// alias and the served model it stands for, for clients that
        /// hard-code a model name. Listed in `/v1/models`; answers carry the
        /// served model's own name.
        package var aliases: [String: String] = [:]
        /// The tokens one request's conversation and answer may hold,
        /// reported in `/v1/models` as `max_model_len` (as vLLM does), so
        /// clients such as `PrivateCloudComputeLanguageModel` can budget.
        package var contextSize: Int?
        /// The largest request body accepted (413 beyond).
        package var maximumBodyBytes = 1 << 20
        /// The most messages a request may hold.
        package var maximumMessages = 512
        /// A cap on every answer's tokens (nil: the request's own, else the model's).
        package var maximumTokens: Int?
        /// Connections served at once; more wait to be accepted.
        package var maximumConnections = 256
        /// A connection that sends nothing for this long is closed: a slow
        /// client, and a kept-alive connection between requests. Keep it
        /// above clients' pool expiry (httpx, the `openai` client's: 5 s):
        /// a request sent just as the server closes its connection fails
        /// with a connection error the client cannot tell from a dead server.
        package var idleTimeout: Duration = .seconds(30)
        /// After SIGTERM or SIGINT, how long answers in progress may take to
        /// finish; those still running then are cancelled.
        package var shutdownTimeout: Duration = .seconds(10)
        /// Whether the model answers through another server (`fm serve
        /// --server`): a failure to serve is then that server's, reported
        /// as 502 Bad Gateway (504 for its time-outs) rather than as this
        /// server's own 503 or 500, so a client knows which end to look at.
        package var isGateway = false
        /// Where the server's metrics are recorded (through swift-metrics)
        /// and what `GET /metrics` serves: each configuration its own unless
        /// given one, so two servers in a process never mix their counts.
        package var metricsRegistry = PrometheusCollectorRegistry()
        /// The model's parallel sequences and queue bound, reported beside
        /// the live counts in `/metrics` (nil: not reported).
        package var parallelSequences: Int?
        package var maximumQueue: Int?
        /// Why the model cannot answer now, or nil when it can: what
        /// `GET /health` reports (503 while it cannot), so a load balancer
        /// stops sending it requests. Default: always available.
        package var unavailability: @Sendable () -> String? = { nil }
        /// How full the model's engine is now, reported in `/metrics` at
        /// each scrape (nil: not reported; a model answering through
        /// another server has none).
        package var occupancy: @Sendable () -> EngineOccupancy? = { nil }
        /// Which browser origins may call the API; nil (the default) sends
        /// no CORS headers, so browsers refuse every other origin.
        package var cors: CORS?
        /// Whether each request is a tracing span (Hummingbird's
        /// `TracingMiddleware`), the parent of the engine's spans for it
        /// (queue wait, prefill, decode), recorded by the tracer bootstrapped
        /// (`fm serve --trace`: ``SpanLogTracer``) or the task's (`withTracer`).
        package var tracing = false

        package init(modelName: String) {
            self.modelName = modelName
        }
    }

    /// One model the server answers with, under its own name: a model
    /// file, an adapter over one (`base`), or another server's model.
    /// Each has its own context size, sequences, queue and availability.
    package struct ServedModel: Sendable {
        /// Its name in `/v1/models`, in requests and in every answer.
        package var name: String
        package var model: any LanguageModel
        /// For an adapter, the served model whose weights it applies to
        /// (`/v1/models` lists it as the `parent`, as vLLM lists a LoRA's).
        package var base: String?
        /// Tokens per sequence, reported as `max_model_len`.
        package var contextSize: Int?
        /// Its parallel sequences and queue bound, reported in `/metrics` (under its `model` label when there are several).
        package var parallelSequences: Int?
        package var maximumQueue: Int?
        /// Why it cannot answer now, or nil when it can (`GET /health`).
        package var unavailability: @Sendable () -> String? = { nil }
        /// How full its engine is now (its queue, sequences in use, KV
        /// cache), read at each scrape of `/metrics`; nil: not reported.
        package var occupancy: @Sendable () -> EngineOccupancy? = { nil }

        package init(name: String, model: any LanguageModel) {
            self.name = name
            self.model = model
        }
    }

    /// The served models, the first answering requests that name none.
    let models: [ServedModel]
    let configuration: Configuration
    let logger: Logger

    let metrics: ServerMetrics

    /// One model, named and described by `configuration` (``Configuration/modelName``,
    /// ``Configuration/contextSize``, its capacity and availability).
    package init(model: any LanguageModel, configuration: Configuration, logger: Logger = Logger(label: "fm.serve")) {
        var served = ServedModel(name: configuration.modelName, model: model)
        served.contextSize = configuration.contextSize
        served.parallelSequences = configuration.parallelSequences
        served.maximumQueue = configuration.maximumQueue
        served.unavailability = configuration.unavailability
        served.occupancy = configuration.occupancy
        self.init(models: [served], configuration: configuration, logger: logger)
    }

    /// Several models from one process, each under its own name (the
    /// first answers requests that name none); the configuration's own
    /// model fields are not used. `models` must not be empty.
    package init(models: [ServedModel], configuration: Configuration, logger: Logger = Logger(label: "fm.serve")) {
        precondition(!models.isEmpty, "a server serves at least one model")
        self.models = models
        self.configuration = configuration
        self.logger = logger
        metrics = ServerMetrics(registry: configuration.metricsRegistry, models: models.map(\.name))
        for model in models {
            metrics.model(model.name).setCapacity(parallelSequences: model.parallelSequences, maximumQueue: model.maximumQueue)
        }
    }

    /// Browser origins allowed to call the API (CORS), answered by
    /// Hummingbird's `CORSMiddleware`: preflight requests get the allowed
    /// methods and headers, responses `Access-Control-Allow-Origin`.
    /// Credentials (cookies) are never allowed: the API's key is a header,
    /// which needs none, and `*` with credentials is what browsers forbid.
    package enum CORS: Sendable, Equatable {
        /// Any origin (`*`), said explicitly.
        case anyOrigin
        /// These origins only (`https://app.example.com`), echoed back with `Vary: Origin`.
        case origins([String])
    }

    /// Serves until SIGTERM or SIGINT, calling `onListening` with the bound
    /// port once connections are accepted. On the signal it stops accepting,
    /// lets answers in progress finish for up to
    /// ``Configuration/shutdownTimeout``, then cancels the rest.
    package func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        var http = ApplicationConfiguration(
            address: configuration.socketPath.map { .unixDomainSocket(path: $0) } ?? .hostname(configuration.host, port: configuration.port),
            serverName: "fm-serve"
        )
        http.availableConnectionsDelegate = MaximumAvailableConnections(configuration.maximumConnections)
        let app = Application(
            router: router(),
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
        await enginesStopped(within: .seconds(5))
    }

    /// Waits until no served model's engine is decoding or has a request
    /// waiting, for at most `limit`. The answers the shutdown cancelled end
    /// at their engine's next token, on the engine's own thread, after the
    /// HTTP server has returned; a process that exits before then tears
    /// llama.cpp's state down under that thread (a SIGTERM mid-answer ended
    /// in SIGSEGV). Models that report no occupancy (another server's) are
    /// not waited for.
    func enginesStopped(within limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let busy = models.contains { model in
                model.occupancy().map { $0.sequencesInUse > 0 || $0.waiting > 0 } ?? false
            }
            guard busy else { return }
            try? await Task.sleep(for: .milliseconds(10))
        }
        logger.warning("stopping with an answer still being decoded after \(limit)")
    }

    /// The routes and their middleware, apart from any listener: what
    /// ``run(onListening:)`` serves, and what the tests drive in process
    /// (HummingbirdTesting's `.router`) with a scripted model and no port.
    package func router() -> Router<BasicRequestContext> {
        let router = Router()
        // Outermost first: the request's span covers all the rest, and the
        // engine's spans are its children; the id and the log line cover every answer; CORS
        // answers a preflight before the key is asked for (a browser sends
        // none with it) and marks the 401s it lets through readable.
        if configuration.tracing { router.add(middleware: TracingMiddleware()) }
        router.add(middleware: AccessLog(logger: logger))
        router.add(middleware: RequestMetrics(metrics: metrics))
        if let cors = configuration.cors { router.add(middleware: Self.corsMiddleware(cors)) }
        router.add(middleware: Authentication(key: configuration.apiKey))
        let routes = routes()
        // Innermost: a request the routes do not answer (past the key, so
        // a client without it learns nothing of them).
        router.add(middleware: UnroutedRequests(routes: routes))
        for route in routes {
            router.on(RouterPath(route.path), method: route.method) { request, _ in await route.answer(request) }
        }
        return router
    }

    /// One route: a method on a path, and its answer.
    struct Route: Sendable {
        var method: HTTPRequest.Method
        var path: String
        var answer: @Sendable (Request) async -> Response
    }

    /// Every route the server answers, declared once: what ``router()``
    /// registers, and what ``UnroutedRequests`` tells a request for a known
    /// path with another method (405 and `Allow`) from one for an unknown
    /// path (404). Each GET route answers HEAD too, with its status and
    /// headers and no body, as HTTP asks of a server (a load balancer's
    /// health check may send HEAD /health).
    func routes() -> [Route] {
        let routes = answeringRoutes()
        return routes.flatMap { route -> [Route] in
            guard route.method == .get else { return [route] }
            let head = Route(method: .head, path: route.path) { request in
                let response = await route.answer(request)
                return Response(status: response.status, headers: response.headers)
            }
            return [route, head]
        }
    }

    private func answeringRoutes() -> [Route] {
        [
            Route(method: .get, path: "/health") { _ in
                Self.health(models.map { ($0.name, $0.unavailability()) })
            },
            Route(method: .get, path: "/metrics") { _ in
                var headers = HTTPFields()
                headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
                // What only the engines know, as of this scrape.
                for model in models {
                    if let occupancy = model.occupancy() { metrics.model(model.name).record(occupancy) }
                }
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
            },
            Route(method: .get, path: "/openapi.json") { _ in
                Self.json(200, OpenAPIDocument.json)
            },
            Route(method: .get, path: "/v1/models") { _ in
                Self.json(200, Self.modelsBody(models, aliases: configuration.aliases))
            },
            Route(method: .post, path: "/v1/chat/completions") { request in
                await self.chatCompletions(request)
            },
            Route(method: .post, path: "/v1/responses") { request in
                await self.responses(request)
            },
        ]
    }
}
