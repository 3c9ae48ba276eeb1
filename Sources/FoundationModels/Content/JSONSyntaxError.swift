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

    package init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    package var description: String { "Malformed JSON at byte \(offset): \(message)" }
}
