/// A prompt from the user to the model.
///
/// A prompt is an ordered list of text and structured segments, built with
/// ``PromptBuilder``. It exists so that a session can record exactly what was
/// asked (the segments go into the transcript unchanged) while a model that
/// only reads text gets the segments joined by newlines.
public struct Prompt: Sendable {
    /// The prompt's parts, in order.
    package var segments: [Transcript.Segment]

    /// Creates a prompt from a builder block.
    public init(@PromptBuilder _ content: () throws -> Prompt) rethrows {
        self = try content()
    }

    /// Creates a prompt from segments.
    /// Creates a prompt from one representable value (a string, a
    /// Generable value, …).
    public init(_ content: some PromptRepresentable) {
        self = content.promptRepresentation
    }

    package init(segments: [Transcript.Segment]) {
        self.segments = segments
    }

    /// The prompt as text: each segment's text, joined by newlines.
    package var text: String { segments.renderedText }
}
