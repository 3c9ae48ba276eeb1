import FoundationModels
import FoundationModelsKit

/// The prompts of the collection features, as pure functions of their
/// inputs: every input is capped here — string lengths, list lengths — so
/// a prompt's size does not grow with the user's collection (500 records
/// or 50,000 make the same few hundred tokens), and each prompt is tested
/// without a model.
public enum VinylPrompts {
    /// The caps, in one place.
    public enum Limits {
        /// Characters of an artist, a title, a genre or a crate's name.
        public static let field = 60
        /// Albums of a crate listed in its prompt.
        public static let crateAlbums = 12
        /// Genres, artists and decades named in a summary of the collection.
        public static let topGenres = 5
        public static let topArtists = 8
        public static let topDecades = 4
    }

    public static let albumInsightInstructions = """
        You write short, vivid notes about vinyl records for a record-collection app. \
        Speak to the owner; never invent facts about the owner's collection beyond what you are told.
        """

    public static let crateInsightInstructions = """
        You write short, vivid insights about crates of vinyl records for a record-collection app.
        """

    public static let recommendationInstructions = """
        You pick records for the owner of a vinyl collection to play next: albums from the owner's own shelves that \
        they have played little. Look albums up with the searchCollection tool by one of the owner's favourite genres; recommend only albums it returned.
        """

    /// One album, and where it stands in the collection.
    public static func albumInsight(_ album: Album, in stats: CollectionStats) -> String {
        let byArtist = stats.artists.first { $0.name == album.artist }?.albums ?? 1
        let inGenre = stats.genres.first { $0.name == album.genre }?.albums ?? 1
        let genres = PromptInput.cappedList(stats.genres, maximumItems: Limits.topGenres) { field($0.name) }
        return """
            Album: "\(field(album.title))" by \(field(album.artist)), \(album.year), \(field(album.genre)). The owner has played it \(album.plays) times.
            The owner has \(stats.albumCount) albums: \(byArtist) by \(field(album.artist)) and \(inGenre) of \(field(album.genre)). \
            The collection's main genres: \(genres.joined(separator: ", ")).
            """
    }

    /// A crate's name and its first albums.
    public static func crateInsight(_ crate: Crate) -> String {
        let lines = PromptInput.cappedList(crate.albums, maximumItems: Limits.crateAlbums) {
            "- \(field($0.artist)) — \(field($0.title)) (\($0.year), \(field($0.genre)))"
        }
        return "Crate \"\(field(crate.name))\":\n" + lines.joined(separator: "\n")
    }

    /// What the collection is made of, for `count` recommendations.
    public static func recommendations(_ stats: CollectionStats, count: Int) -> String {
        """
        The owner's collection: \(summary(stats))
        Recommend \(count) albums from the collection to play next.
        """
    }

    /// "312 albums. Favourite genres: jazz, soul, rock. …" — names in
    /// order of how many albums have them; the counts themselves are left
    /// out (a small model copies them into its answer).
    static func summary(_ stats: CollectionStats) -> String {
        func names(_ counts: [CollectionStats.Count], _ maximum: Int) -> String {
            PromptInput.cappedList(counts, maximumItems: maximum) { field($0.name) }.joined(separator: ", ")
        }
        var sentences = ["\(stats.albumCount) albums"]
        sentences.append("Favourite genres: " + names(stats.genres, Limits.topGenres))
        sentences.append("Favourite artists: " + names(stats.artists, Limits.topArtists))
        sentences.append("Decades: " + names(stats.decades, Limits.topDecades))
        if !stats.mostPlayed.isEmpty {
            sentences.append(
                "Most played: " + stats.mostPlayed.prefix(3).map { "\"\(field($0.title))\" by \(field($0.artist))" }.joined(separator: ", "))
        }
        return sentences.joined(separator: ". ") + "."
    }

    static func field(_ text: String) -> String {
        PromptInput.capped(text, to: Limits.field)
    }
}
