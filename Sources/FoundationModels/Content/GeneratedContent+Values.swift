extension GeneratedContent {
    /// Reads a top level, concrete value of the given type from this content.
    public func value<Value>(_ type: Value.Type = Value.self) throws -> Value
    where Value: ConvertibleFromGeneratedContent {
        try Value(self)
    }

    /// Reads a concrete value of the given type from a named property.
    ///
    /// - Throws: a `DecodingError` when this content is not a structure, when
    ///   the property is missing, or when its value does not decode; the
    ///   error's coding path and description name the full property path
    ///   (`cards[2].question: expected a string, found a number`).
    public func value<Value>(_ type: Value.Type = Value.self, forProperty property: String) throws -> Value
    where Value: ConvertibleFromGeneratedContent {
        let properties = try structureProperties(reading: property)
        guard let content = properties[property] else {
            throw ContentDecoding.keyNotFound(property, in: [])
        }
        return try ContentDecoding.withPath(.property(property)) { try Value(content) }
    }

    /// Reads an optional value of the given type from a named property.
    ///
    /// Returns `nil` when the property is missing or `null`, and also when
    /// its content is still incomplete (being streamed) and cannot be decoded
    /// yet; this is what lets `PartiallyGenerated` snapshots fill in as a
    /// response streams. Content that is an incomplete `null` (nothing
    /// generated yet) has no properties yet, so every property reads `nil`.
    public func value<Value>(_ type: Value?.Type = Value?.self, forProperty property: String) throws -> Value?
    where Value: ConvertibleFromGeneratedContent {
        if case .null = kind, !isComplete { return nil }
        let properties = try structureProperties(reading: property)
        guard let content = properties[property] else { return nil }
        if case .null = content.kind { return nil }
        do {
            return try ContentDecoding.withPath(.property(property)) { try Value(content) }
        } catch {
            if !content.isComplete { return nil }
            throw error
        }
    }

    private func structureProperties(reading property: String) throws -> [String: GeneratedContent] {
        guard case .structure(let properties, _) = kind else {
            throw ContentDecoding.typeMismatch(
                [String: GeneratedContent].self,
                expected: "a structure with the property \"\(property)\"",
                found: self
            )
        }
        return properties
    }
}
