import Foundation
import FoundationModelsEval

// Linked into Flashcards' Demo and Tests folders.

extension NotesItem {
    /// Notes as the eval's item, so that `FlashcardTask`'s scorers judge a
    /// deck on them as `make eval` judges the corpus's notes: an answer is
    /// grounded when it uses one of `keyTerms` (the facts' terms) or mostly
    /// words of the notes.
    ///
    /// Made through the item's `Codable` form (the corpus file's): its
    /// memberwise initializer is internal to FoundationModelsEval.
    init(topic: String, notes: String, keyTerms: [String]) throws {
        let fields: [String: Any] = ["id": topic, "topic": topic, "notes": notes, "keyTerms": keyTerms]
        self = try JSONDecoder().decode(Self.self, from: JSONSerialization.data(withJSONObject: fields))
    }
}
