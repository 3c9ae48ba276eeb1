import Foundation
import TestSupport
import Testing

@testable import FoundationModels

/// Every test on the real model. They share one engine — its weights and its
/// few contexts — so they run one at a time: a test that checks KV-cache
/// reuse must not have its context taken by another test's request.
@Suite("On-device model", .serialized, .tags(.model), .needs(.model))
enum OnDeviceTests {}

/// Shared helpers for tests on the real default model (installed by `make
/// setup`); ``OnDevice/requireModel(sourceLocation:)`` is TestSupport's,
/// shared with fm's command-line tests.
extension OnDevice {
    /// A system model with a custom engine configuration (pool size, queue, file).
    static func model(
        path: String? = nil,
        contexts: Int? = nil,
        maximumQueuedRequests: Int? = nil,
        contextSize: Int? = nil,
        pacesStrings: Bool = true
    ) -> SystemLanguageModel {
        SystemLanguageModel(
            configuration: configuration(
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
