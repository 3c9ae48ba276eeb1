import VinylCollection

/// One record on a user's shelves, as the corpus files hold it.
package struct ShelfRecord: Codable, Sendable, Equatable {
    package var artist: String
    package var title: String
    package var year: Int
    package var genre: String
    package var plays: Int
}

/// A user's collection and one album of it: what the vinyl example's album
/// screen asks about.
package struct AlbumItem: Codable, Sendable, Identifiable, Equatable {
    package var id: String
    package var shelves: [ShelfRecord]
    /// The index in ``shelves`` of the album asked about.
    package var album: Int
}

/// A user's collection, for the vinyl example's recommendations.
package struct ShelvesItem: Codable, Sendable, Identifiable, Equatable {
    package var id: String
    package var shelves: [ShelfRecord]
}

/// Generates the vinyl corpora from the example's sample catalogue (60
/// well-known records; the album items start with the one the tour asks
/// about): collections of 12 to 24 of them with plays drawn
/// anew, so counts, favourites and least-played records differ from item
/// to item.
///
/// An album item's collection holds the album's other records by the same
/// artist and some of its genre, so the counts the prompt gives ("3 by
/// Miles Davis and 5 of jazz") are more than one where the catalogue
/// allows, and an answer that cites them can be told from one that does not.
package enum ShelfCorpus {
    package static let albumSeed: UInt64 = 0xA1B_0BE
    package static let shelvesSeed: UInt64 = 0x5E1_F35
    package static let albumCount = 8
    package static let shelvesCount = 6

    static var catalogue: [Album] { RecordCollection.sample.albums }

    package static func albums(seed: UInt64 = albumSeed) -> [AlbumItem] {
        var random = CorpusRandom(seed: seed)
        // The tour's album (the sample's first, Kind of Blue) first, then others.
        let targets = [0] + random.shuffled(Array(catalogue.indices.dropFirst())).prefix(albumCount - 1)
        return targets.enumerated().map { number, target in
            let album = catalogue[target]
            let kin = catalogue.indices.filter { $0 != target && (catalogue[$0].artist == album.artist || catalogue[$0].genre == album.genre) }
            var chosen = [target] + random.sample(kin, count: min(kin.count, random.int(in: 1...4)))
            let others = random.shuffled(catalogue.indices.filter { !chosen.contains($0) })
            chosen += others.prefix(random.int(in: 12...20) - chosen.count)
            let order = random.shuffled(chosen)
            let shelves = order.map { record(catalogue[$0], plays: random.int(in: 0...40)) }
            return AlbumItem(id: "album-0\(number + 1)", shelves: shelves, album: order.firstIndex(of: target) ?? 0)
        }
    }

    package static func shelves(seed: UInt64 = shelvesSeed) -> [ShelvesItem] {
        var random = CorpusRandom(seed: seed)
        return (1...shelvesCount).map { number in
            let chosen = random.sample(Array(catalogue.indices), count: random.int(in: 12...24))
            return ShelvesItem(id: "shelves-0\(number)", shelves: chosen.map { record(catalogue[$0], plays: random.int(in: 0...40)) })
        }
    }

    static func record(_ album: Album, plays: Int) -> ShelfRecord {
        ShelfRecord(artist: album.artist, title: album.title, year: album.year, genre: album.genre, plays: plays)
    }
}

extension ShelfRecord {
    /// A collection's album as the corpus files hold it.
    package init(_ album: Album) {
        self.init(artist: album.artist, title: album.title, year: album.year, genre: album.genre, plays: album.plays)
    }
}

extension AlbumItem {
    /// The item for `album` of `collection`: what a program that shows an
    /// album insight judges it by (``AlbumTask``).
    package init?(id: String, collection: RecordCollection, album: Album) {
        guard let index = collection.albums.firstIndex(of: album) else { return nil }
        self.init(id: id, shelves: collection.albums.map(ShelfRecord.init), album: index)
    }
}

extension ShelvesItem {
    /// The item for `collection` (``RecommendationTask``).
    package init(id: String, collection: RecordCollection) {
        self.init(id: id, shelves: collection.albums.map(ShelfRecord.init))
    }
}

extension [ShelfRecord] {
    /// The records as the vinyl example holds a collection.
    package var collection: RecordCollection {
        RecordCollection(
            albums: enumerated().map { index, record in
                Album(id: "lp-\(index + 1)", artist: record.artist, title: record.title, year: record.year, genre: record.genre, plays: record.plays)
            })
    }
}
