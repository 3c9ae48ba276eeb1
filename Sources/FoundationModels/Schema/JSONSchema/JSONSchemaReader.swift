import GuidedGeneration

/// Reads a JSON Schema document (drafts 4 to 2020-12, and the form
/// ``JSONSchemaWriter`` writes) into the schema IR.
///
/// Exists because schemas written by others (MCP tools, OpenAPI, config
/// files, `fm respond --schema`) are full JSON Schema, while guided
/// generation needs one closed IR whose every value is valid. The rule is
/// *exact or refused*: each keyword either constrains the IR exactly as
/// JSON Schema says (or more narrowly, never more widely), constrains
/// nothing by definition (annotations, unknown keywords, unknown `format`s),
/// or makes reading throw `DecodingError.dataCorrupted` naming the keyword
/// and its location (`#/properties/tags/uniqueItems`), before any decoding.
///
/// How: each schema object is read into ``Facts`` — its assertions grouped
/// by instance type — and combinators are resolved on those: `allOf`, a
/// `$ref` with siblings, and `anyOf`/`oneOf` branches are intersected with
/// the facts around them (so `{"properties":…, "anyOf":[{"required":…}]}`
/// becomes one object per branch), `oneOf` is kept only where its branches
/// are provably disjoint (then it is the same as `anyOf`). Subschemas of
/// properties and items stay unread until lowered, so a plain `$ref` becomes
/// an IR reference and recursion stays finite.
struct JSONSchemaReader {
    /// The whole document, for `$ref` resolution.
    let document: GeneratedContent
    /// The document's own base URIs (`$id`/`id`), which a `$ref` may start with.
    let baseURIs: Set<String>
    /// Definitions built so far, and the name of each referenced pointer.
    var definitions: [SchemaDefinition] = []
    var names: [String: String] = [:]
    var usedNames: Set<String> = []
    var pending: [String] = []
    /// Pointers being expanded in place (a `$ref` with siblings), to refuse
    /// a reference that would expand into itself.
    var expanding: [String] = []
    /// Subschemas being lowered inside each other, to refuse a recursion
    /// that is expanded in place (a `$ref` with siblings) instead of looping.
    var nesting = 0
    static let maximumNesting = 40

    init(document: GeneratedContent) {
        self.document = document
        var bases: Set<String> = []
        if case .structure(let properties, _) = document.kind {
            for key in ["$id", "id"] {
                if case .string(let id)? = properties[key]?.kind {
                    bases.insert(id)
                    bases.insert(id.hasSuffix("#") ? String(id.dropLast()) : id + "#")
                }
            }
        }
        self.baseURIs = bases
    }

    static func schema(from document: GeneratedContent) throws -> GenerationSchema {
        var reader = JSONSchemaReader(document: document)
        let title: String?
        let description: String?
        if case .structure(let properties, _) = document.kind {
            title = properties["title"].flatMap { if case .string(let value) = $0.kind { value } else { nil } }
            description = properties["description"].flatMap { if case .string(let value) = $0.kind { value } else { nil } }
        } else {
            title = nil
            description = nil
        }
        let name = title ?? "Schema"
        // A document that refers to itself (`#`) is its own first definition.
        var root: SchemaNode
        do {
            root = try reader.node(for: [Subschema(document, "#")], at: "#")
            while let pointer = reader.pending.popLast() {
                try reader.define(pointer)
            }
        } catch let error as Unsatisfiable {
            throw Self.corrupted(error.message)
        }
        if let rootName = reader.names["#"], case .reference(rootName) = root {
            root = reader.definitions.first { $0.name == rootName }?.node ?? root
        }
        let isNamed: Bool
        switch root {
        case .object, .anyOf: isNamed = true
        case .string(let string): isNamed = string.choices != nil
        default: isNamed = false
        }
        return GenerationSchema(name: name, description: description, root: root, definitions: reader.definitions, isNamedType: isNamed)
    }
}

extension JSONSchemaReader {
    // MARK: - JSON helpers

    struct JSONObject {
        var properties: [String: GeneratedContent]
        var keys: [String]
    }

    static func structure(_ content: GeneratedContent, at path: String) throws -> JSONObject {
        guard case .structure(let properties, let keys) = content.kind else {
            throw corrupted("expected a JSON object at \(path), found \(ContentDecoding.describe(content))")
        }
        return JSONObject(properties: properties, keys: JSONPrinter.printableKeys(properties, keys))
    }

    static func array(_ content: GeneratedContent, at path: String) throws -> [GeneratedContent] {
        guard case .array(let elements) = content.kind else {
            throw corrupted("expected an array at \(path), found \(ContentDecoding.describe(content))")
        }
        return elements
    }

    static func string(_ content: GeneratedContent, at path: String) throws -> String {
        guard case .string(let value) = content.kind else {
            throw corrupted("expected a string at \(path), found \(ContentDecoding.describe(content))")
        }
        return value
    }

    static func strings(_ content: GeneratedContent, at path: String) throws -> [String] {
        try array(content, at: path).enumerated().map { try string($1, at: "\(path)/\($0)") }
    }

    static func number(_ content: GeneratedContent, at path: String) throws -> Double {
        guard case .number(let value) = content.kind else {
            throw corrupted("expected a number at \(path), found \(ContentDecoding.describe(content))")
        }
        return value
    }

    static func count(_ content: GeneratedContent, at path: String) throws -> Int {
        let value = try number(content, at: path)
        guard value >= 0, value == value.rounded(), let count = Int(exactly: value) else {
            throw corrupted("expected a non-negative integer at \(path), found \(value)")
        }
        return count
    }

    static func maxOptional(_ a: Int?, _ b: Int?) -> Int? {
        switch (a, b) {
        case (let x?, let y?): max(x, y)
        default: a ?? b
        }
    }

    static func minOptional(_ a: Int?, _ b: Int?) -> Int? {
        switch (a, b) {
        case (let x?, let y?): min(x, y)
        default: a ?? b
        }
    }

    static func corrupted(_ message: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: "Invalid generation schema: \(message)"))
    }

    /// What a reader error says, without the prefix ``corrupted(_:)`` adds.
    static func reason(_ error: any Error) -> String {
        if let unsatisfiable = error as? Unsatisfiable { return unsatisfiable.message }
        guard case DecodingError.dataCorrupted(let context) = error else { return "\(error)" }
        let prefix = "Invalid generation schema: "
        return context.debugDescription.hasPrefix(prefix) ? String(context.debugDescription.dropFirst(prefix.count)) : context.debugDescription
    }
}

extension GeneratedContent {
    /// The value as compact JSON the way guided generation writes it:
    /// canonical string escapes, numbers in their shortest form, keys in
    /// their order.
    package var canonicalJSON: String { JSONSchemaReader.compactText(self) }
}
