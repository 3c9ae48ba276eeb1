/// Builds and re-paths the `DecodingError`s thrown when ``GeneratedContent``
/// does not have the shape a type expects.
///
/// Exists so every failure names where it happened: the innermost decoder
/// throws with an empty path, and each enclosing property or array element
/// prepends its key on the way out, so the final error reads
/// `cards[2].question: expected a string, found a number` with a matching
/// `codingPath`.
package enum ContentDecoding {
    /// A step in a property path: a structure key or an array index.
    package enum PathComponent: Sendable, Equatable {
        case property(String)
        case index(Int)

        var codingKey: any CodingKey {
            switch self {
            case .property(let name): ContentCodingKey(stringValue: name)
            case .index(let offset): ContentCodingKey(intValue: offset)
            }
        }
    }

    /// Runs `body`, prepending `component` to the path of any
    /// `DecodingError` it throws. Other errors pass through unchanged.
    package static func withPath<T>(_ component: PathComponent, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DecodingError {
            throw prepending(component.codingKey, to: error)
        }
    }

    /// The error thrown when content has the wrong kind; `null` content
    /// gives `valueNotFound` instead of `typeMismatch`.
    package static func typeMismatch(_ type: Any.Type, expected: String, found content: GeneratedContent) -> DecodingError {
        let message = "expected \(expected), found \(describe(content))"
        if case .null = content.kind {
            return .valueNotFound(type, .init(codingPath: [], debugDescription: message))
        }
        return .typeMismatch(type, .init(codingPath: [], debugDescription: message))
    }

    /// The error thrown when content has the right kind but an unusable
    /// value (an out-of-range integer, a string that is no enum case, …).
    package static func dataCorrupted(_ message: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: message))
    }

    /// The error thrown when a required property is missing.
    package static func keyNotFound(_ property: String, in path: [any CodingKey]) -> DecodingError {
        let key = ContentCodingKey(stringValue: property)
        return .keyNotFound(
            key,
            .init(
                codingPath: path,
                debugDescription: render(path + [key]) + ": required property is missing"
            ))
    }

    /// A short description of content for error messages ("a number").
    package static func describe(_ content: GeneratedContent) -> String {
        let incomplete = content.isComplete ? "" : "an incomplete "
        let noun: String
        switch content.kind {
        case .null: return "null"
        case .bool: noun = "boolean"
        case .number: noun = "number"
        case .string: noun = "string"
        case .array: noun = "array"
        case .structure: noun = "structure"
        }
        if !incomplete.isEmpty { return incomplete + noun }
        return (noun.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + noun
    }

    /// `cards[2].question` for the path `cards`, `2`, `question`.
    package static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let offset = key.intValue {
                text += "[\(offset)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        return text
    }

    private static func prepending(_ key: any CodingKey, to error: DecodingError) -> DecodingError {
        func moved(_ context: DecodingError.Context, describedPath: [any CodingKey]) -> DecodingError.Context {
            let oldPrefix = render(describedPath) + ": "
            let message =
                describedPath.isEmpty || !context.debugDescription.hasPrefix(oldPrefix)
                ? context.debugDescription
                : String(context.debugDescription.dropFirst(oldPrefix.count))
            return DecodingError.Context(
                codingPath: [key] + context.codingPath,
                debugDescription: render([key] + describedPath) + ": " + message,
                underlyingError: context.underlyingError
            )
        }
        switch error {
        case .typeMismatch(let type, let context):
            return .typeMismatch(type, moved(context, describedPath: context.codingPath))
        case .valueNotFound(let type, let context):
            return .valueNotFound(type, moved(context, describedPath: context.codingPath))
        case .keyNotFound(let missing, let context):
            return .keyNotFound(missing, moved(context, describedPath: context.codingPath + [missing]))
        case .dataCorrupted(let context):
            return .dataCorrupted(moved(context, describedPath: context.codingPath))
        @unknown default:
            return error
        }
    }
}

/// The coding keys in a ``GeneratedContent`` decoding path.
package struct ContentCodingKey: CodingKey, Sendable {
    package var stringValue: String
    package var intValue: Int?

    package init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    package init(intValue: Int) {
        stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}
