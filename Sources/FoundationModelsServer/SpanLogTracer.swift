import Foundation
import Logging
import Synchronization
import Tracing

/// A tracer with no exporter (`fm serve --trace`): each finished span is
/// one line of the log, a JSON object through ``JSONLogHandler``, for an
/// operator who wants to see where a request's time went (the HTTP request,
/// and under it the engine's queue wait, prefill and decode) without
/// running a collector. A line has `message` "span", `name`, `trace_id`
/// (32 hex digits), `span_id` (16), `parent_id` (absent for a root span),
/// `kind`, `start` (ISO 8601, UTC), `duration_ms`, `status` ("ok" unless
/// the span failed: "error"), `error` where one was recorded, and
/// `attributes`, an object.
///
/// A request carrying a W3C `traceparent` header continues that trace: its
/// span's `trace_id` is the caller's and its `parent_id` the caller's span.
package struct SpanLogTracer: Tracer {
    package typealias Span = LogSpan

    let logger: Logger

    package init(logger: Logger) {
        self.logger = logger
    }

    /// The lines of `label`, as JSON objects on standard error.
    package init(label: String = "fm.serve.trace") {
        self.init(logger: Logger(label: label) { JSONLogHandler(label: $0) })
    }

    /// Makes a tracer of `label`'s lines the process's tracer
    /// (`InstrumentationSystem.bootstrap`: once per process, before the
    /// first span).
    package static func bootstrap(label: String = "fm.serve.trace") {
        InstrumentationSystem.bootstrap(SpanLogTracer(label: label))
    }

    /// A span's place in its trace, carried in the context of the work under it.
    struct Identity: Sendable, Equatable {
        var traceID: String
        var spanID: String
    }

    private enum IdentityKey: ServiceContextKey {
        typealias Value = Identity
        static var nameOverride: String? { "fm-serve-span" }
    }

    package func startSpan<Instant: TracerInstant>(
        _ operationName: String,
        context: @autoclosure () -> ServiceContext,
        ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant,
        function: String,
        file fileID: String,
        line: UInt
    ) -> LogSpan {
        var context = context()
        let parent = context[IdentityKey.self]
        let identity = Identity(traceID: parent?.traceID ?? Self.randomID(words: 2), spanID: Self.randomID(words: 1))
        context[IdentityKey.self] = identity
        return LogSpan(
            operationName: operationName, kind: kind, context: context, identity: identity, parentID: parent?.spanID,
            start: instant().nanosecondsSinceEpoch, logger: logger)
    }

    package func forceFlush() {}

    package func inject<Carrier, Inject: Injector>(_ context: ServiceContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {
        guard let identity = context[IdentityKey.self] else { return }
        injector.inject("00-\(identity.traceID)-\(identity.spanID)-01", forKey: "traceparent", into: &carrier)
    }

    package func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract)
    where Extract.Carrier == Carrier {
        guard let value = extractor.extract(key: "traceparent", from: carrier), let identity = Self.parent(traceparent: value) else { return }
        context[IdentityKey.self] = identity
    }

    /// The caller's span in a W3C `traceparent` (`00-TRACE-SPAN-FLAGS`);
    /// nil for one that is malformed or all zeros.
    static func parent(traceparent value: String) -> Identity? {
        let parts = value.lowercased().split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 4, parts[0].count == 2, parts[0] != "ff", parts[1].count == 32, parts[2].count == 16, parts[3].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isHexDigit) }),
            parts[1].contains(where: { $0 != "0" }), parts[2].contains(where: { $0 != "0" })
        else { return nil }
        return Identity(traceID: parts[1], spanID: parts[2])
    }

    /// `words` random 64-bit words in hex: a trace id (2) or a span id (1).
    static func randomID(words: Int) -> String {
        (0..<words).map { _ in
            let hex = String(UInt64.random(in: 1...UInt64.max), radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// One span of ``SpanLogTracer``: written as a log line when it ends.
    package final class LogSpan: Tracing.Span {
        package let context: ServiceContext
        let kind: SpanKind
        let identity: Identity
        let parentID: String?
        let start: UInt64
        let logger: Logger
        private let state: Mutex<State>

        struct State {
            var operationName: String
            var attributes = SpanAttributes()
            var status: SpanStatus?
            var errors: [String] = []
            var ended = false
        }

        init(
            operationName: String, kind: SpanKind, context: ServiceContext, identity: Identity, parentID: String?, start: UInt64,
            logger: Logger
        ) {
            self.context = context
            self.kind = kind
            self.identity = identity
            self.parentID = parentID
            self.start = start
            self.logger = logger
            self.state = Mutex(State(operationName: operationName))
        }

        package var operationName: String {
            get { state.withLock { $0.operationName } }
            set { state.withLock { $0.operationName = newValue } }
        }

        package var attributes: SpanAttributes {
            get { state.withLock { $0.attributes } }
            set { state.withLock { $0.attributes = newValue } }
        }

        package var isRecording: Bool { state.withLock { !$0.ended } }

        package func setStatus(_ status: SpanStatus) { state.withLock { $0.status = status } }

        package func addEvent(_ event: SpanEvent) {}

        package func addLink(_ link: SpanLink) {}

        package func recordError<Instant: TracerInstant>(_ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant) {
            state.withLock { $0.errors.append("\(error)") }
        }

        package func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
            let end = instant().nanosecondsSinceEpoch
            guard
                let ended = state.withLock({ state -> State? in
                    guard !state.ended else { return nil }
                    state.ended = true
                    return state
                })
            else { return }
            logger.info("span", metadata: metadata(of: ended, end: end))
        }

        /// The line's fields.
        func metadata(of state: State, end: UInt64) -> Logger.Metadata {
            var fields: Logger.Metadata = [
                "name": .string(state.operationName),
                "trace_id": .string(identity.traceID),
                "span_id": .string(identity.spanID),
                "kind": .string("\(kind)"),
                "start": .string(Self.timestamp(nanoseconds: start)),
                "duration_ms": .stringConvertible((Double(end >= start ? end - start : 0) / 1_000).rounded() / 1_000),
                "status": .string(state.status?.code == .error ? "error" : "ok"),
            ]
            if let parentID { fields["parent_id"] = .string(parentID) }
            if !state.errors.isEmpty { fields["error"] = .string(state.errors.joined(separator: "; ")) }
            var attributes: Logger.Metadata = [:]
            state.attributes.forEach { key, value in attributes[key] = Self.metadata(value) }
            fields["attributes"] = .dictionary(attributes)
            return fields
        }

        static func metadata(_ value: SpanAttribute) -> Logger.Metadata.Value {
            switch value {
            case .int32(let number): .stringConvertible(Int(number))
            case .int64(let number): .stringConvertible(Int(number))
            case .double(let number): .stringConvertible(number)
            case .bool(let flag): .stringConvertible(flag)
            case .string(let text): .string(text)
            case .int32Array(let numbers): .array(numbers.map { .stringConvertible(Int($0)) })
            case .int64Array(let numbers): .array(numbers.map { .stringConvertible(Int($0)) })
            case .doubleArray(let numbers): .array(numbers.map { .stringConvertible($0) })
            case .boolArray(let flags): .array(flags.map { .stringConvertible($0) })
            case .stringArray(let texts): .array(texts.map { .string($0) })
            case .stringConvertible(let value): .string(value.description)
            case .stringConvertibleArray(let values): .array(values.map { .string($0.description) })
            default: .string("\(value)")
            }
        }

        static func timestamp(nanoseconds: UInt64) -> String {
            Date(timeIntervalSince1970: Double(nanoseconds) / 1e9).formatted(
                .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
        }
    }
}
