import Foundation
import Testing
@testable import FoundationModels

/// Failed, cancelled and concurrent requests leave the session as it was.
@Suite("Session failures")
struct SessionFailureTests {
    struct Boom: Error {}

    @Test func aSecondRequestWhileRespondingThrowsConcurrentRequests() async throws {
        let model = ScriptedModel([[.delay(.milliseconds(300)), .text("slow")], [.text("never")]])
        let session = LanguageModelSession(model: model)
        async let first = session.respond(to: "one")
        // Wait until the first request is in flight.
        while !session.isResponding { await Task.yield() }
        await #expect {
            try await session.respond(to: "two")
        } throws: { error in
            guard case LanguageModelSession.GenerationError.concurrentRequests = error else { return false }
            return true
        }
        #expect(try await first.content == "slow")
        #expect(session.transcript.count == 2)
        #expect(!session.isResponding)
    }

    @Test func aFailedRequestLeavesTheTranscriptAsItWas() async throws {
        let model = ScriptedModel([[.text("ok")], [.text("partial "), .fail(Boom())]])
        let session = LanguageModelSession(model: model, instructions: "I")
        try await session.respond(to: "first")
        let before = session.transcript
        await #expect(throws: Boom.self) {
            try await session.respond(to: "second")
        }
        #expect(session.transcript == before)
        #expect(!session.isResponding)
    }

    @Test func aCancelledRequestLeavesTheTranscriptAsItWas() async throws {
        let model = ScriptedModel([[.text("never "), .delay(.seconds(60)), .text("finished")]])
        let session = LanguageModelSession(model: model)
        let before = session.transcript
        let task = Task { try await session.respond(to: "long") }
        while !session.isResponding { await Task.yield() }
        let started = ContinuousClock.now
        task.cancel()
        let result = await task.result
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(session.transcript == before)
        #expect(!session.isResponding)
    }

    @Test func executorErrorsSurfaceAsGenerationErrors() async throws {
        let overflow = LanguageModelError.contextSizeExceeded(.init(contextSize: 4096, tokenCount: 5000, debugDescription: "too long"))
        let session = LanguageModelSession(model: ScriptedModel([[.fail(overflow)]]))
        await #expect {
            try await session.respond(to: "x")
        } throws: { error in
            guard case LanguageModelSession.GenerationError.exceededContextWindowSize(let context) = error else { return false }
            return context.debugDescription.contains("5000") && context.debugDescription.contains("4096")
        }
        #expect(session.transcript.isEmpty)
    }

    @Test func aModelWithoutGuidedGenerationIsNeverAskedForStructuredOutput() async throws {
        let model = ScriptedModel([[.text("{}")]], capabilities: LanguageModelCapabilities([]))
        let session = LanguageModelSession(model: model)
        await #expect {
            try await session.respond(to: "x", generating: Flashcard.self)
        } throws: { error in
            guard case LanguageModelError.unsupportedCapability(let info) = error else { return false }
            return info.capability == .guidedGeneration
        }
        #expect(model.script.requests.isEmpty)
        #expect(session.transcript.isEmpty)
    }

    @Test func invalidStructuredOutputIsADecodingFailure() async throws {
        let session = LanguageModelSession(model: ScriptedModel([[.text("{\"front\":\"a\",\"back\":")]]))
        await #expect {
            try await session.respond(to: "x", generating: Flashcard.self)
        } throws: { error in
            guard case LanguageModelSession.GenerationError.decodingFailure = error else { return false }
            return true
        }
        #expect(session.transcript.isEmpty)
    }

    @Test func aSystemModelWithoutWeightsReportsWhyItIsUnavailable() async throws {
        var configuration = OnDeviceConfiguration.current
        configuration.modelPath = "/nonexistent/weights.gguf"
        let model = SystemLanguageModel(configuration: configuration)
        #expect(model.availability == .unavailable(.modelNotReady))
        #expect(!model.isAvailable)
        let session = LanguageModelSession(model: model)
        await #expect {
            try await session.respond(to: "hello")
        } throws: { error in
            guard case LanguageModelSession.GenerationError.assetsUnavailable = error else { return false }
            return (error as? LocalizedError)?.errorDescription?.isEmpty == false
        }
        #expect(session.transcript.isEmpty)
    }
}
