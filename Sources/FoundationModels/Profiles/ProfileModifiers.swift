import Foundation

// The built-in profile modifiers. Each returns the profile with one change;
// `nil` arguments leave the choice to what encloses the profile (or the
// model's default).

extension LanguageModelSession.DynamicProfile {
    private func adjusted(_ name: String, _ apply: @escaping (inout ProfileResolution) -> Void) -> some LanguageModelSession.DynamicProfile {
        ProfileAdjustment(content: self, name: name, apply: apply)
    }

    /// Applies a reusable modifier.
    public func modifier<T: LanguageModelSession.DynamicProfileModifier>(_ modifier: T) -> some LanguageModelSession.DynamicProfile {
        LanguageModelSession.ModifiedDynamicProfile(content: self, modifier: modifier)
    }

    /// The model requests are sent to (the system model when no profile sets one).
    public func model(_ model: some LanguageModel) -> some LanguageModelSession.DynamicProfile {
        self.model(model as any LanguageModel)
    }

    /// The model requests are sent to, chosen at run time.
    public func model(_ model: any LanguageModel) -> some LanguageModelSession.DynamicProfile {
        let backend = ModelBackend(model)
        return adjusted("model") { $0.backend = backend }
    }

    /// The sampling temperature.
    public func temperature(_ temperature: Double?) -> some LanguageModelSession.DynamicProfile {
        adjusted("temperature") { if let temperature { $0.adjustments.temperature = temperature } }
    }

    /// Sets the samping mode.
    public func samplingMode(_ samplingMode: GenerationOptions.SamplingMode?) -> some LanguageModelSession.DynamicProfile {
        adjusted("samplingMode") { if let samplingMode { $0.adjustments.samplingMode = samplingMode } }
    }

    /// The most tokens a response may have.
    public func maximumResponseTokens(_ maximumResponseTokens: Int?) -> some LanguageModelSession.DynamicProfile {
        adjusted("maximumResponseTokens") { if let maximumResponseTokens { $0.adjustments.maximumResponseTokens = maximumResponseTokens } }
    }

    /// How much the model reasons before answering.
    public func reasoningLevel(_ reasoningLevel: ContextOptions.ReasoningLevel?) -> some LanguageModelSession.DynamicProfile {
        adjusted("reasoningLevel") { if let reasoningLevel { $0.adjustments.reasoningLevel = reasoningLevel } }
    }

    /// Whether the model may, must, or must not call tools.
    public func toolCallingMode(_ toolCallingMode: GenerationOptions.ToolCallingMode?) -> some LanguageModelSession.DynamicProfile {
        adjusted("toolCallingMode") { if let toolCallingMode { $0.adjustments.toolCallingMode = toolCallingMode } }
    }

    /// Whether the model may, must, or must not call tools.
    @available(*, deprecated, renamed: "toolCallingMode(_:)")
    public func toolCalling(_ toolCallingMode: GenerationOptions.ToolCallingMode?) -> some LanguageModelSession.DynamicProfile {
        self.toolCallingMode(toolCallingMode)
    }

    /// Transforms the history (the entries after the instructions) before
    /// each request is sent — to drop old turns, say. The session's
    /// transcript keeps every entry.
    public func historyTransform(_ transform: @escaping ([Transcript.Entry]) -> [Transcript.Entry]) -> some LanguageModelSession.DynamicProfile {
        let transform = Unchecked(transform)
        return adjusted("historyTransform") { $0.adjustments.historyTransforms.append { transform.value($0) } }
    }

    /// Transforms the history before each request is sent.
    @available(*, deprecated, renamed: "historyTransform(_:)")
    public func inputFilter(_ filter: @escaping ([Transcript.Entry]) -> [Transcript.Entry]) -> some LanguageModelSession.DynamicProfile {
        historyTransform(filter)
    }

    /// What a failed request does to the transcript.
    public func transcriptErrorHandlingPolicy(_ policy: TranscriptErrorHandlingPolicy?) -> some LanguageModelSession.DynamicProfile {
        adjusted("transcriptErrorHandlingPolicy") { if let policy { $0.errorPolicy = policy } }
    }

    // MARK: Hooks

    /// Runs `perform` when a request's prompt is added, before the model is
    /// called; throwing fails the request.
    public func onPrompt(perform: @escaping () async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        let perform = Unchecked(perform)
        return adjusted("onPrompt") { $0.hooks.onPrompt.append { _ in try await perform.value() } }
    }

    /// Runs `perform` with each request's prompt, before the model is
    /// called; throwing fails the request.
    public func onPrompt(perform: @escaping (Transcript.Prompt) async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        let perform = Unchecked(perform)
        return adjusted("onPrompt") { $0.hooks.onPrompt.append { try await perform.value($0) } }
    }

    /// Runs `perform` when a response is complete, before it is added.
    public func onResponse(perform: @escaping () async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        let perform = Unchecked(perform)
        return adjusted("onResponse") { $0.hooks.onResponse.append { _ in try await perform.value() } }
    }

    /// Runs `perform` with each complete response, before it is added.
    public func onResponse(perform: @escaping (Transcript.Response) async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        let perform = Unchecked(perform)
        return adjusted("onResponse") { $0.hooks.onResponse.append { try await perform.value($0) } }
    }

    /// Runs `perform` when the model has finished reasoning, before its
    /// reasoning is added to the transcript.
    public func onReasoning(perform: @escaping () async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        let perform = Unchecked(perform)
        return adjusted("onReasoning") { $0.hooks.onReasoning.append { _ in try await perform.value() } }
    }

    /// Runs `perform` with each complete reasoning entry, before it is added.
    public func onReasoning(perform: @escaping (Transcript.Reasoning) async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        let perform = Unchecked(perform)
        return adjusted("onReasoning") { $0.hooks.onReasoning.append { try await perform.value($0) } }
    }

    /// Runs `perform` before each tool the model calls runs.
    public func onToolCall(perform: @escaping () async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        let perform = Unchecked(perform)
        return adjusted("onToolCall") { $0.hooks.onToolCall.append { _ in try await perform.value() } }
    }

    /// Runs `perform` with each tool call before the tool runs.
    public func onToolCall(perform: @escaping (Transcript.ToolCall) async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        let perform = Unchecked(perform)
        return adjusted("onToolCall") { $0.hooks.onToolCall.append { try await perform.value($0) } }
    }

    /// Runs `perform` after each tool returns.
    public func onToolOutput(perform: @escaping () async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        let perform = Unchecked(perform)
        return adjusted("onToolOutput") { $0.hooks.onToolOutput.append { _, _ in try await perform.value() } }
    }

    /// Runs `perform` with each tool call and the output the tool returned.
    public func onToolOutput(perform: @escaping (Transcript.ToolCall, Transcript.ToolOutput) async throws -> Void) -> some LanguageModelSession
        .DynamicProfile
    {
        let perform = Unchecked(perform)
        return adjusted("onToolOutput") { $0.hooks.onToolOutput.append { try await perform.value($0, $1) } }
    }

    /// Runs `perform` when this part of the profile becomes part of the
    /// session's evaluated profile (at the first request, or when a
    /// condition switches to it).
    public func onActivate(perform: @escaping @isolated(any) () async -> Void) -> some LanguageModelSession.DynamicProfile {
        let perform = Unchecked(perform)
        return adjusted("onActivate") { $0.lifecycles[$0.path, default: .init()].activate.append(perform) }
    }

    /// Runs `perform` when this part of the profile stops being part of the
    /// session's evaluated profile (a condition switched away from it).
    public func onDeactivate(perform: @escaping @isolated(any) () async -> Void) -> some LanguageModelSession.DynamicProfile {
        let perform = Unchecked(perform)
        return adjusted("onDeactivate") { $0.lifecycles[$0.path, default: .init()].deactivate.append(perform) }
    }
}
