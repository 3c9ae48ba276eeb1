import Foundation
import GuidedGeneration

// Built-in `Generable` conformances for Swift's primitive types. Each type's
// schema is structural (embedded inline, never as a named definition), and
// decoding throws a `DecodingError` naming what was expected and found.

extension GenerationSchema {
    /// The schema of a built-in, structural type.
    static func primitive(_ type: Any.Type, _ node: SchemaNode) -> GenerationSchema {
        GenerationSchema(name: SchemaNaming.name(of: type), description: nil, root: node, definitions: [], isNamedType: false)
    }
}

extension Bool: Generable, InlineSchemaGenerable {
    public static var generationSchema: GenerationSchema { .primitive(Bool.self, .boolean) }

    public init(_ content: GeneratedContent) throws {
        guard case .bool(let value) = content.kind else {
            throw ContentDecoding.typeMismatch(Bool.self, expected: "a boolean", found: content)
        }
        self = value
    }

    public var generatedContent: GeneratedContent { GeneratedContent(kind: .bool(self)) }
}

extension String: Generable, InlineSchemaGenerable {
    public static var generationSchema: GenerationSchema { .primitive(String.self, .string(StringNode())) }

    /// Reads a string; an incomplete (still streaming) string gives the text
    /// generated so far.
    public init(_ content: GeneratedContent) throws {
        guard case .string(let value) = content.kind else {
            throw ContentDecoding.typeMismatch(String.self, expected: "a string", found: content)
        }
        self = value
    }

    public var generatedContent: GeneratedContent { GeneratedContent(kind: .string(self)) }
}

extension Int: Generable, InlineSchemaGenerable {
    public static var generationSchema: GenerationSchema { .primitive(Int.self, .integer(NumberNode())) }

    /// Reads an integer: only integral numbers within `Int`'s range decode
    /// (`3` and `3.0` do, `3.5` and `1e30` throw).
    public init(_ content: GeneratedContent) throws {
        guard case .number(let value) = content.kind else {
            throw ContentDecoding.typeMismatch(Int.self, expected: "an integer", found: content)
        }
        if let text = content.numberText, let exact = Int(text) {
            self = exact
            return
        }
        guard value == value.rounded(.towardZero) else {
            throw ContentDecoding.typeMismatch(Int.self, expected: "an integer", found: content, value: value)
        }
        guard let exact = Int(exactly: value) else {
            throw ContentDecoding.dataCorrupted("expected an integer within Int's range, found \(content.numberText ?? "\(value)")")
        }
        self = exact
    }

    public var generatedContent: GeneratedContent {
        GeneratedContent(kind: .number(Double(self)), id: nil, isComplete: true, numberText: String(self))
    }
}

extension Double: Generable, InlineSchemaGenerable {
    public static var generationSchema: GenerationSchema { .primitive(Double.self, .number(NumberNode())) }

    public init(_ content: GeneratedContent) throws {
        guard case .number(let value) = content.kind else {
            throw ContentDecoding.typeMismatch(Double.self, expected: "a number", found: content)
        }
        self = value
    }

    public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(self)) }
}

extension Float: Generable, InlineSchemaGenerable {
    public static var generationSchema: GenerationSchema { .primitive(Float.self, .number(NumberNode())) }

    public init(_ content: GeneratedContent) throws {
        guard case .number(let value) = content.kind else {
            throw ContentDecoding.typeMismatch(Float.self, expected: "a number", found: content)
        }
        self = content.numberText.flatMap { Float($0) } ?? Float(value)
    }

    /// The number, written with `Float`'s shortest digits (`0.1`, not
    /// `0.10000000149011612`).
    public var generatedContent: GeneratedContent {
        GeneratedContent(kind: .number(Double(self)), id: nil, isComplete: true, numberText: isFinite ? "\(self)" : nil)
    }
}

extension Decimal: Generable, InlineSchemaGenerable {
    public static var generationSchema: GenerationSchema { .primitive(Decimal.self, .number(NumberNode())) }

    /// Reads a decimal from the number's exact text, so `0.1` is exactly 0.1.
    public init(_ content: GeneratedContent) throws {
        guard case .number(let value) = content.kind else {
            throw ContentDecoding.typeMismatch(Decimal.self, expected: "a number", found: content)
        }
        self = content.numberText.flatMap { Decimal(string: $0) } ?? Decimal(value)
    }

    public var generatedContent: GeneratedContent {
        if isNaN {
            return GeneratedContent(kind: .number(.nan))
        }
        let double = NSDecimalNumber(decimal: self).doubleValue
        return GeneratedContent(kind: .number(double), id: nil, isComplete: true, numberText: description)
    }
}

extension ContentDecoding {
    /// A type mismatch that shows the offending number.
    static func typeMismatch(_ type: Any.Type, expected: String, found content: GeneratedContent, value: Double) -> DecodingError {
        .typeMismatch(
            type,
            .init(
                codingPath: [],
                debugDescription: "expected \(expected), found the number \(content.numberText ?? JSONPrinter.format(value))"
            ))
    }
}
