import TestSupport
import Testing

@testable import LlamaKit

/// Whether this llama.cpp build has a GPU backend and found a device for it.
private let hasGPU = LlamaBackend.devices.contains(where: \.isGPU)

/// The model with every layer on the GPU computes the logits the CPU
/// computes, to within rounding, token by token along the CPU's greedy
/// answers.
///
/// Greedy answers alone cannot say this: the GPU's kernels multiply in
/// another order and precision than the CPU's (which rounds activations to
/// 8 bits), so where two tokens are nearly tied the greedy pick can differ
/// and the two answers part from there, however right both backends are
/// (on lavapipe with 256-bit vectors, SmolLM2's first token for "Count
/// from one to five." is "1" on the CPU and "The" on the GPU: 31.94 against
/// 31.81 on the CPU, 32.19 against 32.23 on the GPU). So the GPU is fed
/// the CPU's answer (teacher forcing) and, at each position, must pick
/// the CPU's token or one the CPU had within a near tie of it, with every
/// leading logit close to the CPU's.
///
/// `make test` runs it on Vulkan's software GPU, lavapipe
/// (scripts/vulkan-test.sh).
@Suite(
    "Logits on a GPU",
    .serialized,
    .tags(.gpu),
    .needs(.smallModel),
    .enabled(if: hasGPU, "needs llama.cpp with a GPU backend and a GPU (make test runs it on Vulkan's lavapipe)")
)
struct LlamaGPUTests {
    static let prompts = [
        "What is the capital of France?", "Name three colors.", "Count from one to five.",
        "Write one sentence about the sea.",
    ]
    /// Apart by less than this on the CPU, two tokens are a near tie the
    /// GPU may order the other way (logits of SmolLM2 span about 40).
    static let nearTie: Float = 0.5
    /// The most a leading logit (the CPU's ten highest) may move between
    /// the backends (0.3–0.8 measured on lavapipe; a wrong kernel moves
    /// them by whole units).
    static let leadingDifference: Float = 1.5
    /// Loaded once for every prompt: a Vulkan device compiles its
    /// pipelines as a model first runs.
    static let models = Result { () throws -> (cpu: LlamaModel, gpu: LlamaModel) in
        (try LlamaModel(path: modelPath, options: .init(gpuLayers: 0)), try LlamaModel(path: modelPath, options: .init()))
    }

    @Test(arguments: prompts)
    func theGPUPicksTheCPUsTokensUpToNearTies(prompt: String) throws {
        let (cpuModel, gpuModel) = try Self.models.get()
        #expect(cpuModel.offloadedLayers == 0)
        #expect(gpuModel.offloadedLayers > gpuModel.layerCount, "every layer and the output on the GPU")
        let parameters = LlamaBatchContext.Parameters(contextLength: 512, threads: 2)
        let cpu = try LlamaBatchContext(model: cpuModel, parameters: parameters, sequences: 1)
        let gpu = try LlamaBatchContext(model: gpuModel, parameters: parameters, sequences: 1)
        let tokens = try chatPrompt(cpuModel, prompt)

        var cpuRow = try #require(try decode(cpu, tokens))
        var gpuRow = try #require(try decode(gpu, tokens))
        var partings: [String] = []
        var largestDifference: Float = 0
        for position in 0..<16 {
            let cpuLogits = Array(try cpu.logits(row: cpuRow))
            let gpuLogits = Array(try gpu.logits(row: gpuRow))
            let token = cpuLogits.withUnsafeBufferPointer { LlamaSampler.argmax($0) }
            let gpuToken = gpuLogits.withUnsafeBufferPointer { LlamaSampler.argmax($0) }
            for leading in cpuLogits.indices.sorted(by: { cpuLogits[$0] > cpuLogits[$1] }).prefix(10) {
                largestDifference = max(largestDifference, abs(cpuLogits[leading] - gpuLogits[leading]))
            }
            if gpuToken != token {
                let gap = cpuLogits[token] - cpuLogits[gpuToken]
                partings.append("at \(position) the GPU picks \(gpuToken) over \(token), \(gap) apart on the CPU")
                #expect(
                    gap < Self.nearTie,
                    "\(prompt): at \(position) the GPU picks token \(gpuToken) over the CPU's \(token), \(gap) below it on the CPU")
            }
            let next = LlamaToken(token)
            if cpu.vocabulary.isEndOfGeneration(next) { break }
            cpuRow = try #require(try decode(cpu, [next], at: tokens.count + position))
            gpuRow = try #require(try decode(gpu, [next], at: tokens.count + position))
        }
        #expect(largestDifference < Self.leadingDifference, "\(prompt): a leading logit moved \(largestDifference) between the CPU and the GPU")
        print(
            "\(prompt): largest leading-logit difference \(largestDifference); \(partings.isEmpty ? "the GPU picks every token the CPU picks" : partings.joined(separator: "; "))"
        )
    }
}
