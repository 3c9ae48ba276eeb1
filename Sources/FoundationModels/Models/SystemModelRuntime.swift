import Foundation

/// The facts about the system model that need no loaded weights —
/// availability, languages, context size — read from the configuration and
/// the GGUF file's header, and cached per model file.
///
/// Built without the `LlamaCpp` trait the package has no in-process model:
/// the system model is then unavailable (`deviceNotEligible`), saying why,
/// and everything else — server models, the router, the kit — is unchanged.
/// What differs between the two builds is in one file per trait
/// (`SystemModelRuntime+LlamaCpp.swift`, `SystemModelRuntime+NoLlamaCpp.swift`),
/// each declaring the same members: the engine's availability, ``unload(_:)``,
/// ``facts(for:)``, the engine's token counts, prewarming and answering, the
/// explanation of `deviceNotEligible`, and ``ComputeDevice/all``.
enum SystemModelRuntime {
    /// Cheap: a header check, no model load.
    static func availability(_ configuration: SystemLanguageModel.Configuration) -> SystemLanguageModel.Availability {
        if configuration.isDisabled { return .unavailable(.appleIntelligenceNotEnabled) }
        return engineAvailability(configuration)
    }

    /// What a model file's header says, as far as the runtime uses it.
    struct FileFacts: Sendable {
        var languages: Set<Locale.Language>
        var trainedContextLength: Int?
        /// Elements of K and V a token adds to the cache: layers × KV heads
        /// × (key and value lengths), where the header says.
        var cacheElementsPerToken: Int?
        /// `general.name`, when the file has one.
        var name: String?
    }

    /// The model the configuration runs: named by its GGUF file's
    /// `general.name`, else the file's name.
    static func variant(_ configuration: SystemLanguageModel.Configuration) -> SystemLanguageModel.Variant {
        let path = configuration.modelPath
        let name = facts(for: path)?.name ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return SystemLanguageModel.Variant(identifier: "gguf:" + path, displayName: name)
    }

    static func supportedLanguages(_ configuration: SystemLanguageModel.Configuration) -> Set<Locale.Language> {
        facts(for: configuration.modelPath)?.languages ?? []
    }

    /// The tokens each sequence holds: the configured size, never above
    /// what the model was trained for; unconfigured, what it was trained for
    /// as far as an eighth of the machine's memory holds every sequence's
    /// KV cache (4,096 at least, where it was trained for as many).
    static func contextSize(_ configuration: SystemLanguageModel.Configuration) -> Int {
        let facts = facts(for: configuration.modelPath)
        let trained = facts?.trainedContextLength.flatMap { $0 > 0 ? $0 : nil }
        if let configured = configuration.contextSize { return trained.map { min(configured, $0) } ?? configured }
        guard let trained else { return 4096 }
        let floor = min(trained, 4096)
        guard let elements = facts?.cacheElementsPerToken, elements > 0 else { return floor }
        let bytesPerToken = Double(elements) * configuration.kvCacheType.bytesPerElement * Double(configuration.parallelSequences)
        let fits = Int(Double(ProcessInfo.processInfo.physicalMemory) / 8 / bytesPerToken) / 256 * 256
        return max(floor, min(trained, fits))
    }

    static func tokenCount(of entry: Transcript.Entry, _ configuration: SystemLanguageModel.Configuration) async throws -> Int {
        try checkAvailable(configuration)
        return try await engineTokenCount(of: entry, configuration)
    }

    static func tokenCount(of schema: GenerationSchema, _ configuration: SystemLanguageModel.Configuration) async throws -> Int {
        try checkAvailable(configuration)
        return try await engineTokenCount(of: schema, configuration)
    }

    /// Throws `assetsUnavailable`, explaining why, unless the model is available.
    static func checkAvailable(_ configuration: SystemLanguageModel.Configuration) throws {
        if let error = unavailabilityError(configuration) { throw error }
    }

    /// `assetsUnavailable`, explaining why, or `nil` when the model is available.
    static func unavailabilityError(_ configuration: SystemLanguageModel.Configuration) -> SystemLanguageModel.Error? {
        guard case .unavailable(let reason) = availability(configuration) else { return nil }
        return .assetsUnavailable(
            .init(
                debugDescription: "The on-device model is unavailable (\(reason)): \(explanation(reason, configuration))"
            ))
    }

    static func explanation(_ reason: SystemLanguageModel.Availability.UnavailableReason, _ configuration: SystemLanguageModel.Configuration)
        -> String
    {
        switch reason {
        case .deviceNotEligible:
            return deviceNotEligibleExplanation
        case .appleIntelligenceNotEnabled:
            return "the model is switched off (FOUNDATION_MODELS_DISABLED is set)."
        case .modelNotReady:
            return "no valid GGUF model at \(configuration.modelPath). Install the default model with scripts/setup.sh "
                + "(`make setup` in this repository; in a package that depends on it, "
                + "`bash .build/checkouts/swift-foundation-models/scripts/setup.sh`), "
                + "or name a GGUF file: FOUNDATION_MODELS_MODEL or SystemLanguageModel.Configuration(modelFile:)."
        }
    }
}

extension SystemLanguageModel: AvailabilityReporting {
    package var unavailabilityError: (any Swift.Error)? {
        SystemModelRuntime.unavailabilityError(configuration)
    }
}
