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
    private let document: GeneratedContent
    /// The document's own base URIs (`$id`/`id`), which a `$ref` may start with.
    private let baseURIs: Set<String>
    /// Definitions built so far, and the name of each referenced pointer.
    private var definitions: [SchemaDefinition] = []
    private var names: [String: String] = [:]
    private var usedNames: Set<String> = []
    private var pending: [String] = []
    /// Pointers being expanded in place (a `$ref` with siblings), to refuse
    /// a reference that would expand into itself.
    private var expanding: [String] = []
    /// Subschemas being lowered inside each other, to refuse a recursion
    /// that is expanded in place (a `$ref` with siblings) instead of looping.
    private var nesting = 0
    private static let maximumNesting = 40

    private init(document: GeneratedContent) {
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
            root = try reader.node(for: [Sub(document, "#")], at: "#")
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

    // MARK: - Definitions and references

    /// The definition name of the schema at `pointer`, queued to be built.
    private mutating func reference(to pointer: String) -> String {
        if let name = names[pointer] { return name }
        var base: String
        if pointer == "#" {
            base = "Root"
        } else if let last = pointer.split(separator: "/").last {
            base = Self.unescape(String(last))
        } else {
            base = "Definition"
        }
        if base.isEmpty { base = "Definition" }
        var name = base
        var suffix = 2
        while usedNames.contains(name) {
            name = "\(base)_\(suffix)"
            suffix += 1
        }
        usedNames.insert(name)
        names[pointer] = name
        pending.append(pointer)
        return name
    }

    private mutating func define(_ pointer: String) throws {
        guard let name = names[pointer] else { return }
        let target = try resolve(pointer, at: pointer)
        let node = try self.node(for: [Sub(target, pointer)], at: pointer)
        var description: String?
        if case .structure(let properties, _) = target.kind, case .string(let text)? = properties["description"]?.kind {
            description = text
        }
        definitions.append(SchemaDefinition(name: name, description: description, node: node))
    }

    /// The local JSON pointer a `$ref` names (`#/definitions/A`), or a
    /// clear error for references outside the document.
    private func pointer(of reference: String, at path: String) throws -> String {
        var reference = reference
        if let hash = reference.firstIndex(of: "#"), hash != reference.startIndex {
            let base = String(reference[..<hash])
            guard baseURIs.contains(base) || baseURIs.contains(base + "#") else {
                throw Self.corrupted("unsupported reference \"\(reference)\" at \(path)/$ref: only references inside the document are supported")
            }
            reference = String(reference[hash...])
        } else if !reference.hasPrefix("#") {
            guard baseURIs.contains(reference) else {
                throw Self.corrupted("unsupported reference \"\(reference)\" at \(path)/$ref: only references inside the document are supported")
            }
            return "#"
        }
        if reference == "#" || reference.hasPrefix("#/") { return Self.percentDecoded(reference) }
        // `#name`: an `$anchor` (or a draft 4–7 `$id`/`id` of `#name`).
        let anchor = String(reference.dropFirst())
        guard let found = Self.findAnchor(anchor, in: document, at: "#") else {
            throw Self.corrupted("unresolvable reference \"\(reference)\" at \(path)/$ref")
        }
        return found
    }

    private static func findAnchor(_ anchor: String, in content: GeneratedContent, at path: String) -> String? {
        switch content.kind {
        case .structure(let properties, let keys):
            for key in ["$anchor", "$dynamicAnchor"] {
                if case .string(anchor)? = properties[key]?.kind { return path }
            }
            for key in ["$id", "id"] {
                if case .string("#" + anchor)? = properties[key]?.kind { return path }
            }
            for key in keys where !["enum", "const", "default", "examples"].contains(key) {
                if let value = properties[key], let found = findAnchor(anchor, in: value, at: path + "/" + escape(key)) { return found }
            }
            return nil
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let found = findAnchor(anchor, in: element, at: "\(path)/\(index)") { return found }
            }
            return nil
        default:
            return nil
        }
    }

    /// The value at a local JSON pointer.
    private func resolve(_ pointer: String, at path: String) throws -> GeneratedContent {
        var current = document
        for token in pointer.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false) where pointer != "#" {
            let key = Self.unescape(String(token))
            switch current.kind {
            case .structure(let properties, _):
                guard let next = properties[key] else {
                    throw Self.corrupted("unresolvable reference \"\(pointer)\" at \(path)")
                }
                current = next
            case .array(let elements):
                guard let index = Int(key), elements.indices.contains(index) else {
                    throw Self.corrupted("unresolvable reference \"\(pointer)\" at \(path)")
                }
                current = elements[index]
            default:
                throw Self.corrupted("unresolvable reference \"\(pointer)\" at \(path)")
            }
        }
        return current
    }

    private static func unescape(_ token: String) -> String {
        token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }

    private static func escape(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    private static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Subschemas

    /// A subschema not read yet: its JSON and its location.
    struct Sub {
        var content: GeneratedContent
        var path: String
        init(_ content: GeneratedContent, _ path: String) {
            self.content = content
            self.path = path
        }

        var isFalse: Bool { if case .bool(false) = content.kind { true } else { false } }
        var isTrue: Bool {
            switch content.kind {
            case .bool(true): true
            case .structure(let properties, _): properties.keys.allSatisfy { JSONSchemaReader.isAnnotation($0) }
            default: false
            }
        }
    }

    /// The node of the values every one of `subs` accepts.
    mutating func node(for subs: [Sub], at path: String) throws -> SchemaNode {
        guard nesting < Self.maximumNesting else {
            throw Self.corrupted("unsupported schema at \(path): nested more than \(Self.maximumNesting) levels deep (a recursive $ref combined with other keywords cannot be expanded)")
        }
        nesting += 1
        defer { nesting -= 1 }
        let subs = subs.filter { !$0.isTrue }
        if subs.isEmpty { return .any }
        // A plain reference stays a reference (recursion stays finite).
        if subs.count == 1, case .structure(let properties, _) = subs[0].content.kind,
           case .string(let target)? = properties["$ref"]?.kind,
           properties.keys.allSatisfy({ $0 == "$ref" || Self.isAnnotation($0) || $0 == "definitions" || $0 == "$defs" }) {
            return .reference(reference(to: try pointer(of: target, at: subs[0].path)))
        }
        var alternatives = [Facts()]
        for sub in subs {
            alternatives = try conjoin(alternatives, try facts(of: sub), at: path)
        }
        return try lower(alternatives, at: path)
    }

    private mutating func conjoin(_ left: [Facts], _ right: [Facts], at path: String) throws -> [Facts] {
        var result: [Facts] = []
        for a in left {
            for b in right {
                if let merged = try merge(a, b, at: path) { result.append(merged) }
            }
        }
        guard result.count <= 256 else {
            throw Self.corrupted("the combinators at \(path) expand to more than 256 alternatives")
        }
        return result
    }

    // MARK: - Facts

    enum Kind: Int, CaseIterable, Comparable {
        case object, array, string, integer, number, boolean, null
        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One subschema's object keywords (kept apart because
    /// `additionalProperties` refers to its own schema's `properties`).
    struct ObjectClause {
        var properties: [(name: String, sub: Sub)] = []
        var patternProperties: [(pattern: String, sub: Sub)] = []
        var additional: Sub?
        var propertyNames: Sub?
    }

    /// One subschema's array keywords.
    struct ArrayClause {
        var prefix: [Sub] = []
        var rest: Sub?
    }

    /// What one alternative asserts, by instance type.
    struct Facts {
        /// nil: any type. `.number` includes integers.
        var types: Set<Kind>?
        /// `enum`/`const`: the value must be one of these.
        var values: [GeneratedContent]?
        /// The values came from `const` (a single string stays a constant).
        var isConstant = false
        var minLength: Int?
        var maxLength: Int?
        var patterns: [String] = []
        var format: String?
        var minimum: Double?
        var excludesMinimum = false
        var maximum: Double?
        var excludesMaximum = false
        var multipleOf: Double?
        var objectClauses: [ObjectClause] = []
        var required: [String] = []
        var minProperties: Int?
        var maxProperties: Int?
        var dependentRequired: [(String, [String], String)] = []
        /// `not: {required: […]}`: the object must not have every property
        /// of a group (a group of one: that property is absent).
        var forbiddenGroups: [[String]] = []
        var arrayClauses: [ArrayClause] = []
        var minItems: Int?
        var maxItems: Int?
        var uniqueItems: String?
        var contains: [(Sub, Int, Int?)] = []
        var unsupportedGuides: [String] = []
        /// A reference not expanded yet (alone, it lowers to an IR reference).
        var reference: (pointer: String, path: String)?

        var isTrivial: Bool {
            types == nil && values == nil && minLength == nil && maxLength == nil && patterns.isEmpty && format == nil
                && minimum == nil && maximum == nil && multipleOf == nil && objectClauses.isEmpty && required.isEmpty
                && minProperties == nil && maxProperties == nil && dependentRequired.isEmpty && forbiddenGroups.isEmpty
                && arrayClauses.isEmpty && minItems == nil && maxItems == nil && uniqueItems == nil && contains.isEmpty
                && unsupportedGuides.isEmpty
        }

        func allows(_ kind: Kind) -> Bool {
            guard let types else { return true }
            return types.contains(kind) || (kind == .integer && types.contains(.number))
        }
    }

    private static let annotations: Set<String> = [
        "$schema", "$id", "id", "$comment", "title", "description", "examples", "example", "default", "readOnly", "writeOnly",
        "deprecated", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary", "definitions", "$defs",
        "contentMediaType", "contentEncoding", "contentSchema", "x-order", "discriminator", "xml", "externalDocs",
    ]

    /// Keywords that assert something: those this reader does not handle
    /// are refused (every other unknown keyword is an annotation).
    private static let assertions: Set<String> = [
        "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength",
        "minLength", "pattern", "format", "items", "prefixItems", "additionalItems", "maxItems", "minItems", "uniqueItems",
        "contains", "minContains", "maxContains", "maxProperties", "minProperties", "required", "properties",
        "patternProperties", "additionalProperties", "propertyNames", "dependentRequired", "dependentSchemas",
        "dependencies", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$ref", "$dynamicRef", "$recursiveRef",
        "unevaluatedItems", "unevaluatedProperties", "nullable", "x-unsupported-guides",
    ]

    static func isAnnotation(_ key: String) -> Bool {
        annotations.contains(key) || !assertions.contains(key)
    }

    /// The alternatives `sub` allows (none: it allows nothing).
    private mutating func facts(of sub: Sub) throws -> [Facts] {
        let path = sub.path
        switch sub.content.kind {
        case .bool(let value):
            return value ? [Facts()] : []
        case .structure:
            break
        default:
            throw Self.corrupted("expected a schema (an object or a boolean) at \(path), found \(ContentDecoding.describe(sub.content))")
        }
        let object = try Self.structure(sub.content, at: path)
        let p = object.properties
        var facts = Facts()

        for keyword in ["unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef"] where p[keyword] != nil {
            if keyword.hasPrefix("unevaluated"), let value = p[keyword], Sub(value, "").isTrue { continue }
            throw Self.corrupted("unsupported JSON Schema keyword \"\(keyword)\" at \(path) cannot be enforced token by token")
        }

        // Types.
        if let type = p["type"] {
            let names: [String]
            switch type.kind {
            case .string(let name): names = [name]
            case .array: names = try Self.strings(type, at: path + "/type")
            default: throw Self.corrupted("expected a string or an array of strings at \(path)/type")
            }
            var kinds: Set<Kind> = []
            for name in names {
                switch name {
                case "object": kinds.insert(.object)
                case "array": kinds.insert(.array)
                case "string": kinds.insert(.string)
                case "integer": kinds.insert(.integer)
                case "number": kinds.insert(.number)
                case "boolean": kinds.insert(.boolean)
                case "null": kinds.insert(.null)
                case "any": kinds.formUnion(Kind.allCases)
                default: throw Self.corrupted("unsupported type \"\(name)\" at \(path)/type")
                }
            }
            facts.types = kinds
        }
        if case .bool(true)? = p["nullable"]?.kind, facts.types != nil {
            facts.types?.insert(.null)
        }
        if let values = p["enum"] {
            facts.values = try Self.array(values, at: path + "/enum")
        }
        if let value = p["const"] {
            facts.values = try Self.intersect(facts.values, [value])
            facts.isConstant = true
        }

        // Strings.
        if let value = p["minLength"] { facts.minLength = try Self.count(value, at: path + "/minLength") }
        if let value = p["maxLength"] { facts.maxLength = try Self.count(value, at: path + "/maxLength") }
        if let value = p["pattern"] {
            let pattern = try Self.string(value, at: path + "/pattern")
            do {
                _ = try ByteDFA.jsonString(matching: pattern, search: true)
            } catch {
                throw Self.corrupted("unsupported pattern at \(path)/pattern: \(error)")
            }
            facts.patterns.append(pattern)
        }
        if let value = p["format"] {
            let format = try Self.string(value, at: path + "/format")
            // Unknown formats are annotations (JSON Schema's rule).
            if StringFormat.pattern(for: format) != nil { facts.format = format }
        }
        if let value = p["x-unsupported-guides"] {
            facts.unsupportedGuides = try Self.strings(value, at: path + "/x-unsupported-guides")
        }

        // Numbers.
        if let value = p["minimum"] { facts.minimum = try Self.number(value, at: path + "/minimum") }
        if let value = p["maximum"] { facts.maximum = try Self.number(value, at: path + "/maximum") }
        if let value = p["exclusiveMinimum"] {
            switch value.kind {
            case .bool(let flag): facts.excludesMinimum = flag && facts.minimum != nil
            default:
                let bound = try Self.number(value, at: path + "/exclusiveMinimum")
                if facts.minimum.map({ bound >= $0 }) ?? true {
                    facts.minimum = bound
                    facts.excludesMinimum = true
                }
            }
        }
        if let value = p["exclusiveMaximum"] {
            switch value.kind {
            case .bool(let flag): facts.excludesMaximum = flag && facts.maximum != nil
            default:
                let bound = try Self.number(value, at: path + "/exclusiveMaximum")
                if facts.maximum.map({ bound <= $0 }) ?? true {
                    facts.maximum = bound
                    facts.excludesMaximum = true
                }
            }
        }
        if let value = p["multipleOf"] {
            let factor = try Self.number(value, at: path + "/multipleOf")
            guard factor > 0 else { throw Self.corrupted("multipleOf at \(path) must be greater than 0") }
            facts.multipleOf = factor
        }

        // Objects.
        var clause = ObjectClause()
        var hasClause = false
        if let value = p["properties"] {
            let properties = try Self.structure(value, at: path + "/properties")
            var order = properties.keys
            if let xOrder = p["x-order"] {
                let listed = try Self.strings(xOrder, at: path + "/x-order")
                guard Set(listed) == Set(order), listed.count == order.count else {
                    throw Self.corrupted("x-order at \(path) must list each property exactly once")
                }
                order = listed
            }
            for name in order {
                clause.properties.append((name, Sub(properties.properties[name]!, "\(path)/properties/\(Self.escape(name))")))
            }
            hasClause = true
        }
        if let value = p["patternProperties"] {
            let patterns = try Self.structure(value, at: path + "/patternProperties")
            for pattern in patterns.keys {
                do {
                    _ = try ByteDFA.jsonString(matching: pattern, search: true)
                } catch {
                    throw Self.corrupted("unsupported pattern in patternProperties at \(path): \(error)")
                }
                clause.patternProperties.append((pattern, Sub(patterns.properties[pattern]!, "\(path)/patternProperties/\(Self.escape(pattern))")))
            }
            hasClause = true
        }
        if let value = p["additionalProperties"] {
            clause.additional = Sub(value, path + "/additionalProperties")
            hasClause = true
        }
        if let value = p["propertyNames"] {
            clause.propertyNames = Sub(value, path + "/propertyNames")
            hasClause = true
        }
        if hasClause { facts.objectClauses.append(clause) }
        if let value = p["required"] {
            facts.required = try Self.strings(value, at: path + "/required")
        }
        if let value = p["minProperties"] { facts.minProperties = try Self.count(value, at: path + "/minProperties") }
        if let value = p["maxProperties"] { facts.maxProperties = try Self.count(value, at: path + "/maxProperties") }
        for keyword in ["dependentRequired", "dependencies", "dependentSchemas"] {
            guard let value = p[keyword] else { continue }
            let entries = try Self.structure(value, at: "\(path)/\(keyword)")
            for trigger in entries.keys {
                let entry = entries.properties[trigger]!
                let entryPath = "\(path)/\(keyword)/\(Self.escape(trigger))"
                if case .array = entry.kind {
                    facts.dependentRequired.append((trigger, try Self.strings(entry, at: entryPath), entryPath))
                } else if !Sub(entry, entryPath).isTrue {
                    // A schema that applies when the trigger is present: only
                    // enforceable where the trigger can never be present.
                    facts.dependentRequired.append((trigger, ["\u{0}schema"], entryPath))
                }
            }
        }

        // Arrays.
        var arrayClause = ArrayClause()
        var hasArrayClause = false
        if let value = p["prefixItems"] {
            arrayClause.prefix = try Self.array(value, at: path + "/prefixItems").enumerated().map { Sub($1, "\(path)/prefixItems/\($0)") }
            hasArrayClause = true
        }
        if let value = p["items"] {
            if case .array(let elements) = value.kind {
                arrayClause.prefix = elements.enumerated().map { Sub($1, "\(path)/items/\($0)") }
                if let rest = p["additionalItems"] { arrayClause.rest = Sub(rest, path + "/additionalItems") }
            } else {
                arrayClause.rest = Sub(value, path + "/items")
            }
            hasArrayClause = true
        }
        if hasArrayClause { facts.arrayClauses.append(arrayClause) }
        if let value = p["minItems"] { facts.minItems = try Self.count(value, at: path + "/minItems") }
        if let value = p["maxItems"] { facts.maxItems = try Self.count(value, at: path + "/maxItems") }
        if case .bool(true)? = p["uniqueItems"]?.kind { facts.uniqueItems = path + "/uniqueItems" }
        if let value = p["contains"] {
            let minimum = try p["minContains"].map { try Self.count($0, at: path + "/minContains") } ?? 1
            let maximum = try p["maxContains"].map { try Self.count($0, at: path + "/maxContains") }
            facts.contains.append((Sub(value, path + "/contains"), minimum, maximum))
        }

        // `not`: the forms that can be enforced.
        if let value = p["not"] {
            try applyNot(Sub(value, path + "/not"), to: &facts)
        }

        // Combinators, each intersected with the facts so far.
        var alternatives = [facts]
        if let value = p["$ref"] {
            let target = try Self.string(value, at: path + "/$ref")
            var referenced = Facts()
            referenced.reference = (try pointer(of: target, at: path), path + "/$ref")
            alternatives = try conjoin(alternatives, [referenced], at: path)
        }
        if let value = p["allOf"] {
            for (index, element) in try Self.array(value, at: path + "/allOf").enumerated() {
                alternatives = try conjoin(alternatives, try self.facts(of: Sub(element, "\(path)/allOf/\(index)")), at: path)
            }
        }
        if let value = p["anyOf"] {
            var branches: [Facts] = []
            for (index, element) in try Self.array(value, at: path + "/anyOf").enumerated() {
                branches += try self.facts(of: Sub(element, "\(path)/anyOf/\(index)"))
            }
            alternatives = try conjoin(alternatives, branches, at: path)
        }
        if let value = p["oneOf"] {
            var branches: [[Facts]] = []
            for (index, element) in try Self.array(value, at: path + "/oneOf").enumerated() {
                branches.append(try conjoin(alternatives, try self.facts(of: Sub(element, "\(path)/oneOf/\(index)")), at: path))
            }
            // Each branch as written must exclude every other branch's
            // schema. Where it does not, a branch may drop the keys another
            // branch requires (it then never matches that one); else refused.
            var generated = branches
            for i in branches.indices {
                for j in branches.indices where j != i {
                    for x in generated[i].indices {
                        for other in branches[j] {
                            if try excludes(generated[i][x], other, depth: 0) { continue }
                            let names = other.required.filter { !generated[i][x].required.contains($0) }
                            var narrowed = generated[i][x]
                            narrowed.forbiddenGroups += names.map { [$0] }
                            if !names.isEmpty, try excludes(narrowed, other, depth: 0) {
                                generated[i][x] = narrowed
                                continue
                            }
                            throw Self.corrupted(
                                "oneOf at \(path): branches \(min(i, j)) and \(max(i, j)) may both match the same value, so oneOf cannot be enforced (write anyOf if either may match)"
                            )
                        }
                    }
                }
            }
            alternatives = generated.flatMap { $0 }
        }
        if let condition = p["if"] {
            let then = p["then"].map { Sub($0, path + "/then") }
            let otherwise = p["else"].map { Sub($0, path + "/else") }
            if (then.map(\.isTrue) ?? true) && (otherwise.map(\.isTrue) ?? true) {
                // `if` alone constrains nothing.
            } else if Sub(condition, path + "/if").isTrue {
                if let then { alternatives = try conjoin(alternatives, try self.facts(of: then), at: path) }
            } else {
                throw Self.corrupted("unsupported JSON Schema keyword \"if\" at \(path): a conditional with then/else cannot be enforced token by token")
            }
        }
        return alternatives
    }

    /// Applies the `not` forms that can be enforced: a type, a `required`
    /// property (absent), or one string or value (excluded from an `enum`).
    private mutating func applyNot(_ sub: Sub, to facts: inout Facts) throws {
        if sub.isFalse { return }
        if sub.isTrue {
            facts.types = []
            return
        }
        let object = try Self.structure(sub.content, at: sub.path)
        let keywords = object.keys.filter { !Self.isAnnotation($0) }
        if keywords == ["type"] {
            let negated = try self.facts(of: sub)
            if let kinds = negated.first?.types {
                var remaining = facts.types ?? Set(Kind.allCases)
                remaining.subtract(kinds)
                if kinds.contains(.number) { remaining.remove(.integer) }
                if remaining.contains(.number) && kinds.contains(.integer) {
                    throw Self.corrupted("unsupported not at \(sub.path): a number that is not an integer cannot be enforced")
                }
                facts.types = remaining
                return
            }
        }
        if keywords == ["required"] {
            let names = try Self.strings(object.properties["required"]!, at: sub.path + "/required")
            // (`required: []` holds for every object: its negation for none.)
            if names.isEmpty { facts.types = (facts.types ?? Set(Kind.allCases)).subtracting([.object]) } else { facts.forbiddenGroups.append(names) }
            return
        }
        if (keywords == ["enum"] || keywords == ["const"]), let values = facts.values {
            let excluded = keywords == ["enum"] ? try Self.array(object.properties["enum"]!, at: sub.path + "/enum") : [object.properties["const"]!]
            facts.values = values.filter { value in !excluded.contains { Self.equal($0, value) } }
            return
        }
        throw Self.corrupted("unsupported not at \(sub.path): only the negation of a type, of required properties, or of values inside an enum can be enforced")
    }

    // MARK: - Merging (allOf)

    private mutating func merge(_ a: Facts, _ b: Facts, at path: String) throws -> Facts? {
        // A reference with other constraints is read in place.
        if let reference = a.reference, !b.isTrivial || b.reference != nil {
            return try expandReference(reference, a, with: b, otherFirst: false, at: path)
        }
        if let reference = b.reference, !a.isTrivial {
            return try expandReference(reference, b, with: a, otherFirst: true, at: path)
        }
        if a.reference != nil { return a }
        if b.reference != nil { return b }
        var result = a
        if let types = b.types {
            if let existing = a.types {
                var merged = existing.intersection(types)
                if existing.contains(.number), types.contains(.integer) { merged.insert(.integer) }
                if types.contains(.number), existing.contains(.integer) { merged.insert(.integer) }
                result.types = merged
            } else {
                result.types = types
            }
        }
        if let values = b.values {
            result.values = try Self.intersect(a.values, values)
            result.isConstant = b.isConstant || (a.isConstant && a.values != nil)
        }
        result.minLength = Self.maxOptional(a.minLength, b.minLength)
        result.maxLength = Self.minOptional(a.maxLength, b.maxLength)
        result.patterns += b.patterns
        if let format = b.format {
            if let existing = a.format, existing != format { result.unsupportedGuides.append("two formats (\(existing), \(format)) on one string") }
            result.format = format
        }
        if let minimum = b.minimum {
            if a.minimum.map({ minimum > $0 || (minimum == $0 && b.excludesMinimum) }) ?? true {
                result.minimum = minimum
                result.excludesMinimum = b.excludesMinimum
            }
        }
        if let maximum = b.maximum {
            if a.maximum.map({ maximum < $0 || (maximum == $0 && b.excludesMaximum) }) ?? true {
                result.maximum = maximum
                result.excludesMaximum = b.excludesMaximum
            }
        }
        if let factor = b.multipleOf {
            if let existing = a.multipleOf, existing != factor {
                let ratio = max(existing, factor) / min(existing, factor)
                guard ratio == ratio.rounded() else {
                    throw Self.corrupted("unsupported JSON Schema keyword \"multipleOf\" at \(path): both \(existing) and \(factor), neither a multiple of the other")
                }
                result.multipleOf = max(existing, factor)
            } else {
                result.multipleOf = factor
            }
        }
        result.objectClauses += b.objectClauses
        for name in b.required where !result.required.contains(name) { result.required.append(name) }
        result.minProperties = Self.maxOptional(a.minProperties, b.minProperties)
        result.maxProperties = Self.minOptional(a.maxProperties, b.maxProperties)
        result.dependentRequired += b.dependentRequired
        result.forbiddenGroups += b.forbiddenGroups
        result.arrayClauses += b.arrayClauses
        result.minItems = Self.maxOptional(a.minItems, b.minItems)
        result.maxItems = Self.minOptional(a.maxItems, b.maxItems)
        result.uniqueItems = a.uniqueItems ?? b.uniqueItems
        result.contains += b.contains
        result.unsupportedGuides += b.unsupportedGuides
        if result.types?.isEmpty == true { return nil }
        return result
    }

    /// Reads the schema `reference` names in place of it and intersects it
    /// with the rest of `holder` and with `other` — `other`'s properties
    /// first when it came first, so the written order follows the document.
    private mutating func expandReference(
        _ reference: (pointer: String, path: String), _ holder: Facts, with other: Facts, otherFirst: Bool = false, at path: String
    ) throws -> Facts? {
        guard !expanding.contains(reference.pointer), expanding.count < 32 else {
            throw Self.corrupted("unsupported $ref at \(reference.path): a recursive reference combined with other keywords cannot be enforced")
        }
        expanding.append(reference.pointer)
        defer { expanding.removeLast() }
        let target = try resolve(reference.pointer, at: reference.path)
        var rest = holder
        rest.reference = nil
        let expanded = try conjoin(try facts(of: Sub(target, reference.pointer)), [rest], at: path)
        let merged = otherFirst ? try conjoin([other], expanded, at: path) : try conjoin(expanded, [other], at: path)
        guard merged.count <= 1 else {
            throw Self.corrupted("unsupported $ref at \(reference.path): the referenced schema is a union combined with other keywords")
        }
        return merged.first
    }

    // MARK: - Disjointness (oneOf)

    /// Whether no value satisfies both `a` and `b` — proven from types,
    /// values, ranges, and a required property whose values cannot agree or
    /// that one side forbids. False when it cannot be proven.
    /// Whether no value the engine writes for `a` satisfies `b` (what
    /// `oneOf` needs, both ways): ``disjoint(_:_:depth:)``, or an object
    /// property `b` requires that `a` never writes (`a` writes only its
    /// declared properties unless it allows others explicitly).
    private mutating func excludes(_ a: Facts, _ b: Facts, depth: Int) throws -> Bool {
        if try disjoint(a, b, depth: depth) { return true }
        guard a.reference == nil, b.reference == nil, a.values == nil else { return false }
        // Only objects can be in common, and a never writes one of b's required keys.
        let kinds = Kind.allCases.filter { a.allows($0) && b.allows($0) && valueKinds(b).contains($0) }
        guard kinds == [.object] else { return false }
        for name in b.required where !(try writes(name, a)) { return true }
        return false
    }

    /// Whether the engine may write property `name` for `facts`.
    private func writes(_ name: String, _ facts: Facts) throws -> Bool {
        if Self.forbids(name, facts) { return false }
        if facts.required.contains(name) { return true }
        let subs = try propertySubs(name, in: facts)
        if subs.contains(where: \.isFalse) { return false }
        let declared = facts.objectClauses.contains { clause in clause.properties.contains { $0.name == name } }
        let open = facts.objectClauses.contains { clause in !clause.patternProperties.isEmpty || (clause.additional.map { !$0.isFalse } ?? false) }
        return declared || open
    }

    /// Whether every object `facts` allows lacks `name`: a forbidden group
    /// holds it and `facts` requires the rest of the group.
    private static func forbids(_ name: String, _ facts: Facts) -> Bool {
        facts.forbiddenGroups.contains { group in
            group.contains(name) && group.allSatisfy { $0 == name || facts.required.contains($0) }
        }
    }

    private mutating func disjoint(_ a: Facts, _ b: Facts, depth: Int) throws -> Bool {
        guard depth < 8 else { return false }
        var a = a
        var b = b
        if let reference = a.reference {
            guard let expanded = try expandReference(reference, a, with: Facts(), at: reference.path) else { return true }
            a = expanded
        }
        if let reference = b.reference {
            guard let expanded = try expandReference(reference, b, with: Facts(), at: reference.path) else { return true }
            b = expanded
        }
        let kinds = Kind.allCases.filter { a.allows($0) && b.allows($0) && valueKinds(a).contains($0) && valueKinds(b).contains($0) }
        if kinds.isEmpty { return true }
        if let left = a.values, let right = b.values {
            return !left.contains { value in right.contains { Self.equal($0, value) } }
        }
        if let values = a.values ?? b.values {
            let other = a.values == nil ? a : b
            var all = true
            for value in values {
                if try valueSatisfies(value, other) != false { all = false }
            }
            if all { return true }
        }
        for kind in kinds {
            switch kind {
            case .integer, .number:
                if let low = a.minimum, let high = b.maximum, low > high || (low == high && (a.excludesMinimum || b.excludesMaximum)) { continue }
                if let low = b.minimum, let high = a.maximum, low > high || (low == high && (b.excludesMinimum || a.excludesMaximum)) { continue }
                return false
            case .object:
                if try objectsDisjoint(a, b, depth: depth) || (try objectsDisjoint(b, a, depth: depth)) { continue }
                return false
            case .string:
                if let left = Self.stringAutomaton(a), let right = Self.stringAutomaton(b),
                   (try? ByteDFA.intersection([left, right], subject: "oneOf").isEmpty) == true {
                    continue
                }
                return false
            default:
                return false
            }
        }
        return true
    }

    private func valueKinds(_ facts: Facts) -> Set<Kind> {
        guard let values = facts.values else { return Set(Kind.allCases) }
        var kinds: Set<Kind> = []
        for value in values {
            switch value.kind {
            case .structure: kinds.insert(.object)
            case .array: kinds.insert(.array)
            case .string: kinds.insert(.string)
            case .number(let number): kinds.insert(.number); if number == number.rounded() { kinds.insert(.integer) }
            case .bool: kinds.insert(.boolean)
            case .null: kinds.insert(.null)
            }
        }
        return kinds
    }

    /// A property `a` requires is forbidden by `b`, or required by both
    /// with values that cannot agree.
    private mutating func objectsDisjoint(_ a: Facts, _ b: Facts, depth: Int) throws -> Bool {
        for name in a.required {
            if Self.forbids(name, b) { return true }
            let right = try propertySubs(name, in: b)
            if right.contains(where: \.isFalse) { return true }
            guard b.required.contains(name) else { continue }
            let left = try propertySubs(name, in: a)
            var leftFacts = [Facts()]
            for sub in left { leftFacts = try conjoin(leftFacts, try facts(of: sub), at: sub.path) }
            var rightFacts = [Facts()]
            for sub in right { rightFacts = try conjoin(rightFacts, try facts(of: sub), at: sub.path) }
            var all = true
            for x in leftFacts {
                for y in rightFacts {
                    if !(try disjoint(x, y, depth: depth + 1)) { all = false }
                }
            }
            if all { return true }
        }
        return false
    }

    /// The subschemas that apply to property `name` in every object clause.
    private func propertySubs(_ name: String, in facts: Facts) throws -> [Sub] {
        var subs: [Sub] = []
        for clause in facts.objectClauses {
            if let declared = clause.properties.first(where: { $0.name == name }) {
                subs.append(declared.sub)
                continue
            }
            var matched = false
            for entry in clause.patternProperties {
                if try Self.matches(entry.pattern, name) {
                    subs.append(entry.sub)
                    matched = true
                }
            }
            if !matched, let additional = clause.additional { subs.append(additional) }
        }
        return subs
    }

    private static func matches(_ pattern: String, _ text: String) throws -> Bool {
        do {
            return try ByteDFA.jsonString(matching: pattern, search: true).accepts(JSONStringEncoding.quoted(text))
        } catch {
            throw corrupted("unsupported pattern \"\(pattern)\": \(error)")
        }
    }

    // MARK: - Values

    /// Whether `value` satisfies `facts`; nil when that cannot be decided here.
    private mutating func valueSatisfies(_ value: GeneratedContent, _ facts: Facts) throws -> Bool? {
        if facts.reference != nil { return nil }
        if let values = facts.values, !values.contains(where: { Self.equal($0, value) }) { return false }
        switch value.kind {
        case .null: return facts.allows(.null)
        case .bool: return facts.allows(.boolean)
        case .number(let number):
            let isInteger = number == number.rounded()
            guard facts.allows(.number) || (isInteger && facts.allows(.integer)) else { return false }
            if let minimum = facts.minimum, number < minimum || (number == minimum && facts.excludesMinimum) { return false }
            if let maximum = facts.maximum, number > maximum || (number == maximum && facts.excludesMaximum) { return false }
            if let factor = facts.multipleOf {
                let ratio = number / factor
                if ratio != ratio.rounded() { return false }
            }
            return true
        case .string(let text):
            guard facts.allows(.string) else { return false }
            let length = text.unicodeScalars.count
            if let minimum = facts.minLength, length < minimum { return false }
            if let maximum = facts.maxLength, length > maximum { return false }
            for pattern in facts.patterns {
                if !(try Self.matches(pattern, text)) { return false }
            }
            if let format = facts.format, let pattern = StringFormat.pattern(for: format) {
                guard (try? ByteDFA.jsonString(matching: pattern).accepts(JSONStringEncoding.quoted(text))) == true else { return false }
            }
            return true
        case .array(let elements):
            guard facts.allows(.array) else { return false }
            if let minimum = facts.minItems, elements.count < minimum { return false }
            if let maximum = facts.maxItems, elements.count > maximum { return false }
            if !facts.arrayClauses.isEmpty || !facts.contains.isEmpty || facts.uniqueItems != nil { return nil }
            return true
        case .structure(let properties, _):
            guard facts.allows(.object) else { return false }
            for name in facts.required where properties[name] == nil { return false }
            if !facts.objectClauses.isEmpty || facts.minProperties != nil || facts.maxProperties != nil
                || !facts.dependentRequired.isEmpty || !facts.forbiddenGroups.isEmpty { return nil }
            return true
        }
    }

    /// The compact JSON text of `value` as the engine writes it (numbers
    /// in their shortest form, keys in their order): the text of a literal.
    package static func compactText(_ value: GeneratedContent) -> String {
        switch value.kind {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return JSONPrinter.format(number)
        case .string(let text): return String(decoding: JSONStringEncoding.quoted(text), as: UTF8.self)
        case .array(let elements): return "[" + elements.map(compactText).joined(separator: ",") + "]"
        case .structure(let properties, let keys):
            return "{" + JSONPrinter.printableKeys(properties, keys).map { compactText(GeneratedContent(kind: .string($0))) + ":" + compactText(properties[$0]!) }.joined(separator: ",") + "}"
        }
    }

    static func equal(_ a: GeneratedContent, _ b: GeneratedContent) -> Bool {
        switch (a.kind, b.kind) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.structure(let x, _), .structure(let y, _)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { equal(value, $0) } ?? false }
        default: return false
        }
    }

    private static func intersect(_ existing: [GeneratedContent]?, _ values: [GeneratedContent]) throws -> [GeneratedContent] {
        guard let existing else { return values }
        return existing.filter { value in values.contains { equal($0, value) } }
    }

    // MARK: - Lowering

    /// The node of the values any of `alternatives` accepts. An alternative
    /// no value satisfies is left out (a `oneOf` branch that contradicts the
    /// keywords beside it); when all are, this throws ``Unsatisfiable``.
    private mutating func lower(_ alternatives: [Facts], at path: String) throws -> SchemaNode {
        var nodes: [SchemaNode] = []
        var failure: Unsatisfiable?
        for facts in alternatives {
            let node: SchemaNode
            do {
                node = try lower(facts, at: path)
            } catch let error as Unsatisfiable {
                failure = failure ?? error
                continue
            }
            if case .anyOf(let choices) = node { nodes += choices } else { nodes.append(node) }
        }
        if nodes.count == 1 { return nodes[0] }
        if nodes.isEmpty {
            if let failure { throw failure }
            return .anyOf([])
        }
        return .anyOf(nodes)
    }

    /// A schema (or one alternative of it) that no value satisfies. Caught
    /// where the value may be absent or another alternative remains; at the
    /// top of the document, a `DecodingError.dataCorrupted` naming it.
    struct Unsatisfiable: Error {
        var message: String
    }

    /// The node of `subs`, or nil when no value satisfies them.
    private mutating func satisfiableNode(for subs: [Sub], at path: String) throws -> SchemaNode? {
        do {
            let node = try node(for: subs, at: path)
            if case .anyOf(let choices) = node, choices.isEmpty { return nil }
            return node
        } catch is Unsatisfiable {
            return nil
        }
    }

    private mutating func lower(_ facts: Facts, at path: String) throws -> SchemaNode {
        if let reference = facts.reference {
            return .reference(self.reference(to: reference.pointer))
        }
        if let values = facts.values {
            var strings: [String] = []
            var others: [SchemaNode] = []
            for value in values {
                guard let satisfied = try valueSatisfies(value, facts) else {
                    throw Self.corrupted("unsupported enum at \(path): an object or array value combined with other object or array keywords")
                }
                guard satisfied else { continue }
                if case .string(let text) = value.kind {
                    if !strings.contains(text) { strings.append(text) }
                } else {
                    let literal = SchemaNode.literal(Self.compactText(value))
                    if !others.contains(literal) { others.append(literal) }
                }
            }
            let stringNode = facts.isConstant && strings.count == 1 ? StringNode(constant: strings[0]) : StringNode(choices: strings)
            let nodes = (strings.isEmpty ? [] : [SchemaNode.string(stringNode)]) + others
            return nodes.count == 1 ? nodes[0] : .anyOf(nodes)
        }
        var nodes: [SchemaNode] = []
        let kinds = (facts.types ?? Set(Kind.allCases)).sorted()
        for kind in kinds {
            switch kind {
            case .object: nodes.append(try objectNode(facts, at: path))
            case .array: nodes.append(try arrayNode(facts, at: path))
            case .string:
                if !facts.unsupportedGuides.isEmpty {
                    nodes.append(.string(StringNode(unsupportedGuides: facts.unsupportedGuides)))
                    continue
                }
                // A pattern anchored as `^(?:…)$` (how a guide's whole-string
                // pattern is written) is read back as that guide.
                var whole: String?
                var search: [String] = []
                for pattern in facts.patterns {
                    if whole == nil, let inner = Self.wholeStringPattern(pattern) { whole = inner } else { search.append(pattern) }
                }
                nodes.append(.string(StringNode(
                    pattern: whole, searchPatterns: search, minimumLength: facts.minLength, maximumLength: facts.maxLength, format: facts.format
                )))
            case .integer:
                if kinds.contains(.number) { continue }
                nodes.append(try numberNode(facts, integer: true, at: path))
            case .number:
                nodes.append(try numberNode(facts, integer: false, at: path))
            case .boolean: nodes.append(.boolean)
            case .null: nodes.append(.null)
            }
        }
        if facts.types == nil, nodes.count == Kind.allCases.count - 1, facts.isTrivial { return .any }
        return nodes.count == 1 ? nodes[0] : .anyOf(nodes)
    }

    /// The strings `facts` allows, as an automaton (nil: any string, or too
    /// large to build).
    private static func stringAutomaton(_ facts: Facts) -> ByteDFA? {
        var parts: [ByteDFA] = []
        for pattern in facts.patterns {
            guard let automaton = try? ByteDFA.jsonString(matching: pattern, search: true) else { return nil }
            parts.append(automaton)
        }
        if let format = facts.format, let pattern = StringFormat.pattern(for: format), let automaton = try? ByteDFA.jsonString(matching: pattern) {
            parts.append(automaton)
        }
        if facts.minLength != nil || facts.maxLength != nil,
           let automaton = try? ByteDFA.jsonString(length: min(facts.minLength ?? 0, 1000), facts.maxLength.flatMap { $0 > 1000 ? nil : $0 }) {
            parts.append(automaton)
        }
        guard !parts.isEmpty else { return nil }
        return try? ByteDFA.intersection(parts, subject: "a string")
    }

    /// `X` when `pattern` is `^(?:X)$` with `X` a whole pattern of its own.
    private static func wholeStringPattern(_ pattern: String) -> String? {
        guard pattern.hasPrefix("^(?:"), pattern.hasSuffix(")$") else { return nil }
        let inner = String(pattern.dropFirst(4).dropLast(2))
        guard (try? ByteDFA.jsonString(matching: inner)) != nil else { return nil }
        return inner
    }

    private func numberNode(_ facts: Facts, integer: Bool, at path: String) throws -> SchemaNode {
        var isInteger = integer
        if let factor = facts.multipleOf {
            if factor == 1 || (isInteger && factor == factor.rounded() && factor <= 1) {
                isInteger = true
            } else if factor == factor.rounded(), let low = facts.minimum, let high = facts.maximum, (high - low) / factor <= 256 {
                // A few multiples in range: enumerate them.
                var values: [SchemaNode] = []
                var multiple = (low / factor).rounded(.up) * factor
                while multiple <= high {
                    if !(multiple == low && facts.excludesMinimum), !(multiple == high && facts.excludesMaximum) {
                        values.append(.literal(JSONPrinter.format(multiple)))
                    }
                    multiple += factor
                }
                return values.count == 1 ? values[0] : .anyOf(values)
            } else {
                throw Self.corrupted("unsupported JSON Schema keyword \"multipleOf\" at \(path)/multipleOf: only 1, or an integer factor with a range of at most 256 multiples, can be enforced")
            }
        }
        let bounds = NumberNode(minimum: facts.minimum, maximum: facts.maximum, excludesMinimum: facts.excludesMinimum, excludesMaximum: facts.excludesMaximum)
        return isInteger ? .integer(bounds) : .number(bounds)
    }

    private mutating func arrayNode(_ facts: Facts, at path: String) throws -> SchemaNode {
        if !facts.contains.isEmpty {
            for (sub, minimum, _) in facts.contains where minimum > 0 || !sub.isTrue {
                if minimum == 0 { continue }
                throw Self.corrupted("unsupported JSON Schema keyword \"contains\" at \(sub.path): cannot be enforced token by token")
            }
        }
        let prefixCount = facts.arrayClauses.map(\.prefix.count).max() ?? 0
        var maximum = facts.maxItems
        var prefix: [SchemaNode] = []
        for index in 0..<prefixCount {
            let subs = facts.arrayClauses.compactMap { index < $0.prefix.count ? $0.prefix[index] : $0.rest }
            // An element no value satisfies ends the array before it.
            guard !subs.contains(where: \.isFalse), let element = try satisfiableNode(for: subs, at: "\(path)/items/\(index)") else {
                maximum = min(maximum ?? index, index)
                break
            }
            prefix.append(element)
        }
        let restSubs = facts.arrayClauses.compactMap(\.rest)
        var items = SchemaNode.any
        if !restSubs.isEmpty, prefix.count == prefixCount {
            if !restSubs.contains(where: \.isFalse), let rest = try satisfiableNode(for: restSubs, at: path + "/items") {
                items = rest
            } else {
                maximum = min(maximum ?? prefix.count, prefix.count)
            }
        }
        if let maximum, (facts.minItems ?? 0) > maximum {
            throw Unsatisfiable(message: "unsatisfiable schema at \(path): minItems \(facts.minItems ?? 0), but it may have at most \(maximum) elements (maxItems, false or unsatisfiable items)")
        }
        if let uniqueness = facts.uniqueItems, (maximum ?? 2) > 1 {
            throw Self.corrupted("unsupported JSON Schema keyword \"uniqueItems\" at \(uniqueness): cannot be enforced token by token")
        }
        if let maximum, prefix.count > maximum { prefix.removeLast(prefix.count - maximum) }
        return .array(ArrayNode(items: items, minimumCount: facts.minItems, maximumCount: maximum, prefixItems: prefix))
    }

    private mutating func objectNode(_ facts: Facts, at path: String) throws -> SchemaNode {
        var order: [String] = []
        for clause in facts.objectClauses {
            for entry in clause.properties where !order.contains(entry.name) { order.append(entry.name) }
        }
        for name in facts.required where !order.contains(name) { order.append(name) }
        let extrasClauses = facts.objectClauses.filter { !$0.patternProperties.isEmpty || $0.additional != nil }
        let closed = extrasClauses.contains { $0.additional?.isFalse == true && $0.patternProperties.isEmpty }
        // Property names must follow every clause's propertyNames.
        var nameFacts = [Facts()]
        for clause in facts.objectClauses {
            if let names = clause.propertyNames { nameFacts = try conjoin(nameFacts, try self.facts(of: names), at: names.path) }
        }
        // `not: {required: [a, b]}`: of a group whose properties may all be
        // written, leave out the first that is not required.
        var forbidden: Set<String> = []
        for group in facts.forbiddenGroups where group.allSatisfy({ order.contains($0) }) {
            guard let dropped = group.first(where: { !facts.required.contains($0) }) else {
                throw Unsatisfiable(message: "unsatisfiable schema at \(path): the required properties \(group) are forbidden together (not/required)")
            }
            forbidden.insert(dropped)
        }
        var properties: [PropertyNode] = []
        for name in order {
            let propertyPath = "\(path)/properties/\(Self.escape(name))"
            let isRequired = facts.required.contains(name)
            var subs = try propertySubs(name, in: facts)
            var allowed = !subs.contains(where: \.isFalse) && !forbidden.contains(name)
            if allowed, facts.objectClauses.contains(where: { $0.propertyNames != nil }) {
                var fits = false
                for candidate in nameFacts {
                    if try valueSatisfies(GeneratedContent(kind: .string(name)), candidate) ?? false { fits = true }
                }
                allowed = fits
            }
            guard allowed else {
                if isRequired {
                    throw Unsatisfiable(message: "unsatisfiable schema at \(path): the required property \"\(name)\" is excluded (a false schema, additionalProperties false, propertyNames or not/required)")
                }
                continue
            }
            subs = subs.filter { !$0.isTrue }
            guard let value = try satisfiableNode(for: subs, at: propertyPath) else {
                // No value satisfies the property's schema: it can only be absent.
                if isRequired {
                    throw Unsatisfiable(message: "unsatisfiable schema at \(propertyPath): no value satisfies the required property \"\(name)\"")
                }
                continue
            }
            var declared: Sub?
            for clause in facts.objectClauses {
                if let entry = clause.properties.first(where: { $0.name == name }) {
                    declared = entry.sub
                    break
                }
            }
            properties.append(PropertyNode(
                name: name, description: Self.description(of: declared), node: value, isOptional: !isRequired
            ))
        }
        // Extra keys.
        var additional: SchemaNode?
        var patternProperties: [PatternProperty] = []
        if closed {
            additional = nil
        } else if extrasClauses.count > 1 {
            throw Self.corrupted("unsupported allOf at \(path): several schemas with additionalProperties or patternProperties")
        } else if let clause = extrasClauses.first {
            for entry in clause.patternProperties {
                guard let value = try satisfiableNode(for: [entry.sub], at: entry.sub.path) else {
                    // (Such keys must stay out, which their pattern alone cannot say.)
                    throw Self.corrupted("unsupported patternProperties at \(entry.sub.path): no value satisfies the schema of the keys it matches")
                }
                patternProperties.append(PatternProperty(pattern: entry.pattern, node: value))
            }
            if let extra = clause.additional, !extra.isFalse {
                // (One that no value satisfies is `false`.)
                additional = try satisfiableNode(for: [extra], at: extra.path)
            }
        } else {
            // No additionalProperties: JSON Schema allows other keys, but the
            // engine writes only the declared ones (a model given the choice
            // invents keys). Every value it writes is still valid.
            additional = nil
        }
        var propertyNames: StringNode?
        if facts.objectClauses.contains(where: { $0.propertyNames != nil }), additional != nil || !patternProperties.isEmpty {
            // Names are strings: only the string part of the schema applies.
            var names = Facts()
            names.types = [.string]
            let node = try lower(try conjoin(nameFacts, [names], at: path), at: path + "/propertyNames")
            switch node {
            case .string(let names): propertyNames = names
            case .any: break
            default:
                throw Self.corrupted("unsupported propertyNames at \(path): only string constraints on property names can be enforced")
            }
        }
        let isOpen = additional != nil || !patternProperties.isEmpty
        if !facts.forbiddenGroups.isEmpty, isOpen {
            throw Self.corrupted("unsupported not at \(path): a forbidden property in an object that allows other properties")
        }
        // Counts and dependencies: enforced where the declared properties imply them.
        let requiredCount = properties.filter { !$0.isOptional }.count
        if let minimum = facts.minProperties, minimum > requiredCount {
            throw Self.corrupted("unsupported JSON Schema keyword \"minProperties\" at \(path): \(minimum) properties with only \(requiredCount) required cannot be enforced token by token")
        }
        if let maximum = facts.maxProperties, isOpen || maximum < properties.count {
            throw Self.corrupted("unsupported JSON Schema keyword \"maxProperties\" at \(path): cannot be enforced token by token")
        }
        for (trigger, dependents, dependencyPath) in facts.dependentRequired {
            guard let index = properties.firstIndex(where: { $0.name == trigger }) else {
                if isOpen { throw Self.corrupted("unsupported dependency at \(dependencyPath): cannot be enforced token by token") }
                continue
            }
            if properties[index].isOptional || dependents.contains("\u{0}schema")
                || !dependents.allSatisfy({ name in properties.contains { $0.name == name && !$0.isOptional } }) {
                throw Self.corrupted("unsupported dependency at \(dependencyPath): cannot be enforced token by token")
            }
        }
        return .object(ObjectNode(properties: properties, additionalProperties: additional, patternProperties: patternProperties, propertyNames: propertyNames))
    }

    private static func description(of sub: Sub?) -> String? {
        guard let sub, case .structure(let properties, _) = sub.content.kind, case .string(let text)? = properties["description"]?.kind else { return nil }
        return text
    }

    // MARK: - JSON helpers

    private struct JSONObject {
        var properties: [String: GeneratedContent]
        var keys: [String]
    }

    private static func structure(_ content: GeneratedContent, at path: String) throws -> JSONObject {
        guard case .structure(let properties, let keys) = content.kind else {
            throw corrupted("expected a JSON object at \(path), found \(ContentDecoding.describe(content))")
        }
        return JSONObject(properties: properties, keys: JSONPrinter.printableKeys(properties, keys))
    }

    private static func array(_ content: GeneratedContent, at path: String) throws -> [GeneratedContent] {
        guard case .array(let elements) = content.kind else {
            throw corrupted("expected an array at \(path), found \(ContentDecoding.describe(content))")
        }
        return elements
    }

    private static func string(_ content: GeneratedContent, at path: String) throws -> String {
        guard case .string(let value) = content.kind else {
            throw corrupted("expected a string at \(path), found \(ContentDecoding.describe(content))")
        }
        return value
    }

    private static func strings(_ content: GeneratedContent, at path: String) throws -> [String] {
        try array(content, at: path).enumerated().map { try string($1, at: "\(path)/\($0)") }
    }

    private static func number(_ content: GeneratedContent, at path: String) throws -> Double {
        guard case .number(let value) = content.kind else {
            throw corrupted("expected a number at \(path), found \(ContentDecoding.describe(content))")
        }
        return value
    }

    private static func count(_ content: GeneratedContent, at path: String) throws -> Int {
        let value = try number(content, at: path)
        guard value >= 0, value == value.rounded(), let count = Int(exactly: value) else {
            throw corrupted("expected a non-negative integer at \(path), found \(value)")
        }
        return count
    }

    private static func maxOptional(_ a: Int?, _ b: Int?) -> Int? {
        switch (a, b) {
        case let (x?, y?): max(x, y)
        default: a ?? b
        }
    }

    private static func minOptional(_ a: Int?, _ b: Int?) -> Int? {
        switch (a, b) {
        case let (x?, y?): min(x, y)
        default: a ?? b
        }
    }

    private static func corrupted(_ message: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: "Invalid generation schema: \(message)"))
    }
}

extension GeneratedContent {
    /// The value as compact JSON the way guided generation writes it:
    /// canonical string escapes, numbers in their shortest form, keys in
    /// their order.
    package var canonicalJSON: String { JSONSchemaReader.compactText(self) }
}
