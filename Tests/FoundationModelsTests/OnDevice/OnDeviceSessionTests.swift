import Foundation
import Testing
@testable import FoundationModels

/// Sharing, prewarming, token counting and metadata on the real model.
@Suite("On-device sessions", .serialized)
struct OnDeviceSessionTests {
    @Test func creatingASessionIsCheap() throws {
        try OnDevice.requireModel()
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for _ in 0..<1000 { _ = LanguageModelSession(instructions: "Be brief.") }
        }
        // A thousand sessions cost far less than one model load.
        #expect(elapsed < .seconds(1))
    }

    @Test func prewarmEvaluatesTheInstructions() async throws {
        try OnDevice.requireModel()
        let instructions = "You are a librarian. " + String(repeating: "Recommend books carefully. ", count: 30)
        let session = LanguageModelSession(instructions: instructions)
        session.prewarm(promptPrefix: Prompt("Recommend"))
        // prewarm returns at once; give the background evaluation time to finish.
        try await Task.sleep(for: .seconds(2))
        let response = try await session.respond(to: "Recommend a book about the sea.", options: OnDevice.greedy)
        let instructionTokens = try await SystemLanguageModel.default.tokenCount(for: Instructions(instructions))
        #expect(response.usage.input.cachedTokenCount >= instructionTokens)
    }

    @Test func tokenCountsAreExact() async throws {
        try OnDevice.requireModel()
        let model = SystemLanguageModel.default
        let short = try await model.tokenCount(for: Prompt("Hello"))
        let long = try await model.tokenCount(for: Prompt("Hello there, how are you doing today?"))
        #expect(short > 0)
        #expect(long > short)
        let session = LanguageModelSession(instructions: "Answer briefly.")
        let response = try await session.respond(to: "Hello there, how are you doing today?", options: OnDevice.greedy)
        // The whole input is the entries' tokens plus the template's opening of the assistant turn.
        let entries = try await model.tokenCount(for: Array(session.transcript.prefix(2)))
        let input = response.usage.input.totalTokenCount
        #expect(input > entries)
        #expect(input - entries <= 4)
        #expect(try await model.tokenCount(for: [any Tool]()) >= 0)
    }

    @Test func metadataOfTheDefaultModel() throws {
        try OnDevice.requireModel()
        let model = SystemLanguageModel.default
        #expect(model.contextSize == 4096)
        #expect(model.supportsLocale(Locale(identifier: "en_US")))
        #expect(model.isAvailable)
    }
}
