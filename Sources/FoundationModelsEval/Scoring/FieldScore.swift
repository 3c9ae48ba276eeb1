import Foundation
import FoundationModels

/// One field of one answer, judged against the item's ground truth.
package struct FieldScore: Codable, Sendable, Equatable {
    package var field: String
    package var right: Bool
    /// What was expected and what the answer had (the report lists misses).
    package var detail: String
    /// Whether the field counts toward "all fields right"; a task's
    /// informational fields (``EvalTask/informational``) are reported only.
    package var counts: Bool

    package init(_ field: String, _ right: Bool, _ detail: String = "", counts: Bool = true) {
        self.field = field
        self.right = right
        self.detail = detail
        self.counts = counts
    }
}

/// The comparisons the scorers share: numbers within a tolerance, names
/// matched after normalization, words counted, empty strings found.
package enum Scoring {
    /// `got` within `tolerance` (relative) of `expected`.
    package static func close(_ got: Double, _ expected: Double, tolerance: Double = 0.01) -> Bool {
        got.isFinite && abs(got - expected) <= tolerance * abs(expected)
    }

    /// Lowercased words of letters and digits (diacritics folded): the form
    /// names and terms are compared in.
    package static func words(_ text: String) -> [String] {
        text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
            .lowercased()
            .split(whereSeparator: { !($0.isLetter || $0.isNumber) })
            .map(String.init)
    }

    /// `text` reduced to its words run together (`"Circle-K #12"` →
    /// `"circlek12"`): spacing, case and punctuation do not count.
    package static func normalized(_ text: String) -> String {
        words(text).joined()
    }

    /// Whether `phrase`'s words occur, consecutively and whole, in `text`.
    package static func contains(_ text: String, phrase: String) -> Bool {
        let haystack = words(text), needle = words(phrase)
        guard !needle.isEmpty, needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            Array(haystack[start..<(start + needle.count)]) == needle
        }
    }

    /// The numbers `text` states: numerals (`12`, `3.5`), and number
    /// words up to twenty where a count of records follows within three
    /// words (`two of your jazz albums`, `three records`) — "one of the
    /// most influential albums" states no count.
    package static func numbersAndNumberWords(in text: String) -> [Double] {
        let numerals = text.matches(of: /\d+(?:\.\d+)?/).compactMap { Double($0.output) }
        let words = words(text)
        let counted: Set<String> = ["album", "albums", "record", "records", "lp", "lps", "title", "titles"]
        let spelled = words.indices.compactMap { index -> Double? in
            guard let value = numberWords.firstIndex(of: words[index]) else { return nil }
            return words[(index + 1)..<min(words.count, index + 4)].contains(where: counted.contains) ? Double(value) : nil
        }
        return numerals + spelled
    }

    private static let numberWords = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
        "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
    ]

    /// Words as a reader counts them: runs of non-space characters.
    package static func wordCount(_ text: String) -> Int {
        text.split(whereSeparator: \.isWhitespace).count
    }

    /// The paths of the strings in `content` that are empty or only
    /// whitespace (`cards[2].answer`): fields an answer left unfilled.
    package static func emptiedFields(in content: GeneratedContent) -> [String] {
        var paths: [String] = []
        func walk(_ content: GeneratedContent, _ path: String) {
            switch content.kind {
            case .string(let text) where text.allSatisfy(\.isWhitespace):
                paths.append(path.isEmpty ? "(value)" : path)
            case .array(let elements):
                for (index, element) in elements.enumerated() { walk(element, "\(path)[\(index)]") }
            case .structure(let properties, let keys):
                for key in keys { if let value = properties[key] { walk(value, path.isEmpty ? key : "\(path).\(key)") } }
            default:
                break
            }
        }
        walk(content, "")
        return paths
    }

    /// The top-level properties of `content` whose value is one of the
    /// examples `examples` gives for it while `input` does not contain that
    /// example: values taken from a guide's description instead of the
    /// input (`stationBrand: "CHEVRON"` for a Shell receipt). Strings match
    /// when the answer's words contain the example's; numbers when equal.
    package static func copiedExamples(_ examples: [String: [String]], in content: GeneratedContent, input: String) -> [String] {
        guard case .structure(let properties, let keys) = content.kind else { return [] }
        var copied: [String] = []
        for key in keys {
            guard let value = properties[key], let candidates = examples[key] else { continue }
            for example in candidates {
                let matches: Bool
                switch value.kind {
                case .string(let text):
                    matches = contains(text, phrase: example) && !contains(input, phrase: example)
                case .number(let number):
                    guard let exampleValue = Double(example) else { matches = false; break }
                    matches = abs(number - exampleValue) < 1e-9 && !containsNumber(input, exampleValue)
                default:
                    matches = false
                }
                if matches {
                    copied.append("\(key): \(example)")
                    break
                }
            }
        }
        return copied
    }

    /// Whether `text` prints `value` (with a decimal point or comma, with or
    /// without trailing zeros): `10.5`, `10,50`; with `decimals`, only
    /// numbers printed with a decimal point or comma count (an amount, not
    /// the `20` of `VAT 20%`).
    static func containsNumber(_ text: String, _ value: Double, decimals: Bool = false) -> Bool {
        let pattern = decimals ? /\d+(?:[.,]\d+)/ : /\d+(?:[.,]\d+)?/
        return text.matches(of: pattern).contains { match in
            Double(match.output.replacingOccurrences(of: ",", with: ".")).map { abs($0 - value) < 1e-9 } ?? false
        }
    }

    /// A short quotation of a value for the report.
    package static func quote(_ text: String, limit: Int = 60) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return "\"" + (flat.count > limit ? flat.prefix(limit) + "…" : flat) + "\""
    }

    /// A number as the report prints it.
    package static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
