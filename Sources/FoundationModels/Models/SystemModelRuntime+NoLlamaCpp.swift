#if !LlamaCpp
import Foundation

// The system model without the `LlamaCpp` trait: there is no in-process
// model, so it is unavailable (`deviceNotEligible`) and says why. The same
// members as SystemModelRuntime+LlamaCpp.swift declares with the trait.

extension SystemModelRuntime {
    /// Never available: this build has no engine.
    static func engineAvailability(_ configuration: SystemLanguageModel.Configuration) -> SystemLanguageModel.Availability {
        .unavailable(.deviceNotEligible)
    }

    /// Nothing to free (``SystemLanguageModel/unload()``).
    static func unload(_ configuration: SystemLanguageModel.Configuration) {}

    /// No file is read: the header's facts are unknown.
    static func facts(for path: String) -> FileFacts? {
        nil
    }

    static func engineTokenCount(of entry: Transcript.Entry, _ configuration: SystemLanguageModel.Configuration) async throws -> Int {
        0  // unreachable: never available without the trait
    }

    static func engineTokenCount(of schema: GenerationSchema, _ configuration: SystemLanguageModel.Configuration) async throws -> Int {
        0  // unreachable: never available without the trait
    }

    /// ``SystemLanguageModel/Executor``'s `prewarm`: nothing to prepare.
    static func prewarm(_ engine: SystemLanguageModel.Configuration, transcript: Transcript) {}

    /// ``SystemLanguageModel/Executor``'s `respond`: fails with
    /// `assetsUnavailable`, saying why.
    static func respond(
        to request: LanguageModelExecutorGenerationRequest,
        model: SystemLanguageModel,
        engine: SystemLanguageModel.Configuration,
        streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
        try checkAvailable(model.configuration)
    }

    static var deviceNotEligibleExplanation: String {
        "this build of swift-foundation-models has no in-process model (its LlamaCpp trait is off); use a server model, or enable the trait."
    }
}

extension ComputeDevice {
    /// Empty: without the LlamaCpp trait no llama.cpp library is loaded.
    package static var all: [ComputeDevice] { [] }
}
#endif
