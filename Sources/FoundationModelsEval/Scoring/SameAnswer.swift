import FoundationModels

/// How the ``EvalMode/doubled`` answer of an item compares with the
/// unbudgeted guided answer of the same item.
///
/// Exists to measure string pacing's promise: pacing steps in only where
/// the answer would not fit otherwise, so with `maximumResponseTokens`
/// twice what the unbudgeted answer took, the answer is the unbudgeted one,
/// byte for byte. "Identical" is the outputs' equality (the answers' JSON
/// as the session returns it); where they differ, the first differing
/// field says where pacing changed the answer.
package struct BudgetComparison: Codable, Sendable, Equatable {
    /// The `maximumResponseTokens` sent: twice ``unbudgetedTokens``.
    package var maximumResponseTokens: Int
    /// The output tokens of the unbudgeted guided answer.
    package var unbudgetedTokens: Int
    /// Whether the output is the unbudgeted answer's, byte for byte.
    package var identical: Bool
    /// Where the outputs first differ; `nil` when they are identical.
    package var difference: OutputDifference?

    package init(maximumResponseTokens: Int, unbudgetedTokens: Int, difference: OutputDifference?) {
        self.maximumResponseTokens = maximumResponseTokens
        self.unbudgetedTokens = unbudgetedTokens
        self.identical = difference == nil
        self.difference = difference
    }
}

/// The first place two answers differ.
package struct OutputDifference: Codable, Sendable, Equatable {
    /// The field (`summary`, `cards[1].answer`); `(value)` for a whole
    /// answer that is not an object, `(answer)` when the budgeted request
    /// gave no JSON to compare, `(key order)` for the same values in
    /// another order, `(layout)` for the same content printed otherwise.
    package var path: String
    /// The unbudgeted answer's value there, as JSON; `nil` where it has
    /// none (a key or an element only the other answer has).
    package var unbudgeted: String?
    /// The budgeted answer's value there, as JSON; `nil` where it has none.
    package var budgeted: String?

    package init(path: String, unbudgeted: String?, budgeted: String?) {
        self.path = path
        self.unbudgeted = unbudgeted
        self.budgeted = budgeted
    }
}

/// The comparison behind ``BudgetComparison``: bytes decide whether two
/// outputs are identical, their structure only where they first differ
/// (a reader wants the field, not a byte offset into minified JSON).
package enum SameAnswer {
    /// Where `budgeted` first differs from `unbudgeted` (both an answer's
    /// JSON output), in the unbudgeted answer's key order; `nil` when the
    /// two are identical byte for byte.
    package static func firstDifference(unbudgeted: String, budgeted: String) -> OutputDifference? {
        guard unbudgeted != budgeted else { return nil }
        guard let reference = try? GeneratedContent(json: unbudgeted), reference.isComplete,
            let other = try? GeneratedContent(json: budgeted), other.isComplete
        else {
            return OutputDifference(path: "(answer)", unbudgeted: unbudgeted, budgeted: budgeted.isEmpty ? nil : budgeted)
        }
        return difference(reference, other, path: "")
            ?? OutputDifference(path: "(layout)", unbudgeted: unbudgeted, budgeted: budgeted)
    }

    private static func difference(_ reference: GeneratedContent, _ other: GeneratedContent, path: String) -> OutputDifference? {
        let here = path.isEmpty ? "(value)" : path
        switch (reference.kind, other.kind) {
        case (.structure(let properties, let keys), .structure(let otherProperties, let otherKeys)):
            for key in keys {
                let child = path.isEmpty ? key : "\(path).\(key)"
                guard let value = properties[key] else { continue }
                guard let otherValue = otherProperties[key] else {
                    return OutputDifference(path: child, unbudgeted: value.jsonString, budgeted: nil)
                }
                if let found = difference(value, otherValue, path: child) { return found }
            }
            for key in otherKeys where properties[key] == nil {
                return OutputDifference(path: path.isEmpty ? key : "\(path).\(key)", unbudgeted: nil, budgeted: otherProperties[key]?.jsonString)
            }
            if keys != otherKeys {
                return OutputDifference(
                    path: path.isEmpty ? "(key order)" : "\(path) (key order)",
                    unbudgeted: keys.joined(separator: ", "), budgeted: otherKeys.joined(separator: ", "))
            }
            return nil
        case (.array(let elements), .array(let otherElements)):
            for index in 0..<max(elements.count, otherElements.count) {
                let child = "\(path)[\(index)]"
                guard index < elements.count else {
                    return OutputDifference(path: child, unbudgeted: nil, budgeted: otherElements[index].jsonString)
                }
                guard index < otherElements.count else {
                    return OutputDifference(path: child, unbudgeted: elements[index].jsonString, budgeted: nil)
                }
                if let found = difference(elements[index], otherElements[index], path: child) { return found }
            }
            return nil
        default:
            let (mine, theirs) = (reference.jsonString, other.jsonString)
            return mine == theirs ? nil : OutputDifference(path: here, unbudgeted: mine, budgeted: theirs)
        }
    }
}
