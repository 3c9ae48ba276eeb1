import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// How a server model talks to its server: how long it waits, how much it
/// reads, and what it retries.
///
/// Part of a server model's executor configuration, so sessions whose
/// models agree on these share one executor.
public struct ServerOptions: Sendable, Hashable {
    /// How long establishing a connection (TLS included) may take.
    public var connectTimeout: Duration
    /// The longest silence while waiting for the server: for the response
    /// to start (the prompt being read) and then between any two bytes of it.
    public var idleTimeout: Duration
    /// The most bytes one response may have; a longer one fails the request.
    public var maximumResponseBytes: Int
    /// How many times a request that failed before the server sent any of
    /// its answer (no connection, a 502, 503 or 504) is sent again.
    public var maximumRetries: Int
    /// A `429` whose `Retry-After` is at most this long is waited out and
    /// sent again (within ``maximumRetries``); a longer wait fails with
    /// `rateLimited`, its reset date set, for the caller (or a router) to decide.
    public var maximumRetryDelay: Duration

    public init(
        connectTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(120),
        maximumResponseBytes: Int = 16 << 20,
        maximumRetries: Int = 1,
        maximumRetryDelay: Duration = .zero
    ) {
        self.connectTimeout = connectTimeout
        self.idleTimeout = idleTimeout
        self.maximumResponseBytes = maximumResponseBytes
        self.maximumRetries = maximumRetries
        self.maximumRetryDelay = maximumRetryDelay
    }
}

/// An API key that never shows itself: its description is redacted, so it
/// cannot reach a log line, an error or a debug print by accident.
package struct APIKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    package let value: String
    package init(_ value: String) { self.value = value }

    /// The key given, else the one in the environment variable (`nil`
    /// when neither is set or the variable is empty).
    package static func resolve(_ key: String?, environmentVariable: String?) -> APIKey? {
        let value = key ?? environmentVariable.flatMap { ProcessInfo.processInfo.environment[$0] }
        return value.flatMap { $0.isEmpty ? nil : APIKey($0) }
    }

    package var description: String { "<redacted>" }
    package var debugDescription: String { "<redacted>" }
}

/// Where a server model's server is: a base URL checked once, when the
/// model is made. Plain HTTP is accepted for loopback addresses only.
package struct RemoteEndpoint: Sendable, Hashable {
    package let baseURL: URL

    /// - Throws: ``ServerModelError`` for a URL that is not http(s), has no
    ///   host, or is plain HTTP to a host that is not this machine.
    package init(_ url: URL) throws(ServerModelError) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw ServerModelError("the server URL \(url.absoluteString) is not an http:// or https:// URL")
        }
        guard let host = url.host, !host.isEmpty else {
            throw ServerModelError("the server URL \(url.absoluteString) has no host")
        }
        if scheme == "http", !Self.isLoopback(host) {
            throw ServerModelError(
                "refusing plain HTTP to \(host): requests and API keys go over TLS (https://) except to this machine (127.0.0.1, ::1, localhost)"
            )
        }
        if url.user != nil || url.password != nil {
            throw ServerModelError("the server URL must not carry credentials; pass the API key instead")
        }
        self.baseURL = url
    }

    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host == "::1" || host.hasSuffix(".localhost") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// The base URL with `path` appended (no doubled slashes).
    package func url(_ path: String) -> String {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/" + path.drop { $0 == "/" }
    }
}

/// A server model that cannot be set up as configured (a bad URL, a
/// missing key). Thrown where the model is made or, for a model made from
/// the environment, by its requests.
public struct ServerModelError: Error, LocalizedError, CustomStringConvertible, Sendable {
    public var description: String
    package init(_ description: String) { self.description = description }
    public var errorDescription: String? { description }
}

/// Why a server request failed, before it is expressed in the error family
/// its model surfaces (see ``RemoteErrorFamily``).
package enum ServerFailure: Error, Sendable {
    /// No connection, or it broke before the answer was complete.
    case connection(String)
    /// No byte from the server within the idle timeout.
    case timeout(String)
    /// The server answered 5xx (or 529, overloaded).
    case unavailable(status: Int, message: String)
    /// 429; `resetDate` from `Retry-After`.
    case rateLimited(resetDate: Date?, message: String)
    /// The prompt does not fit the model's context.
    case contextLength(contextSize: Int?, tokenCount: Int?, message: String)
    /// The provider's content filter stopped the request or the answer.
    case contentFilter(String)
    /// The model declined; `explanation` is what it said.
    case refusal(explanation: String)
    /// The request is wrong for this server (401, 403, 404, other 4xx).
    case rejected(status: Int, message: String)
    /// The answer is not what the protocol promises (malformed events,
    /// a response over the size limit, JSON that breaks the schema).
    case malformed(rawContent: String, message: String)
}

/// The HTTP transport every server model shares: AsyncHTTPClient on
/// SwiftNIO, one client per pair of timeouts, alive for the whole process
/// (as `HTTPClient.shared` is), redirects refused (a redirect could carry
/// the key elsewhere).
package enum ServerHTTP {
    private struct ClientKey: Hashable { var connect: Duration; var idle: Duration }
    private static let clients = Mutex<[ClientKey: HTTPClient]>([:])
    static let logger = Logger(label: "FoundationModels.ServerModel")

    private static func client(for options: ServerOptions) -> HTTPClient {
        let key = ClientKey(connect: options.connectTimeout, idle: options.idleTimeout)
        return clients.withLock { clients in
            if let client = clients[key] { return client }
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .disallow,
                timeout: .init(connect: TimeAmount(options.connectTimeout), read: TimeAmount(options.idleTimeout))
            )
            configuration.httpVersion = .automatic
            // A refused connection fails at once, not after the pool's own
            // retries until the connect timeout (10 s for a dead server the
            // router is waiting to walk past); ServerOptions.maximumRetries
            // is the one retry policy.
            configuration.connectionPool.retryConnectionEstablishment = false
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            clients[key] = client
            return client
        }
    }

    /// A response whose body is being read.
    package struct Response: Sendable {
        package var status: Int
        package var headers: HTTPHeaders
        package var body: HTTPClientResponse.Body
    }

    /// POSTs `body` (JSON) to `url` with `headers`, retrying per `options`
    /// while nothing has been received; returns once a 2xx response has
    /// started. A non-2xx answer is read (within the size limit) and handed
    /// to `failure`, which turns it into the failure to throw (or `nil` to
    /// retry it, when it is worth retrying).
    package static func post(
        _ url: String,
        headers: [(String, String)],
        body: String,
        options: ServerOptions,
        failure: @Sendable (_ status: Int, _ headers: HTTPHeaders, _ body: String) -> ServerFailure
    ) async throws -> Response {
        var attempt = 0
        while true {
            try Task.checkCancellation()
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "Accept", value: "text/event-stream, application/json")
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            request.body = .bytes(ByteBuffer(string: body))
            let outcome: ServerFailure
            do {
                let response = try await client(for: options).execute(
                    request,
                    deadline: .now() + TimeAmount(options.connectTimeout + options.idleTimeout),
                    logger: logger
                )
                let status = Int(response.status.code)
                if (200..<300).contains(status) {
                    return Response(status: status, headers: response.headers, body: response.body)
                }
                let text = try await readAll(response.body, limit: min(options.maximumResponseBytes, 1 << 20))
                outcome = failure(status, response.headers, text)
            } catch {
                if error is CancellationError || Task.isCancelled { throw CancellationError() }
                outcome = transportFailure(error)
            }
            attempt += 1
            guard attempt <= options.maximumRetries, let delay = retryDelay(for: outcome, options: options) else {
                throw outcome
            }
            logger.debug("retrying a server request", metadata: ["attempt": "\(attempt)", "failure": "\(outcome)"])
            try await Task.sleep(for: delay)
        }
    }

    /// GETs `url` once (no retries): the status and the body as text,
    /// within the size limit. For small informational endpoints.
    package static func get(_ url: String, headers: [(String, String)], options: ServerOptions) async throws(ServerFailure) -> (Int, String) {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        do {
            let response = try await client(for: options).execute(
                request,
                deadline: .now() + TimeAmount(options.connectTimeout + options.idleTimeout),
                logger: logger
            )
            let text = try await readAll(response.body, limit: min(options.maximumResponseBytes, 1 << 20))
            return (Int(response.status.code), text)
        } catch {
            throw transportFailure(error)
        }
    }

    /// How long to wait before sending a failed request again, or `nil`
    /// when it is not worth sending again.
    private static func retryDelay(for failure: ServerFailure, options: ServerOptions) -> Duration? {
        switch failure {
        case .connection:
            return .milliseconds(250)
        case .unavailable(let status, _) where [502, 503, 504, 529].contains(status):
            return .milliseconds(500)
        case .rateLimited(let reset, _):
            let wait = max(0, reset?.timeIntervalSinceNow ?? .infinity)
            guard wait.isFinite, Duration.seconds(wait) <= options.maximumRetryDelay else { return nil }
            return .seconds(wait)
        default:
            return nil
        }
    }

    /// A transport error (no connection, a timeout, a broken stream) as a failure.
    package static func transportFailure(_ error: any Error) -> ServerFailure {
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout, .deadlineExceeded:
                return .timeout("the server sent nothing for longer than the idle timeout")
            case .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
                return .timeout("connecting to the server timed out")
            case .remoteConnectionClosed:
                return .connection("the server closed the connection before the answer was complete")
            default:
                return .connection("HTTP failure: \(error)")
            }
        }
        if let error = error as? IOError {
            // NIO's own description of a refused connect reads "connection
            // reset (error set): Connection refused) (errno: 111)".
            if error.errnoCode == ECONNREFUSED {
                return .connection("could not talk to the server: the connection was refused (nothing listens at that address)")
            }
            return .connection("could not talk to the server: \(String(cString: strerror(error.errnoCode))) (errno \(error.errnoCode))")
        }
        return .connection("could not talk to the server: \(error)")
    }

    /// A whole (error) body as text, at most `limit` bytes of it.
    package static func readAll(_ body: HTTPClientResponse.Body, limit: Int) async throws -> String {
        var data = Data()
        for try await buffer in body {
            data.append(contentsOf: buffer.readableBytesView.prefix(max(0, limit - data.count)))
            if data.count >= limit { break }
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Reads `response`'s body as server-sent events, handing each to
    /// `handle` as it completes. Enforces the size limit; a broken or
    /// timed-out stream throws its failure.
    package static func events(
        of response: Response,
        options: ServerOptions,
        handle: (ServerSentEvent) async throws -> Void
    ) async throws {
        var parser = ServerSentEventParser()
        var received = 0
        do {
            for try await buffer in response.body {
                received += buffer.readableBytes
                guard received <= options.maximumResponseBytes else {
                    throw ServerFailure.malformed(
                        rawContent: "",
                        message: "the response is larger than the limit of \(options.maximumResponseBytes) bytes (ServerOptions.maximumResponseBytes)"
                    )
                }
                for event in parser.feed(buffer.readableBytesView) {
                    try await handle(event)
                }
            }
        } catch let failure as ServerFailure {
            throw failure
        } catch {
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw transportFailure(error)
        }
        for event in parser.finish() {
            try await handle(event)
        }
    }

    /// `Retry-After` as a date: seconds, or an HTTP date.
    package static func retryAfter(_ headers: HTTPHeaders) -> Date? {
        guard let value = headers.first(name: "retry-after")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(value) { return Date().addingTimeInterval(max(0, seconds)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value)
    }
}

/// One server-sent event: its `event:` name (empty when none) and its
/// `data:` lines joined with newlines.
package struct ServerSentEvent: Sendable, Equatable {
    package var event: String
    package var data: String

    package init(event: String, data: String) {
        self.event = event
        self.data = data
    }
}

/// Splits a byte stream into server-sent events (the WHATWG
/// `text/event-stream` format): lines end in LF, CR or CRLF; a blank line
/// dispatches; `:` lines are comments. Bytes are kept until their line is
/// complete, so an event split across reads (or a character split across
/// them) comes out whole.
package struct ServerSentEventParser {
    private var pending: [UInt8] = []
    private var event = ""
    private var data: [String] = []
    private var hasData = false
    private var lastWasCR = false

    package init() {}

    package mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var out: [ServerSentEvent] = []
        for byte in bytes {
            if lastWasCR {
                lastWasCR = false
                if byte == 0x0A { continue }
            }
            if byte == 0x0A || byte == 0x0D {
                lastWasCR = byte == 0x0D
                line(String(decoding: pending, as: UTF8.self), into: &out)
                pending.removeAll(keepingCapacity: true)
            } else {
                pending.append(byte)
            }
        }
        return out
    }

    /// The event left when the stream ended without its blank line.
    package mutating func finish() -> [ServerSentEvent] {
        var out: [ServerSentEvent] = []
        if !pending.isEmpty {
            line(String(decoding: pending, as: UTF8.self), into: &out)
            pending.removeAll()
        }
        line("", into: &out)
        return out
    }

    private mutating func line(_ line: String, into out: inout [ServerSentEvent]) {
        if line.isEmpty {
            if hasData { out.append(ServerSentEvent(event: event, data: data.joined(separator: "\n"))) }
            event = ""
            data = []
            hasData = false
            return
        }
        if line.hasPrefix(":") { return }
        let field: Substring
        var value: Substring
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            value = line[line.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = line[...]
            value = ""
        }
        switch field {
        case "event": event = String(value)
        case "data":
            data.append(String(value))
            hasData = true
        default: break
        }
    }
}
