import Foundation
import FoundationModels
import Hummingbird
import HummingbirdTesting
import Logging
import TestSupport
import Testing

@testable import FoundationModelsServer

/// fm serve's router driven in process (HummingbirdTesting's `.router`):
/// requests go straight to the routes and their middleware, with no port
/// opened and no model loaded, so every status the server answers with can
/// be checked in a unit test.
enum InProcessServer {
    static let modelName = "scripted"

    /// Serves `model` (a scripted one by default, playing `turns`) under
    /// ``modelName``, with the configuration `configure` leaves, for `body`.
    static func test<Value>(
        _ turns: [[Script.Step]] = [],
        configure: (inout ChatCompletionsServer.Configuration) -> Void = { _ in },
        _ body: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        try await test(model: ScriptedModel(turns), configure: configure, body)
    }

    static func test<Value>(
        model: any LanguageModel,
        configure: (inout ChatCompletionsServer.Configuration) -> Void = { _ in },
        _ body: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        var configuration = ChatCompletionsServer.Configuration(modelName: modelName)
        configure(&configuration)
        let quiet = Logger(label: "fm.serve.test") { _ in SwiftLogNoOpLogHandler() }
        let server = ChatCompletionsServer(model: model, configuration: configuration, logger: quiet)
        return try await Application(router: server.router(), logger: quiet).test(.router, body)
    }
}

extension TestClientProtocol {
    /// A POST of `json` with its content type (and `headers`).
    func post(_ path: String, _ json: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await post(path, bytes: ByteBuffer(string: json), headers: headers)
    }

    func post(_ path: String, bytes: ByteBuffer, headers: HTTPFields = [:]) async throws -> TestResponse {
        var headers = headers
        headers[.contentType] = "application/json"
        return try await execute(uri: path, method: .post, headers: headers, body: bytes)
    }

    func get(_ path: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: path, method: .get, headers: headers)
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }
    var statusCode: Int { Int(status.code) }

    /// The body as a JSON object.
    func object() throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(statusCode) \(text)")
    }

    /// OpenAI's error object (`{"error": {…}}`), or nil when the body has none.
    var error: [String: Any]? {
        ((try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any])?["error"] as? [String: Any]
    }

    /// A server-sent event stream's `data:` payloads, in order.
    var dataLines: [String] {
        text.components(separatedBy: "\n\n").filter { !$0.isEmpty }.compactMap { event in
            event.split(separator: "\n").first { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
        }
    }

    /// A server-sent event stream's events: each one's `event:` name and its `data:` object.
    func events() throws -> [(name: String?, data: [String: Any])] {
        try text.components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { event in
            let lines = event.split(separator: "\n")
            let name = lines.first { $0.hasPrefix("event: ") }.map { String($0.dropFirst(7)) }
            let data = try #require(lines.first { $0.hasPrefix("data: ") }).dropFirst(6)
            return (name, try #require(JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]))
        }
    }
}
