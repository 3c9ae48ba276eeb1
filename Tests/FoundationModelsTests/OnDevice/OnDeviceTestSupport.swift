import Foundation
import Testing
@testable import FoundationModels

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
        contextSize: Int? = nil
    ) -> SystemLanguageModel {
        var configuration = OnDeviceConfiguration.current
        if let path { configuration.modelPath = path }
        if let contexts { configuration.contexts = contexts }
        if let maximumQueuedRequests { configuration.maximumQueuedRequests = maximumQueuedRequests }
        if let contextSize { configuration.contextSize = contextSize }
        return SystemLanguageModel(configuration: configuration)
    }

    static let greedy = GenerationOptions(sampling: .greedy, maximumResponseTokens: 24)
}
