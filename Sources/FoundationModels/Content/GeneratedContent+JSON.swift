import Foundation

extension GeneratedContent {
    /// Creates content by parsing a JSON document, which may be incomplete.
    ///
    /// Accepts any RFC 8259 document and also any *prefix* of one, as a model
    /// streams it: unfinished values are kept as far as they go and marked
    /// with ``isComplete`` `== false` (on the node and all its ancestors).
    ///
    /// The rule for incomplete input:
    /// - an unfinished string keeps the characters read so far (an escape
    ///   sequence cut in the middle is left out);
    /// - an unfinished object keeps its finished and unfinished members, but
    ///   leaves out a member whose key, colon or value has not started;
    /// - an unfinished array keeps the elements read so far;
    /// - a number that reaches the end of the input is kept when its text so
    ///   far is a valid number (`12`, `-1.5`), marked incomplete when it is
    ///   inside an unfinished container (more digits may follow), and left out
    ///   when it is not yet a number (`-`, `1.`, `1e`);
    /// - an unfinished literal (`tr`, `nul`) is left out;
    /// - when nothing representable has been read at the top level (empty
    ///   input, `tr`, `-`), the result is an incomplete `null`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for malformed JSON, with a
    ///   message naming the byte offset of the problem and, inside a value,
    ///   its property path (`cards[1].answer: Malformed JSON at byte 52: …`,
    ///   also the error's `codingPath`).
    public init(json: String) throws {
        self = try PartialJSONParser.parse(json)
    }

    /// The content as compact JSON: structure keys in ``Kind/structure(properties:orderedKeys:)``
    /// order, integral numbers without a fraction (`5`, not `5.0`).
    ///
    /// Incomplete content prints as the complete JSON of what has been
    /// generated so far.
    public var jsonString: String {
        var printer = JSONPrinter(pretty: false)
        printer.write(self)
        return printer.output
    }

    /// Creates string content that may still be growing (plain-text
    /// responses while they stream).
    package init(partialText: String, isComplete: Bool) {
        self.init(kind: .string(partialText), id: nil, isComplete: isComplete)
    }

    /// The content as indented JSON, for debugging output.
    package var prettyJSONString: String {
        var printer = JSONPrinter(pretty: true)
        printer.write(self)
        return printer.output
    }
}
