// Shapes from a record-collection app: AI insights about albums and crates,
// and recommendations drawn from the user's collection.

import FoundationModels

@Generable(description: "AI-generated insights about a vinyl album")
struct AlbumAIInsight: Codable, Sendable, Equatable, Hashable {
    @Guide(description: "Two sentences on the album's sound and its place in the artist's catalog")
    var summary: String

    @Guide(description: "What a collector should know about this pressing")
    var collectorNotes: String

    @Guide(description: "One album with a similar feel, written as 'Artist - Title'")
    var listenNext: String
}

@Generable(description: "AI-generated insights about a crate of records")
struct CrateAIInsight: Sendable, Equatable {
    @Guide(description: "A short, evocative title for the crate")
    var title: String

    @Guide(description: "Mood tags that describe the crate", .minimumCount(3), .maximumCount(5))
    var moodTags: [String]

    @Guide(description: "A paragraph describing how the records fit together")
    var narrative: String
}

@Generable(description: "An album from the user's collection worth playing next")
struct AlbumRecommendation: Sendable, Equatable, Hashable, Identifiable {
    var releaseId: Int

    @Guide(description: "How the album connects to the one being played", .anyOf(["artist", "genre", "era", "label", "style"]))
    var connectionType: String

    @Guide(description: "Albums in the collection the recommendation is based on", .minimumCount(1), .maximumCount(3))
    var basedOn: [String]

    @Guide(description: "One sentence on why the user will like it")
    var reason: String

    var id: String { "\(releaseId)" }
}
