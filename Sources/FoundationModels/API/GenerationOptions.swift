import Foundation

/// Options that control how the model generates its response: the
/// sampling strategy, the temperature, a cap on response length and
/// whether the model may call tools.
///
/// Every option is optional; `nil` means "let the model decide". Nothing is
/// validated when you create options (as in Apple's framework); a session
/// validates a request's options, with its profile's applied, before it
/// calls the model (see `GenerationOptionsValidation.swift`).
public struct GenerationOptions: Sendable, Equatable, Codable {
    /// The sampling strategy for picking each token.
    public var samplingMode: SamplingMode?

    /// The sampling strategy (the name used before the 27 SDK).
    @available(*, deprecated, renamed: "samplingMode")
    public var sampling: SamplingMode? {
        get { samplingMode }
        set { samplingMode = newValue }
    }

    /// Temperature scales the probability distribution before sampling:
    /// lower is more focused, higher more varied.
    public var temperature: Double?

    /// The most tokens the model may produce in its response.
    public var maximumResponseTokens: Int?

    /// Whether the model may, must, or must not call tools.
    public var toolCallingMode: ToolCallingMode?

    /// Creates generation options.
    public init(
        samplingMode: SamplingMode? = nil,
        temperature: Double? = nil,
        maximumResponseTokens: Int? = nil
    ) {
        self.samplingMode = samplingMode
        self.temperature = temperature
        self.maximumResponseTokens = maximumResponseTokens
        self.toolCallingMode = nil
    }

    /// Creates generation options that also say whether the model may call tools.
    public init(
        samplingMode: SamplingMode? = nil,
        temperature: Double? = nil,
        maximumResponseTokens: Int? = nil,
        toolCallingMode: ToolCallingMode?
    ) {
        self.init(samplingMode: samplingMode, temperature: temperature, maximumResponseTokens: maximumResponseTokens)
        self.toolCallingMode = toolCallingMode
    }

    /// Creates generation options (the initializer from before the 27 SDK,
    /// which calls the sampling mode `sampling`).
    @available(*, deprecated, renamed: "init(samplingMode:temperature:maximumResponseTokens:)")
    public init(
        sampling: SamplingMode?,
        temperature: Double? = nil,
        maximumResponseTokens: Int? = nil
    ) {
        self.init(samplingMode: sampling, temperature: temperature, maximumResponseTokens: maximumResponseTokens)
    }
}
