// A tiny HTTP/1.1 server on 127.0.0.1 for the tests that need a server to
// misbehave on cue (429s, context errors, refusals, broken JSON) or to
// replay a provider's recorded wire format (Anthropic): it records each
// request and answers with what the test scripted, streamed in chunks.
// The server models' tests use it (RemoteModelTests), and the tiers' and
// fm serve's (FoundationModelsTiersTests, fm-serveTests).

import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A request as the stub received it.
package struct StubRequest: Sendable {
    package var method: String
    package var path: String
    package var headers: [String: String]
    package var body: String

    /// The body parsed as JSON.
    package var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
    }
}

/// What the stub answers.
package struct StubReply: Sendable {
    package var status: Int
    package var headers: [(String, String)]
    /// Written one after another, each flushed on its own.
    package var chunks: [String]
    /// Whether to close the connection without finishing the body (a
    /// server that dies mid-answer).
    package var cutShort: Bool

    package init(
        status: Int = 200, headers: [(String, String)] = [("Content-Type", "text/event-stream")], chunks: [String] = [], cutShort: Bool = false
    ) {
        self.status = status
        self.headers = headers
        self.chunks = chunks
        self.cutShort = cutShort
    }

    /// A JSON body with `status`.
    package static func json(_ status: Int, _ body: String, headers: [(String, String)] = []) -> StubReply {
        StubReply(status: status, headers: [("Content-Type", "application/json")] + headers, chunks: [body])
    }

    /// Server-sent events: each element one `data:` event (with `event:`
    /// when a name is given).
    package static func events(_ events: [(name: String?, data: String)]) -> StubReply {
        StubReply(
            chunks: events.map { event in
                (event.name.map { "event: \($0)\n" } ?? "") + "data: \(event.data)\n\n"
            })
    }
}

/// The server: a listening socket and a thread that answers connections
/// one at a time (tests send one request at a time).
package final class StubServer: Sendable {
    package let port: Int
    private let listener: Int32
    private let state: Mutex<(requests: [StubRequest], replies: [StubReply], stopped: Bool)>

    /// Answers the requests with `replies` in order (the last one repeats).
    package init(_ replies: [StubReply]) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw StubError("socket() failed") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw StubError("bind/listen failed")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = descriptor
        state = Mutex(([], replies, false))
        Thread.detachNewThread { [self] in serve() }
    }

    deinit { stop() }

    /// The base URL of an OpenAI-style API root on this server.
    package var url: URL { URL(string: "http://127.0.0.1:\(port)/v1")! }

    package var requests: [StubRequest] { state.withLock { $0.requests } }

    /// Stops accepting connections. The listening socket is shut down here
    /// and closed by the serving thread once its `accept` fails: closed
    /// here, its descriptor could be reused by the next test's server while
    /// this thread, between two connections, has not called `accept` again,
    /// and it would then answer that server's requests with these replies.
    package func stop() {
        let wasRunning = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        if wasRunning {
            shutdown(listener, Int32(SHUT_RDWR))
        }
    }

    private func serve() {
        defer { close(listener) }
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            handle(connection)
            close(connection)
        }
    }

    private func handle(_ connection: Int32) {
        guard let request = readRequest(connection) else { return }
        let reply = state.withLock { state -> StubReply in
            state.requests.append(request)
            return state.replies.count > 1 ? state.replies.removeFirst() : (state.replies.first ?? StubReply(status: 404))
        }
        var head = "HTTP/1.1 \(reply.status) Stub\r\n"
        for (name, value) in reply.headers { head += "\(name): \(value)\r\n" }
        head += "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        write(connection, head)
        for chunk in reply.chunks where !chunk.isEmpty {
            write(connection, String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n")
            usleep(2_000)
        }
        if !reply.cutShort { write(connection, "0\r\n\r\n") }
    }

    private func write(_ connection: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return }
            sent += written
        }
    }

    private func readRequest(_ connection: Int32) -> StubRequest? {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var headerEnd: Int?
        var contentLength = 0
        while true {
            if let end = headerEnd, data.count >= end + contentLength { break }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            data += buffer[..<count]
            if headerEnd == nil, let range = findHeaderEnd(data) {
                headerEnd = range
                let head = String(decoding: data[..<range], as: UTF8.self)
                for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
                    contentLength = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
        }
        guard let end = headerEnd else { return nil }
        let lines = String(decoding: data[..<(end - 4)], as: UTF8.self).components(separatedBy: "\r\n")
        let start = lines.first?.split(separator: " ") ?? []
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return StubRequest(
            method: start.count > 0 ? String(start[0]) : "",
            path: start.count > 1 ? String(start[1]) : "",
            headers: headers,
            body: String(decoding: data[end..<(end + contentLength)], as: UTF8.self)
        )
    }

    private func findHeaderEnd(_ data: [UInt8]) -> Int? {
        guard data.count >= 4 else { return nil }
        for index in 0...(data.count - 4) where data[index] == 13 && data[index + 1] == 10 && data[index + 2] == 13 && data[index + 3] == 10 {
            return index + 4
        }
        return nil
    }
}

package struct StubError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// OpenAI chat-completions chunks, as llama-server and OpenAI stream them.
package enum OpenAIWire {
    package static func chunk(content: String? = nil, refusal: String? = nil, finish: String? = nil) -> String {
        var delta: [String: Any] = [:]
        if let content { delta["content"] = content }
        if let refusal { delta["refusal"] = refusal }
        let choice: [String: Any] = ["index": 0, "delta": delta, "finish_reason": finish ?? NSNull()]
        return json(["id": "chatcmpl-1", "object": "chat.completion.chunk", "model": "stub", "choices": [choice]])
    }

    package static func usage(prompt: Int, completion: Int) -> String {
        json([
            "id": "chatcmpl-1", "object": "chat.completion.chunk", "model": "stub", "choices": [],
            "usage": ["prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion],
        ])
    }

    /// A whole streamed answer: `pieces` of content, a stop, usage, `[DONE]`.
    package static func answer(_ pieces: [String], finish: String = "stop") -> StubReply {
        StubReply.events(
            pieces.map { (nil, chunk(content: $0)) }
                + [(nil, chunk(finish: finish)), (nil, usage(prompt: 12, completion: pieces.count)), (nil, "[DONE]")]
        )
    }

    package static func json(_ object: Any) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
}
