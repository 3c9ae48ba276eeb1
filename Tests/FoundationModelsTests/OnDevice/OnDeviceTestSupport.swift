import Foundation
import Testing
import TestSupport
@testable import FoundationModels

/// Every test on the real model. They share one engine — its weights and its
/// few contexts — so they run one at a time: a test that checks KV-cache
/// reuse must not have its context taken by another test's request.
@Suite("On-device model", .serialized, .tags(.model), .needs(.model))
enum OnDeviceTests {}

/// Shared helpers for tests on the real default model (installed by `make setup`).
enum OnDevice {
    /// The installed default model, or a clear failure telling how to get it.
    static func requireModel(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let availability = SystemLanguageModel.default.availability
        try #require(
            availability == .available,
            "The default model is not installed (\(availability)); run `make setup` or set FOUNDATION_MODELS_MODEL.",
            sourceLocation: sourceLocation
        )
    }

    /// A system model with a custom engine configuration (pool size, queue, file).
    static func model(
        path: String? = nil,
        contexts: Int? = nil,
        maximumQueuedRequests: Int? = nil,
        contextSize: Int? = nil,
        pacesStrings: Bool = true
    ) -> SystemLanguageModel {
        SystemLanguageModel(configuration: configuration(
            path: path, contexts: contexts, maximumQueuedRequests: maximumQueuedRequests,
            contextSize: contextSize, pacesStrings: pacesStrings))
    }

    /// The engine configuration behind ``model(path:contexts:maximumQueuedRequests:contextSize:pacesStrings:)``.
    static func configuration(
        path: String? = nil,
        contexts: Int? = nil,
        maximumQueuedRequests: Int? = nil,
        contextSize: Int? = nil,
        pacesStrings: Bool = true
    ) -> SystemLanguageModel.Configuration {
        var configuration = SystemLanguageModel.Configuration.default
        if let path { configuration.modelPath = path }
        if let contexts { configuration.parallelSequences = contexts }
        if let maximumQueuedRequests { configuration.maximumQueuedRequests = maximumQueuedRequests }
        if let contextSize { configuration.contextSize = contextSize }
        configuration.pacesStrings = pacesStrings
        return configuration
    }

    static let greedy = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 24)
}
