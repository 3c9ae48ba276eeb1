import ChildProcess
import Foundation
import FoundationModels

#if canImport(Glibc)
import Glibc
#endif

/// What went wrong talking to llama-server.
package struct LlamaServerError: Error, CustomStringConvertible {
    package var description: String
    /// The request did not complete within its time limit.
    package var isTimeout = false

    package init(_ description: String) { self.description = description }

    static func timedOut(_ path: String) -> LlamaServerError {
        var error = LlamaServerError("\(path) did not answer within its time limit")
        error.isTimeout = true
        return error
    }
}

/// llama.cpp's own server on the same model and threads: the reference for
/// generation that follows a JSON Schema (`json_schema_to_grammar` and its
/// grammar sampler). Used by `make bench` and by `fm eval`.
///
/// Started on 127.0.0.1 on a free port, as a ``ChildServer`` (never left
/// running); ``stop()`` ends it (call it on every path, errors included).
package final class LlamaServer {
    private let server: ChildServer
    package let port: Int
    package var command: String { server.command }

    /// - Parameters:
    ///   - contextSize: positions of the whole cache, shared by the slots.
    ///   - parallel: slots (`-np`): requests decoded together.
    package init(binary: String, model: String, threads: Int, contextSize: Int, parallel: Int = 1) throws {
        port = try Self.freePort()
        let arguments = [
            "-m", model, "-t", "\(threads)", "-tb", "\(threads)", "-c", "\(contextSize)", "-np", "\(parallel)",
            "--host", "127.0.0.1", "--port", "\(port)", "--no-webui", "-s", "0",
        ]
        do {
            server = try ChildServer(URL(fileURLWithPath: binary), arguments, standardOutput: .discarded, standardError: .log)
        } catch {
            throw LlamaServerError(error.description)
        }
    }

    /// A server started and ready (its model loaded); one that fails to
    /// become ready is stopped before the error is thrown.
    package static func start(binary: String, model: String, threads: Int, contextSize: Int, parallel: Int = 1) async throws -> LlamaServer {
        let server = try LlamaServer(binary: binary, model: model, threads: threads, contextSize: contextSize, parallel: parallel)
        do {
            try await server.waitUntilReady()
            return server
        } catch {
            server.stop()
            throw error
        }
    }

    /// Waits until `/health` answers 200 (the model is loaded).
    package func waitUntilReady(timeout: Double = 120) async throws {
        let health = "http://127.0.0.1:\(port)/health"
        do {
            try await server.waitUntilReady(within: .seconds(timeout), name: "llama-server") {
                let probe = ServerOptions(connectTimeout: .seconds(2), idleTimeout: .seconds(5), maximumRetries: 0)
                guard let (status, _) = try? await ServerHTTP.get(health, headers: [], options: probe) else { return false }
                return status == 200
            }
        } catch {
            throw LlamaServerError(error.description)
        }
    }

    /// What `/completion` returned for one request.
    package struct Completion: Sendable {
        package var content: String
        /// Tokens generated (`timings.predicted_n`).
        package var predicted: Int
        package var predictedMilliseconds: Double
        /// Prompt tokens evaluated, and those reused from the cache.
        package var promptEvaluated: Int
        package var promptCached: Int
        package var promptMilliseconds: Double
        /// Why generation stopped (`eos`, `limit`, ...).
        package var stopType: String
        /// Wall time of the request, seconds, as the client saw it.
        package var wall: Double
    }

    /// What the output must follow.
    package enum Constraint: Sendable {
        /// A JSON Schema, as JSON text (`json_schema`: llama.cpp converts it
        /// with `json_schema_to_grammar`).
        case jsonSchema(String)
        /// A GBNF grammar (`grammar`).
        case grammar(String)
    }

    /// `POST /completion` with `prompt` (already rendered with the chat
    /// template), constrained by `constraint` (nil: free text), greedy; at most
    /// `maximumTokens` tokens (nil: until the end of generation or a full
    /// context). With a `timeout` (seconds), an answer not complete by then
    /// throws a ``LlamaServerError`` whose `isTimeout` is set; the server
    /// may still be generating it, so restart it (``stop()``, a new one)
    /// before the next measurement.
    package func complete(prompt: String, constraint: Constraint?, maximumTokens: Int?, timeout: Double? = nil) async throws -> Completion {
        try await Self.complete(port: port, prompt: prompt, constraint: constraint, maximumTokens: maximumTokens, timeout: timeout)
    }

    /// ``complete(prompt:constraint:maximumTokens:timeout:)`` on the server
    /// at `port`, for concurrent requests from tasks that do not own it.
    package static func complete(port: Int, prompt: String, constraint: Constraint?, maximumTokens: Int?, timeout: Double? = nil) async throws
        -> Completion
    {
        // Written by hand so the schema's key order (property order) is kept.
        let field =
            switch constraint {
            case .jsonSchema(let schema): "\"json_schema\":\(schema),"
            case .grammar(let grammar): "\"grammar\":\(Self.quoted(grammar)),"
            case nil: ""
            }
        let body = """
            {"prompt":\(Self.quoted(prompt)),\(field)"n_predict":\(maximumTokens ?? -1),\
            "temperature":0,"top_k":1,"seed":0,"cache_prompt":true,"stream":false}
            """
        let clock = ContinuousClock()
        let start = clock.now
        let data = try await post(port: port, path: "/completion", body: body, timeout: timeout)
        let wall = (clock.now - start).inSeconds
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let content = object["content"] as? String,
            let timings = object["timings"] as? [String: Any]
        else {
            throw LlamaServerError("llama-server answered \(String(decoding: data.prefix(500), as: UTF8.self))")
        }
        func number(_ key: String) -> Double { (timings[key] as? NSNumber)?.doubleValue ?? 0 }
        return Completion(
            content: content,
            predicted: Int(number("predicted_n")),
            predictedMilliseconds: number("predicted_ms"),
            promptEvaluated: Int(number("prompt_n")),
            promptCached: Int(number("cache_n")),
            promptMilliseconds: number("prompt_ms"),
            stopType: object["stop_type"] as? String ?? "",
            wall: wall
        )
    }

    /// Kills the server (SIGKILL: ``ChildServer/stop()``) and waits (at
    /// most 5 s) until it is gone.
    package func stop() {
        server.stop()
    }

    /// A GBNF grammar whose only sentence is `text`.
    package static func literalGrammar(_ text: String) -> String {
        var literal = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                literal += String(format: "\\x%02X", scalar.value)
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return "root ::= \"" + literal + "\""
    }

    private static func quoted(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }

    /// POSTs `body` (JSON) to the server on `port` through the package's one
    /// HTTP client (AsyncHTTPClient, which, unlike Linux's URLSession, does
    /// not spin a core while it waits: this process must not take cores
    /// from the server it measures). Returns a 200 answer's body; a slower
    /// answer than `timeout` seconds throws ``LlamaServerError/timedOut(_:)``.
    private static func post(port: Int, path: String, body: String, timeout: Double?) async throws -> Data {
        // llama-server answers a non-streamed request only when it is done:
        // the idle timeout bounds the whole request.
        let options = ServerOptions(idleTimeout: .seconds(timeout ?? 3600), maximumRetries: 0)
        do {
            let response = try await ServerHTTP.post("http://127.0.0.1:\(port)\(path)", headers: [], body: body, options: options) {
                status, _, text in
                .rejected(status: status, message: text)
            }
            return Data(try await ServerHTTP.readAll(response.body, limit: options.maximumResponseBytes).utf8)
        } catch ServerFailure.timeout {
            throw LlamaServerError.timedOut(path)
        } catch let failure as ServerFailure {
            throw LlamaServerError("llama-server answered \(path): \(failure)")
        }
    }

    /// A TCP port nothing listens on now: bind port 0 on 127.0.0.1 and read
    /// what the kernel chose.
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw LlamaServerError("socket() failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw LlamaServerError("bind() failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw LlamaServerError("getsockname() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
