extension GeneratedContent: Generable, InlineSchemaGenerable {
    /// Content can hold any JSON value, so its schema allows any.
    public static var generationSchema: GenerationSchema {
        .primitive(GeneratedContent.self, .any)
    }

    /// Creates generated content from another value (itself).
    ///
    /// This is used to satisfy `Generable.init(_:)`.
    public init(_ content: GeneratedContent) throws {
        self = content
    }

    /// The content itself.
    public var generatedContent: GeneratedContent { self }
}

extension Never: Generable, InlineSchemaGenerable {
    /// No value is valid: an any-of schema with no choices.
    public static var generationSchema: GenerationSchema {
        .primitive(Never.self, .anyOf([]))
    }

    /// Always throws: there are no values of `Never`.
    public init(_ content: GeneratedContent) throws {
        throw ContentDecoding.typeMismatch(Never.self, expected: "no value (Never has none)", found: content)
    }

    public var generatedContent: GeneratedContent {
        switch self {}
    }
}
