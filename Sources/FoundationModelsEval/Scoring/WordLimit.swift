import GuidedGeneration

/// A word limit a guide states ("at most 20 words"), judged as the engine
/// keeps it: a target the string may pass to finish its sentence or clause,
/// by the tolerance ``StringPacing`` allows, and no further.
///
/// Exists so a scorer and the decoder agree on what "at most 20 words"
/// lets through: a scorer stricter than the engine marks as wrong the very
/// answers the engine was built to give (a snippet of 22 words that ends
/// its sentence), and one looser hides an engine that overruns.
package enum WordLimit {
    /// The words a string under a stated `limit` may have.
    package static func allowed(_ limit: Int) -> Int {
        limit + StringPacing.standard.wordSlack(for: limit)
    }

    /// The limit `description` states, if any (as the engine reads it).
    package static func stated(in description: String) -> Int? {
        LengthHint.wordLimit(in: description)
    }

    /// Whether `text` keeps to `limit` as the engine keeps it, and the
    /// detail a report shows ("22 words, limit 20 (+10)").
    package static func check(_ text: String, limit: Int) -> (kept: Bool, detail: String) {
        let words = Scoring.wordCount(text)
        let allowed = allowed(limit)
        return ((1...allowed).contains(words), "\(words) words (at most \(limit) asked, \(allowed) allowed to finish a sentence)")
    }
}
