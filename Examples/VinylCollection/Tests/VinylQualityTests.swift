import Foundation
import FoundationModels
import Synchronization
import Testing
import TestSupport
@testable import VinylCollection

/// The three features on the real default model (`make test` runs suites
/// named *QualityTests with it): typed answers that say something about
/// the records they were asked about.
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
        #expect(!insight.snippet.isEmpty && insight.snippet.split(separator: " ").count <= 25, "\(insight.snippet)")

        // Served from the cache for 7 days (a model failure would show: the
        // engine's answer is not looked at again), then made again.
        clock.advance(days: 6)
        #expect(try await insights.crateInsight(for: crate) == insight)
        #expect(await insights.crateInsights.entry(for: .init("crateInsight", crate.name))?.expires == clock.start.addingTimeInterval(7 * 86_400))
    }

    @Test func recommendationsComeFromTheShelvesThroughTheTool() async throws {
        try Self.requireModel()
        let lookups = Mutex<[String]>([])
        let insights = VinylInsights(collection: .sample, onToolCall: { genre in lookups.withLock { $0.append(genre) } })
        let recommendations = try #require(try await insights.recommendations())
        #expect(!lookups.withLock { $0 }.isEmpty, "the model did not look the collection up")
        #expect(!recommendations.isEmpty, "every recommendation was an album the collection does not have")
        for recommendation in recommendations {
            #expect(!recommendation.reason.isEmpty)
        }
    }
}

/// A clock the test moves.
final class Clock: Sendable {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    private let offset = Mutex(0.0)
    func advance(days: Double) { offset.withLock { $0 += days * 86_400 } }
    var now: @Sendable () -> Date { { self.start.addingTimeInterval(self.offset.withLock { $0 }) } }
}
