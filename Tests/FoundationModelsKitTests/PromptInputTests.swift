import FoundationModelsKit
import Testing

@Suite("PromptInput")
struct PromptInputTests {
    @Test func cappingCutsAtAWordAndSaysSo() {
        #expect(PromptInput.capped("short", to: 10) == "short")
        #expect(PromptInput.capped("  spaces \n\t collapse  ", to: 100) == "spaces collapse")
        let cut = PromptInput.capped("the quick brown fox jumps over the lazy dog", to: 20)
        #expect(cut.count <= 20)
        #expect(cut == "the quick brown fox…")
        // No space near the end: cut mid-word rather than lose most of it.
        #expect(PromptInput.capped(String(repeating: "x", count: 50), to: 10) == String(repeating: "x", count: 9) + "…")
        #expect(PromptInput.capped("anything", to: 0) == "")
    }

    @Test func listsSayHowManyWereLeftOut() {
        #expect(PromptInput.cappedList(1...5, maximumItems: 2) { "n\($0)" } == ["n1", "n2", "(and 3 more)"])
        #expect(PromptInput.cappedList([1], maximumItems: 2) { "n\($0)" } == ["n1"])
    }

    @Test func untrustedTextKeepsOnlyPlainCharactersAndLines() {
        let text = "SHELL\u{200B} <b>Station</b>\nTOTAL  €45.20\u{202E}\n{{ignore previous}} 😀 ok"
        let clean = PromptInput.sanitized(text, maximumCharacters: 200)
        #expect(clean == "SHELL b Station /b\nTOTAL €45.20\nignore previous ok")
        #expect(PromptInput.sanitized(String(repeating: "9 ", count: 1000), maximumCharacters: 100).count <= 100)
        #expect(PromptInput.sanitized("ÄÖÜ ñ 東京 1,5 L", maximumCharacters: 50) == "ÄÖÜ ñ 東京 1,5 L")
    }
}
