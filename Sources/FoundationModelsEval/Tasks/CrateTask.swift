import FoundationModels

/// What a record-collection app shows on a crate's card.
@Generable(description: "AI-generated insights about a crate of records")
package struct CrateAIInsight: Sendable {
    @Guide(description: "Two sentences on how the records fit together, mentioning some of the artists")
    package var summary: String

    @Guide(description: "A one-line teaser for the crate, at most 25 words")
    package var snippet: String

    @Guide(description: "Mood or genre tags", .count(3...5))
    package var tags: [String]
}

/// Crate insights: tags, a short snippet, the input's artists, and none of
/// the schema's own words passed off as content.
package enum CrateTask: EvalTask {
    package static let corpus = Corpus.crates

    package static let instructions = "You write short, vivid insights about crates of vinyl records for a record-collection app."

    package static func prompt(for item: CrateItem) -> String {
        "Crate \"\(item.name)\":\n" + item.records.map { "- \($0.artist) — \($0.title) (\($0.year), \($0.genre))" }.joined(separator: "\n")
    }

    package static let fields = ["tags", "snippet", "artists", "typeName"]

    package static let snippetWordLimit = 25

    package static func score(_ answer: CrateAIInsight, for item: CrateItem) -> [FieldScore] {
        let tags = answer.tags.map(Scoring.normalized)
        let distinct = Set(tags).count == tags.count
        let tagsRight = (3...5).contains(tags.count) && distinct && answer.tags.allSatisfy { (1...3).contains(Scoring.wordCount($0)) }
        let snippetWords = Scoring.wordCount(answer.snippet)
        let mentioned = item.records.map(\.artist).filter { mentions(answer.summary + " " + answer.snippet, artist: $0) }
        let strings = [answer.summary, answer.snippet] + answer.tags
        let copied = strings.filter(copiesTypeName)
        return [
            FieldScore("tags", tagsRight, "\(answer.tags.count) tags\(distinct ? "" : " (repeated)"): \(answer.tags)"),
            FieldScore("snippet", (1...snippetWordLimit).contains(snippetWords), "\(snippetWords) words"),
            FieldScore("artists", !mentioned.isEmpty, mentioned.isEmpty ? "no artist of the crate mentioned" : "mentions \(mentioned)"),
            FieldScore("typeName", copied.isEmpty, copied.isEmpty ? "" : "copies the type name: \(Scoring.quote(copied[0]))"),
        ]
    }

    /// The artist's name, or its most distinctive word (the longest, five
    /// letters or more: "Coltrane", "Kraftwerk"), appears in `text`.
    package static func mentions(_ text: String, artist: String) -> Bool {
        if Scoring.contains(text, phrase: artist) { return true }
        let words = Scoring.words(artist).filter { $0 != "the" && $0 != "trio" && $0 != "quartet" }
        guard let longest = words.max(by: { $0.count < $1.count }), longest.count >= 5 else { return false }
        return Scoring.words(text).contains(longest)
    }

    /// The string repeats the type's name (`CrateAIInsight`, `Crate AI
    /// Insight`) — a small model's way of filling a field it has nothing for.
    package static func copiesTypeName(_ text: String) -> Bool {
        Scoring.normalized(text).contains(Scoring.normalized("\(CrateAIInsight.self)"))
    }

    package static let seed = CrateCorpus.seed
    package static func generate(seed: UInt64) -> [CrateItem] { CrateCorpus.generate(seed: seed) }
}
