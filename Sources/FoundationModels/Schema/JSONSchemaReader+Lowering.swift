import GuidedGeneration

/// Facts lowered into the schema IR (``SchemaNode``), and the checks of
/// literal values (`enum`, `const`, defaults) against facts.
extension JSONSchemaReader {
    // MARK: - Values

    /// Whether `value` satisfies `facts`; nil when that cannot be decided here.
    mutating func valueSatisfies(_ value: GeneratedContent, _ facts: Facts) throws -> Bool? {
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

    static func intersect(_ existing: [GeneratedContent]?, _ values: [GeneratedContent]) throws -> [GeneratedContent] {
        guard let existing else { return values }
        return existing.filter { value in values.contains { equal($0, value) } }
    }

    // MARK: - Lowering

    /// The node of the values any of `alternatives` accepts. An alternative
    /// no value satisfies is left out (a `oneOf` branch that contradicts the
    /// keywords beside it); when all are, this throws ``Unsatisfiable``.
    mutating func lower(_ alternatives: [Facts], at path: String) throws -> SchemaNode {
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
    mutating func satisfiableNode(for subs: [Subschema], at path: String) throws -> SchemaNode? {
        do {
            let node = try node(for: subs, at: path)
            if case .anyOf(let choices) = node, choices.isEmpty { return nil }
            return node
        } catch is Unsatisfiable {
            return nil
        }
    }

    mutating func lower(_ facts: Facts, at path: String) throws -> SchemaNode {
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
    static func stringAutomaton(_ facts: Facts) -> ByteDFA? {
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
    static func wholeStringPattern(_ pattern: String) -> String? {
        guard pattern.hasPrefix("^(?:"), pattern.hasSuffix(")$") else { return nil }
        let inner = String(pattern.dropFirst(4).dropLast(2))
        guard (try? ByteDFA.jsonString(matching: inner)) != nil else { return nil }
        return inner
    }

    func numberNode(_ facts: Facts, integer: Bool, at path: String) throws -> SchemaNode {
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

    mutating func arrayNode(_ facts: Facts, at path: String) throws -> SchemaNode {
        if !facts.contains.isEmpty {
            for clause in facts.contains where clause.minimum > 0 {
                throw Self.corrupted("unsupported JSON Schema keyword \"contains\" at \(clause.sub.path): cannot be enforced token by token")
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

    mutating func objectNode(_ facts: Facts, at path: String) throws -> SchemaNode {
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
            var declared: Subschema?
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
        for dependency in facts.dependentRequired {
            guard let index = properties.firstIndex(where: { $0.name == dependency.trigger }) else {
                if isOpen { throw Self.corrupted("unsupported dependency at \(dependency.path): cannot be enforced token by token") }
                continue
            }
            if properties[index].isOptional || dependency.dependents.contains("\u{0}schema")
                || !dependency.dependents.allSatisfy({ name in properties.contains { $0.name == name && !$0.isOptional } }) {
                throw Self.corrupted("unsupported dependency at \(dependency.path): cannot be enforced token by token")
            }
        }
        return .object(ObjectNode(properties: properties, additionalProperties: additional, patternProperties: patternProperties, propertyNames: propertyNames))
    }

    static func description(of sub: Subschema?) -> String? {
        guard let sub, case .structure(let properties, _) = sub.content.kind, case .string(let text)? = properties["description"]?.kind else { return nil }
        return text
    }
}
