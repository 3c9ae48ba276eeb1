/// The result builder behind `@InstructionsBuilder` closures.
///
/// It lets instructions be written as a block of strings and values with
/// `if`, `switch`, `for` and `#available`; every component's segments are
/// kept in order.
@resultBuilder
public struct InstructionsBuilder {
    /// Combines the statements of a block.
    public static func buildBlock<each I: InstructionsRepresentable>(_ components: repeat each I) -> Instructions {
        var segments: [Transcript.Segment] = []
        for component in repeat each components {
            segments.append(contentsOf: component.instructionsRepresentation.segments)
        }
        return Instructions(segments: segments)
    }

    /// Combines the iterations of a `for` loop.
    public static func buildArray(_ instructions: [some InstructionsRepresentable]) -> Instructions {
        Instructions(segments: instructions.flatMap { $0.instructionsRepresentation.segments })
    }

    /// The `if` branch of an `if`/`else` or the first case of a `switch`.
    public static func buildEither(first component: some InstructionsRepresentable) -> Instructions {
        component.instructionsRepresentation
    }

    /// The `else` branch of an `if`/`else` or a later case of a `switch`.
    public static func buildEither(second component: some InstructionsRepresentable) -> Instructions {
        component.instructionsRepresentation
    }

    /// An `if` without `else`: nothing when the condition is false.
    public static func buildOptional(_ instructions: Instructions?) -> Instructions {
        instructions ?? Instructions(segments: [])
    }

    /// A component guarded by `if #available`.
    public static func buildLimitedAvailability(_ instructions: some InstructionsRepresentable) -> Instructions {
        instructions.instructionsRepresentation
    }

    /// A single expression statement.
    public static func buildExpression<I: InstructionsRepresentable>(_ expression: I) -> I {
        expression
    }

    /// A single instructions statement.
    public static func buildExpression(_ expression: Instructions) -> Instructions {
        expression
    }

    /// Any other statement: rejected with an explanation rather than a
    /// wall of overload candidates.
    @available(*, unavailable, message: "an instructions builder accepts only values that conform to InstructionsRepresentable")
    public static func buildExpression<T>(_ expression: T) -> Instructions {
        Instructions(segments: [])
    }
}
