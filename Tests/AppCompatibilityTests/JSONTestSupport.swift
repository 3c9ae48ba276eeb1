// Reading JSON documents the way an app (or a server) sees them: through
// JSONEncoder / JSONSerialization, with no access to the library's internals.

import Foundation
import FoundationModels
import Testing

/// A parsed JSON object with typed accessors.
struct JSONObject {
    let raw: [String: Any]

    init(_ raw: [String: Any]) {
        self.raw = raw
    }

    init(data: Data) throws {
        let parsed = try JSONSerialization.jsonObject(with: data)
        raw = try #require(parsed as? [String: Any], "expected a JSON object: \(String(decoding: data, as: UTF8.self))")
    }

    var keys: Set<String> { Set(raw.keys) }

    func object(_ key: String) -> JSONObject? {
        (raw[key] as? [String: Any]).map { JSONObject($0) }
    }

    func objects(_ key: String) -> [JSONObject]? {
        (raw[key] as? [Any])?.compactMap { element in (element as? [String: Any]).map { JSONObject($0) } }
    }

    func string(_ key: String) -> String? {
        raw[key] as? String
    }

    func strings(_ key: String) -> [String]? {
        raw[key] as? [String]
    }

    func number(_ key: String) -> Double? {
        if let number = raw[key] as? NSNumber { return number.doubleValue }
        return raw[key] as? Double
    }

    func bool(_ key: String) -> Bool? {
        raw[key] as? Bool
    }

    /// `properties.<name>` of an object schema.
    func property(_ name: String) -> JSONObject? {
        object("properties")?.object(name)
    }

    /// `$defs.<name>` of a schema document.
    func definition(_ name: String) -> JSONObject? {
        object("$defs")?.object(name)
    }
}

enum SchemaJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    static func data(_ schema: GenerationSchema) throws -> Data {
        try encoder().encode(schema)
    }

    static func document(_ schema: GenerationSchema) throws -> JSONObject {
        try JSONObject(data: data(schema))
    }

    static func document<T: Generable>(of type: T.Type) throws -> JSONObject {
        try document(T.generationSchema)
    }

    /// Checks the object-schema keywords every @Generable struct gets.
    static func expectObject(
        _ json: JSONObject,
        order: [String],
        required: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(json.string("type") == "object", sourceLocation: sourceLocation)
        #expect(json.object("properties")?.keys == Set(order), sourceLocation: sourceLocation)
        #expect(Set(json.strings("required") ?? []) == Set(required), sourceLocation: sourceLocation)
        #expect(json.bool("additionalProperties") == false, sourceLocation: sourceLocation)
        #expect(json.strings("x-order") == order, sourceLocation: sourceLocation)
    }
}

/// The description of the error `body` throws, or `nil` when it doesn't throw.
func thrownDescription(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as DecodingError {
        return decodingErrorDescription(error)
    } catch {
        return String(describing: error)
    }
}

/// The debug description inside a `DecodingError`, which is what a
/// developer reads in the console.
func decodingErrorDescription(_ error: DecodingError) -> String {
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
        .keyNotFound(_, let context), .dataCorrupted(let context):
        return context.debugDescription
    @unknown default:
        return String(describing: error)
    }
}

/// The coding path of a `DecodingError`, rendered `cards[1].answer`.
func renderedCodingPath(_ error: DecodingError) -> String {
    let path: [any CodingKey]
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
        path = context.codingPath
    case .keyNotFound(let key, let context):
        path = context.codingPath + [key]
    @unknown default:
        path = []
    }
    var text = ""
    for key in path {
        if let index = key.intValue {
            text += "[\(index)]"
        } else {
            text += (text.isEmpty ? "" : ".") + key.stringValue
        }
    }
    return text
}
