/// How a request's context is built: whether the schema is described in the
/// prompt, and how much the model should reason first.
public struct ContextOptions: Sendable, Hashable {
    /// How much reasoning a model that supports it should do before answering.
    public struct ReasoningLevel: Sendable, Hashable, CustomStringConvertible {
        package let rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }

        public static let low = ReasoningLevel(rawValue: "low")
        public static let medium = ReasoningLevel(rawValue: "medium")
        public static let high = ReasoningLevel(rawValue: "high")

        public var description: String { rawValue }
    }

    /// Whether the response schema is rendered into the prompt. When `false`
    /// the structure is still enforced, but the model is not told about it.
    public var includeSchemaInPrompt: Bool
    /// The requested reasoning effort, or `nil` for the model's default.
    public var reasoningLevel: ReasoningLevel?

    public init(includeSchemaInPrompt: Bool = true, reasoningLevel: ReasoningLevel? = nil) {
        self.includeSchemaInPrompt = includeSchemaInPrompt
        self.reasoningLevel = reasoningLevel
    }
}
