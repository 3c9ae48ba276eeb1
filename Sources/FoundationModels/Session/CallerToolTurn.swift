import Foundation

/// One turn of the model for a caller that runs the tools itself.
///
/// Apple's session runs a tool the moment the model calls it. An
/// OpenAI-compatible server (`fm serve`) cannot: its client holds the tools,
/// so the model's calls must go back over the wire and their outputs come
/// in with the next request, as tool messages after that request's prompt.
/// This is the session's own request engine (prompt rendering, prefix
/// cache, tool-call grammar, guided generation, errors) with that one
/// difference, shared by the package's modules rather than made public.
extension LanguageModelSession {
    /// How a turn ended: with an answer, or with calls for the caller to run.
    package struct CallerTurn: Sendable {
        /// The answer: text, or JSON following the schema. Empty when the
        /// model called tools.
        package var content: GeneratedContent
        /// The calls the caller must run, when the model made any.
        package var toolCalls: Transcript.ToolCalls?
        /// Tokens read and written by this turn.
        package var usage: Usage
    }

    /// Answers `prompt`, or returns the tools the model calls instead of
    /// calling them.
    ///
    /// - Parameters:
    ///   - schema: the schema the answer follows, or `nil` for text.
    ///   - earlierRounds: this request's tool rounds the caller already ran
    ///     (`.toolCalls` and their `.toolOutput`s), in order, after the prompt.
    ///   - onSnapshot: the answer's text so far (for a typed answer, its
    ///     JSON text, which grows by appending) and the tokens so far, after
    ///     every piece of text.
    /// - Throws: what `respond` throws; the transcript is left as it was.
    package func turn(
        to prompt: Prompt,
        schema: GenerationSchema?,
        earlierRounds: [Transcript.Entry] = [],
        options: GenerationOptions = GenerationOptions(),
        onSnapshot: (@Sendable (_ text: String, Usage) -> Void)? = nil
    ) async throws -> CallerTurn {
        var spec =
            schema.map { specForSchema(prompt, schema: $0, options: options, contextOptions: ContextOptions()) }
            ?? specForText(prompt, options: options)
        spec.callerRunsTools = true
        spec.earlierRounds = earlierRounds
        var forward: (@Sendable (RequestProgress) -> Void)?
        if let onSnapshot {
            forward = { progress in onSnapshot(progress.text, progress.usage) }
        }
        let result = try await perform(spec, onSnapshot: forward)
        return CallerTurn(content: result.rawContent, toolCalls: result.toolCalls, usage: result.usage)
    }
}
