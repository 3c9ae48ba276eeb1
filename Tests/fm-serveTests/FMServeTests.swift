// `fm serve` for real: the fm-serve program (built beside this test bundle)
// on 127.0.0.1 with the small model, and the official `openai` Python client
// against it (fm_serve_client.py, in the virtual environment
// scripts/openai_env.sh keeps under the cache), then the project's own
// OpenAICompatibleLanguageModel. Needs FOUNDATION_MODELS_SMALL_MODEL.

import Foundation
import FoundationModels
import TestSupport
import Testing

/// A running fm-serve, stopped (SIGTERM) when the test is done with it: a
/// ``ChildServer``, so one a test forgets or a failure skips is killed
/// when it goes away, and none outlives an interrupted run.
final class FMServeProcess: Sendable {
    let process: ChildServer
    let port: Int

    static let apiKey = "test-key-\(UInt32.random(in: 0...UInt32.max))"
    static let modelName = "small"

    /// - Parameters:
    ///   - arguments: flags after the defaults (a later flag wins).
    ///   - local: serve the small model in process; false when `arguments`
    ///     name another server (`--server`).
    ///   - environment: variables added to the test's own.
    ///   - errorLog: a file for its standard error (the access log), else nowhere.
    init(arguments: [String] = [], local: Bool = true, environment: [String: String] = [:], errorLog: URL? = nil) throws {
        let binary = TestMachine.product("fm-serve")
        try #require(
            FileManager.default.isExecutableFile(atPath: binary.path),
            "no fm-serve beside the tests (\(binary.path)): swift build --build-tests builds it")
        let model = TestMachine.smallModel
        let serving = local ? ["--model", model, "--parallel", "2", "--max-queue", "4", "--context-size", "1024"] : []
        let listening = arguments.contains("--socket") ? [] : ["--port", "0"]
        // An idle timeout short enough for fm_serve_client.py's slow client
        // to be cut off within its 25 s, and longer than the openai client's
        // (httpx's) 5 s reuse of idle connections: a shorter one closes
        // connections the client is about to send on (a reset, reported as
        // `APIConnectionError`; 12 of 384 requests at 3 s).
        process = try ChildServer(
            binary,
            listening + ["--model-name", Self.modelName, "--api-key", Self.apiKey, "--max-body-bytes", "1048576", "--idle-timeout", "8"]
                + serving + arguments,
            environment: environment, standardError: errorLog.map { .file($0) } ?? .discarded
        )
        // The first line says where it listens.
        guard case .line(let text) = process.nextLineBlocking(within: .seconds(300)) else {
            process.stop()
            throw FMServeError(description: "fm-serve exited or was silent before saying where it listens")
        }
        if text.contains("listening on unix:") {
            // --socket: no port.
            self.port = 0
            return
        }
        guard let port = ChildServer.loopbackPort(in: text) else {
            process.stop()
            throw FMServeError(description: "fm-serve did not say where it listens: \(text)")
        }
        self.port = port
    }

    var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    /// SIGTERM, then the exit status (-1 if it is still running after a minute, when it is killed).
    func stop() -> Int32 {
        process.terminate(within: .seconds(60)) ?? -1
    }
}

struct FMServeError: Error, CustomStringConvertible { var description: String }

@Suite("fm serve", .serialized, .tags(.model), .needs(.smallModel))
struct FMServeTests {
    @Test func theOpenAIPythonClientGetsAnswersAndErrorsInItsOwnShapes() throws {
        let server = try FMServeProcess()
        try PythonChecks.run(
            "fm_serve_client.py", [server.baseURL, FMServeProcess.apiKey, FMServeProcess.modelName], expecting: 75, info: .issues
        )
        // SIGTERM ends it cleanly.
        #expect(server.stop() == 0)
    }

    /// The Responses API through the official client: text, streamed
    /// events, `responses.parse` with a pydantic model, JSON mode, a
    /// function-tool round trip, and a stateless server's 400s.
    @Test func theResponsesAPIAnswersTheOpenAIClient() throws {
        let server = try FMServeProcess()
        try Self.runChecks("fm_serve_responses.py", against: server, expecting: 42)
        #expect(server.stop() == 0)
    }

    /// What an operator and a browser see: `/metrics` after a known
    /// sequence (the counters equal what was sent and answered, read with
    /// prometheus_client's parser), CORS for one origin, for '*' and off,
    /// and the JSON access log naming the client's request id.
    @Test func metricsCountWhatWasSentAndBrowsersNeedAnAllowedOrigin() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("fm-serve-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let server = try FMServeProcess(arguments: ["--cors-origin", "http://localhost:8000", "--log-format", "json"], errorLog: log)
        try Self.runChecks("fm_serve_ops.py", against: server, mode: "metrics", expecting: 20)
        #expect(server.stop() == 0)
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        let entries = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(entries.count == lines.count, "every line is a JSON object")
        let named = entries.filter { $0["request_id"] as? String == "ops-check-1" }
        #expect(named.count == 1)
        #expect(named.first?["status"] as? Int == 200 && named.first?["path"] as? String == "/v1/chat/completions", "\(named)")
        #expect(entries.filter { $0["message"] as? String == "request" }.allSatisfy { ($0["request_id"] as? String)?.isEmpty == false })

        let anyOrigin = try FMServeProcess(arguments: ["--cors-origin", "*"])
        try Self.runChecks("fm_serve_ops.py", against: anyOrigin, mode: "cors-any", expecting: 2)
        _ = anyOrigin.stop()
        let off = try FMServeProcess()
        try Self.runChecks("fm_serve_ops.py", against: off, mode: "cors-off", expecting: 2)
        _ = off.stop()
    }

    /// `--trace`: each request's span and the engine's under it, one JSON
    /// line each on standard error, beside the access log.
    @Test func traceWritesEachRequestsSpansAsJSONLines() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("fm-serve-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let server = try FMServeProcess(arguments: ["--trace"], errorLog: log)
        let model = try OpenAICompatibleLanguageModel(
            baseURL: #require(URL(string: server.baseURL)), model: FMServeProcess.modelName, apiKey: FMServeProcess.apiKey)
        let answer = try await LanguageModelSession(model: model).respond(
            to: "Name a colour.", options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 6))
        #expect(!answer.content.isEmpty)
        #expect(server.stop() == 0)
        let spans = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["label"] as? String == "fm.serve.trace" && $0["message"] as? String == "span" }
        let request = try #require(spans.first { $0["name"] as? String == "/v1/chat/completions" }, "\(spans)")
        #expect(request["kind"] as? String == "server" && request["parent_id"] == nil)
        let phases = spans.filter { $0["parent_id"] as? String == request["span_id"] as? String }
        #expect(phases.compactMap { $0["name"] as? String } == ["queue wait", "prefill", "decode"], "\(spans)")
        #expect(phases.allSatisfy { $0["trace_id"] as? String == request["trace_id"] as? String && ($0["duration_ms"] as? Double ?? -1) >= 0 })
        let decode = phases.last?["attributes"] as? [String: Any]
        #expect((1...6).contains(decode?["foundation_models.generated_tokens"] as? Int ?? 0), "\(phases)")
    }

    /// `--socket PATH` (Apple's flag): the API over a Unix domain socket,
    /// through the openai client with an httpx transport on it; a socket
    /// left by a server that was killed is replaced, and the file is gone
    /// after a clean exit.
    @Test func itServesOnAUnixDomainSocket() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fm-\(UInt32.random(in: 0...UInt32.max)).sock").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let killed = try FMServeProcess(arguments: ["--socket", path])
        killed.process.stop()
        #expect(FileManager.default.fileExists(atPath: path), "a killed server leaves its socket")
        let server = try FMServeProcess(arguments: ["--socket", path])
        try Self.runChecks("fm_serve_ops.py", against: server, baseURL: "unix:\(path)", mode: "socket", expecting: 3)
        #expect(server.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: path), "removed on exit")
    }

    /// The contract: `/openapi.json` describes every route, and
    /// schemathesis (its coverage and fuzzing phases, deterministic, 15
    /// examples an operation) finds no 5xx, no status, content type or body
    /// the document does not allow. Answers are capped at 4 tokens.
    @Test func schemathesisFindsNothingTheDocumentDoesNotAllow() throws {
        let server = try FMServeProcess(arguments: ["--max-tokens", "4", "--max-queue", "16"])
        defer { _ = server.stop() }
        let python = try TestMachine.python(environment: "openai_env.sh")
        let schemathesis = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("schemathesis").path
        let root = server.baseURL.replacingOccurrences(of: "/v1", with: "")
        // In a folder of its own: schemathesis and hypothesis leave theirs where they run.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fm-schemathesis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try TestMachine.run(
            URL(fileURLWithPath: schemathesis),
            [
                "run", "\(root)/openapi.json", "--header", "Authorization: Bearer \(FMServeProcess.apiKey)",
                "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
                "--max-examples", "15", "--request-timeout", "60", "--generation-deterministic",
            ], in: folder)
        let output = run.standardOutput
        #expect(run.status == 0, "\(output.suffix(4000)) \(run.standardError.suffix(2000))")
        let summary = output.split(separator: "\n").first { $0.contains("generated") && $0.contains("passed") }
        #expect(summary != nil && !(summary ?? "").contains("failed"), "\(output.suffix(4000))")
        // Every operation but the document's own (loaded, not fuzzed).
        #expect(output.contains("Tested: 5"), "every operation exercised: \(output.suffix(2000))")
    }

    /// Runs one of the client scripts against `server` (``PythonChecks``):
    /// each `ok: ` line a check passed, any other line (but `info: `)
    /// recorded as an issue.
    static func runChecks(
        _ script: String, against server: FMServeProcess, baseURL: String? = nil, mode: String? = nil, expecting count: Int
    ) throws {
        try PythonChecks.run(
            script, [baseURL ?? server.baseURL, FMServeProcess.apiKey, FMServeProcess.modelName] + (mode.map { [$0] } ?? []),
            expecting: count, what: "\(script) \(mode ?? "")"
        )
    }

    /// The hybrid platform's private tier served from Linux: the project's
    /// own server models against fm serve do everything a session does
    /// (text, a stream, a `Generable` type, tools), and the private-cloud
    /// model learns the context size from `/v1/models`.
    @Test func theProjectsOwnServerModelsTalkToIt() async throws {
        let server = try FMServeProcess()
        defer { _ = server.stop() }
        let url = try #require(URL(string: server.baseURL))
        try await ServerModelExercise.run(
            try OpenAICompatibleLanguageModel(baseURL: url, model: FMServeProcess.modelName, apiKey: FMServeProcess.apiKey)
        )
        let privateCloud = try PrivateCloudComputeLanguageModel(url: url, model: FMServeProcess.modelName, apiKey: FMServeProcess.apiKey)
        #expect(try await privateCloud.contextSize == 1024)
        try await ServerModelExercise.run(privateCloud)
    }

    /// A tool the session runs on this side of the wire: fm serve returns
    /// the model's call, the session runs `Weather`, sends its output back,
    /// and fm serve answers from it.
    @Test func aSessionsToolRunsOnTheClientSide() async throws {
        let server = try FMServeProcess()
        defer { _ = server.stop() }
        let model = try OpenAICompatibleLanguageModel(
            baseURL: #require(URL(string: server.baseURL)), model: FMServeProcess.modelName, apiKey: FMServeProcess.apiKey
        )
        let session = LanguageModelSession(model: model, tools: [Weather()])
        let answer = try await session.respond(
            to: "What is the weather in Paris?",
            options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 48, toolCallingMode: .required)
        )
        let calls = session.transcript.flatMap { entry -> [Transcript.ToolCall] in if case .toolCalls(let calls) = entry { Array(calls) } else { [] }
        }
        #expect(calls.map(\.toolName) == ["weather"])
        let arguments = try #require(calls.first?.arguments)
        #expect(try Weather.Arguments(arguments).city.isEmpty == false)
        #expect(session.transcript.contains { if case .toolOutput = $0 { true } else { false } })
        #expect(!answer.content.isEmpty)
        // Instructions (the tool definitions), prompt, call, output, answer.
        #expect(session.transcript.count == 5)
    }

    /// SIGTERM while an answer is being written: the server stops within
    /// its shutdown bound (the answer cancelled, the client told so by the
    /// stream's end), and exits cleanly.
    @Test func sigtermMidAnswerEndsWithinTheBound() async throws {
        let server = try FMServeProcess(arguments: ["--shutdown-timeout", "2"])
        let model = try OpenAICompatibleLanguageModel(
            baseURL: #require(URL(string: server.baseURL)), model: FMServeProcess.modelName, apiKey: FMServeProcess.apiKey
        )
        let session = LanguageModelSession(model: model)
        let stream = session.streamResponse(
            to: "Write a very long story about a lighthouse keeper.",
            options: GenerationOptions(samplingMode: .random(top: 40, seed: 7), maximumResponseTokens: 900)
        )
        var iterator = stream.makeAsyncIterator()
        _ = try await iterator.next()
        let signalled = ContinuousClock.now
        server.process.send(SIGTERM)
        // The rest of the stream ends: complete, or failed because the server went away.
        do {
            while try await iterator.next() != nil {}
        } catch {}
        let status = server.process.waitForExit(within: .seconds(60))
        let elapsed = ContinuousClock.now - signalled
        #expect(status == 0)
        #expect(elapsed < .seconds(2 + 5 + 3), "stopped after \(elapsed)")
        // The interrupted request left the session's transcript as it was.
        #expect(session.transcript.isEmpty || session.transcript.count == 2)
    }

    /// `--server URL --fallback-local`: the tier router behind one endpoint.
    /// The upstream (a stub private server) answers while it is up; when it
    /// is not there, the in-process small model answers instead.
    @Test func itFallsBackToTheLocalModelWhenItsServerCannotServe() async throws {
        let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 8)
        let cloud = try StubServer([OpenAIWire.answer(["from ", "the cloud"])])
        defer { cloud.stop() }
        let front = try FMServeProcess(arguments: ["--server", cloud.url.absoluteString, "--server-model", "stub", "--fallback-local"])
        defer { _ = front.stop() }
        let client = try OpenAICompatibleLanguageModel(
            baseURL: #require(URL(string: front.baseURL)), model: FMServeProcess.modelName, apiKey: FMServeProcess.apiKey
        )
        #expect(try await LanguageModelSession(model: client).respond(to: "Name a color.", options: options).content == "from the cloud")
        #expect(cloud.requests.count == 1)

        // Port 9 (discard): nothing listens there on a test machine.
        let alone = try FMServeProcess(arguments: ["--server", "http://127.0.0.1:9/v1", "--server-model", "stub", "--fallback-local"])
        defer { _ = alone.stop() }
        let fallback = try OpenAICompatibleLanguageModel(
            baseURL: #require(URL(string: alone.baseURL)), model: FMServeProcess.modelName, apiKey: FMServeProcess.apiKey
        )
        let answer = try await LanguageModelSession(model: fallback).respond(to: "Name a color.", options: options).content
        #expect(!answer.isEmpty && answer != "from the cloud")
    }

    /// `--server`: one fm serve in front of another's model (here, another
    /// fm serve), behind its own key: answers, typed answers and the
    /// model's name come through, and a wrong upstream key is the front's
    /// error, not a hang.
    @Test func itServesAnotherServersModel() async throws {
        let back = try FMServeProcess()
        defer { _ = back.stop() }
        let front = try FMServeProcess(
            arguments: ["--server", back.baseURL, "--server-model", FMServeProcess.modelName, "--server-api-key-env", "BACK_KEY"],
            local: false, environment: ["BACK_KEY": FMServeProcess.apiKey]
        )
        defer { _ = front.stop() }
        let model = try OpenAICompatibleLanguageModel(
            baseURL: #require(URL(string: front.baseURL)), model: FMServeProcess.modelName, apiKey: FMServeProcess.apiKey
        )
        let session = LanguageModelSession(model: model)
        let answer = try await session.respond(to: "Name a color.", options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 8))
        #expect(!answer.content.isEmpty)
        let typed = try await LanguageModelSession(model: model).respond(
            to: "France and its capital.", generating: Capital.self, options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 64)
        )
        #expect(!typed.content.country.isEmpty && !typed.content.city.isEmpty)

        let wrongKey = try FMServeProcess(
            arguments: ["--server", back.baseURL, "--server-model", FMServeProcess.modelName, "--server-api-key-env", "BACK_KEY"],
            local: false, environment: ["BACK_KEY": "wrong"]
        )
        defer { _ = wrongKey.stop() }
        let refused = try OpenAICompatibleLanguageModel(
            baseURL: #require(URL(string: wrongKey.baseURL)), model: FMServeProcess.modelName, apiKey: FMServeProcess.apiKey
        )
        await Self.expectBadGateway(from: refused)
    }

    /// `--server` with nothing behind it: the front answers 502 with an
    /// OpenAI-style body naming the upstream, at once, and keeps serving.
    @Test func anUnreachableServerIsABadGateway() async throws {
        // Port 9 (discard): nothing listens there on a test machine.
        let front = try FMServeProcess(arguments: ["--server", "http://127.0.0.1:9/v1", "--server-model", "stub"], local: false)
        defer { _ = front.stop() }
        let client = try OpenAICompatibleLanguageModel(
            baseURL: #require(URL(string: front.baseURL)), model: FMServeProcess.modelName, apiKey: FMServeProcess.apiKey,
            options: ServerOptions(maximumRetries: 0)
        )
        await Self.expectBadGateway(from: client)
        await Self.expectBadGateway(from: client)
    }

    /// An upstream failure as a client sees it: the front's 502, whose
    /// message says it was the server behind it.
    static func expectBadGateway(from model: OpenAICompatibleLanguageModel) async {
        do {
            _ = try await LanguageModelSession(model: model).respond(to: "Hi", options: GenerationOptions(maximumResponseTokens: 4))
            Issue.record("the request succeeded")
        } catch SystemLanguageModel.Error.assetsUnavailable(let info) {
            #expect(info.debugDescription.contains("HTTP 502"), "\(info.debugDescription)")
            #expect(info.debugDescription.contains("upstream server"), "\(info.debugDescription)")
        } catch {
            Issue.record("expected the front's 502, got \(error)")
        }
    }
}
