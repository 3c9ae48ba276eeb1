import FoundationModels

/// The `GenerationOptions` an example's feature sends, read from the
/// feature itself.
///
/// Exists so ``EvalMode/budgeted`` asks with exactly what ships: the
/// examples keep their options internal (an app's feature does; the
/// numbers are tuned per feature: receipts 120 tokens, tickets 80,
/// flashcards 240, crate insights 320, the coaching report 400), and a copy
/// of the numbers here would drift from them unseen. The feature is built
/// as an app builds it and its stored `options` read by reflection; a
/// feature that renames or drops the property gives `nil`, which
/// `ExampleOptionsTests` turns into a failure.
package enum ExampleOptions {
    /// The stored `options` of `feature` (a struct, class or actor).
    package static func of(_ feature: Any) -> GenerationOptions? {
        Mirror(reflecting: feature).descendant("options") as? GenerationOptions
    }
}
