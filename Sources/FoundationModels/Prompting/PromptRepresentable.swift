/// A type that can be used as (part of) a prompt.
///
/// It exists so that strings, arrays, structured values and whole ``Prompt``s
/// can all appear in a `@PromptBuilder` block or be passed to `respond(to:)`.
public protocol PromptRepresentable {
    /// This value as a prompt.
    @PromptBuilder var promptRepresentation: Prompt { get }
}

extension Prompt: PromptRepresentable {
    /// A prompt represents itself.
    public var promptRepresentation: Prompt {
        // `return` keeps the requirement's result builder from being applied
        // (which would call this property again).
        return self
    }
}

extension String: PromptRepresentable {
    /// The string as plain prompt text (never JSON-quoted).
    public var promptRepresentation: Prompt {
        return Prompt(segments: [.text(Transcript.TextSegment(content: self))])
    }
}

extension Array: PromptRepresentable where Element: PromptRepresentable {
    /// Every element's prompt, in order.
    public var promptRepresentation: Prompt {
        return Prompt(segments: flatMap { $0.promptRepresentation.segments })
    }
}

extension ConvertibleToGeneratedContent {
    /// The value's generated content, kept as a structured segment (its text
    /// form is the content's JSON).
    public var promptRepresentation: Prompt {
        return Prompt(segments: [structuredSegment])
    }
}

extension Result: PromptRepresentable where Success: PromptRepresentable, Failure: PromptRepresentable {
    /// The success value's prompt, or the failure's: a tool can return a
    /// `Result` and the model reads whichever it holds.
    public var promptRepresentation: Prompt {
        switch self {
        case .success(let value): return value.promptRepresentation
        case .failure(let error): return error.promptRepresentation
        }
    }
}
