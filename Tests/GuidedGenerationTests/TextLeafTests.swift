import GuidedGeneration
import Testing

@Suite("Text that does not start with a marker")
struct TextLeafTests {
    static let text = ByteDFA.text(notStartingWith: Array("<tool_call>".utf8))

    func state(after text: String) -> Int32 {
        Self.text.walk(Array(text.utf8), from: Self.text.start)
    }

    @Test func proseOfAnyKindIsAccepted() {
        for prose in ["", "Hello", "<b>bold</b>", "<tool", "<tool_cal", "naïve 🎵\n\ttabs", "{\"json\": true}"] {
            #expect(Self.text.accepts(Array(prose.utf8)), "\(prose.debugDescription)")
        }
    }

    @Test func theMarkerIsNotProse() {
        #expect(state(after: "<tool_call>") == ByteDFA.dead)
        #expect(state(after: "<tool_call>[") == ByteDFA.dead)
        #expect(state(after: "x<tool_call>") != ByteDFA.dead, "only a leading marker is refused")
    }

    @Test func onlyValidUTF8() {
        #expect(!Self.text.accepts([0xC3]), "a character cut short is not finished text")
        #expect(Self.text.walk([0xC0, 0x80], from: Self.text.start) == ByteDFA.dead, "overlong")
        #expect(Self.text.walk([0xFF], from: Self.text.start) == ByteDFA.dead)
        #expect(Self.text.accepts([0xC3, 0xA9]))
    }

    @Test func neverFinal() {
        for prose in ["", "a", "<tool_cal", "é"] {
            #expect(!Self.text.isFinal(state(after: prose)))
        }
    }
}
