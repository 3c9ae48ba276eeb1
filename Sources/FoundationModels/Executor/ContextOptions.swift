/// How a request's context is built: whether the schema is described in the
/// prompt, and how much the model should reason first. `nil` leaves the
/// choice to the model.
public struct ContextOptions: Sendable, Equatable {
    /// How much reasoning a model that supports it should do before answering.
    public enum ReasoningLevel: Sendable, Equatable {
        /// A little reasoning, for quick answers.
        case light
        /// A balance between speed and depth.
        case moderate
        /// Thorough reasoning, for hard problems.
        case deep
        /// A level a provider names itself (such as an API's own effort value).
        case custom(String)
    }

    /// Whether the response schema is rendered into the prompt. When `false`
    /// the structure is still enforced, but the model is not told about it;
    /// `nil` means yes.
    public var includeSchemaInPrompt: Bool?
    /// The requested reasoning effort, or `nil` for the model's default.
    public var reasoningLevel: ReasoningLevel?

    public init(includeSchemaInPrompt: Bool? = nil, reasoningLevel: ReasoningLevel? = nil) {
        self.includeSchemaInPrompt = includeSchemaInPrompt
        self.reasoningLevel = reasoningLevel
    }
}

extension ContextOptions.ReasoningLevel {
    /// The level's name in a transcript's JSON (`light`, `moderate`, `deep`,
    /// or the custom value).
    package var name: String {
        switch self {
        case .light: "light"
        case .moderate: "moderate"
        case .deep: "deep"
        case .custom(let value): value
        }
    }

    package init(name: String) {
        switch name {
        case "light": self = .light
        case "moderate": self = .moderate
        case "deep": self = .deep
        default: self = .custom(name)
        }
    }
}
