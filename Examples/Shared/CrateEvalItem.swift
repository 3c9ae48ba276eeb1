import Foundation
import FoundationModelsEval
import VinylCollection

// Linked into VinylCollection's Demo and Tests folders.

extension CrateItem {
    /// The example's crate as the eval's item, so that `CrateTask`'s
    /// scorers (tags, snippet, the crate's artists named, the type's name
    /// not copied) judge an insight on it as `make eval` judges the
    /// corpus's crates.
    ///
    /// Made through the item's `Codable` form (the corpus file's): its
    /// memberwise initializer is internal to FoundationModelsEval.
    init(_ crate: Crate) throws {
        let records: [[String: Any]] = crate.albums.map { ["artist": $0.artist, "title": $0.title, "year": $0.year, "genre": $0.genre] }
        let fields: [String: Any] = ["id": crate.name, "name": crate.name, "records": records]
        self = try JSONDecoder().decode(Self.self, from: JSONSerialization.data(withJSONObject: fields))
    }
}

/// The albums of `known` that `text` names by title (its words, whole and
/// in order, as the eval matches names) and that `given` does not have: an
/// answer about a crate that names a record outside it, or a
/// recommendation's reason that names one not on the shelves, talks about
/// records the user was not asked about.
///
/// `known` is the catalogue the check knows (the sample collection): a
/// title outside it is not seen. Titles of one word are left out (`Blue`,
/// `Low`, `Wave` are words an answer uses as words).
func albumsNamed(in text: String, outside given: [Album], known: [Album]) -> [Album] {
    let given = Set(given.map { Scoring.normalized($0.title) })
    return known.filter { album in
        Scoring.words(album.title).count >= 2 && !given.contains(Scoring.normalized(album.title)) && Scoring.contains(text, phrase: album.title)
    }
}
