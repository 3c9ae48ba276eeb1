import Foundation
import FoundationModels
import FoundationModelsKit
import TerminalSupport
import VinylCollection

// The vinyl-collection features on the sample collection: a crate insight
// (then the same from the cache), an album insight, recommendations that
// look the collection up through a tool, and the quiet nil of a collection
// too small for the feature.

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

await ExampleProgram.run {
    let collection = RecordCollection.sample
    let insights = VinylInsights(collection: collection, onToolCall: { query in
        ExampleProgram.note("tool call: searchCollection(genre: \"\(query)\")")
    })
    ExampleProgram.heading("Vinyl collection: \(collection.albums.count) albums")
    if let message = insights.unavailableMessage { throw message }

    let crate = RecordCollection.sampleCrate("Late-night jazz", artists: ["Miles Davis", "John Coltrane", "Bill Evans Trio", "Thelonious Monk"])
    try await ExampleProgram.step("crate insight \"\(crate.name)\"", show: json) { try await insights.crateInsight(for: crate) }
    try await ExampleProgram.step("crate insight again (7-day cache)", show: json) { try await insights.crateInsight(for: crate) }

    // The same kind of answer streamed: a card that fills in field by field
    // (redrawn in place on a terminal; the finished card elsewhere).
    let evening = RecordCollection.sampleCrate("Sunday soul", artists: ["Marvin Gaye", "Stevie Wonder", "Aretha Franklin", "Al Green", "Bill Withers"])
    if let stream = insights.streamCrateInsight(for: evening) {
        let stopwatch = Stopwatch()
        let view = LiveView()
        var card: [String] = []
        for try await snapshot in stream {
            card = crateCard(snapshot.content)
            view.draw(card)
        }
        ExampleProgram.result("streamed crate report \"\(evening.name)\"", "\(view.frames) snapshots", seconds: stopwatch.seconds)
        view.finish(card)
    }

    let album = collection.albums[0]
    try await ExampleProgram.step("album insight \"\(album.title)\"", show: json) { try await insights.albumInsight(for: album) }

    try await ExampleProgram.step("recommendations [AlbumRecommendation]", show: { $0.map { "[" + $0.map(\.generatedContent.jsonString).joined(separator: ",") + "]" } ?? "nil" }) {
        try await insights.recommendations()
    }

    let tiny = VinylInsights(collection: RecordCollection(albums: Array(collection.albums.prefix(3))))
    try await ExampleProgram.step("recommendations for 3 albums (below the minimum)", show: { $0 == nil ? "nil (model not called)" : "unexpected" }) {
        try await tiny.recommendations()
    }
}
