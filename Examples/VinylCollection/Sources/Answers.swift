import FoundationModels

/// What the album screen shows about one record, in the light of the rest
/// of the collection.
@Generable(description: "Insights about one album for its owner")
public struct AlbumInsight: Sendable, Codable, Equatable {
    @Guide(description: "One sentence on the album's sound and why it matters, at most 30 words")
    public var summary: String

    @Guide(description: "One sentence on how the album fits the owner's collection, starting with how many times the owner has played it")
    public var fit: String

    @Guide(description: "Distinct moods of the music, one or two words each", .count(2...3))
    public var moods: [String]
}

/// What a crate's card shows.
@Generable(description: "Insights about a crate of records")
public struct CrateInsight: Sendable, Codable, Equatable {
    @Guide(description: "Distinct mood or genre tags, one or two words each", .count(3...5))
    public var tags: [String]

    @Guide(description: "A one-line teaser for the crate, at most 20 words")
    public var snippet: String

    @Guide(description: "Two sentences on the mood and sound the records share, naming some of the artists")
    public var summary: String

    public init(tags: [String], snippet: String, summary: String) {
        self.tags = tags
        self.snippet = snippet
        self.summary = summary
    }
}

/// One album from the user's shelves to play next.
@Generable(description: "An album to play next")
public struct AlbumRecommendation: Sendable, Codable, Equatable {
    @Guide(description: "The album's title, as the collection lists it")
    public var title: String

    @Guide(description: "The album's artist")
    public var artist: String

    @Guide(description: "One sentence on why to play it now")
    public var reason: String

    public init(title: String, artist: String, reason: String) {
        self.title = title
        self.artist = artist
        self.reason = reason
    }
}
