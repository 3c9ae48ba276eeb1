import GuidedGeneration

/// `not`: the values a subschema refuses, as alternatives of facts the
/// rest of the reader already enforces.
///
/// A schema's facts are a conjunction: a type and, for each instance type,
/// constraints that apply only to values of that type. Their negation is
/// therefore a union: a value of another type, or a value of one of its
/// types that breaks one constraint. Each broken constraint is again a
/// constraint the engine enforces (a length bound becomes the opposite
/// bound, a pattern a pattern that must not match, a list of values the
/// same list excluded, numbers split around the excluded ones), so `not`
/// is exact wherever each of its constraints has an enforceable opposite,
/// and refused, naming the keyword, where one does not (`multipleOf`,
/// `format`, `uniqueItems`, items of an array).
extension JSONSchemaReader {
    /// The alternatives of `within` whose values `sub` refuses.
    mutating func negation(of sub: Subschema, within alternatives: [Facts]) throws -> [Facts] {
        if sub.isFalse { return alternatives }
        if sub.isTrue { return [] }
        var result = alternatives
        // not (A or B) = not A and not B.
        for alternative in try facts(of: sub) where !result.isEmpty {
            result = try conjoin(result, try negation(of: alternative, at: sub.path), at: sub.path)
        }
        return result
    }

    /// The values `facts` does not allow, as alternatives.
    mutating func negation(of facts: Facts, at path: String) throws -> [Facts] {
        if let reference = facts.reference {
            // A reference is read in place (a recursive one cannot be).
            guard !expanding.contains(reference.pointer), expanding.count < 32 else {
                throw Self.corrupted("unsupported not at \(path): the negation of a recursive $ref cannot be enforced")
            }
            expanding.append(reference.pointer)
            defer { expanding.removeLast() }
            var rest = facts
            rest.reference = nil
            let target = try resolve(reference.pointer, at: reference.path)
            var result = [Facts()]
            for alternative in try conjoin(try self.facts(of: Subschema(target, reference.pointer)), [rest], at: path) where !result.isEmpty {
                result = try conjoin(result, try negation(of: alternative, at: path), at: path)
            }
            return result
        }
        let all = facts.types ?? Set(Kind.allCases)
        var result: [Facts] = []
        func of(_ kinds: Set<Kind>) -> Facts? {
            var domain = all.intersection(kinds)
            if kinds.contains(.integer), all.contains(.number) { domain.insert(.number) }
            guard !domain.isEmpty else { return nil }
            var negated = Facts()
            negated.types = domain
            return negated
        }
        // Fewer than `minimum` or more than `maximum` (a length, a count).
        func opposite(of minimum: Int?, _ maximum: Int?, for kind: Kind, _ low: WritableKeyPath<Facts, Int?>, _ high: WritableKeyPath<Facts, Int?>) {
            guard let negated = of([kind]) else { return }
            if let minimum, minimum > 0 {
                var fewer = negated
                fewer[keyPath: high] = minimum - 1
                result.append(fewer)
            }
            if let maximum {
                var more = negated
                more[keyPath: low] = maximum + 1
                result.append(more)
            }
        }
        func refuse(_ keyword: String) -> DecodingError {
            Self.corrupted("unsupported not at \(path): the negation of \"\(keyword)\" cannot be enforced token by token")
        }
        let numbers: Set<Kind> = [.integer, .number]

        // Another type.
        if let types = facts.types {
            var others = Set(Kind.allCases).subtracting(types)
            if types.contains(.number) { others.remove(.integer) }
            if !others.isEmpty {
                var negated = Facts()
                negated.types = others
                // Integers but not all numbers: the numbers that are not whole.
                negated.excludesIntegers = types.contains(.integer) && !types.contains(.number)
                result.append(negated)
            }
        }
        if facts.excludesIntegers, var negated = of(numbers) {
            negated.types = [.integer]
            result.append(negated)
        }

        // Values: any other, numbers on either side of each excluded one.
        if let values = facts.values {
            var negated = Facts()
            negated.types = all.subtracting(numbers)
            negated.excluded = values
            if !negated.types!.isEmpty { result.append(negated) }
            if let domain = of(numbers) {
                let excluded = Set(values.compactMap { value -> Double? in if case .number(let number) = value.kind { number } else { nil } })
                    .sorted()
                var low: Double?
                for bound in excluded + [nil] {
                    var range = domain
                    range.minimum = low
                    range.excludesMinimum = low != nil
                    range.maximum = bound
                    range.excludesMaximum = bound != nil
                    result.append(range)
                    low = bound
                }
            }
        }
        if !facts.excluded.isEmpty {
            var negated = Facts()
            negated.values = facts.excluded
            result.append(negated)
        }

        // Strings.
        if facts.format != nil { throw refuse("format") }
        if !facts.unsupportedGuides.isEmpty { throw refuse("x-unsupported-guides") }
        opposite(of: facts.minLength, facts.maxLength, for: .string, \.minLength, \.maxLength)
        for pattern in facts.patterns {
            if var negated = of([.string]) {
                negated.excludedPatterns = [pattern]
                result.append(negated)
            }
        }
        for pattern in facts.excludedPatterns {
            if var negated = of([.string]) {
                negated.patterns = [pattern]
                result.append(negated)
            }
        }

        // Numbers.
        if facts.multipleOf != nil, of(numbers) != nil { throw refuse("multipleOf") }
        if let minimum = facts.minimum, var negated = of(numbers) {
            negated.maximum = minimum
            negated.excludesMaximum = !facts.excludesMinimum
            result.append(negated)
        }
        if let maximum = facts.maximum, var negated = of(numbers) {
            negated.minimum = maximum
            negated.excludesMinimum = !facts.excludesMaximum
            result.append(negated)
        }

        // Objects.
        if of([.object]) != nil {
            for clause in facts.objectClauses {
                if !clause.patternProperties.isEmpty { throw refuse("patternProperties") }
                if let additional = clause.additional, !additional.isTrue { throw refuse("additionalProperties") }
                if let names = clause.propertyNames, !names.isTrue { throw refuse("propertyNames") }
                // A property present with a value its schema refuses.
                for (name, sub) in clause.properties where !sub.isTrue {
                    var negated = of([.object])!
                    negated.required = [name]
                    var refused = ObjectClause()
                    refused.properties = [(name, Subschema(GeneratedContent(properties: ["not": sub.content]), sub.path + "/not"))]
                    negated.objectClauses = [refused]
                    result.append(negated)
                }
            }
            if !facts.required.isEmpty {
                var negated = of([.object])!
                negated.forbiddenGroups = [facts.required]
                result.append(negated)
            }
            for group in facts.forbiddenGroups {
                var negated = of([.object])!
                negated.required = group
                result.append(negated)
            }
            opposite(of: facts.minProperties, facts.maxProperties, for: .object, \.minProperties, \.maxProperties)
        }

        // Arrays.
        if of([.array]) != nil {
            for clause in facts.arrayClauses where !clause.prefix.isEmpty || !(clause.rest?.isTrue ?? true) {
                throw refuse("items")
            }
            opposite(of: facts.minItems, facts.maxItems, for: .array, \.minItems, \.maxItems)
            if facts.uniqueItems != nil { throw refuse("uniqueItems") }
            if !facts.contains.isEmpty { throw refuse("contains") }
        }
        return result
    }
}
