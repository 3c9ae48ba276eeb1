/// What a session does with a request's entries when the request fails.
///
/// By default (`revertTranscript`) a failed or cancelled request leaves the
/// transcript exactly as it was. With `preserveTranscript` the entries the
/// request added before it failed — its prompt, and the tool calls and
/// outputs of finished rounds — stay, so a conversation can continue from
/// where the model got to.
public struct TranscriptErrorHandlingPolicy: Sendable, Hashable {
    private let preserves: Bool

    /// Leave the transcript as it was before the failed request. The default.
    public static var revertTranscript: TranscriptErrorHandlingPolicy { TranscriptErrorHandlingPolicy(preserves: false) }

    /// Keep the entries the failed request added.
    public static var preserveTranscript: TranscriptErrorHandlingPolicy { TranscriptErrorHandlingPolicy(preserves: true) }
}
