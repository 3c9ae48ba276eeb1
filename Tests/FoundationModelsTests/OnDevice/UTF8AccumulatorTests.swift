import Testing

@testable import FoundationModels

@Suite("UTF-8 accumulation")
struct UTF8AccumulatorTests {
    @Test(arguments: ["café", "東京", "😀🎉", "aé東😀z"])
    func everySplitYieldsWholeCharacters(text: String) {
        let bytes = Array(text.utf8)
        for split in 0...bytes.count {
            var accumulator = UTF8Accumulator()
            var output = ""
            for piece in [Array(bytes[..<split]), Array(bytes[split...])] {
                if let delta = accumulator.append(piece) {
                    #expect(!delta.contains("\u{FFFD}"))
                    output += delta
                }
            }
            output += accumulator.flush() ?? ""
            #expect(output == text)
        }
    }

    @Test func byteAtATime() {
        var accumulator = UTF8Accumulator()
        var deltas: [String] = []
        for byte in Array("é😀".utf8) {
            if let delta = accumulator.append([byte]) { deltas.append(delta) }
        }
        #expect(deltas == ["é", "😀"])
    }

    @Test func invalidBytesAreReleasedNotHeldForever() {
        var accumulator = UTF8Accumulator()
        #expect(accumulator.append([0xFF, 0x41]) == "\u{FFFD}A")
        #expect(accumulator.append([0xE6]) == nil)
        #expect(accumulator.flush() == "\u{FFFD}")
    }
}
