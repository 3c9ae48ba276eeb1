/// Recognizes a degenerate loop: text whose end is the same passage written
/// again and again ("soulful soulful soulful", the same sentence twice).
///
/// Exists because small models, decoding greedily, fall into such loops and
/// never leave them: the free text runs to its token limit, a typed answer's
/// string to its pacing limit. Sampling penalties (repetition, frequency,
/// DRY) make loops less likely but also distort normal text — a name or a
/// number that must be repeated is pushed away, and a looping small model
/// escapes into misspelled variants rather than stopping. This recognizes
/// the loop itself, exactly and deterministically, so the generation can end
/// there (free text) or the string can close (typed answers); text without
/// a loop is never touched.
package enum RepetitionStop {
    /// The shortest passage that counts: shorter repeats ("ha ha ha",
    /// "0, 0, 0") are ordinary text.
    package static let minimumPassage = 8
    /// Passages this long (a sentence) count as a loop at their second
    /// copy; shorter ones at their third.
    package static let sentencePassage = 32
    /// The longest passage looked for (bytes).
    package static let maximumPassage = 512

    /// Whether `text` ends with a passage written again and again: one of
    /// ``minimumPassage`` bytes or more three times in a row, or one of
    /// ``sentencePassage`` bytes or more twice in a row (up to
    /// ``maximumPassage``). Digits compare equal to each other, so a
    /// numbered list of the same line ("5. Soul", "6. Soul") is a loop;
    /// a passage needs three letters to count, so runs of digits and
    /// punctuation (a table rule, a list of numbers) never are.
    package static func endsInLoop(_ text: ArraySlice<UInt8>) -> Bool {
        let count = text.count
        guard count >= minimumPassage * 3 || count >= sentencePassage * 2 else { return false }
        let end = text.endIndex
        let last = text[end - 1]
        for length in minimumPassage...min(maximumPassage, count / 2) {
            let copies = length >= sentencePassage ? 2 : 3
            guard copies * length <= count else { continue }
            // Cheap rejection before comparing whole passages.
            guard same(text[end - 1 - length], last) else { continue }
            var repeated = true
            for offset in 0..<length where !(1..<copies).allSatisfy({ same(text[end - 1 - offset - $0 * length], text[end - 1 - offset]) }) {
                repeated = false
                break
            }
            if repeated, letters(in: text[(end - length)..<end]) >= 3 { return true }
        }
        return false
    }

    @inline(__always)
    private static func same(_ a: UInt8, _ b: UInt8) -> Bool {
        a == b || (isDigit(a) && isDigit(b))
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func letters(in bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { count, byte in
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte >= 0x80
            return count + (isLetter ? 1 : 0)
        }
    }
}
