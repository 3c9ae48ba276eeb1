/// Why a JSON document could not be parsed, and where.
///
/// Exists so callers (and tests) can see the exact byte offset of the
/// problem; ``GeneratedContent/init(json:)`` wraps it as the underlying error
/// of a `DecodingError.dataCorrupted`, whose description repeats both.
package struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Offset, in UTF-8 bytes from the start of the document, of the byte
    /// where the problem was found.
    package var offset: Int
    /// What was wrong, as a sentence fragment ("expected ':' after an object key").
    package var message: String
    /// The property path of the value being parsed when the problem was
    /// found (`cards`, `1`, `answer`); empty at the top level.
    package var path: [ContentDecoding.PathComponent]

    package init(offset: Int, message: String, path: [ContentDecoding.PathComponent] = []) {
        self.offset = offset
        self.message = message
        self.path = path
    }

    package var description: String { "Malformed JSON at byte \(offset): \(message)" }
}
