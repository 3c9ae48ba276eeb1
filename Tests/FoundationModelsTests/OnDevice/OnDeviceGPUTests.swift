import Foundation
import TestSupport
import Testing

@testable import FoundationModels

/// Whether llama.cpp found a GPU in this process (its GPU backend and a device).
private let hasGPU = ComputeDevice.all.contains { $0.isGPU }

extension OnDeviceTests {
    /// The engine with every layer on a GPU: the same greedy answers as the
    /// CPU, valid typed answers, shared steps and cancellation, through the
    /// path a GPU takes (each request decodes on its own thread and hands
    /// its text on while the GPU computes).
    ///
    /// Needs a llama.cpp build with a GPU backend and a device for it:
    /// `make test` runs this suite against the Vulkan build of llama.cpp
    /// (`scripts/setup.sh --gpu=vulkan --llama-only`) on Mesa's software
    /// GPU, lavapipe, so it runs without one (scripts/vulkan-test.sh).
    @Suite(
        "On a GPU",
        .tags(.gpu),
        .enabled(if: hasGPU, "needs llama.cpp with a GPU backend and a GPU (make test runs it on Vulkan's lavapipe)")
    )
    struct GPU {
        static let prompts = ["What is the capital of France?", "Name three colors.", "Count from one to five."]
        static let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 16)

        /// The models every test of the suite shares (their engines stay
        /// loaded: a Vulkan device compiles its pipelines once).
        static func models() -> (gpu: SystemLanguageModel, cpu: SystemLanguageModel) {
            var configuration = OnDevice.configuration(contexts: 3, contextSize: 1024)
            let gpu = SystemLanguageModel(configuration: configuration)
            configuration.gpuLayers = 0
            // Prompts evaluated as with every layer on a GPU (in one pass,
            // ContextSlot.promptEndsAlone): only the backend differs.
            configuration.promptEndsAlone = false
            return (gpu, SystemLanguageModel(configuration: configuration))
        }

        /// Every layer offloaded by default, decoded on the requests'
        /// threads; greedy answers as the CPU backend of the same build
        /// gives them. Not always to the letter: the GPU's kernels multiply
        /// in another order and precision than the CPU's (which rounds the
        /// activations to 8 bits), so where two tokens are nearly tied the
        /// greedy pick can differ and the answers part from there, even at
        /// the first token (on lavapipe with 256-bit vectors, "Count from
        /// one to five." starts "1." on the CPU and "The" on the GPU). That
        /// the backends compute the same logits to within rounding, and
        /// part only at near ties, LlamaKitTests' "Logits on a GPU" checks
        /// token by token; here, the engine's GPU path must give most
        /// answers exactly as the CPU's.
        @Test func greedyAnswersMatchTheCPUs() async throws {
            try OnDevice.requireModel()
            let (gpu, cpu) = Self.models()
            let loaded = try await OnDeviceEngine.shared(for: gpu.configuration).loaded()
            #expect(loaded.model.offloadedLayers > loaded.model.layerCount)
            #expect(loaded.scheduler.thread == nil)
            #expect(try await OnDeviceEngine.shared(for: cpu.configuration).loaded().model.offloadedLayers == 0)
            var differences: [String] = []
            for prompt in Self.prompts {
                let expected = try await LanguageModelSession(model: cpu).respond(to: prompt, options: Self.options).content
                let answer = try await Batching.streamedAnswer(gpu, to: prompt, options: Self.options)
                #expect(!answer.isEmpty, "\(prompt): the GPU gave no answer")
                if answer != expected { differences.append("\(prompt): the GPU said \(answer), the CPU \(expected)") }
            }
            #expect(
                differences.count <= 1,
                "\(differences.count) of \(Self.prompts.count) greedy answers differ from the CPU's: \(differences.joined(separator: " | "))")
        }

        @Test func typedAnswersAreValid() async throws {
            try OnDevice.requireModel()
            let (gpu, _) = Self.models()
            let city = try await LanguageModelSession(model: gpu).respond(
                to: "Describe Paris.", generating: GuidedCity.self,
                options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 120)
            ).content
            #expect(city.landmarks.count == 2)
            #expect((0...40).contains(city.population))
            #expect(["Europe", "Asia", "Africa", "Americas", "Oceania"].contains(city.continent))
        }

        @Test func sessionsShareStepsAndOneCanBeCancelled() async throws {
            try OnDevice.requireModel()
            let (gpu, _) = Self.models()
            let scheduler = try await OnDeviceEngine.shared(for: gpu.configuration).loaded().scheduler
            let before = scheduler.statistics
            try await Batching.cancelOneOfThree(gpu, options: Self.options, prompts: Array(Self.prompts[1...2]))
            let after = scheduler.statistics
            #expect(after.passes - before.passes > after.steps - before.steps, "no step was shared")
            #expect(!(try await LanguageModelSession(model: gpu).respond(to: Self.prompts[0], options: Self.options).content.isEmpty))
        }
    }
}
