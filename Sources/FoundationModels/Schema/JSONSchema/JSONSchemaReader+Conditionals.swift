import GuidedGeneration

/// The keywords that apply a schema only when something holds: `if` with
/// `then`/`else`, and a property's dependencies (`dependentRequired`,
/// `dependentSchemas`, draft 4's `dependencies`).
///
/// Each is the union of its cases, and each case is facts the reader
/// already enforces: `if C then T else E` is (C and T) or (not C and E);
/// a dependency of property `p` is a value that is not an object, an
/// object without `p`, or an object with `p` that meets the dependency.
/// The cases become alternatives of the schema, so the engine follows
/// whichever case the written value is in, exactly.
extension JSONSchemaReader {
    /// `alternatives` narrowed by the conditionals among `p`.
    mutating func conditionals(_ p: [String: GeneratedContent], within alternatives: [Facts], at path: String) throws -> [Facts] {
        var result = alternatives
        if let condition = p["if"].map({ Subschema($0, path + "/if") }) {
            let then = p["then"].map { Subschema($0, path + "/then") }
            let otherwise = p["else"].map { Subschema($0, path + "/else") }
            if (then?.isTrue ?? true) && (otherwise?.isTrue ?? true) {
                // `if` alone constrains nothing.
            } else {
                var met = try conjoin(result, try facts(of: condition), at: path)
                if let then { met = try conjoin(met, try facts(of: then), at: path) }
                var unmet = try negation(of: condition, within: result)
                if let otherwise { unmet = try conjoin(unmet, try facts(of: otherwise), at: path) }
                result = met + unmet
            }
        }
        for keyword in ["dependentRequired", "dependencies", "dependentSchemas"] {
            guard let value = p[keyword] else { continue }
            let entries = try Self.structure(value, at: "\(path)/\(keyword)")
            for trigger in entries.keys {
                let entry = entries.properties[trigger]!
                let entryPath = "\(path)/\(keyword)/\(Self.escape(trigger))"
                var present = Facts()
                present.types = [.object]
                present.required = [trigger]
                var met = [present]
                if case .array = entry.kind {
                    for name in try Self.strings(entry, at: entryPath) where !present.required.contains(name) {
                        met[0].required.append(name)
                    }
                } else {
                    let sub = Subschema(entry, entryPath)
                    if sub.isTrue { continue }
                    met = try conjoin(met, try facts(of: sub), at: entryPath)
                }
                var absent = Facts()
                absent.types = [.object]
                absent.forbiddenGroups = [[trigger]]
                var other = Facts()
                other.types = Set(Kind.allCases).subtracting([.object])
                result = try conjoin(result, [other, absent] + met, at: entryPath)
            }
        }
        return result
    }
}
