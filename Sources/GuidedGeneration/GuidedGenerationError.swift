/// Why a schema cannot be turned into a token constraint.
///
/// Exists so every refusal happens before the first model step, with a
/// message that names the construct: the on-device executor maps
/// ``unsupportedGuide(_:)`` to `LanguageModelError.unsupportedGenerationGuide`
/// and ``unsatisfiable(_:)`` to `GeneratedContent.ParsingError` (surfaced to
/// 26 sessions as `GenerationError.unsupportedGuide` / `.decodingFailure`).
package enum GuidedGenerationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A guide, keyword or pattern construct this engine cannot enforce
    /// (a regex backreference, a lookahead, a JSON Schema keyword it does
    /// not know). Ignoring it would let the model produce output the
    /// schema's author ruled out, so it is refused instead.
    case unsupportedGuide(String)
    /// The schema admits no value at all (minimum above maximum, an integer
    /// range with no integer in it, a required property whose type can only
    /// be infinitely deep, an empty list of choices).
    case unsatisfiable(String)

    package var description: String {
        switch self {
        case .unsupportedGuide(let message): "unsupported guide: \(message)"
        case .unsatisfiable(let message): "unsatisfiable schema: \(message)"
        }
    }
}
