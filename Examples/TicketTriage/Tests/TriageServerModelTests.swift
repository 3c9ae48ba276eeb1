import Foundation
import FoundationModels
import FoundationModelsEval
import FoundationModelsTiers
import Testing
@testable import TicketTriage

/// Triage with the private cloud up: a real llama-server on 127.0.0.1
/// (the setup's $LLAMA_SERVER on the small model), started and stopped by
/// the test. Named *ServerModelTests so `make test` runs it in the server
/// run, alone: llama-server and the in-process model must not decode at
/// the same time on two cores.
@Suite("Ticket triage served by a private cloud that is up", .serialized)
struct TriageServerModelTests {
    @Test func aRunningServerServesTheTriage() async throws {
        let environment = ProcessInfo.processInfo.environment
        let binary = try #require(environment["LLAMA_SERVER"], "LLAMA_SERVER is not set: run `make setup`")
        let model = try #require(environment["FOUNDATION_MODELS_SMALL_MODEL"] ?? environment["FOUNDATION_MODELS_MODEL"], "no model: run `make setup`")
        let server = try LlamaServer(binary: binary, model: model, threads: 2, contextSize: 2048)
        defer { server.stop() }
        try await server.waitUntilReady()

        let privateCloud = try PrivateCloudComputeLanguageModel(url: URL(string: "http://127.0.0.1:\(server.port)/v1")!, model: "small")
        let response = try await TicketTriager(privateCloud: privateCloud)
            .triage("I was charged twice for my annual subscription this morning. Please refund one of them.")
        #expect(response.tier == .privateCloud)
        #expect(response.skipped.isEmpty, "\(response.skipped)")
        #expect(Queue.allCases.contains(response.content.queue))
        #expect(response.usage.output.totalTokenCount > 0, "the server reported no tokens")
    }
}
