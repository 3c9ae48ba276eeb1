import FoundationModels
import FoundationModelsKit

/// Looks albums up in the user's collection by genre, so a prompt carries a
/// summary of the collection instead of every record: the model asks for a
/// genre and gets a few lines back.
///
/// The argument's schema is built from the collection: `genre` is one of
/// the collection's genres (the most common ones, capped), so the model
/// cannot ask for a genre the user does not have, or for something that is
/// not a genre at all — a small model otherwise writes a title or a list
/// where the query goes.
public struct SearchCollectionTool: Tool {
    public typealias Arguments = GeneratedContent

    public let name = "searchCollection"
    public let description = "Lists the albums of one genre in the owner's collection that the owner has played least."

    /// The most albums one call returns, and the most genres offered.
    public static let maximumResults = 8
    public static let maximumGenres = 16

    let collection: RecordCollection
    public let parameters: GenerationSchema
    let onCall: (@Sendable (String) -> Void)?

    /// - Parameter onCall: told each genre the model looks up (for logs and the demo).
    /// - Throws: when the collection is empty (no genre to offer).
    public init(collection: RecordCollection, onCall: (@Sendable (String) -> Void)? = nil) throws {
        self.collection = collection
        self.onCall = onCall
        let genres = Self.offeredGenres(in: collection)
        parameters = try GenerationSchema(
            root: DynamicGenerationSchema(
                name: "SearchCollectionArguments",
                properties: [.init(name: "genre", description: "A genre of the collection", schema: .init(name: "Genre", anyOf: genres))]
            ), dependencies: [])
    }

    public func call(arguments: GeneratedContent) async throws -> String {
        let genre = try arguments.value(String.self, forProperty: "genre")
        onCall?(genre)
        return lookUp(genre: genre)
    }

    /// What the model reads back for `genre`: the genre's less played
    /// half (at least one album), least played first.
    ///
    /// Only that half, because the feature recommends what the owner has
    /// played little, and a model shown the whole genre picks from all of
    /// it: on the eval's collections, the default model recommended albums
    /// played more than most of their genre in 5 of 6 collections when the
    /// tool listed the genre whole, and in 2 of 6 with this half (`fm eval
    /// recommendations`: picks among the least played 1/6 → 4/6). The
    /// recommendations' schema allows only what a lookup can list
    /// (``VinylInsights/recommendationSchema(for:)``).
    func lookUp(genre: String) -> String {
        let inGenre = Self.albums(ofGenre: genre, in: collection)
        guard !inGenre.isEmpty else { return "The owner has no \(PromptInput.capped(genre, to: VinylPrompts.Limits.field)) albums." }
        let lines = Self.playedLeast(inGenre).map { "- \"\($0.title)\" by \($0.artist) (\($0.year)), played \($0.plays) times" }
        let omitted = (inGenre.count + 1) / 2 - lines.count
        return "The \(PromptInput.capped(genre, to: VinylPrompts.Limits.field)) albums the owner has played least, least played first:\n"
            + (lines + (omitted > 0 ? ["(and \(omitted) more)"] : [])).joined(separator: "\n")
    }

    /// What a lookup of a genre lists, of its albums: the less played half
    /// (at least one album), least played first, at most ``maximumResults``.
    static func playedLeast(_ genre: [Album]) -> [Album] {
        let sorted = genre.sorted { ($0.plays, $0.artist, $0.title) < ($1.plays, $1.artist, $1.title) }
        return Array(sorted.prefix(min((sorted.count + 1) / 2, maximumResults)))
    }

    /// Every album a lookup can list: the offered genres' ``playedLeast(_:)``.
    /// The recommendations' schema allows these albums only
    /// (``VinylInsights/recommendationSchema(for:)``).
    public static func listable(in collection: RecordCollection) -> [Album] {
        offeredGenres(in: collection).flatMap { playedLeast(albums(ofGenre: $0, in: collection)) }
    }

    /// The genres the `genre` argument allows: the collection's most
    /// common, at most ``maximumGenres``.
    static func offeredGenres(in collection: RecordCollection) -> [String] {
        CollectionStats(collection).genres.prefix(maximumGenres).map(\.name)
    }

    /// The albums of `genre`, letter case, accents and surrounding spaces
    /// aside (``RecordCollection/folded(_:)``).
    static func albums(ofGenre genre: String, in collection: RecordCollection) -> [Album] {
        collection.albums.filter { RecordCollection.folded($0.genre) == RecordCollection.folded(genre) }
    }
}
