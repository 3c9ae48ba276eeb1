import Foundation

/// Structured content produced by a model (or built by hand): a JSON-like
/// tree of nulls, booleans, numbers, strings, arrays and ordered structures.
///
/// It is the exchange format between the model and Swift types: the model's
/// output is parsed into it (also while it is still streaming, see
/// ``isComplete``), and `@Generable` types convert to and from it.
public struct GeneratedContent: Sendable {
    /// The shape and value of a piece of generated content.
    public enum Kind: Sendable, Equatable {
        /// A JSON `null`.
        case null
        /// A boolean.
        case bool(Bool)
        /// A number.
        case number(Double)
        /// A string.
        case string(String)
        /// An ordered list of values.
        case array([GeneratedContent])
        /// Key-value pairs with unique keys; `orderedKeys` gives their order.
        case structure(properties: [String: GeneratedContent], orderedKeys: [String])
    }

    /// A unique id that is stable for the duration of a generated response.
    ///
    /// Content built with the initializers has a `nil` id unless one is given.
    public var id: GenerationID?

    /// The representation of the content.
    public private(set) var kind: Kind

    /// Whether this value, and everything in it, has been generated entirely.
    ///
    /// `false` for content parsed from an incomplete JSON document (a prefix
    /// of one, as streamed by a model) at the unfinished node and its
    /// ancestors.
    public private(set) var isComplete: Bool

    /// For numbers: the number's text exactly as written (parsed JSON, or
    /// the exact digits of an `Int`/`Decimal`), so integers beyond 2^53 and
    /// decimals keep their precision. `nil` when only the `Double` is known.
    package private(set) var numberText: String?

    package init(kind: Kind, id: GenerationID?, isComplete: Bool, numberText: String? = nil) {
        self.kind = kind
        self.id = id
        self.isComplete = isComplete
        if case .number = kind {
            self.numberText = numberText
        } else {
            self.numberText = nil
        }
    }

    /// Creates content with the specified kind and generation identifier.
    public init(kind: Kind, id: GenerationID? = nil) {
        self.init(kind: kind, id: id, isComplete: true)
    }

    /// Creates generated content representing a structure with the properties
    /// you specify, in the order given.
    ///
    /// If a key occurs more than once, the last value wins and the key keeps
    /// its first position.
    public init(properties: KeyValuePairs<String, any ConvertibleToGeneratedContent>, id: GenerationID? = nil) {
        var values: [String: GeneratedContent] = [:]
        var keys: [String] = []
        for (key, value) in properties {
            if values.updateValue(value.generatedContent, forKey: key) == nil {
                keys.append(key)
            }
        }
        self.init(kind: .structure(properties: values, orderedKeys: keys), id: id)
    }

    /// Creates generated content from key-value pairs, resolving duplicate
    /// keys with a combining closure.
    public init<S>(
        properties: S,
        id: GenerationID? = nil,
        uniquingKeysWith combine: (GeneratedContent, GeneratedContent) throws -> some ConvertibleToGeneratedContent
    ) rethrows where S: Sequence, S.Element == (String, any ConvertibleToGeneratedContent) {
        var values: [String: GeneratedContent] = [:]
        var keys: [String] = []
        for (key, value) in properties {
            let content = value.generatedContent
            if let existing = values[key] {
                values[key] = try combine(existing, content).generatedContent
            } else {
                values[key] = content
                keys.append(key)
            }
        }
        self.init(kind: .structure(properties: values, orderedKeys: keys), id: id)
    }

    /// Creates content representing an array of elements you specify.
    public init<S>(elements: S, id: GenerationID? = nil)
    where S: Sequence, S.Element == any ConvertibleToGeneratedContent {
        self.init(kind: .array(elements.map { $0.generatedContent }), id: id)
    }

    /// Creates generated content from another value.
    public init(_ value: some ConvertibleToGeneratedContent) {
        self = value.generatedContent
    }

    /// Creates content that contains a single value with a custom generation
    /// identifier.
    public init(_ value: some ConvertibleToGeneratedContent, id: GenerationID) {
        self = value.generatedContent
        self.id = id
    }
}

extension GeneratedContent: Equatable {
    /// Two contents are equal when they have the same kind (recursively), the
    /// same completeness and the same id. Numbers compare by value, so `5`
    /// and `5.0` are equal.
    public static func == (lhs: GeneratedContent, rhs: GeneratedContent) -> Bool {
        lhs.id == rhs.id && lhs.isComplete == rhs.isComplete && lhs.kind == rhs.kind
    }
}

extension GeneratedContent: CustomDebugStringConvertible {
    /// The content as JSON, marked when it is still incomplete.
    public var debugDescription: String {
        isComplete ? jsonString : "\(jsonString) (incomplete)"
    }
}
