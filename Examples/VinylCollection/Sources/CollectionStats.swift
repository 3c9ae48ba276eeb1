import FoundationModelsKit

/// The few numbers about a collection that the prompts use — never the
/// records themselves, which can run to thousands.
public struct CollectionStats: Sendable, Hashable {
    /// A value and how many albums have it.
    public struct Count: Sendable, Hashable {
        public var name: String
        public var albums: Int
    }

    public var albumCount: Int
    /// Genres, most albums first (ties by name).
    public var genres: [Count]
    /// Artists, most albums first.
    public var artists: [Count]
    /// Decades ("1970s"), most albums first.
    public var decades: [Count]
    /// The most played albums, most plays first.
    public var mostPlayed: [Album]

    public init(_ collection: RecordCollection) {
        let albums = collection.albums
        albumCount = albums.count
        genres = Self.counts(albums.map(\.genre))
        artists = Self.counts(albums.map(\.artist))
        decades = Self.counts(albums.map { "\($0.year / 10 * 10)s" })
        mostPlayed = Array(albums.filter { $0.plays > 0 }.sorted { ($0.plays, $1.id) > ($1.plays, $0.id) }.prefix(10))
    }

    static func counts(_ values: [String]) -> [Count] {
        Dictionary(values.map { ($0, 1) }, uniquingKeysWith: +)
            .map { Count(name: $0.key, albums: $0.value) }
            .sorted { ($0.albums, $1.name) > ($1.albums, $0.name) }
    }

    /// What the collection is made of, as far as an answer about it goes:
    /// its size and the shares of its genres and decades. Adding a record of
    /// a genre the collection already has changes it; re-sorting does not.
    public var composition: Fingerprint {
        Fingerprint(["\(albumCount)"] + genres.map { "\($0.name)=\($0.albums)" } + decades.map { "\($0.name)=\($0.albums)" })
    }
}
