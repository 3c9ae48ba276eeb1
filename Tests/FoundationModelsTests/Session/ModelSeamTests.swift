import Foundation
import TestSupport
import Testing

@testable import FoundationModels

/// The one seam models plug into: availability, per-instance configuration,
/// the error family and option checks, without a model loaded.
@Suite("The model seam")
struct ModelSeamTests {
    /// A session made with a 27 initializer on any model.
    static func session27(_ model: some LanguageModel) -> LanguageModelSession {
        LanguageModelSession(model: model, instructions: Instructions { "seam" })
    }

    @Test func aLocalModelsConfigurationIsItsOwn() {
        let missing = URL(fileURLWithPath: "/nonexistent/custom.gguf")
        let custom = SystemLanguageModel(modelFile: missing, contextSize: 1024, threads: 1, contexts: 1)
        #expect(custom.configuration.modelPath == missing.path)
        #expect(custom.configuration.contextSize == 1024)
        #expect(custom.configuration.threads == 1)
        #expect(custom.configuration.parallelSequences == 1)
        #expect(custom.contextSize == 1024)
        #expect(custom.availability == .unavailable(.modelNotReady))
        #expect(custom.executorConfiguration != SystemLanguageModel.default.executorConfiguration)
        // The environment's configuration is only the default.
        #expect(SystemLanguageModel.default.configuration == SystemLanguageModel.Configuration.default)
    }

    @Test func anUnavailableSystemModelFailsBeforeItsExecutorInEitherFamily() async throws {
        let missing = SystemLanguageModel(modelFile: URL(fileURLWithPath: "/nonexistent/weights.gguf"))
        await #expect {
            try await Self.session27(missing).respond(to: "hello")
        } throws: { error in
            guard case SystemLanguageModel.Error.assetsUnavailable(let info) = error else { return false }
            return info.debugDescription.contains("/nonexistent/weights.gguf")
        }
        await #expect {
            try await LanguageModelSession(model: missing).respond(to: "hello")
        } throws: { error in
            guard case LanguageModelSession.GenerationError.assetsUnavailable = error else { return false }
            return true
        }
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["FOUNDATION_MODELS_PCC_URL"] == nil))
    func privateCloudComputeReportsItsAvailabilityThroughTheSameSeam() async throws {
        // Unconfigured (no FOUNDATION_MODELS_PCC_URL): not ready, and a
        // request fails before anything is sent.
        let model = PrivateCloudComputeLanguageModel()
        #expect(model.availability == .unavailable(.systemNotReady))
        #expect(!model.isAvailable)
        await #expect {
            try await Self.session27(model).respond(to: "hello")
        } throws: { error in
            guard case PrivateCloudComputeLanguageModel.Error.serviceUnavailable = error else { return false }
            return true
        }
        await #expect(throws: PrivateCloudComputeLanguageModel.Error.self) { _ = try await model.contextSize }
    }

    @Test func optionsNoModelCanHonorFailBeforeTheExecutor() async throws {
        let model = ScriptedModel([[.text("never")]])
        let session = LanguageModelSession(model: model)
        await #expect {
            try await session.respond(to: "x", options: GenerationOptions(temperature: -1))
        } throws: { error in
            (error as? InvalidGenerationOptions)?.option == "temperature"
        }
        #expect(model.script.requests.isEmpty)
        #expect(session.transcript.isEmpty)
    }

    /// Every option no model can honor fails with the one public error,
    /// before the executor, in both error families (it has no
    /// `GenerationError` counterpart), streamed or not, and when a profile
    /// sets it.
    @Test(arguments: [
        (GenerationOptions(temperature: -0.5), "temperature"),
        (GenerationOptions(maximumResponseTokens: 0), "maximumResponseTokens"),
        (GenerationOptions(maximumResponseTokens: -1), "maximumResponseTokens"),
        (GenerationOptions(samplingMode: .random(top: 0)), "samplingMode"),
        (GenerationOptions(samplingMode: .random(probabilityThreshold: 0)), "samplingMode"),
        (GenerationOptions(samplingMode: .random(probabilityThreshold: 1.01)), "samplingMode"),
    ])
    func invalidOptionsFailWithTheirOwnErrorInEitherFamily(options: GenerationOptions, option: String) async throws {
        func isInvalid(_ error: any Error) -> Bool {
            guard let invalid = error as? InvalidGenerationOptions else { return false }
            return invalid.option == option && invalid.localizedDescription.hasPrefix("Invalid generation option '\(option)': ")
        }
        let model = ScriptedModel([[.text("never")]])
        let current = Self.session27(model)
        await #expect { try await current.respond(to: "x", options: options) } throws: { isInvalid($0) }
        await #expect {
            for try await _ in current.streamResponse(to: "x", options: options) {}
        } throws: { isInvalid($0) }
        #expect(model.script.requests.isEmpty)
        #expect(current.transcript.count == 1)  // the instructions only

        // A 26 session on the system model: the same error, before the
        // model's availability is even asked (no model file here).
        let missing = SystemLanguageModel(modelFile: URL(fileURLWithPath: "/nonexistent/weights.gguf"))
        let legacy = LanguageModelSession(model: missing)
        await #expect { try await legacy.respond(to: "x", options: options) } throws: { isInvalid($0) }
        #expect(legacy.transcript.isEmpty)
    }

    @Test func invalidOptionsFromAProfileFailTheSameWay() async throws {
        struct Cold: LanguageModelSession.DynamicProfile {
            let model: ScriptedModel
            var body: some DynamicProfile {
                Profile { Instructions { "Be brief." } }.model(model).maximumResponseTokens(0)
            }
        }
        let model = ScriptedModel([[.text("never")]])
        let session = LanguageModelSession(profile: Cold(model: model))
        await #expect {
            try await session.respond(to: "x")
        } throws: { error in
            (error as? InvalidGenerationOptions)?.option == "maximumResponseTokens"
        }
        #expect(model.script.requests.isEmpty)
    }

    @Test func anExecutorThatCannotBeCreatedFailsTheRequestWithItsOwnError() async throws {
        struct Broken: LanguageModel {
            typealias Executor = BrokenExecutor
            var capabilities: LanguageModelCapabilities { LanguageModelCapabilities(capabilities: []) }
            var executorConfiguration: BrokenExecutor.Configuration { .init() }
        }
        struct NoCredentials: Error {}
        struct BrokenExecutor: LanguageModelExecutor {
            struct Configuration: Hashable, Sendable {}
            typealias Model = Broken
            init(configuration: Configuration) throws { throw NoCredentials() }
            func respond(
                to request: LanguageModelExecutorGenerationRequest, model: Broken, streamingInto channel: LanguageModelExecutorGenerationChannel
            ) async throws {}
        }
        await #expect(throws: NoCredentials.self) {
            try await LanguageModelSession(model: Broken()).respond(to: "x")
        }
    }
}
