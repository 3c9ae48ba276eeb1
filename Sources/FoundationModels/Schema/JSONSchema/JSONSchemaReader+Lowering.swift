import GuidedGeneration

/// Facts lowered into the schema IR (``SchemaNode``), and the checks of
/// literal values (`enum`, `const`, defaults) against facts.
extension JSONSchemaReader {
    // MARK: - Values

    /// Whether `value` satisfies `facts`; nil when that cannot be decided here.
    mutating func valueSatisfies(_ value: GeneratedContent, _ facts: Facts) throws -> Bool? {
        if facts.reference != nil { return nil }
        if let values = facts.values, !values.contains(where: { Self.equal($0, value) }) { return false }
        if facts.excluded.contains(where: { Self.equal($0, value) }) { return false }
        switch value.kind {
        case .null: return facts.allows(.null)
        case .bool: return facts.allows(.boolean)
        case .number(let number):
            let isInteger = number == number.rounded()
            guard facts.allows(.number) || (isInteger && facts.allows(.integer)) else { return false }
            if isInteger, facts.excludesIntegers { return false }
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
            for pattern in facts.excludedPatterns {
                if try Self.matches(pattern, text) { return false }
            }
            if let format = facts.format, let pattern = StringFormat.pattern(for: format) {
                guard (try? ByteDFA.jsonString(matching: pattern).accepts(JSONStringEncoding.quoted(text))) == true else { return false }
            }
            return true
        case .array(let elements):
            guard facts.allows(.array) else { return false }
            if let minimum = facts.minItems, elements.count < minimum { return false }
            if let maximum = facts.maxItems, elements.count > maximum { return false }
            if facts.uniqueItems != nil {
                for (index, element) in elements.enumerated() where elements[..<index].contains(where: { Self.equal($0, element) }) { return false }
            }
            var unknown = false
            for clause in facts.arrayClauses {
                for (index, element) in elements.enumerated() {
                    guard let sub = index < clause.prefix.count ? clause.prefix[index] : clause.rest else { continue }
                    switch try valueSatisfies(element, sub) {
                    case false?: return false
                    case nil: unknown = true
                    case true?: break
                    }
                }
            }
            for clause in facts.contains {
                var matching = 0
                for element in elements {
                    switch try valueSatisfies(element, clause.sub) {
                    case true?: matching += 1
                    case nil: unknown = true
                    case false?: break
                    }
                }
                if !unknown, matching < clause.minimum || matching > (clause.maximum ?? Int.max) { return false }
            }
            return unknown ? nil : true
        case .structure(let properties, _):
            guard facts.allows(.object) else { return false }
            for name in facts.required where properties[name] == nil { return false }
            if let minimum = facts.minProperties, properties.count < minimum { return false }
            if let maximum = facts.maxProperties, properties.count > maximum { return false }
            for group in facts.forbiddenGroups where group.allSatisfy({ properties[$0] != nil }) { return false }
            var unknown = false
            for (name, element) in properties {
                for sub in try propertySubs(name, in: facts) {
                    switch try valueSatisfies(element, sub) {
                    case false?: return false
                    case nil: unknown = true
                    case true?: break
                    }
                }
                for clause in facts.objectClauses {
                    guard let names = clause.propertyNames else { continue }
                    switch try valueSatisfies(GeneratedContent(kind: .string(name)), names) {
                    case false?: return false
                    case nil: unknown = true
                    case true?: break
                    }
                }
            }
            return unknown ? nil : true
        }
    }

    /// Whether `value` satisfies the subschema `sub`: some alternative of it
    /// does; nil when that cannot be decided here (a recursive reference).
    mutating func valueSatisfies(_ value: GeneratedContent, _ sub: Subschema) throws -> Bool? {
        if sub.isTrue { return true }
        if sub.isFalse { return false }
        guard let alternatives = try? facts(of: sub) else { return nil }
        var unknown = false
        for alternative in alternatives {
            var candidates = [alternative]
            if let reference = alternative.reference {
                guard let expanded = try? expandReference(reference, alternative, with: Facts(), at: reference.path) else {
                    unknown = true
                    continue
                }
                candidates = expanded
            }
            for candidate in candidates {
                switch try valueSatisfies(value, candidate) {
                case true?: return true
                case nil: unknown = true
                case false?: break
                }
            }
        }
        return unknown ? nil : false
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
            return "{"
                + JSONPrinter.printableKeys(properties, keys).map {
                    compactText(GeneratedContent(kind: .string($0))) + ":" + compactText(properties[$0]!)
                }.joined(separator: ",") + "}"
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
            var seen: Set<String> = []
            var others: [SchemaNode] = []
            // Each value is one of `values`: it is checked against the other
            // keywords only (checking it against the list too made a long
            // enum cost its length squared).
            var constraints = facts
            constraints.values = nil
            for value in values {
                guard let satisfied = try valueSatisfies(value, constraints) else {
                    throw Self.corrupted("unsupported enum at \(path): an object or array value combined with other object or array keywords")
                }
                guard satisfied else { continue }
                if case .string(let text) = value.kind {
                    if seen.insert(text).inserted { strings.append(text) }
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
            case .object:
                try refuseExcluded(facts, of: .object, at: path)
                nodes += try objectNodes(facts, at: path)
            case .array:
                try refuseExcluded(facts, of: .array, at: path)
                nodes.append(try arrayNode(facts, at: path))
            case .string:
                // (Bounds that cross, as `not` and `oneOf` can make them: no string.)
                if let minimum = facts.minLength, let maximum = facts.maxLength, minimum > maximum { continue }
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
                nodes.append(
                    .string(
                        StringNode(
                            pattern: whole, searchPatterns: search, minimumLength: facts.minLength, maximumLength: facts.maxLength,
                            format: facts.format,
                            excludedValues: facts.excludedStrings, excludedPatterns: facts.excludedPatterns
                        )))
            case .integer:
                if kinds.contains(.number) { continue }
                if Self.noNumberBetween(facts, integer: true) { continue }
                try refuseExcluded(facts, of: .integer, at: path)
                nodes.append(try numberNode(facts, integer: true, at: path))
            case .number:
                if Self.noNumberBetween(facts, integer: false) { continue }
                if facts.excludesIntegers {
                    throw Self.corrupted("unsupported not at \(path): a number that is not an integer cannot be enforced")
                }
                try refuseExcluded(facts, of: .number, at: path)
                nodes.append(try numberNode(facts, integer: false, at: path))
            case .boolean:
                let remaining = [false, true].filter { flag in !facts.excluded.contains { Self.equal($0, GeneratedContent(kind: .bool(flag))) } }
                if remaining.count == 2 {
                    nodes.append(.boolean)
                } else if let flag = remaining.first {
                    nodes.append(.literal(flag ? "true" : "false"))
                }
            case .null:
                if !facts.excluded.contains(where: { Self.equal($0, GeneratedContent(kind: .null)) }) { nodes.append(.null) }
            }
        }
        if facts.types == nil, nodes.count == Kind.allCases.count - 1, facts.isTrivial { return .any }
        return nodes.count == 1 ? nodes[0] : .anyOf(nodes)
    }

    /// Whether no number (or no integer) lies within the bounds: bounds
    /// that cross, as `not` and `oneOf` can make them.
    static func noNumberBetween(_ facts: Facts, integer: Bool) -> Bool {
        guard let minimum = facts.minimum, let maximum = facts.maximum else { return false }
        if integer {
            let low = facts.excludesMinimum ? minimum.rounded(.down) + 1 : minimum.rounded(.up)
            let high = facts.excludesMaximum ? maximum.rounded(.up) - 1 : maximum.rounded(.down)
            return low > high
        }
        return minimum > maximum || (minimum == maximum && (facts.excludesMinimum || facts.excludesMaximum))
    }

    /// Refuses values of `kind` excluded one by one (`not` of an object or
    /// array value): only strings, booleans and null are excluded so, and
    /// numbers by their ranges.
    private func refuseExcluded(_ facts: Facts, of kind: Kind, at path: String) throws {
        let matches = facts.excluded.contains { value in
            switch (value.kind, kind) {
            case (.number, .integer), (.number, .number), (.structure, .object), (.array, .array): true
            default: false
            }
        }
        if matches {
            throw Self.corrupted("unsupported not at \(path): excluding a single \(kind) value cannot be enforced")
        }
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
            let automaton = try? ByteDFA.jsonString(length: min(facts.minLength ?? 0, 1000), facts.maxLength.flatMap { $0 > 1000 ? nil : $0 })
        {
            parts.append(automaton)
        }
        var excluded: [ByteDFA] = []
        if !facts.excludedStrings.isEmpty, let automaton = try? ByteDFA.jsonString(oneOf: facts.excludedStrings) { excluded.append(automaton) }
        for pattern in facts.excludedPatterns {
            guard let automaton = try? ByteDFA.jsonString(matching: pattern, search: true) else { return nil }
            excluded.append(automaton)
        }
        guard !parts.isEmpty || !excluded.isEmpty else { return nil }
        guard let allowed = parts.isEmpty ? ByteDFA.canonicalString : try? ByteDFA.intersection(parts, subject: "a string") else { return nil }
        if excluded.isEmpty { return allowed }
        return try? ByteDFA.combine([allowed] + excluded, subject: "a string") { $0[0] && !$0.dropFirst().contains(true) }
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
                throw Self.corrupted(
                    "unsupported JSON Schema keyword \"multipleOf\" at \(path)/multipleOf: only 1, or an integer factor with a range of at most 256 multiples, can be enforced"
                )
            }
        }
        let bounds = NumberNode(
            minimum: facts.minimum, maximum: facts.maximum, excludesMinimum: facts.excludesMinimum, excludesMaximum: facts.excludesMaximum)
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
            throw Unsatisfiable(
                message:
                    "unsatisfiable schema at \(path): minItems \(facts.minItems ?? 0), but it may have at most \(maximum) elements (maxItems, false or unsatisfiable items)"
            )
        }
        if let maximum, prefix.count > maximum { prefix.removeLast(prefix.count - maximum) }
        // (Whether the elements can be compared as they are written is the
        // grammar compiler's to judge.)
        let unique = facts.uniqueItems != nil && (maximum ?? 2) > 1
        return .array(ArrayNode(items: items, minimumCount: facts.minItems, maximumCount: maximum, prefixItems: prefix, uniqueItems: unique))
    }

    /// The objects `facts` allows, where one object cannot say it: each
    /// way of meeting these is an object of its own, so every object that
    /// meets them can be written (up to ``maximumObjectWays`` ways; past
    /// that, the keyword is refused or, for a group, its first property
    /// that is not required is left out):
    /// - a group of properties that must not all be present
    ///   (`not: {required: [a, b]}`): leave out one of them;
    /// - `minProperties` above the required count: require that many of
    ///   the optional properties (except `minProperties: 1` where nothing
    ///   is required: one object that refuses `{}`);
    /// - `maxProperties` below the declared count of a closed object:
    ///   leave out all but that many of the optional properties.
    mutating func objectNodes(_ facts: Facts, at path: String) throws -> [SchemaNode] {
        // Each way: more properties to require, and properties to leave out.
        var ways: [(required: [String], forbidden: [String])] = [([], [])]
        func expand(_ choices: [[String]], required: Bool) {
            ways = ways.flatMap { way in
                choices.map { choice in required ? (way.required + choice, way.forbidden) : (way.required, way.forbidden + choice) }
            }
        }
        for group in facts.forbiddenGroups where group.count > 1 {
            let candidates = group.filter { !facts.required.contains($0) }
            guard !candidates.isEmpty else { break }
            guard ways.count * candidates.count <= Self.maximumObjectWays else { return [try objectNode(facts, at: path)] }
            expand(candidates.map { [$0] }, required: false)
        }
        var declared: [String] = []
        for clause in facts.objectClauses {
            for entry in clause.properties where !declared.contains(entry.name) && !entry.sub.isFalse { declared.append(entry.name) }
        }
        let excluded = Set(facts.forbiddenGroups.filter { $0.count == 1 }.map { $0[0] })
        let optional = declared.filter { !facts.required.contains($0) && !excluded.contains($0) }
        let requiredCount = Set(facts.required).count
        if let minimum = facts.minProperties, minimum > requiredCount, minimum - requiredCount <= optional.count,
            !(minimum == 1 && requiredCount == 0)
        {
            let subsets = Self.subsets(of: optional, size: minimum - requiredCount, limit: Self.maximumObjectWays / ways.count + 1)
            if subsets.count * ways.count <= Self.maximumObjectWays { expand(subsets, required: true) }
        }
        let closed =
            facts.objectClauses.contains { $0.additional?.isFalse == true && $0.patternProperties.isEmpty }
            || !facts.objectClauses.contains { !$0.patternProperties.isEmpty || $0.additional != nil }
        if closed, let maximum = facts.maxProperties, maximum >= requiredCount, requiredCount + optional.count > maximum {
            let subsets = Self.subsets(of: optional, size: requiredCount + optional.count - maximum, limit: Self.maximumObjectWays / ways.count + 1)
            if subsets.count * ways.count <= Self.maximumObjectWays { expand(subsets, required: false) }
        }
        guard ways.count > 1 || !(ways[0].required.isEmpty && ways[0].forbidden.isEmpty) else { return [try objectNode(facts, at: path)] }
        var nodes: [SchemaNode] = []
        var failure: Unsatisfiable?
        for way in ways {
            var narrowed = facts
            narrowed.forbiddenGroups = facts.forbiddenGroups.filter { $0.count == 1 } + way.forbidden.map { [$0] }
            for name in way.required where !narrowed.required.contains(name) { narrowed.required.append(name) }
            do {
                let node = try objectNode(narrowed, at: path)
                if !nodes.contains(node) { nodes.append(node) }
            } catch let error as Unsatisfiable {
                failure = failure ?? error
            }
        }
        if nodes.isEmpty, let failure { throw failure }
        return nodes
    }

    /// The most objects ``objectNodes(_:at:)`` writes for one.
    static let maximumObjectWays = 64

    /// The subsets of `elements` with `size` members, in order (at most `limit`).
    static func subsets(of elements: [String], size: Int, limit: Int) -> [[String]] {
        var result: [[String]] = []
        var chosen: [String] = []
        func visit(_ start: Int) {
            guard result.count < limit else { return }
            if chosen.count == size { result.append(chosen); return }
            guard elements.count - start >= size - chosen.count else { return }
            for index in start..<elements.count {
                chosen.append(elements[index])
                visit(index + 1)
                chosen.removeLast()
                if result.count >= limit { return }
            }
        }
        visit(0)
        return result
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
        // (Where other keys may be written, a name that is not declared is
        // kept out of them too.)
        let mayBeOpen = !closed && !extrasClauses.isEmpty
        var forbidden: Set<String> = []
        for group in facts.forbiddenGroups where mayBeOpen || group.allSatisfy({ order.contains($0) }) {
            guard let dropped = group.first(where: { !facts.required.contains($0) }) else {
                throw Unsatisfiable(
                    message: "unsatisfiable schema at \(path): the required properties \(group) are forbidden together (not/required)")
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
                    throw Unsatisfiable(
                        message:
                            "unsatisfiable schema at \(path): the required property \"\(name)\" is excluded (a false schema, additionalProperties false, propertyNames or not/required)"
                    )
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
            properties.append(
                PropertyNode(
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
        } else if order.isEmpty, facts.forbiddenGroups.isEmpty, facts.minProperties == nil, facts.maxProperties == nil,
            facts.excluded.isEmpty, facts.values == nil
        {
            // An object that declares nothing (`{"type": "object"}`, OpenAI's
            // `json_object`) is one the prompt describes: its keys and values
            // are the model's to write, as JSON Schema allows. Closed, it
            // could only ever be `{}`. (Only with no other object keyword:
            // a declared property, even one no value satisfies, or a
            // keyword on the keys, is enforced by the declared keys alone.)
            additional = .any
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
        if isOpen, !forbidden.isEmpty {
            var names = propertyNames ?? StringNode()
            names.excludedValues += forbidden.sorted()
            propertyNames = names
        }
        // Counts: enforced where the declared properties imply them.
        let requiredCount = properties.filter { !$0.isOptional }.count
        // (With no declared property, only an extra key could meet it:
        // refused below, as the shortest completion writes declared ones;
        // unsatisfiable only where no other key is allowed either, not
        // where the engine merely writes none.)
        let requiresAProperty = facts.minProperties == 1 && requiredCount == 0 && !properties.isEmpty
        if facts.minProperties ?? 0 > 0, properties.isEmpty, closed {
            throw Unsatisfiable(message: "unsatisfiable schema at \(path): minProperties \(facts.minProperties ?? 0), but no property is allowed")
        }
        if let minimum = facts.minProperties, minimum > requiredCount, !requiresAProperty {
            throw Self.corrupted(
                "unsupported JSON Schema keyword \"minProperties\" at \(path): \(minimum) properties with only \(requiredCount) required cannot be enforced token by token"
            )
        }
        if let maximum = facts.maxProperties, isOpen || maximum < properties.count {
            throw Self.corrupted("unsupported JSON Schema keyword \"maxProperties\" at \(path): cannot be enforced token by token")
        }
        return .object(
            ObjectNode(
                properties: properties, additionalProperties: additional, patternProperties: patternProperties, propertyNames: propertyNames,
                requiresAProperty: requiresAProperty))
    }

    static func description(of sub: Subschema?) -> String? {
        guard let sub, case .structure(let properties, _) = sub.content.kind, case .string(let text)? = properties["description"]?.kind else {
            return nil
        }
        return text
    }
}
