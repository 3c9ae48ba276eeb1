import GuidedGeneration

/// `oneOf` is kept only where its branches are provably disjoint (then it
/// is the same as `anyOf`): the proofs, from types, values, ranges and
/// required properties.
extension JSONSchemaReader {
    // MARK: - Disjointness (oneOf)

    /// Whether no value satisfies both `a` and `b` — proven from types,
    /// values, ranges, and a required property whose values cannot agree or
    /// that one side forbids. False when it cannot be proven.
    /// Whether no value the engine writes for `a` satisfies `b` (what
    /// `oneOf` needs, both ways): ``disjoint(_:_:depth:)``, or an object
    /// property `b` requires that `a` never writes (`a` writes only its
    /// declared properties unless it allows others explicitly).
    mutating func excludes(_ a: Facts, _ b: Facts, depth: Int) throws -> Bool {
        if try disjoint(a, b, depth: depth) { return true }
        guard a.reference == nil, b.reference == nil, a.values == nil else { return false }
        // Only objects can be in common, and a never writes one of b's required keys.
        let kinds = Kind.allCases.filter { a.allows($0) && b.allows($0) && valueKinds(b).contains($0) }
        guard kinds == [.object] else { return false }
        for name in b.required where !(try writes(name, a)) { return true }
        return false
    }

    /// Whether the engine may write property `name` for `facts`.
    func writes(_ name: String, _ facts: Facts) throws -> Bool {
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
    static func forbids(_ name: String, _ facts: Facts) -> Bool {
        facts.forbiddenGroups.contains { group in
            group.contains(name) && group.allSatisfy { $0 == name || facts.required.contains($0) }
        }
    }

    mutating func disjoint(_ a: Facts, _ b: Facts, depth: Int) throws -> Bool {
        guard depth < 8 else { return false }
        // A reference is read in place: disjoint when each of its alternatives is.
        if let reference = a.reference {
            for expanded in try expandReference(reference, a, with: Facts(), at: reference.path) {
                if !(try disjoint(expanded, b, depth: depth + 1)) { return false }
            }
            return true
        }
        if let reference = b.reference {
            for expanded in try expandReference(reference, b, with: Facts(), at: reference.path) {
                if !(try disjoint(a, expanded, depth: depth + 1)) { return false }
            }
            return true
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
                    (try? ByteDFA.intersection([left, right], subject: "oneOf").isEmpty) == true
                {
                    continue
                }
                return false
            default:
                return false
            }
        }
        return true
    }

    func valueKinds(_ facts: Facts) -> Set<Kind> {
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
    mutating func objectsDisjoint(_ a: Facts, _ b: Facts, depth: Int) throws -> Bool {
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
    func propertySubs(_ name: String, in facts: Facts) throws -> [Subschema] {
        var subs: [Subschema] = []
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

    static func matches(_ pattern: String, _ text: String) throws -> Bool {
        do {
            return try ByteDFA.jsonString(matching: pattern, search: true).accepts(JSONStringEncoding.quoted(text))
        } catch {
            throw corrupted("unsupported pattern \"\(pattern)\": \(error)")
        }
    }
}
