/// A type that can be used as (part of) the instructions of a session.
///
/// It exists so that strings, arrays, structured values and whole
/// ``Instructions`` can all appear in an `@InstructionsBuilder` block.
public protocol InstructionsRepresentable {
    /// This value as instructions.
    @InstructionsBuilder var instructionsRepresentation: Instructions { get }
}

extension Instructions: InstructionsRepresentable {
    /// Instructions represent themselves.
    public var instructionsRepresentation: Instructions {
        // `return` keeps the requirement's result builder from being applied
        // (which would call this property again).
        return self
    }
}

extension String: InstructionsRepresentable {
    /// The string as plain instruction text (never JSON-quoted).
    public var instructionsRepresentation: Instructions {
        return Instructions(segments: [.text(Transcript.TextSegment(content: self))])
    }
}

extension Array: InstructionsRepresentable where Element: InstructionsRepresentable {
    /// Every element's instructions, in order.
    public var instructionsRepresentation: Instructions {
        return Instructions(segments: flatMap { $0.instructionsRepresentation.segments })
    }
}

extension ConvertibleToGeneratedContent {
    /// The value's generated content, kept as a structured segment (its text
    /// form is the content's JSON).
    public var instructionsRepresentation: Instructions {
        return Instructions(segments: [structuredSegment])
    }
}
