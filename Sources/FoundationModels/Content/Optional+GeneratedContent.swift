// An optional converts to its wrapped value's content, or to `null` when it
// is `nil`. Converting to content is what lets optionals appear in
// `GeneratedContent(properties:)` and in prompts; the conformances to the
// prompt protocols are required by `ConvertibleToGeneratedContent` and use
// its default representations (the content's JSON).

extension Optional: ConvertibleToGeneratedContent where Wrapped: ConvertibleToGeneratedContent {
    public var generatedContent: GeneratedContent {
        switch self {
        case .some(let value): value.generatedContent
        case .none: GeneratedContent(kind: .null)
        }
    }
}

extension Optional: PromptRepresentable where Wrapped: ConvertibleToGeneratedContent {}

extension Optional: InstructionsRepresentable where Wrapped: ConvertibleToGeneratedContent {}

extension Optional where Wrapped: Generable {
    /// An optional generable value streams as its wrapped type does.
    public typealias PartiallyGenerated = Wrapped.PartiallyGenerated
}
