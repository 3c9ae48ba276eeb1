import Foundation
import TestSupport
import Testing

@testable import FoundationModels

/// The session's transcript bookkeeping, against a scripted model.
@Suite("Session transcript")
struct SessionTranscriptTests {
    @Test func instructionsComeFirstThenPromptAndResponse() async throws {
        let model = ScriptedModel([[.text("Hel"), .text("lo")]])
        let session = LanguageModelSession(model: model, instructions: "Be brief.")
        #expect(session.transcript.count == 1)
        guard case .instructions(let instructions) = session.transcript.first else {
            Issue.record("first entry is not instructions: \(String(describing: session.transcript.first))")
            return
        }
        #expect(instructions.segments.map(\.text) == ["Be brief."])

        let response = try await session.respond(to: "Say hello")
        #expect(response.content == "Hello")
        #expect(response.rawContent.isComplete)
        let entries = Array(session.transcript)
        #expect(entries.count == 3)
        guard case .prompt(let prompt) = entries[1], case .response(let answer) = entries[2] else {
            Issue.record("unexpected entries \(entries)")
            return
        }
        #expect(prompt.segments.map(\.text) == ["Say hello"])
        #expect(answer.segments.map(\.text) == ["Hello"])
        // The slice is exactly what this call added, at its place in the transcript.
        #expect(Array(response.transcriptEntries) == Array(entries[1...]))
        #expect(response.transcriptEntries.startIndex == 1)
    }

    @Test func noInstructionsMeansNoInstructionsEntry() async throws {
        let session = LanguageModelSession(model: ScriptedModel([[.text("ok")]]))
        #expect(session.transcript.isEmpty)
        try await session.respond(to: "hi")
        #expect(session.transcript.count == 2)
    }

    @Test func theExecutorSeesTheWholeConversation() async throws {
        let model = ScriptedModel([[.text("first")], [.text("second")]])
        let session = LanguageModelSession(model: model, instructions: "I")
        try await session.respond(to: "one")
        try await session.respond(to: "two")
        let requests = model.script.requests
        #expect(requests.count == 2)
        #expect(requests[0].transcript.count == 2)
        #expect(requests[1].transcript.count == 4)
        guard case .response(let earlier) = requests[1].transcript[2] else {
            Issue.record("expected the first answer in the second request")
            return
        }
        #expect(earlier.segments.map(\.text) == ["first"])
    }

    @Test func resumesFromATranscript() async throws {
        let first = LanguageModelSession(model: ScriptedModel([[.text("Paris")]]), instructions: "Geography")
        try await first.respond(to: "Capital of France?")

        let model = ScriptedModel([[.text("Berlin")]])
        let resumed = LanguageModelSession(model: model, transcript: first.transcript)
        #expect(resumed.transcript == first.transcript)
        try await resumed.respond(to: "And Germany?")
        #expect(model.script.requests.first?.transcript.count == 4)
        #expect(resumed.transcript.count == 5)
    }

    @Test func usageIsReportedPerResponseAndSummedOnTheSession() async throws {
        let model = ScriptedModel([[.text("a"), .usage(input: 10, output: 1)], [.text("b"), .usage(input: 14, output: 2)]])
        let session = LanguageModelSession(model: model)
        let first = try await session.respond(to: "x")
        let second = try await session.respond(to: "y")
        #expect(first.usage.input.totalTokenCount == 10)
        #expect(second.usage.output.totalTokenCount == 2)
        #expect(session.usage.input.totalTokenCount == 24)
        #expect(session.usage.output.totalTokenCount == 3)
    }
}
