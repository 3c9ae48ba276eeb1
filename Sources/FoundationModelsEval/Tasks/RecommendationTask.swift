import FoundationModels
import Synchronization
import VinylCollection

/// Recommendations, asked for as the vinyl example asks (``VinylPrompts``'
/// instructions and prompt, its `searchCollection` tool, which the first
/// round must call, and its schema: exactly three ``AlbumRecommendation``s):
/// albums from the owner's shelves, each once, among the least played of
/// their genre, as the instructions ask.
///
/// The guided modes send the request as the feature does, tool included;
/// the pipeline is the feature itself, which drops a recommendation the
/// shelves do not have — so there a missing one shows as `parts`.
package enum RecommendationTask: EvalTask {
    package typealias Answer = [AlbumRecommendation]

    package static let corpus = Corpus.recommendations

    package static var instructions: String { VinylPrompts.recommendationInstructions }

    package static func prompt(for item: ShelvesItem) -> String {
        VinylPrompts.recommendations(CollectionStats(item.shelves.collection), count: VinylInsights.recommendationCount)
    }

    /// Three recommendations of any album, where no collection is at hand.
    package static var customSchema: GenerationSchema? {
        try? GenerationSchema(
            root: DynamicGenerationSchema(type: [AlbumRecommendation].self, guides: [.count(VinylInsights.recommendationCount)]),
            dependencies: [])
    }

    /// The feature's own schema for the item's collection
    /// (``VinylInsights/recommendationSchema(for:)``).
    package static func customSchema(for item: ShelvesItem) -> GenerationSchema? {
        try? VinylInsights.recommendationSchema(for: item.shelves.collection)
    }

    package static func tools(for item: ShelvesItem) throws -> [any Tool] {
        [try SearchCollectionTool(collection: item.shelves.collection)]
    }

    package static var toolCallingMode: GenerationOptions.ToolCallingMode? { .required }

    package static let fields = ["parts", "onShelves", "distinct", "leastPlayed"]

    package static func score(_ answer: [AlbumRecommendation], for item: ShelvesItem) -> [FieldScore] {
        let collection = item.shelves.collection
        let found = answer.map { collection.album(titled: $0.title, by: $0.artist) }
        let missing = zip(answer, found).filter { $1 == nil }.map(\.0)
        let albums = found.compactMap { $0 }
        let distinct = Set(albums.map(\.id)).count == albums.count
        let played = albums.filter { $0.plays > medianPlays(ofGenre: $0.genre, in: collection) }
        return [
            FieldScore("parts", answer.count == VinylInsights.recommendationCount, "\(answer.count) recommendations"),
            FieldScore(
                "onShelves", !answer.isEmpty && missing.isEmpty,
                missing.isEmpty ? "" : "not on the shelves: \(missing.map { "\"\($0.title)\" by \($0.artist)" })"),
            FieldScore("distinct", distinct, distinct ? "" : "the same album twice: \(albums.map(\.title))"),
            FieldScore(
                "leastPlayed", !albums.isEmpty && played.isEmpty,
                played.isEmpty
                    ? ""
                    : "played more than most of their genre: \(played.map { "\"\($0.title)\" \($0.plays) (\($0.genre) median \(medianPlays(ofGenre: $0.genre, in: collection)))" })"
            ),
        ]
    }

    /// The median of the play counts of `genre`'s albums in the collection
    /// (the lower one of an even count): "played little" is at most this.
    /// By genre, as the feature looks albums up (the tool lists a genre,
    /// least played first): the least played of a much-played genre is a
    /// fair pick.
    static func medianPlays(ofGenre genre: String, in collection: RecordCollection) -> Int {
        let plays = collection.albums.filter { $0.genre == genre }.map(\.plays).sorted()
        return plays.isEmpty ? 0 : plays[(plays.count - 1) / 2]
    }

    package static let seed = ShelfCorpus.shelvesSeed
    package static func generate(seed: UInt64) -> [ShelvesItem] { ShelfCorpus.shelves(seed: seed) }

    // MARK: The example's feature

    package static let hasPipeline = true

    /// ``VinylInsights/recommendations()`` on the item's collection, with
    /// the feature's own options (greedy, 320 tokens, the tool required
    /// on the first round) and its filter (albums on the shelves, once).
    package static func pipeline(for item: ShelvesItem, model: SystemLanguageModel) async throws -> PipelineAnswer<[AlbumRecommendation]> {
        let lookups = LookupLog()
        let insights = VinylInsights(collection: item.shelves.collection, model: model, onToolCall: { lookups.append($0) })
        guard let recommendations = try await insights.recommendations() else {
            throw CorpusError("\(item.id): the collection is too small for recommendations")
        }
        let output = "looked up \(lookups.values) → " + recommendations.map { "\"\($0.title)\" by \($0.artist)" }.joined(separator: ", ")
        return PipelineAnswer(answer: recommendations, output: output, requests: 1)
    }

    package static func exampleOptions(model: SystemLanguageModel) -> GenerationOptions? {
        ExampleOptions.of(VinylInsights(collection: RecordCollection(albums: []), model: model))
    }
}

/// The genres a feature looked up, told from its tool's callback.
final class LookupLog: Sendable {
    private let log = Mutex<[String]>([])
    func append(_ genre: String) { log.withLock { $0.append(genre) } }
    var values: [String] { log.withLock { $0 } }
}
