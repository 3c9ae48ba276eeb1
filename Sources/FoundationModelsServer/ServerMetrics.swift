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
/// Recorded through swift-metrics into the server's own Prometheus registry
/// (``ChatCompletionsServer/Configuration/metricsRegistry``), never the
/// process-wide `MetricsSystem`: two servers in one process (the tests
/// start several) each count only their own requests.
///
/// The engine's own queue is not visible from here: `waiting` counts the
/// requests accepted and not yet answered with a first token (queued for a
/// sequence, or reading their prompt), `generating` those past it; with the
/// configured parallel sequences and queue bound they say how full it is.
struct ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    let waiting: Meter
    let generating: Meter
    let promptTokens: CoreMetrics.Counter
    let cachedPromptTokens: CoreMetrics.Counter
    let generatedTokens: CoreMetrics.Counter
    let timeToFirstToken: Metrics.Timer
    let timePerOutputToken: Metrics.Timer
    let rateLimited: CoreMetrics.Counter
    let cancelled: CoreMetrics.Counter

    init(registry: PrometheusCollectorRegistry) {
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
        waiting = Meter(label: "fm_serve_requests_waiting", factory: factory)
        generating = Meter(label: "fm_serve_requests_generating", factory: factory)
        promptTokens = CoreMetrics.Counter(label: "fm_serve_prompt_tokens_total", factory: factory)
        cachedPromptTokens = CoreMetrics.Counter(label: "fm_serve_prompt_tokens_cached_total", factory: factory)
        generatedTokens = CoreMetrics.Counter(label: "fm_serve_generated_tokens_total", factory: factory)
        timeToFirstToken = Metrics.Timer(label: "fm_serve_time_to_first_token_seconds", factory: factory)
        timePerOutputToken = Metrics.Timer(label: "fm_serve_time_per_output_token_seconds", factory: factory)
        rateLimited = CoreMetrics.Counter(label: "fm_serve_rate_limited_total", factory: factory)
        cancelled = CoreMetrics.Counter(label: "fm_serve_cancelled_total", factory: factory)
        // Present from the start, so a scrape before the first request (and
        // an alert on a rate) sees zeros rather than nothing.
        for meter in [waiting, generating] { meter.set(0) }
        for counter in [promptTokens, cachedPromptTokens, generatedTokens, rateLimited, cancelled] { counter.increment(by: 0) }
    }

    /// One answered request: `fm_serve_requests_total{route, method, status}`.
    func countRequest(route: String, method: String, status: Int) {
        CoreMetrics.Counter(
            label: "fm_serve_requests_total",
            dimensions: [("route", route), ("method", method), ("status", String(status))],
            factory: factory
        ).increment()
    }

    /// The configured bounds, as gauges beside the live counts.
    func setCapacity(parallelSequences: Int?, maximumQueue: Int?) {
        if let parallelSequences { CoreMetrics.Gauge(label: "fm_serve_parallel_sequences", factory: factory).record(parallelSequences) }
        if let maximumQueue { CoreMetrics.Gauge(label: "fm_serve_max_queue", factory: factory).record(maximumQueue) }
    }

    /// The text `GET /metrics` answers with.
    func exposition() -> String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
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

        private let metrics: ServerMetrics
        private let start: ContinuousClock.Instant
        private let state = Mutex(State())

        init(_ metrics: ServerMetrics, start: ContinuousClock.Instant) {
            self.metrics = metrics
            self.start = start
            metrics.waiting.increment()
        }

        /// The first piece of the answer (text or calls) is out.
        func firstToken() {
            let now = ContinuousClock.now
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
        func finished(usage: LanguageModelSession.Usage) {
            let now = ContinuousClock.now
            firstToken()
            guard let first = end() else { return }
            let output = usage.output.totalTokenCount
            metrics.promptTokens.increment(by: usage.input.totalTokenCount)
            metrics.cachedPromptTokens.increment(by: usage.input.cachedTokenCount)
            metrics.generatedTokens.increment(by: output)
            if output > 1 {
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

/// `fm_serve_requests_total{route, method, status}` for every request: the
/// route as declared (`/v1/responses`), so the label's values are bounded;
/// unmatched paths under `NotFound`, CORS preflights under `preflight`.
struct RequestMetrics<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // A CORS preflight is answered before any route: counted as one.
        let route = { context.endpointPath ?? (request.method == .options ? "preflight" : "NotFound") }
        do {
            let response = try await next(request, context)
            metrics.countRequest(route: route(), method: request.method.rawValue, status: Int(response.status.code))
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.countRequest(route: route(), method: request.method.rawValue, status: Int(status))
            throw error
        }
    }
}
