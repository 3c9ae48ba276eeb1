import CoreMetrics
import Foundation
import FoundationModels
import Hummingbird
import Metrics
import Prometheus
import Synchronization

/// What an operator watches on a running `fm serve` (`GET /metrics`, in
/// Prometheus's text format): requests by route and status, the requests
/// waiting for their first token and those generating, tokens in and out,
/// time to first token and per output token, 429s and cancellations.
///
/// Serving several models (`--model NAME=PATH` repeated), everything about
/// answers carries a `model` label, the served name
/// (``ChatCompletionsServer/ServedModel/name``), so an operator can tell
/// them apart. Its values are the served names only, made when the server
/// starts: a name a client makes up is a 404 before any series is made for
/// it, so the label's cardinality is the number of models served. One
/// model's series have no `model` label, as before there could be several:
/// the dashboards and alerts written for one keep working.
///
/// Recorded through swift-metrics into the server's own Prometheus registry
/// (``ChatCompletionsServer/Configuration/metricsRegistry``), never the
/// process-wide `MetricsSystem`: two servers in one process (the tests
/// start several) each count only their own requests.
///
/// `waiting` counts the requests accepted and not yet answered with a first
/// token (queued for a sequence, or reading their prompt), `generating`
/// those past it, whatever the model; with the configured parallel
/// sequences and queue bound they say how full it is. An in-process model's
/// engine also reports its own queue, sequences in use and KV cache at each
/// scrape (``ChatCompletionsServer/ServedModel/occupancy``, ``Model/record(_:)``).
struct ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    /// Each served model's series, by its served name.
    private let models: [String: Model]
    /// Whether series name their model: when there are several.
    private let labelsModels: Bool

    /// One served model's series, labelled `model="NAME"` when there are several.
    struct Model: Sendable {
        let name: String
        let waiting: Meter
        let generating: Meter
        let promptTokens: CoreMetrics.Counter
        let cachedPromptTokens: CoreMetrics.Counter
        let generatedTokens: CoreMetrics.Counter
        let timeToFirstToken: Metrics.Timer
        let timePerOutputToken: Metrics.Timer
        let rateLimited: CoreMetrics.Counter
        let cancelled: CoreMetrics.Counter
        fileprivate let factory: PrometheusMetricsFactory
        /// `model="NAME"`, or none when it is the one model served.
        private let labels: [(String, String)]

        fileprivate init(name: String, labelled: Bool, factory: PrometheusMetricsFactory) {
            self.name = name
            self.factory = factory
            labels = labelled ? [("model", name)] : []
            let model = labels
            waiting = Meter(label: "fm_serve_requests_waiting", dimensions: model, factory: factory)
            generating = Meter(label: "fm_serve_requests_generating", dimensions: model, factory: factory)
            promptTokens = CoreMetrics.Counter(label: "fm_serve_prompt_tokens_total", dimensions: model, factory: factory)
            cachedPromptTokens = CoreMetrics.Counter(label: "fm_serve_prompt_tokens_cached_total", dimensions: model, factory: factory)
            generatedTokens = CoreMetrics.Counter(label: "fm_serve_generated_tokens_total", dimensions: model, factory: factory)
            timeToFirstToken = Metrics.Timer(label: "fm_serve_time_to_first_token_seconds", dimensions: model, factory: factory)
            timePerOutputToken = Metrics.Timer(label: "fm_serve_time_per_output_token_seconds", dimensions: model, factory: factory)
            rateLimited = CoreMetrics.Counter(label: "fm_serve_rate_limited_total", dimensions: model, factory: factory)
            cancelled = CoreMetrics.Counter(label: "fm_serve_cancelled_total", dimensions: model, factory: factory)
            // Present from the start, so a scrape before the first request (and
            // an alert on a rate) sees zeros rather than nothing.
            for meter in [waiting, generating] { meter.set(0) }
            for counter in [promptTokens, cachedPromptTokens, generatedTokens, rateLimited, cancelled] { counter.increment(by: 0) }
        }

        /// Its configured bounds, as gauges beside the live counts.
        func setCapacity(parallelSequences: Int?, maximumQueue: Int?) {
            let model = labels
            if let parallelSequences {
                CoreMetrics.Gauge(label: "fm_serve_parallel_sequences", dimensions: model, factory: factory).record(parallelSequences)
            }
            if let maximumQueue { CoreMetrics.Gauge(label: "fm_serve_max_queue", dimensions: model, factory: factory).record(maximumQueue) }
        }

        /// What its engine says of itself now: the requests in its queue,
        /// its sequences serving one, the tokens its KV caches hold and
        /// can hold.
        func record(_ occupancy: EngineOccupancy) {
            let model = labels
            for (label, value) in [
                ("fm_serve_queue_depth", occupancy.waiting), ("fm_serve_sequences_in_use", occupancy.sequencesInUse),
                ("fm_serve_kv_cache_tokens", occupancy.cachedTokens), ("fm_serve_kv_cache_capacity_tokens", occupancy.tokenCapacity),
            ] {
                CoreMetrics.Gauge(label: label, dimensions: model, factory: factory).record(value)
            }
        }
    }

    /// The metrics of a server answering with the models named `models`
    /// (their served names: the `model` label's values, when there are several).
    init(registry: PrometheusCollectorRegistry, models names: [String]) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        // Seconds to a first token on CPUs and GPUs, from a cached prefix
        // (milliseconds) to a long prompt behind a full queue (a minute).
        factory.durationHistogramBuckets["fm_serve_time_to_first_token_seconds"] = [
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
            .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30), .seconds(60),
        ]
        // A token every 5 ms (a GPU) to every half second (a large model on two cores).
        factory.durationHistogramBuckets["fm_serve_time_per_output_token_seconds"] = [
            .milliseconds(5), .milliseconds(10), .milliseconds(20), .milliseconds(40), .milliseconds(80),
            .milliseconds(150), .milliseconds(300), .milliseconds(500), .seconds(1),
        ]
        self.factory = factory
        let labelsModels = Set(names).count > 1
        self.labelsModels = labelsModels
        models = Dictionary(names.map { ($0, Model(name: $0, labelled: labelsModels, factory: factory)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The series of the served model `name`: one of the names the
    /// metrics were made with (the routes ask only after finding the model).
    func model(_ name: String) -> Model {
        guard let model = models[name] else { preconditionFailure("'\(name)' is not a served model") }
        return model
    }

    /// One answered request: `fm_serve_requests_total{route, method, status}`,
    /// with `model` first when there are several and the request named a
    /// served model (an answer, or a failure after the model was found).
    func countRequest(route: String, method: String, status: Int, model: String? = nil) {
        let labels = [("route", route), ("method", method), ("status", String(status))]
        let named = labelsModels ? model.flatMap { models[$0] }.map { [("model", $0.name)] } ?? [] : []
        CoreMetrics.Counter(
            label: "fm_serve_requests_total",
            dimensions: named + labels,
            factory: factory
        ).increment()
    }

    /// The text `GET /metrics` answers with.
    func exposition() -> String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// The served model a request named, told by the route that found it
    /// to ``RequestMetrics`` outside it, which counts the request when the
    /// route has answered: one per request, through a task local the
    /// middleware sets (the route runs in the middleware's task).
    final class RequestModel: Sendable {
        @TaskLocal static var current: RequestModel?
        private let state = Mutex<String?>(nil)

        var name: String? {
            get { state.withLock { $0 } }
            set { state.withLock { $0 = newValue } }
        }
    }

    /// One generation's progress, recorded exactly once each: waiting until
    /// its first token, generating until it ends; then its tokens and
    /// timings, or its cancellation.
    final class Generation: Sendable {
        private enum Phase { case waiting, generating, ended }
        private struct State {
            var phase = Phase.waiting
            var firstToken: ContinuousClock.Instant?
        }

        private let metrics: Model
        private let start: ContinuousClock.Instant
        private let state = Mutex(State())

        init(_ metrics: Model, start: ContinuousClock.Instant) {
            self.metrics = metrics
            self.start = start
            metrics.waiting.increment()
        }

        /// The first piece of the answer (text or calls) is out.
        func firstToken(at now: ContinuousClock.Instant = .now) {
            let moved = state.withLock { state -> Bool in
                guard state.phase == .waiting else { return false }
                state.phase = .generating
                state.firstToken = now
                return true
            }
            guard moved else { return }
            metrics.waiting.decrement()
            metrics.generating.increment()
            metrics.timeToFirstToken.record(duration: now - start)
        }

        /// The answer is complete: its tokens, and the time each output
        /// token after the first took.
        ///
        /// An answer whose first piece is its end (tool calls only) has no
        /// time per token to tell: its first token is now, the same instant,
        /// and none is recorded (a negative duration, from an instant read
        /// after this one, is a fatal error in Prometheus's histogram when
        /// the next scrape writes it).
        func finished(usage: LanguageModelSession.Usage) {
            let now = ContinuousClock.now
            firstToken(at: now)
            guard let first = end() else { return }
            let output = usage.output.totalTokenCount
            metrics.promptTokens.increment(by: usage.input.totalTokenCount)
            metrics.cachedPromptTokens.increment(by: usage.input.cachedTokenCount)
            metrics.generatedTokens.increment(by: output)
            if output > 1, now > first {
                metrics.timePerOutputToken.record(duration: (now - first) / (output - 1))
            }
        }

        /// It failed; a full queue is counted as a 429.
        func failed(rateLimited: Bool) {
            _ = end()
            if rateLimited { metrics.rateLimited.increment() }
        }

        /// The client went away (or the server stopped) before the end.
        func cancelled() {
            if end() != nil { metrics.cancelled.increment() }
        }

        /// Leaves the live gauges; nil when it had already ended, else
        /// when its first token came (now, if none came).
        private func end() -> ContinuousClock.Instant? {
            let (phase, first) = state.withLock { state -> (Phase, ContinuousClock.Instant?) in
                defer { state.phase = .ended }
                return (state.phase, state.firstToken)
            }
            switch phase {
            case .waiting: metrics.waiting.decrement()
            case .generating: metrics.generating.decrement()
            case .ended: return nil
            }
            return first ?? .now
        }
    }
}

/// `fm_serve_requests_total{model, route, method, status}` for every
/// request: the route as declared (`/v1/responses`), so the label's values
/// are bounded; unmatched paths under `NotFound`, CORS preflights under
/// `preflight`; `model` only for a request that named a served model, when
/// there are several.
struct RequestMetrics<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // A CORS preflight is answered before any route: counted as one.
        let route = { context.endpointPath ?? (request.method == .options ? "preflight" : "NotFound") }
        let model = ServerMetrics.RequestModel()
        do {
            let response = try await ServerMetrics.RequestModel.$current.withValue(model) { try await next(request, context) }
            metrics.countRequest(route: route(), method: request.method.rawValue, status: Int(response.status.code), model: model.name)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.countRequest(route: route(), method: request.method.rawValue, status: Int(status), model: model.name)
            throw error
        }
    }
}
