import Foundation
import FoundationModels
import FoundationModelsEval
import FoundationModelsTiers
import Synchronization
import TestSupport
import Testing

@testable import TicketTriage

/// The features on the default model (`make test` runs suites named
/// *QualityTests with it), with the private cloud down: a server URL where
/// nothing listens (port 9), so every answer walks down to the device.
@Suite("Ticket triage with the private cloud down, on the default model", .serialized, .tags(.defaultModel), .needs(.defaultModel))
struct TicketTriageQualityTests {
    static func deadServer() throws -> PrivateCloudComputeLanguageModel {
        try PrivateCloudComputeLanguageModel(url: URL(string: "http://127.0.0.1:9/v1")!, model: "down")
    }

    static let doubleCharge = "I was charged twice for my annual subscription this morning. Please refund one of them."

    static func requireModel() throws {
        try #require(SystemLanguageModel.default.isAvailable, "no model: run `make setup` (FOUNDATION_MODELS_MODEL)")
    }

    @Test func aDoubleChargeIsBillingAnsweredOnDevice() async throws {
        try Self.requireModel()
        let response = try await TicketTriager(privateCloud: Self.deadServer())
            .triage(Self.doubleCharge)
        #expect(response.tier == .onDevice)
        #expect(response.skipped.map(\.tier) == [.privateCloud])
        guard case .cannotServe(let error) = response.skipped.first?.reason else {
            Issue.record("the private cloud was not tried: \(response.skipped)")
            return
        }
        #expect(error is PrivateCloudComputeLanguageModel.Error, "\(error)")
        #expect(response.content.queue == .billing, "\(response.content)")
        #expect(!response.content.summary.isEmpty)
        // The summary whole (the eval's `CutShort`: mid-word or mid-sentence)
        // and within its guide's word limit as the engine keeps it (`WordLimit`).
        let input = TicketTriager.instructions + "\n" + TicketTriager.prompt(ticket: Self.doubleCharge)
        let cuts = CutShort.cuts(in: response.content.generatedContent, schema: Triage.generationSchema, input: input)
        #expect(cuts.isEmpty, "cut short: \(cuts.map { "\($0.path) \"\($0.text)\"" })")
        #expect(WordLimit.check(response.content.summary, limit: TicketTask.summaryWordLimit).kept, "\(response.content.summary)")
    }

    @Test func theCoachAnswersFromTheToolOnDevice() async throws {
        try Self.requireModel()
        let calls = Mutex<[String]>([])
        let chat = CoachChat(privateCloud: try Self.deadServer(), onToolCall: { kind in calls.withLock { $0.append(kind) } })
        let response = try await chat.ask("How long was my long run this week?")
        #expect(response.tier == .onDevice)
        #expect(!calls.withLock { $0 }.isEmpty, "the model did not look the log up")
        #expect(response.content.answer.contains("16"), "\(response.content)")
        // The answer whole (mid-word or mid-sentence); what the model read
        // includes the whole log the tool lists.
        let input = [
            CoachChat.instructions, "How long was my long run this week?", TrainingLogTool(log: LoggedSession.sampleWeek).lookUp(kind: "all"),
        ].joined(separator: "\n")
        let cuts = CutShort.cuts(in: response.content.generatedContent, schema: CoachAnswer.generationSchema, input: input)
        #expect(cuts.isEmpty, "cut short: \(cuts.map { "\($0.path) \"\($0.text)\"" })")
    }
}
