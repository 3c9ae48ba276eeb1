import GuidedGeneration

/// A schema object read into ``JSONSchemaReader/Facts``: its assertions
/// grouped by instance type, with the keywords that constrain nothing by
/// definition (annotations, unknown keywords) set apart and every other
/// keyword either read exactly or refused with its location.
extension JSONSchemaReader {
    // MARK: - Subschemas

    /// A subschema not read yet: its JSON and its location.
    struct Subschema {
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
    mutating func node(for subs: [Subschema], at path: String) throws -> SchemaNode {
        guard nesting < Self.maximumNesting else {
            throw Self.corrupted(
                "unsupported schema at \(path): nested more than \(Self.maximumNesting) levels deep (a recursive $ref combined with other keywords cannot be expanded)"
            )
        }
        nesting += 1
        defer { nesting -= 1 }
        let subs = subs.filter { !$0.isTrue }
        if subs.isEmpty { return .any }
        // A plain reference stays a reference (recursion stays finite).
        if subs.count == 1, case .structure(let properties, _) = subs[0].content.kind,
            case .string(let target)? = properties["$ref"]?.kind,
            properties.keys.allSatisfy({ $0 == "$ref" || Self.isAnnotation($0) || $0 == "definitions" || $0 == "$defs" })
        {
            return .reference(reference(to: try pointer(of: target, at: subs[0].path)))
        }
        var alternatives = [Facts()]
        for sub in subs {
            alternatives = try conjoin(alternatives, try facts(of: sub), at: path)
        }
        return try lower(alternatives, at: path)
    }

    mutating func conjoin(_ left: [Facts], _ right: [Facts], at path: String) throws -> [Facts] {
        var result: [Facts] = []
        for a in left {
            for b in right {
                result += try merge(a, b, at: path)
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
        var properties: [(name: String, sub: Subschema)] = []
        var patternProperties: [(pattern: String, sub: Subschema)] = []
        var additional: Subschema?
        var propertyNames: Subschema?
    }

    /// One subschema's array keywords.
    struct ArrayClause {
        var prefix: [Subschema] = []
        var rest: Subschema?
    }

    /// `contains` with its bounds: between `minimum` and `maximum` elements
    /// match `sub`.
    struct ContainsClause {
        var sub: Subschema
        var minimum: Int
        var maximum: Int?
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
        /// `not: {required: […]}`: the object must not have every property
        /// of a group (a group of one: that property is absent).
        var forbiddenGroups: [[String]] = []
        /// `not: {enum: […]}`: values it must not be. Numbers are excluded
        /// by splitting the range instead (``negation(of:within:)``).
        var excluded: [GeneratedContent] = []
        /// The strings among ``excluded``.
        var excludedStrings: [String] {
            excluded.compactMap { value in if case .string(let text) = value.kind { text } else { nil } }
        }
        /// `not: {pattern: …}`: patterns that must not match a string.
        var excludedPatterns: [String] = []
        /// `not: {type: "integer"}` beside numbers: a number must not be whole.
        var excludesIntegers = false
        var arrayClauses: [ArrayClause] = []
        var minItems: Int?
        var maxItems: Int?
        var uniqueItems: String?
        var contains: [ContainsClause] = []
        var unsupportedGuides: [String] = []
        /// A reference not expanded yet (alone, it lowers to an IR reference).
        var reference: (pointer: String, path: String)?

        var isTrivial: Bool {
            types == nil && values == nil && minLength == nil && maxLength == nil && patterns.isEmpty && format == nil
                && minimum == nil && maximum == nil && multipleOf == nil && objectClauses.isEmpty && required.isEmpty
                && minProperties == nil && maxProperties == nil && forbiddenGroups.isEmpty
                && excluded.isEmpty && excludedPatterns.isEmpty && !excludesIntegers
                && arrayClauses.isEmpty && minItems == nil && maxItems == nil && uniqueItems == nil && contains.isEmpty
                && unsupportedGuides.isEmpty
        }

        func allows(_ kind: Kind) -> Bool {
            guard let types else { return true }
            return types.contains(kind) || (kind == .integer && types.contains(.number))
        }
    }

    static let annotations: Set<String> = [
        "$schema", "$id", "id", "$comment", "title", "description", "examples", "example", "default", "readOnly", "writeOnly",
        "deprecated", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary", "definitions", "$defs",
        "contentMediaType", "contentEncoding", "contentSchema", "x-order", "discriminator", "xml", "externalDocs",
    ]

    /// Keywords that assert something: those this reader does not handle
    /// are refused (every other unknown keyword is an annotation).
    static let assertions: Set<String> = [
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
    mutating func facts(of sub: Subschema) throws -> [Facts] {
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
        try refuseUnenforceable(p, at: path)
        var facts = Facts()
        try readTypeAndValues(p, at: path, into: &facts)
        try readStringKeywords(p, at: path, into: &facts)
        try readNumberKeywords(p, at: path, into: &facts)
        try readObjectKeywords(p, at: path, into: &facts)
        try readArrayKeywords(p, at: path, into: &facts)
        // The combinators, each intersected with the facts so far, then `not`.
        let alternatives = try combine(facts, with: p, at: path)
        guard let negated = p["not"] else { return alternatives }
        return try negation(of: Subschema(negated, path + "/not"), within: alternatives)
    }

    private typealias Keywords = [String: GeneratedContent]

    /// Keywords that are never enforced, refused wherever they constrain.
    private func refuseUnenforceable(_ p: Keywords, at path: String) throws {
        for keyword in ["unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef"] where p[keyword] != nil {
            if keyword.hasPrefix("unevaluated"), let value = p[keyword], Subschema(value, "").isTrue { continue }
            throw Self.corrupted("unsupported JSON Schema keyword \"\(keyword)\" at \(path) cannot be enforced token by token")
        }
    }

    /// `type` (with OpenAPI's `nullable`), `enum` and `const`.
    private func readTypeAndValues(_ p: Keywords, at path: String, into facts: inout Facts) throws {
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

    }

    /// `minLength`, `maxLength`, `pattern`, `format` (known formats only)
    /// and the guides the macro could not express.
    private func readStringKeywords(_ p: Keywords, at path: String, into facts: inout Facts) throws {
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

    }

    /// Bounds, in draft 4's boolean and later drafts' numeric forms, and `multipleOf`.
    private func readNumberKeywords(_ p: Keywords, at path: String, into facts: inout Facts) throws {
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

    }

    /// The object clause (properties in `x-order` where given, pattern and
    /// additional properties, property names), `required` and the property
    /// counts.
    private func readObjectKeywords(_ p: Keywords, at path: String, into facts: inout Facts) throws {
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
                clause.properties.append((name, Subschema(properties.properties[name]!, "\(path)/properties/\(Self.escape(name))")))
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
                clause.patternProperties.append(
                    (pattern, Subschema(patterns.properties[pattern]!, "\(path)/patternProperties/\(Self.escape(pattern))")))
            }
            hasClause = true
        }
        if let value = p["additionalProperties"] {
            clause.additional = Subschema(value, path + "/additionalProperties")
            hasClause = true
        }
        if let value = p["propertyNames"] {
            clause.propertyNames = Subschema(value, path + "/propertyNames")
            hasClause = true
        }
        if hasClause { facts.objectClauses.append(clause) }
        if let value = p["required"] {
            facts.required = try Self.strings(value, at: path + "/required")
        }
        if let value = p["minProperties"] { facts.minProperties = try Self.count(value, at: path + "/minProperties") }
        if let value = p["maxProperties"] { facts.maxProperties = try Self.count(value, at: path + "/maxProperties") }

    }

    /// The array clause (a prefix in either draft's form and the rest), the
    /// item counts, `uniqueItems` and `contains`.
    private func readArrayKeywords(_ p: Keywords, at path: String, into facts: inout Facts) throws {
        var arrayClause = ArrayClause()
        var hasArrayClause = false
        if let value = p["prefixItems"] {
            arrayClause.prefix = try Self.array(value, at: path + "/prefixItems").enumerated().map { Subschema($1, "\(path)/prefixItems/\($0)") }
            hasArrayClause = true
        }
        if let value = p["items"] {
            if case .array(let elements) = value.kind {
                arrayClause.prefix = elements.enumerated().map { Subschema($1, "\(path)/items/\($0)") }
                if let rest = p["additionalItems"] { arrayClause.rest = Subschema(rest, path + "/additionalItems") }
            } else {
                arrayClause.rest = Subschema(value, path + "/items")
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
            facts.contains.append(ContainsClause(sub: Subschema(value, path + "/contains"), minimum: minimum, maximum: maximum))
        }

    }

    /// `$ref`, `allOf`, `anyOf`, `oneOf`, `if` and the dependencies, each
    /// intersected with `facts`: the alternatives the schema object allows.
    private mutating func combine(_ facts: Facts, with p: Keywords, at path: String) throws -> [Facts] {
        var alternatives = [facts]
        if let value = p["$ref"] {
            let target = try Self.string(value, at: path + "/$ref")
            var referenced = Facts()
            referenced.reference = (try pointer(of: target, at: path), path + "/$ref")
            alternatives = try conjoin(alternatives, [referenced], at: path)
        }
        if let value = p["allOf"] {
            for (index, element) in try Self.array(value, at: path + "/allOf").enumerated() {
                alternatives = try conjoin(alternatives, try self.facts(of: Subschema(element, "\(path)/allOf/\(index)")), at: path)
            }
        }
        if let value = p["anyOf"] {
            var branches: [Facts] = []
            for (index, element) in try Self.array(value, at: path + "/anyOf").enumerated() {
                branches += try self.facts(of: Subschema(element, "\(path)/anyOf/\(index)"))
            }
            alternatives = try conjoin(alternatives, branches, at: path)
        }
        if let value = p["oneOf"] {
            alternatives = try exclusiveBranches(of: try Self.array(value, at: path + "/oneOf"), within: alternatives, at: path)
        }
        return try conditionals(p, within: alternatives, at: path)
    }

    /// `oneOf`'s branches, each conjoined with `alternatives`. Where a
    /// branch as written provably excludes every other, it is kept as it
    /// is; where it does not, a branch may drop the keys another branch
    /// requires (it then never matches that one); else it is narrowed to
    /// the values the others refuse (a branch and not the others), which
    /// is exact wherever those others' negation can be enforced, and the
    /// oneOf is refused where it cannot.
    private mutating func exclusiveBranches(of elements: [GeneratedContent], within alternatives: [Facts], at path: String) throws -> [Facts] {
        var written: [[Facts]] = []
        var branches: [[Facts]] = []
        for (index, element) in elements.enumerated() {
            written.append(try self.facts(of: Subschema(element, "\(path)/oneOf/\(index)")))
            branches.append(try conjoin(alternatives, written[index], at: path))
        }
        var generated = branches
        var overlapping: [Set<Int>] = Array(repeating: [], count: branches.count)
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
                        overlapping[i].insert(j)
                    }
                }
            }
        }
        for i in branches.indices {
            for j in overlapping[i].sorted() {
                do {
                    for other in written[j] where !generated[i].isEmpty {
                        generated[i] = try conjoin(generated[i], try negation(of: other, at: "\(path)/oneOf/\(j)"), at: path)
                    }
                } catch {
                    throw Self.corrupted(
                        "oneOf at \(path): branches \(min(i, j)) and \(max(i, j)) may both match the same value, so oneOf cannot be enforced (write anyOf if either may match): \(Self.reason(error))"
                    )
                }
            }
        }
        return generated.flatMap { $0 }
    }
}
