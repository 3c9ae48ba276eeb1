import Foundation
import FoundationModels
import FoundationModelsEval
import Synchronization
import TestSupport
import Testing

@testable import VinylCollection

/// The three features on the real default model (`make test` runs suites
/// named *QualityTests with it): typed answers that say something about
/// the records they were asked about, whole (the eval's `CutShort`), and
/// about no album the user was not asked about.
@Suite("Vinyl collection on the default model", .serialized, .tags(.defaultModel), .needs(.defaultModel))
struct VinylQualityTests {
    static func requireModel() throws {
        try #require(SystemLanguageModel.default.isAvailable, "no model: run `make setup` (FOUNDATION_MODELS_MODEL)")
    }

    @Test func aCrateInsightNamesItsArtistsAndIsCachedAWeek() async throws {
        try Self.requireModel()
        let clock = Clock()
        let insights = VinylInsights(collection: .sample, now: clock.now)
        let crate = RecordCollection.sampleCrate("Late-night jazz", artists: ["Miles Davis", "John Coltrane", "Bill Evans Trio", "Thelonious Monk"])
        let insight = try #require(try await insights.crateInsight(for: crate))
        let text = insight.summary + " " + insight.snippet
        #expect(["Miles", "Coltrane", "Evans", "Monk"].contains { text.contains($0) }, "no artist of the crate in \(text)")
        #expect((2...5).contains(insight.tags.count), "\(insight.tags)")
        // The guide asks for at most 20 words, and the engine lets a string
        // run past a word limit to end its sentence or clause, by the
        // tolerance the eval counts too (`WordLimit`).
        #expect(WordLimit.check(insight.snippet, limit: CrateTask.snippetWordLimit).kept, "\(insight.snippet)")

        // As the eval judges a crate insight (`CrateTask`): the crate's
        // artists named, the type's name not copied; no free string cut
        // short (mid-word or mid-sentence).
        let item = try CrateItem(crate)
        let scores = CrateTask.score(insight, for: item)
        for field in ["artists", "typeName"] {
            let score = try #require(scores.first { $0.field == field }, "CrateTask no longer scores \(field)")
            #expect(score.right, "\(field): \(score.detail)")
        }
        let input = CrateTask.instructions(for: item) + "\n" + CrateTask.prompt(for: item)
        let cuts = CutShort.cuts(in: insight.generatedContent, schema: CrateInsight.generationSchema, input: input)
        #expect(cuts.isEmpty, "cut short: \(cuts.map { "\($0.path) \"\($0.text)\" (\($0.kinds.map(\.rawValue)))" })")
        // No album named that is not in the crate (of the ones the sample
        // collection knows): the crate's card talks about its own records.
        let outside = albumsNamed(in: text, outside: crate.albums, known: RecordCollection.sample.albums)
        #expect(outside.isEmpty, "names albums outside the crate: \(outside.map(\.title)) in \(text)")

        // Served from the cache for 7 days (a model failure would show: the
        // engine's answer is not looked at again), then made again.
        clock.advance(days: 6)
        #expect(try await insights.crateInsight(for: crate) == insight)
        #expect(await insights.crateInsights.entry(for: .init("crateInsight", crate.name))?.expires == clock.start.addingTimeInterval(7 * 86_400))
    }

    /// `AlbumTask`'s fields the default model's greedy insight on the
    /// sample's Kind of Blue gets wrong today.
    static let knownAlbumInsightDefects: Set<String> = ["facts"]

    @Test func anAlbumInsightIsWholeAndContradictsNothingItWasGiven() async throws {
        try Self.requireModel()
        let collection = RecordCollection.sample
        let insights = VinylInsights(collection: collection)
        let album = collection.albums[0]
        let insight = try #require(try await insights.albumInsight(for: album))
        // As the eval judges it (`AlbumTask`): the summary within its word
        // limit as the engine keeps it, the counts given used in the fit,
        // 2–3 distinct short moods, no year, album, artist or instrument
        // the input or the catalogue contradicts; and every string whole.
        let item = try #require(AlbumItem(id: album.id, collection: collection, album: album))
        let scores = AlbumTask.score(insight, for: item)
        for score in scores where !Self.knownAlbumInsightDefects.contains(score.field) {
            #expect(score.right, "\(score.field): \(score.detail) in \(insight)")
        }
        // What a reader of the tour still sees wrong, kept visible rather
        // than left out (issue 57): the greedy insight on Kind of Blue
        // credits Miles Davis with the piano. Intermittent: on one machine
        // greedy gives this answer every time; another batch, thread count
        // or CPU orders the arithmetic differently and may tip a token.
        for score in scores where Self.knownAlbumInsightDefects.contains(score.field) {
            withKnownIssue("the default model's Kind of Blue insight: \(score.field)", isIntermittent: true) {
                #expect(score.right, "\(score.field): \(score.detail) in \(insight)")
            }
        }
        let input = AlbumTask.instructions(for: item) + "\n" + AlbumTask.prompt(for: item)
        let cuts = CutShort.cuts(in: insight.generatedContent, schema: AlbumInsight.generationSchema, input: input)
        #expect(cuts.isEmpty, "cut short: \(cuts.map { "\($0.path) \"\($0.text)\" (\($0.kinds.map(\.rawValue)))" })")
    }

    @Test func recommendationsComeFromTheShelvesThroughTheTool() async throws {
        try Self.requireModel()
        let lookups = Mutex<[String]>([])
        let insights = VinylInsights(collection: .sample, onToolCall: { genre in lookups.withLock { $0.append(genre) } })
        let recommendations = try #require(try await insights.recommendations())
        #expect(!lookups.withLock { $0 }.isEmpty, "the model did not look the collection up")
        // The answer has exactly three (the schema's count) and the feature
        // drops an album the shelves do not have (or a repeat): three kept
        // means the model named no album outside the collection.
        #expect(
            recommendations.count == VinylInsights.recommendationCount,
            "\(VinylInsights.recommendationCount - recommendations.count) recommended albums were not on the shelves or repeated: kept \(recommendations.map(\.title))"
        )
        let collection = RecordCollection.sample
        // As the eval judges them (`RecommendationTask`): none played more
        // than most albums of its genre, as the instructions ask.
        let scores = RecommendationTask.score(recommendations, for: ShelvesItem(id: "sample", collection: collection))
        // The schema allows only albums the tool can list
        // (`recommendationSchema(for:)`); asked in words only, the model
        // recommended The Dark Side of the Moon, played more than most of
        // its genre, from what it knows of the album.
        let leastPlayed = try #require(scores.first { $0.field == "leastPlayed" })
        #expect(leastPlayed.right, "\(leastPlayed.detail)")
        // What the model read: the instructions, the prompt, and the shelves the tool lists.
        let input =
            ([VinylPrompts.recommendationInstructions, VinylPrompts.recommendations(insights.stats, count: VinylInsights.recommendationCount)]
            + collection.albums.map(\.line)).joined(separator: "\n")
        for recommendation in recommendations {
            let album = collection.album(titled: recommendation.title, by: recommendation.artist)
            #expect(album?.artist == recommendation.artist && album?.title == recommendation.title, "not on the shelves: \(recommendation)")
            #expect(!recommendation.reason.isEmpty)
        }
        // The free strings of the schema the feature asked with (the
        // reasons: a title such as "Moanin'" is a choice, whole by
        // construction, not a word cut short).
        let cuts = CutShort.cuts(
            in: GeneratedContent(elements: recommendations), schema: try VinylInsights.recommendationSchema(for: collection), input: input)
        #expect(cuts.isEmpty, "cut short: \(cuts.map { "\($0.path) \"\($0.text)\" (\($0.kinds.map(\.rawValue)))" }) in \(recommendations)")
    }
}

/// A clock the test moves.
final class Clock: Sendable {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    private let offset = Mutex(0.0)
    func advance(days: Double) { offset.withLock { $0 += days * 86_400 } }
    var now: @Sendable () -> Date { { self.start.addingTimeInterval(self.offset.withLock { $0 }) } }
}
