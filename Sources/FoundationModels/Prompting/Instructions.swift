/// Instructions from the developer that steer the model for a whole session.
///
/// Like ``Prompt``, instructions are an ordered list of text and structured
/// segments, built with ``InstructionsBuilder``; the session stores them as
/// the first transcript entry and a text-only model reads them joined by
/// newlines.
public struct Instructions: Sendable {
    /// The instructions' parts, in order.
    package var segments: [Transcript.Segment]

    /// Creates instructions from a builder block.
    public init(@InstructionsBuilder _ content: () throws -> Instructions) rethrows {
        self = try content()
    }

    /// Creates instructions from segments.
    /// Creates instructions from one representable value (a string, a
    /// Generable value, …).
    public init(_ content: some InstructionsRepresentable) {
        self = content.instructionsRepresentation
    }

    package init(segments: [Transcript.Segment]) {
        self.segments = segments
    }

    /// The instructions as text: each segment's text, joined by newlines.
    package var text: String { segments.renderedText }
}
