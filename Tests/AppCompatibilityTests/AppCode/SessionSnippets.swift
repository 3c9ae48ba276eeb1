import FoundationModels
import TestSupport
import Testing

/// Apple's documentation builds prompts and instructions from a string directly.
@Suite("Prompts from strings")
struct PromptsFromStrings {
    @Test(.tags(.noModel), .needs(.noModel))
    func promptAndInstructionsFromAString() async throws {
        let prompt = Prompt("What are three good names for a cat?")
        let instructions = Instructions("You name pets.")
        let session = LanguageModelSession(instructions: instructions)
        await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await session.respond(to: prompt)
        }
        guard case .instructions(let entry) = session.transcript.first, case .text(let text) = entry.segments.first else {
            Issue.record("expected the instructions' text as the first entry")
            return
        }
        #expect(text.content == "You name pets.")
    }
}
