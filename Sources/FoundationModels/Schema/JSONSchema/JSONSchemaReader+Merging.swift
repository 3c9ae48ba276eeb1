import GuidedGeneration

/// `allOf`, and a `$ref` with siblings: the intersection of two schemas'
/// facts, or nil where no value satisfies both.
extension JSONSchemaReader {
    // MARK: - Merging (allOf)

    /// The alternatives both `a` and `b` allow: one, or none where no value
    /// satisfies both, or several where a reference read in place is a union.
    mutating func merge(_ a: Facts, _ b: Facts, at path: String) throws -> [Facts] {
        // A reference with other constraints is read in place.
        if let reference = a.reference, !b.isTrivial || b.reference != nil {
            return try expandReference(reference, a, with: b, otherFirst: false, at: path)
        }
        if let reference = b.reference, !a.isTrivial {
            return try expandReference(reference, b, with: a, otherFirst: true, at: path)
        }
        if a.reference != nil { return [a] }
        if b.reference != nil { return [b] }
        return try mergeFacts(a, b, at: path).map { [$0] } ?? []
    }

    /// The intersection of two alternatives without references.
    private func mergeFacts(_ a: Facts, _ b: Facts, at path: String) throws -> Facts? {
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
                    throw Self.corrupted(
                        "unsupported JSON Schema keyword \"multipleOf\" at \(path): both \(existing) and \(factor), neither a multiple of the other")
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
        result.forbiddenGroups += b.forbiddenGroups
        result.excluded += b.excluded
        result.excludedPatterns += b.excludedPatterns
        if a.excludesIntegers || b.excludesIntegers {
            var types = result.types ?? Set(Kind.allCases)
            types.remove(.integer)
            result.excludesIntegers = types.contains(.number)
            result.types = types
        }
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
    /// first when it came first, so the written order follows the document;
    /// a union stays a union, each of its alternatives intersected.
    mutating func expandReference(
        _ reference: (pointer: String, path: String), _ holder: Facts, with other: Facts, otherFirst: Bool = false, at path: String
    ) throws -> [Facts] {
        guard !expanding.contains(reference.pointer), expanding.count < 32 else {
            throw Self.corrupted("unsupported $ref at \(reference.path): a recursive reference combined with other keywords cannot be enforced")
        }
        expanding.append(reference.pointer)
        defer { expanding.removeLast() }
        let target = try resolve(reference.pointer, at: reference.path)
        var rest = holder
        rest.reference = nil
        let expanded = try conjoin(try facts(of: Subschema(target, reference.pointer)), [rest], at: path)
        return otherFirst ? try conjoin([other], expanded, at: path) : try conjoin(expanded, [other], at: path)
    }
}
