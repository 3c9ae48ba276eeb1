import Foundation
import FoundationModels
import FoundationModelsEval
import FoundationModelsKit
import TerminalSupport
import VinylCollection

// The vinyl-collection features on the sample collection: a crate insight
// (then the same from the cache), an album insight, recommendations that
// look the collection up through a tool, and the quiet nil of a collection
// too small for the feature. Each answer is marked as the eval judges it:
// every string whole (CutShort), a crate's insight as CrateTask scores it
// and naming no record outside the crate, the album insight as AlbumTask
// and the recommendations as RecommendationTask score them.

func json(_ value: (some ConvertibleToGeneratedContent)?) -> String {
    value.map { $0.generatedContent.jsonString } ?? "nil"
}

/// A crate's card as far as it is generated.
func crateCard(_ insight: CrateInsight.PartiallyGenerated) -> [String] {
    [
        "   tags:    " + (insight.tags ?? []).joined(separator: ", "),
        "   snippet: " + (insight.snippet ?? ""),
        "   summary: " + (insight.summary ?? ""),
    ]
}

/// A crate's insight as the eval judges it (``CrateTask``), and whether it
/// names an album of the collection that is not in the crate.
func crateVerdict(_ insight: CrateInsight, _ crate: Crate, in collection: RecordCollection) throws -> Verdict {
    var verdict = Verdict(insight, as: CrateTask.self, for: try CrateItem(crate))
    let outside = albumsNamed(in: insight.summary + " " + insight.snippet, outside: crate.albums, known: collection.albums)
    if !outside.isEmpty {
        verdict.wrong.append("names albums outside the crate: " + outside.map { "\"\($0.title)\"" }.joined(separator: ", "))
    }
    return verdict
}

await ExampleProgram.run {
    let collection = RecordCollection.sample
    let insights = VinylInsights(
        collection: collection,
        onToolCall: { query in
            ExampleProgram.note("tool call: searchCollection(genre: \"\(query)\")")
        })
    ExampleProgram.heading("Vinyl collection: \(collection.albums.count) albums")
    if let message = insights.unavailableMessage { throw message }

    let crate = RecordCollection.sampleCrate("Late-night jazz", artists: ["Miles Davis", "John Coltrane", "Bill Evans Trio", "Thelonious Monk"])
    if let insight = try await ExampleProgram.step("crate insight \"\(crate.name)\"", show: json, { try await insights.crateInsight(for: crate) }) {
        try crateVerdict(insight, crate, in: collection).print()
    }
    try await ExampleProgram.step("crate insight again (7-day cache)", show: json) { try await insights.crateInsight(for: crate) }

    // The same kind of answer streamed: a card that fills in field by field
    // (redrawn in place on a terminal; the finished card elsewhere).
    let evening = RecordCollection.sampleCrate(
        "Sunday soul", artists: ["Marvin Gaye", "Stevie Wonder", "Aretha Franklin", "Al Green", "Bill Withers"])
    if let stream = insights.streamCrateInsight(for: evening) {
        let stopwatch = Stopwatch()
        let view = LiveView()
        var card: [String] = []
        var last: GeneratedContent?
        for try await snapshot in stream {
            card = crateCard(snapshot.content)
            view.draw(card)
            last = snapshot.rawContent
        }
        ExampleProgram.result("streamed crate report \"\(evening.name)\"", "\(view.frames) snapshots", seconds: stopwatch.seconds)
        view.finish(card)
        if let last {
            try crateVerdict(try CrateInsight(last), evening, in: collection).print()
        }
    }

    let album = collection.albums[0]
    if let insight = try await ExampleProgram.step("album insight \"\(album.title)\"", show: json, { try await insights.albumInsight(for: album) }),
        let item = AlbumItem(id: album.id, collection: collection, album: album)
    {
        // As the eval judges an album insight (`AlbumTask`): the summary's
        // length, a fit that uses the counts given, the moods, and no fact
        // the collection or the catalogue contradicts.
        Verdict(insight, as: AlbumTask.self, for: item).print()
    }

    let recommendations = try await ExampleProgram.step(
        "recommendations [AlbumRecommendation]",
        show: { $0.map { "[" + $0.map(\.generatedContent.jsonString).joined(separator: ",") + "]" } ?? "nil" }
    ) {
        try await insights.recommendations()
    }
    if let recommendations {
        // What the model read: the instructions, the prompt, and the shelves the tool lists.
        let input =
            ([VinylPrompts.recommendationInstructions, VinylPrompts.recommendations(insights.stats, count: VinylInsights.recommendationCount)]
            + collection.albums.map(\.line)).joined(separator: "\n")
        // The free strings of the schema the feature asked with: the
        // reasons (titles and artists are choices).
        var verdict = Verdict(
            GeneratedContent(elements: recommendations), schema: try VinylInsights.recommendationSchema(for: collection), input: input)
        // As the eval judges recommendations (`RecommendationTask`): three
        // (the feature drops an album the shelves do not have, or a repeat),
        // each on the shelves once, none much played for its genre.
        verdict.wrong = Verdict.failures(RecommendationTask.score(recommendations, for: ShelvesItem(id: "sample", collection: collection)))
        verdict.print()
    }

    let tiny = VinylInsights(collection: RecordCollection(albums: Array(collection.albums.prefix(3))))
    try await ExampleProgram.step("recommendations for 3 albums (below the minimum)", show: { $0 == nil ? "nil (model not called)" : "unexpected" }) {
        try await tiny.recommendations()
    }
}
