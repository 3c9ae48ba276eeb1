import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal blocking HTTP/1.1 client for the local llama-server: one
/// connection per request (`Connection: close`), on a thread of its own.
///
/// Not FoundationNetworking's `URLSession`: on Linux its socket thread
/// spins a core while a request on a new connection is in flight, which
/// takes a core from the server it is timing (measured: our process used
/// as much CPU as the request's wall time).
package enum LocalHTTP {
    /// Sends one request to 127.0.0.1:`port`; returns the status and body.
    /// With a `timeout` (seconds), a response not complete by then throws
    /// ``LlamaServerError/timedOut(_:)``.
    package static func request(port: Int, method: String, path: String, body: Data = Data(), timeout: Double? = nil) async throws -> (Int, Data) {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    try blockingRequest(port: port, method: method, path: path, body: body, deadline: deadline)
                })
            }
        }
    }

    /// A new TCP socket and the address of `port` on 127.0.0.1 (0: any
    /// free port, for `bind`). The caller closes the socket.
    static func loopbackSocket(port: Int) throws -> (Int32, sockaddr_in) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw LlamaServerError("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return (descriptor, address)
    }

    private static func blockingRequest(port: Int, method: String, path: String, body: Data, deadline: Date?) throws -> (Int, Data) {
        let (descriptor, loopback) = try loopbackSocket(port: port)
        var address = loopback
        defer { close(descriptor) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw LlamaServerError("connect to 127.0.0.1:\(port) failed (errno \(errno))") }

        var request = Data("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n".utf8)
        if !body.isEmpty {
            request += Data("Content-Type: application/json\r\nContent-Length: \(body.count)\r\n".utf8)
        }
        request += Data("\r\n".utf8) + body
        try request.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let written = send(descriptor, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                guard written > 0 else { throw LlamaServerError("send failed (errno \(errno))") }
                sent += written
            }
        }

        var response = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let deadline {
                // Each wait for bytes ends at the deadline at the latest.
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else { throw LlamaServerError.timedOut(path) }
                var limit = timeval(tv_sec: Int(left), tv_usec: Int((left - left.rounded(.down)) * 1e6))
                setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { throw LlamaServerError.timedOut(path) }
            guard count >= 0 else { throw LlamaServerError("recv failed (errno \(errno))") }
            if count == 0 { break }
            response.append(contentsOf: buffer[..<count])
        }
        return try parse(response)
    }

    /// Status and body of a whole response (Content-Length, chunked, or
    /// ended by the close).
    private static func parse(_ response: Data) throws -> (Int, Data) {
        guard let end = response.range(of: Data("\r\n\r\n".utf8)) else { throw LlamaServerError("malformed HTTP response") }
        let head = String(decoding: response[..<end.lowerBound], as: UTF8.self)
        var body = Data(response[end.upperBound...])
        let lines = head.components(separatedBy: "\r\n")
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw LlamaServerError("malformed HTTP status line") }
        let headers = lines.dropFirst().map { $0.lowercased() }
        if headers.contains(where: { $0.hasPrefix("transfer-encoding:") && $0.contains("chunked") }) {
            var decoded = Data()
            var rest = body[...]
            while let lineEnd = rest.range(of: Data("\r\n".utf8)) {
                let sizeText = String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
                guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { break }
                if size == 0 { break }
                let start = lineEnd.upperBound
                guard rest.distance(from: start, to: rest.endIndex) >= size else { break }
                let stop = rest.index(start, offsetBy: size)
                decoded += rest[start..<stop]
                rest = rest[(rest.index(stop, offsetBy: 2, limitedBy: rest.endIndex) ?? rest.endIndex)...]
            }
            body = decoded
        }
        return (status, body)
    }
}
