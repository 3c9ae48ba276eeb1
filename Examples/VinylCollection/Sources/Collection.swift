import Foundation

/// One record in the user's collection.
public struct Album: Codable, Sendable, Hashable, Identifiable {
    /// Stable across edits of the other fields (a catalogue number, a database id).
    public var id: String
    public var artist: String
    public var title: String
    public var year: Int
    public var genre: String
    /// Times the user logged a play.
    public var plays: Int

    public init(id: String, artist: String, title: String, year: Int, genre: String, plays: Int = 0) {
        self.id = id
        self.artist = artist
        self.title = title
        self.year = year
        self.genre = genre
        self.plays = plays
    }

    /// "Artist — Title (Year, Genre)": how an album appears in prompts and tool output.
    public var line: String { "\(artist) — \(title) (\(year), \(genre))" }
}

/// A named selection of the user's albums (a crate in the record-shop sense).
public struct Crate: Codable, Sendable, Hashable {
    public var name: String
    public var albums: [Album]

    public init(name: String, albums: [Album]) {
        self.name = name
        self.albums = albums
    }
}

/// The user's records.
public struct RecordCollection: Sendable {
    public var albums: [Album]

    public init(albums: [Album]) {
        self.albums = albums
    }

    /// The album titled `title` (by `artist` when several share the
    /// title), case and diacritics ignored.
    public func album(titled title: String, by artist: String) -> Album? {
        let (artist, title) = (Self.folded(artist), Self.folded(title))
        let titled = albums.filter { Self.folded($0.title) == title }
        return titled.first { Self.folded($0.artist) == artist } ?? titled.first
    }

    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
