import Foundation
import TestSupport
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
            // A session on a 27 initializer surfaces the 27 type.
            (error as? LanguageModelSession.Error) == .concurrentRequests
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

    @Test func executorErrorsReachA27SessionAsThrown() async throws {
        let overflow = LanguageModelError.contextSizeExceeded(.init(contextSize: 4096, tokenCount: 5000, debugDescription: "too long"))
        let session = LanguageModelSession(model: ScriptedModel([[.fail(overflow)]]))
        await #expect {
            try await session.respond(to: "x")
        } throws: { error in
            guard case LanguageModelError.contextSizeExceeded(let info) = error else { return false }
            return info.tokenCount == 5000 && info.contextSize == 4096
        }
        #expect(session.transcript.isEmpty)
    }

    /// The 26 counterpart of every 27 error that has one, as a session made
    /// with a 26 initializer surfaces it (see ErrorSurfacing.swift).
    @Test func every27ErrorWithA26CounterpartTranslates() throws {
        typealias GenerationError = LanguageModelSession.GenerationError
        let prompt = Transcript.Entry.prompt(Transcript.Prompt(segments: [.text(.init(content: "why?"))]))
        func translated(_ error: any Error) -> GenerationError? {
            LanguageModelSession.generationError(for: error, entries: [prompt])
        }
        guard
            case .exceededContextWindowSize(let context)? = translated(
                LanguageModelError.contextSizeExceeded(.init(contextSize: 10, tokenCount: 12, debugDescription: "long")))
        else {
            Issue.record("contextSizeExceeded"); return
        }
        #expect(context.debugDescription.contains("12 tokens needed, context size 10"))
        guard case .rateLimited? = translated(LanguageModelError.rateLimited(.init(resetDate: nil, debugDescription: "busy"))) else {
            Issue.record("rateLimited"); return
        }
        guard case .guardrailViolation? = translated(LanguageModelError.guardrailViolation(.init(debugDescription: "unsafe"))) else {
            Issue.record("guardrailViolation"); return
        }
        guard case .refusal(let refusal, let refusalContext)? = translated(LanguageModelError.refusal(.init(debugDescription: "no"))) else {
            Issue.record("refusal"); return
        }
        #expect(refusal.transcriptEntries == [prompt])
        #expect(refusalContext.debugDescription == "no")
        guard case .unsupportedGuide? = translated(LanguageModelError.unsupportedGenerationGuide(.init(schemaName: "S", debugDescription: "regex")))
        else { Issue.record("unsupportedGenerationGuide"); return }
        guard
            case .unsupportedLanguageOrLocale? = translated(
                LanguageModelError.unsupportedLanguageOrLocale(.init(languageCode: "xx", debugDescription: "xx")))
        else { Issue.record("unsupportedLanguageOrLocale"); return }
        guard case .assetsUnavailable? = translated(SystemLanguageModel.Error.assetsUnavailable(.init(debugDescription: "gone"))) else {
            Issue.record("assetsUnavailable"); return
        }
        guard case .concurrentRequests? = translated(LanguageModelSession.Error.concurrentRequests) else {
            Issue.record("concurrentRequests"); return
        }
        guard case .decodingFailure(let decoding)? = translated(GeneratedContent.ParsingError(rawContent: "{", debugDescription: "cut off")) else {
            Issue.record("decodingFailure"); return
        }
        #expect(decoding.debugDescription == "cut off")
        // No 26 counterpart: passed through unchanged.
        #expect(translated(LanguageModelError.timeout(.init(debugDescription: "slow"))) == nil)
        #expect(translated(LanguageModelError.unsupportedCapability(.init(capability: .vision, debugDescription: "text only"))) == nil)
        #expect(translated(LanguageModelError.unsupportedTranscriptContent(.init(unsupportedContent: [prompt], debugDescription: "image"))) == nil)
        #expect(translated(LanguageModelSession.Error.transcriptMutationWhileResponding) == nil)
        #expect(translated(CancellationError()) == nil)
        #expect(translated(Boom()) == nil)
    }

    @Test func aModelWithoutGuidedGenerationIsNeverAskedForStructuredOutput() async throws {
        let model = ScriptedModel([[.text("{}")]], capabilities: LanguageModelCapabilities(capabilities: []))
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
            guard let error = error as? GeneratedContent.ParsingError else { return false }
            return error.rawContent == "{\"front\":\"a\",\"back\":"
        }
        #expect(session.transcript.isEmpty)
    }

    @Test func aSystemModelWithoutWeightsReportsWhyItIsUnavailable() async throws {
        var configuration = SystemLanguageModel.Configuration.default
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
