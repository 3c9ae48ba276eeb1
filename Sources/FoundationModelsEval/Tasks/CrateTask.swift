import FoundationModels
import VinylCollection

/// Crate insights, asked for as the vinyl example asks (``VinylPrompts``'
/// instructions and prompt, its ``CrateInsight``): tags, a short snippet,
/// the input's artists, and none of the schema's own words passed off as
/// content.
package enum CrateTask: EvalTask {
    package static let corpus = Corpus.crates

    package static var instructions: String { VinylPrompts.crateInsightInstructions }

    package static func prompt(for item: CrateItem) -> String {
        VinylPrompts.crateInsight(item.crate)
    }

    package static let fields = ["tags", "snippet", "artists", "typeName"]

    /// The snippet's guide asks for at most this many words: a target the
    /// engine lets a sentence pass to finish (``WordLimit``).
    package static let snippetWordLimit = 20

    package static func score(_ answer: CrateInsight, for item: CrateItem) -> [FieldScore] {
        let tags = answer.tags.map(Scoring.normalized)
        let distinct = Set(tags).count == tags.count
        let tagsRight = (3...5).contains(tags.count) && distinct && answer.tags.allSatisfy { (1...3).contains(Scoring.wordCount($0)) }
        let snippet = WordLimit.check(answer.snippet, limit: snippetWordLimit)
        let mentioned = item.records.map(\.artist).filter { mentions(answer.summary + " " + answer.snippet, artist: $0) }
        let strings = [answer.summary, answer.snippet] + answer.tags
        let copied = strings.filter(copiesTypeName)
        return [
            FieldScore("tags", tagsRight, "\(answer.tags.count) tags\(distinct ? "" : " (repeated)"): \(answer.tags)"),
            FieldScore("snippet", snippet.kept, snippet.detail),
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

    /// The string repeats the type's name (`CrateInsight`, `Crate
    /// Insight`) — a small model's way of filling a field it has nothing for.
    package static func copiesTypeName(_ text: String) -> Bool {
        Scoring.normalized(text).contains(Scoring.normalized("\(CrateInsight.self)"))
    }

    /// ``VinylInsights``' options (greedy, 320 tokens): the crate insight's
    /// request is `VinylInsights.crateInsight(for:)`'s.
    package static func exampleOptions(model: SystemLanguageModel) -> GenerationOptions? {
        ExampleOptions.of(VinylInsights(collection: RecordCollection(albums: []), model: model))
    }

    package static let seed = CrateCorpus.seed
    package static func generate(seed: UInt64) -> [CrateItem] { CrateCorpus.generate(seed: seed) }
}

extension CrateItem {
    /// The crate as the vinyl example holds it.
    package var crate: Crate {
        Crate(
            name: name,
            albums: records.enumerated().map { index, record in
                Album(id: "\(id)-\(index + 1)", artist: record.artist, title: record.title, year: record.year, genre: record.genre)
            })
    }
}
