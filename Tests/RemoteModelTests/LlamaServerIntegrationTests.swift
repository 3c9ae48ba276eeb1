// The server models against a real llama-server on 127.0.0.1 (the setup's
// binary, serving the small model), started and stopped by each test: text,
// streaming, a Generable type, tools and usage, directly and through
// PrivateCloudComputeLanguageModel; then the server killed mid-stream, and
// the router answering from the on-device model. Its need of llama-server
// makes it model work (TestSupport's Needs): no other test decodes while
// it runs.

import Foundation
import FoundationModels
import FoundationModelsEval
import FoundationModelsTiers
import TestSupport
import Testing

enum LocalServer {
    /// A started, ready server; the caller stops it.
    static func start(contextSize: Int = 2048, model: String = TestMachine.smallModel) async throws -> LlamaServer {
        let binary = try #require(TestMachine.llamaServer, "no llama-server")
        let server = try LlamaServer(binary: binary, model: model, threads: 2, contextSize: contextSize)
        do {
            try await server.waitUntilReady()
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    static func url(_ server: LlamaServer) -> URL { URL(string: "http://127.0.0.1:\(server.port)/v1")! }
}

@Suite("Server models on a real llama-server", .serialized, .tags(.model, .llamaServer), .needs(.llamaServer, .smallModel))
struct LlamaServerIntegrationTests {
    @Test("OpenAICompatibleLanguageModel: text, streaming, a Generable type, tools, usage")
    func openAICompatible() async throws {
        let server = try await LocalServer.start()
        defer { server.stop() }
        try await ServerModelExercise.run(try OpenAICompatibleLanguageModel(baseURL: LocalServer.url(server), model: "small"))
    }

    @Test("a tool call through llama-server on the fast model: the tool runs, its output reaches the answer", .needs(.fastModel))
    func toolCall() async throws {
        // Qwen2.5-Coder-0.5B writes its call as a bare JSON object, without
        // its template's <tool_call> tags, so llama-server b11434 reports
        // text: the client recovers the call (TextToolCalls).
        let server = try await LocalServer.start(model: TestMachine.fastModel)
        defer { server.stop() }
        let model = try OpenAICompatibleLanguageModel(baseURL: LocalServer.url(server), model: "default")
        let session = LanguageModelSession(model: model, tools: [Weather()])
        let answer = try await session.respond(
            to: "What is the weather in Paris?", options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 64))
        let calls = session.transcript.flatMap { entry -> [Transcript.ToolCall] in if case .toolCalls(let calls) = entry { Array(calls) } else { [] }
        }
        #expect(calls.map(\.toolName) == ["weather"])
        #expect(calls.first?.arguments.jsonString.contains("Paris") == true)
        #expect(session.transcript.contains { if case .toolOutput = $0 { true } else { false } })
        #expect(answer.content.contains("21") || answer.content.localizedCaseInsensitiveContains("sunny"), "\(answer.content)")
    }

    @Test("PrivateCloudComputeLanguageModel configured to the server: the same, and its context size")
    func privateCloudCompute() async throws {
        let server = try await LocalServer.start(contextSize: 2048)
        defer { server.stop() }
        let model = try PrivateCloudComputeLanguageModel(url: LocalServer.url(server), model: "small")
        #expect(model.availability == .available)
        #expect(try await model.contextSize == 2048)
        try await ServerModelExercise.run(model)
        #expect(!model.quotaUsage.isLimitReached)
    }

    @Test("the server killed mid-stream: the mapped error, availability follows, and the router answers on device")
    func killedMidStream() async throws {
        let server = try await LocalServer.start()
        let pcc = try PrivateCloudComputeLanguageModel(url: LocalServer.url(server), model: "small")
        let plain = try OpenAICompatibleLanguageModel(baseURL: LocalServer.url(server), model: "small", options: ServerOptions(maximumRetries: 0))
        let long = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 400)
        var killed = false
        await #expect {
            for try await _ in LanguageModelSession(model: pcc).streamResponse(to: "Write a long story about a lighthouse keeper.", options: long)
            where !killed {
                killed = true
                server.stop()
            }
        } throws: { error in
            if case PrivateCloudComputeLanguageModel.Error.networkFailure = error { return true }
            Issue.record("unexpected \(error)")
            return false
        }
        #expect(killed)
        #expect(pcc.availability == .unavailable(.systemNotReady))
        await #expect {
            try await LanguageModelSession(model: plain).respond(to: "hello")
        } throws: { error in
            if case SystemLanguageModel.Error.assetsUnavailable = error { return true }
            return false
        }

        // The on-device model (FOUNDATION_MODELS_MODEL) serves instead.
        let router = ModelRouter(onDevice: SystemLanguageModel.default, privateCloud: pcc)
        let routed = try await router.respond(
            to: "Say hello.", policy: .cloudFree, options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 16))
        #expect(routed.tier == .onDevice)
        #expect(!routed.content.isEmpty)
        guard case .cannotServe(let error)? = routed.skipped.first?.reason else {
            Issue.record("the private cloud should have been skipped: \(routed.skipped)"); return
        }
        #expect(error is PrivateCloudComputeLanguageModel.Error)
        #expect(routed.skipped.map(\.tier) == [.privateCloud])
        // `.local` never tries the server at all.
        let local = try await router.respond(
            to: "Say hi.", policy: .local, options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 8))
        #expect(local.tier == .onDevice && local.skipped.isEmpty)
        #expect(await router.declaredPolicies().isEmpty)
    }
}
