import Foundation

extension DecodingError {
    /// This error with `prefix` in front of its coding path, unless the path
    /// already starts there.
    ///
    /// Values that decode themselves from a standalone document (such as a
    /// schema read as JSON Schema) report paths relative to that document;
    /// prefixing them makes the error name the full path in the transcript.
    func prefixingPath(_ prefix: [any CodingKey]) -> DecodingError {
        func adjusted(_ context: Context) -> Context {
            let path = context.codingPath
            let alreadyPrefixed =
                path.count >= prefix.count
                && zip(path, prefix).allSatisfy { $0.stringValue == $1.stringValue && $0.intValue == $1.intValue }
            guard !alreadyPrefixed else { return context }
            return Context(codingPath: prefix + path, debugDescription: context.debugDescription, underlyingError: context.underlyingError)
        }
        switch self {
        case .typeMismatch(let type, let context): return .typeMismatch(type, adjusted(context))
        case .valueNotFound(let type, let context): return .valueNotFound(type, adjusted(context))
        case .keyNotFound(let key, let context): return .keyNotFound(key, adjusted(context))
        case .dataCorrupted(let context): return .dataCorrupted(adjusted(context))
        @unknown default: return self
        }
    }
}

extension KeyedDecodingContainer {
    /// Decodes a generation schema under `key`, with decoding errors naming
    /// the full path to the offending part of the schema.
    func decodeSchema(forKey key: Key) throws -> GenerationSchema {
        do {
            return try decode(GenerationSchema.self, forKey: key)
        } catch let error as DecodingError {
            throw error.prefixingPath(codingPath + [key])
        }
    }
}
