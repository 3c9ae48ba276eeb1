import GuidedGeneration

// Arrays convert element by element; a decoding failure names the element's
// index (`tags[3]: expected a string, found a number`).

extension Array: ConvertibleToGeneratedContent where Element: ConvertibleToGeneratedContent {
    public var generatedContent: GeneratedContent {
        GeneratedContent(kind: .array(map(\.generatedContent)))
    }
}

extension Array: ConvertibleFromGeneratedContent where Element: ConvertibleFromGeneratedContent {
    /// Reads every element. While the array is still streaming, a last
    /// element that is incomplete and cannot be decoded yet is left out.
    public init(_ content: GeneratedContent) throws {
        guard case .array(let elements) = content.kind else {
            throw ContentDecoding.typeMismatch([Element].self, expected: "an array", found: content)
        }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for (offset, element) in elements.enumerated() {
            do {
                result.append(try ContentDecoding.withPath(.index(offset)) { try Element(element) })
            } catch {
                if !element.isComplete, offset == elements.count - 1 { break }
                throw error
            }
        }
        self = result
    }
}

extension Array: Generable where Element: Generable {
    public typealias PartiallyGenerated = [Element.PartiallyGenerated]

    /// An array schema whose items follow `Element`'s schema.
    public static var generationSchema: GenerationSchema {
        let items = SchemaEmbedding.embed(Element.self)
        return GenerationSchema(
            name: SchemaNaming.name(of: [Element].self),
            description: nil,
            root: .array(ArrayNode(items: items.node)),
            definitions: items.definitions,
            isNamedType: false
        )
    }
}

extension Array: InlineSchemaGenerable {}
