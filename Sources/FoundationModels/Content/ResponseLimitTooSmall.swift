/// Why a typed answer (or a tool call) failed where its shortest valid
/// value needs more tokens than the response's limit
/// (`maximumResponseTokens`) leaves: the underlying error of the
/// `GeneratedContent.ParsingError` the in-process engine throws then, so a
/// server can tell the client its limit is too small (`fm serve`: a 400
/// naming `max_tokens`) from an answer that could not be completed.
package struct ResponseLimitTooSmall: Error, Sendable, Equatable {
    /// The response's limit, in tokens.
    package var limit: Int

    package init(limit: Int) {
        self.limit = limit
    }
}
