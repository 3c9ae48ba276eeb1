/// The result builder behind `@PromptBuilder` closures.
///
/// It lets a prompt be written as a block of strings and values with `if`,
/// `switch`, `for` and `#available`; every component's segments are kept in
/// order.
@resultBuilder
public struct PromptBuilder {
    /// Combines the statements of a block.
    public static func buildBlock<each P: PromptRepresentable>(_ components: repeat each P) -> Prompt {
        var segments: [Transcript.Segment] = []
        for component in repeat each components {
            segments.append(contentsOf: component.promptRepresentation.segments)
        }
        return Prompt(segments: segments)
    }

    /// Combines the iterations of a `for` loop.
    public static func buildArray(_ prompts: [some PromptRepresentable]) -> Prompt {
        Prompt(segments: prompts.flatMap { $0.promptRepresentation.segments })
    }

    /// The `if` branch of an `if`/`else` or the first case of a `switch`.
    public static func buildEither(first component: some PromptRepresentable) -> Prompt {
        component.promptRepresentation
    }

    /// The `else` branch of an `if`/`else` or a later case of a `switch`.
    public static func buildEither(second component: some PromptRepresentable) -> Prompt {
        component.promptRepresentation
    }

    /// An `if` without `else`: nothing when the condition is false.
    public static func buildOptional(_ component: Prompt?) -> Prompt {
        component ?? Prompt(segments: [])
    }

    /// A component guarded by `if #available`.
    public static func buildLimitedAvailability(_ prompt: some PromptRepresentable) -> Prompt {
        prompt.promptRepresentation
    }

    /// A single expression statement.
    public static func buildExpression<P: PromptRepresentable>(_ expression: P) -> P {
        expression
    }

    /// A single prompt statement.
    public static func buildExpression(_ expression: Prompt) -> Prompt {
        expression
    }

    /// Any other statement: rejected with an explanation rather than a
    /// wall of overload candidates.
    @available(*, unavailable, message: "a prompt builder accepts only values that conform to PromptRepresentable")
    public static func buildExpression<T>(_ expression: T) -> Prompt {
        Prompt(segments: [])
    }
}
