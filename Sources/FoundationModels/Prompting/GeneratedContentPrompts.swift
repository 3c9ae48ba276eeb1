import Foundation

// Values with generated content in prompts and instructions. Apple's SDK
// declares these members on `Generable` and on each primitive type besides
// the protocol extension on `ConvertibleToGeneratedContent` (app code may
// name them there); all of them keep the value as a structured segment,
// whose text form is the content's JSON.

extension ConvertibleToGeneratedContent {
    /// The value as a structured segment, named after its type.
    var structuredSegment: Transcript.Segment {
        .structure(Transcript.StructuredSegment(source: String(describing: Self.self), content: generatedContent))
    }
}

extension Generable {
    /// The value's generated content, kept as a structured segment.
    public var promptRepresentation: Prompt {
        return Prompt(segments: [structuredSegment])
    }

    /// The value's generated content, kept as a structured segment.
    public var instructionsRepresentation: Instructions {
        return Instructions(segments: [structuredSegment])
    }
}

extension Bool {
    /// The value as a structured segment (`true` or `false`).
    public var promptRepresentation: Prompt { return Prompt(segments: [structuredSegment]) }
    /// The value as a structured segment (`true` or `false`).
    public var instructionsRepresentation: Instructions { return Instructions(segments: [structuredSegment]) }
}

extension Int {
    /// The value as a structured segment (its JSON number).
    public var promptRepresentation: Prompt { return Prompt(segments: [structuredSegment]) }
    /// The value as a structured segment (its JSON number).
    public var instructionsRepresentation: Instructions { return Instructions(segments: [structuredSegment]) }
}

extension Float {
    /// The value as a structured segment (its JSON number).
    public var promptRepresentation: Prompt { return Prompt(segments: [structuredSegment]) }
    /// The value as a structured segment (its JSON number).
    public var instructionsRepresentation: Instructions { return Instructions(segments: [structuredSegment]) }
}

extension Double {
    /// The value as a structured segment (its JSON number).
    public var promptRepresentation: Prompt { return Prompt(segments: [structuredSegment]) }
    /// The value as a structured segment (its JSON number).
    public var instructionsRepresentation: Instructions { return Instructions(segments: [structuredSegment]) }
}

extension Decimal {
    /// The value as a structured segment (its JSON number).
    public var promptRepresentation: Prompt { return Prompt(segments: [structuredSegment]) }
    /// The value as a structured segment (its JSON number).
    public var instructionsRepresentation: Instructions { return Instructions(segments: [structuredSegment]) }
}
