import Foundation
import FoundationModels
import FoundationModelsEval
import FoundationModelsTiers
import TestSupport
import Testing

@testable import TicketTriage

/// Triage with the private cloud up: a real llama-server on 127.0.0.1
/// (the setup's llama-server on the small model), started and stopped by
/// the test.
@Suite("Ticket triage served by a private cloud that is up", .serialized, .tags(.model, .llamaServer), .needs(.llamaServer, .smallModel))
struct TriageServerModelTests {
    @Test func aRunningServerServesTheTriage() async throws {
        let binary = try #require(TestMachine.llamaServer)
        let server = try LlamaServer(binary: binary, model: TestMachine.smallModel, threads: 2, contextSize: 2048)
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
