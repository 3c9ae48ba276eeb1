/// A length in words stated in a field's description.
///
/// Exists because Apple's guides have no length for strings, so apps say it
/// in the description ("A one-line teaser, at most 25 words") — words the
/// model is meant to follow, and that a small model often does not. Read
/// here, the limit paces the string (``StringPacing``): it ends before a
/// word past the limit begins. Only upper bounds are read; "at least 20
/// words" states no limit.
package enum LengthHint {
    /// The most words `description` allows, if it states a limit:
    /// "max 10 words", "at most twenty-five words", "no more than 8 words",
    /// "up to 12 words", "10-15 words" (15), "fewer than 10 words" (9),
    /// "a three-word title" (3), "one or two words" (2).
    package static func wordLimit(in description: String?) -> Int? {
        guard let description, mentionsWords(description) else { return nil }
        let words = Self.words(of: description)
        var limit: Int?
        for (index, word) in words.enumerated() {
            var number: Int?
            var before = index - 1
            if word == "word" || word == "words" {
                guard before >= 0, let value = Self.number(words[before]) else { continue }
                number = value
            } else if word.hasSuffix("-word") || word.hasSuffix("-words") {
                // "three-word", "10-word"
                let stem = word.split(separator: "-").dropLast().joined(separator: "-")
                guard let value = Self.number(stem) else { continue }
                number = value
                before = index
            } else {
                continue
            }
            guard var value = number, value > 0 else { continue }
            // A range: "10-15 words", "10 to 15 words", "one or two words".
            // The number found is already its upper end.
            let context = words[max(0, before - 3)..<max(0, before)]
            if context.contains("least") || context.contains("minimum") || context.contains("min") {
                continue
            }
            if (context.suffix(2) == ["fewer", "than"] || context.suffix(2) == ["less", "than"]) && value > 1 {
                value -= 1
            }
            limit = min(limit ?? .max, value)
        }
        return limit
    }

    /// Whether `text` has "word" in it, in any case: every limit read here
    /// does, and most descriptions do not, so they skip the word-by-word
    /// reading (which large schemas would pay per property).
    private static func mentionsWords(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 4 else { return false }
        for start in 0...(bytes.count - 4)
        where bytes[start] | 0x20 == UInt8(ascii: "w") && bytes[start + 1] | 0x20 == UInt8(ascii: "o")
            && bytes[start + 2] | 0x20 == UInt8(ascii: "r") && bytes[start + 3] | 0x20 == UInt8(ascii: "d")
        {
            return true
        }
        return false
    }

    /// Lowercased words; hyphens kept inside words ("twenty-five",
    /// "three-word"), a hyphen between digits ("10-15") read as a range.
    private static func words(of text: String) -> [String] {
        var result: [String] = []
        var current = ""
        for character in text.lowercased() {
            if character.isLetter || character.isNumber || character == "-" {
                current.append(character)
            } else if !current.isEmpty {
                result.append(current)
                current = ""
            }
        }
        if !current.isEmpty { result.append(current) }
        return result.flatMap { word -> [String] in
            // "10-15" -> ["10", "to", "15"]; "three-word" stays whole.
            let parts = word.split(separator: "-").map(String.init)
            if parts.count == 2, Int(parts[0]) != nil, Int(parts[1]) != nil { return [parts[0], "to", parts[1]] }
            return [word]
        }
    }

    private static let spelled: [String: Int] = [
        "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
        "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
        "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
        "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
    ]

    /// A count written in digits or words ("25", "twenty-five").
    private static func number(_ word: String) -> Int? {
        if let value = Int(word) { return value }
        if let value = spelled[word] { return value }
        let parts = word.split(separator: "-").map(String.init)
        if parts.count == 2, let tens = spelled[parts[0]], tens >= 20, tens % 10 == 0, let ones = spelled[parts[1]], ones < 10 {
            return tens + ones
        }
        return nil
    }
}
