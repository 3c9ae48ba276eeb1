/// A type whose values can be built from model output.
///
/// This is the decoding half of ``Generable``: tool arguments only need to be
/// decodable, which is why `Tool.Arguments` is constrained to this protocol
/// rather than to `Generable`.
public protocol ConvertibleFromGeneratedContent: SendableMetatype {
    /// Creates a value from generated content, throwing when the content has
    /// the wrong shape (the error names the offending property path).
    init(_ content: GeneratedContent) throws
}

/// A type whose values can be turned into generated content.
///
/// Because every such value has a canonical JSON form, it can also be used
/// directly as part of a prompt or of instructions.
public protocol ConvertibleToGeneratedContent: InstructionsRepresentable, PromptRepresentable {
    /// This value as generated content.
    var generatedContent: GeneratedContent { get }
}

/// A type the model can generate: it has a schema that guided generation
/// enforces, and it converts to and from ``GeneratedContent``.
///
/// Usually conformance comes from the `@Generable` macro.
public protocol Generable: ConvertibleFromGeneratedContent, ConvertibleToGeneratedContent {
    /// The type used for snapshots while a value is still being generated:
    /// every property optional, filled in as the model streams.
    associatedtype PartiallyGenerated: ConvertibleFromGeneratedContent = Self

    /// The schema guided generation enforces for this type.
    static var generationSchema: GenerationSchema { get }
}

extension Generable {
    /// A type that generates completely at once is its own partially
    /// generated form (a type with a nested `PartiallyGenerated`, as
    /// `@Generable` structs have, uses that instead).
    public typealias PartiallyGenerated = Self

    /// This value as a partially generated one.
    ///
    /// A complete value is always a valid partial value, so the conversion
    /// cannot fail for content produced by `generatedContent`.
    public func asPartiallyGenerated() -> Self.PartiallyGenerated {
        if let same = self as? Self.PartiallyGenerated {
            return same
        }
        do {
            return try Self.PartiallyGenerated(generatedContent)
        } catch {
            // A Generable type whose own complete content does not decode as its
            // partial type breaks the protocol's contract; that is a programming
            // error in the conformance, not a runtime condition.
            preconditionFailure("\(Self.self).PartiallyGenerated cannot decode \(Self.self).generatedContent: \(error)")
        }
    }
}
