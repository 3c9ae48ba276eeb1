import TestSupport
import Testing

@testable import LlamaKit

/// Where the model computes (devices, offload, main GPU) and how its cache
/// is stored (KV cache types, flash attention): checked on whatever this
/// llama.cpp build has, the CPU alone included.
@Suite(.serialized, .tags(.model), .needs(.smallModel))
struct LlamaOffloadTests {
    @Test func theDevicesIncludeTheCPUAndAreNamed() throws {
        let devices = LlamaBackend.devices
        #expect(devices.contains { $0.kind == .cpu })
        for device in devices { #expect(!device.name.isEmpty) }
        // A build with a GPU backend lists a GPU; a CPU build lists none
        // and offloads nothing by default.
        #expect(devices.contains(where: \.isGPU) == LlamaBackend.supportsGPUOffload)
        if !LlamaBackend.supportsGPUOffload {
            #expect(try model().offloadedLayers == 0)
            #expect(LlamaModel.Options().requestedGPULayers == 0)
        }
    }

    @Test func aMainGPUThatDoesNotExistIsRefusedBeforeLoading() throws {
        let gpus = LlamaBackend.devices.filter(\.isGPU).count
        #expect(throws: LlamaError.self) {
            try LlamaModel(path: modelPath, options: .init(mainGPU: max(gpus, 1)))
        }
        #expect(throws: LlamaError.self) { try LlamaModel(path: modelPath, options: .init(mainGPU: -1)) }
    }

    /// A quantized cache and flash attention on or off give the same next
    /// token as the default context (the logits differ a little).
    @Test(arguments: [
        (LlamaBatchContext.Parameters.CacheType.q8_0, LlamaBatchContext.Parameters.FlashAttention.enabled),
        (.f16, .enabled),
        (.f16, .disabled),
        (.q8_0, .automatic),
    ])
    func cacheTypesAndFlashAttentionKeepTheAnswer(type: LlamaBatchContext.Parameters.CacheType, flash: LlamaBatchContext.Parameters.FlashAttention)
        throws
    {
        let model = try model()
        let prompt = try chatPrompt(model, "What is the capital of France? One word.")
        let reference = try lastLogits(makeContext(), after: prompt)
        let context = try LlamaBatchContext(
            model: model,
            parameters: .init(contextLength: 1024, threads: 2, flashAttention: flash, keyCacheType: type, valueCacheType: type),
            sequences: 1
        )
        let logits = try lastLogits(context, after: prompt)
        #expect(argmax(logits) == argmax(reference))
        // Rounded keys and values, or attention summed in another order,
        // move every logit a little: a few percent of their range.
        let difference = zip(logits, reference).map { abs($0 - $1) }.max()!
        let range = reference.max()! - reference.min()!
        #expect(difference < 0.1 * range, "largest logit difference \(difference) (range \(range)) with a \(type) cache, flash attention \(flash)")
    }

    @Test func aQuantizedValueCacheWithoutFlashAttentionIsRefusedClearly() throws {
        let error = #expect(throws: LlamaError.self) {
            try LlamaBatchContext(
                model: try model(),
                parameters: .init(contextLength: 256, threads: 2, flashAttention: .disabled, valueCacheType: .q4_0),
                sequences: 1
            )
        }
        #expect("\(String(describing: error))".contains("flash attention"))
    }

    /// The vectorized greedy pick is the first highest value, whatever the
    /// length (whole lanes and a tail) and wherever the ties are.
    @Test func argmaxIsTheFirstHighestValue() {
        func reference(_ values: [Float]) -> Int {
            var best = 0
            for index in values.indices where values[index] > values[best] { best = index }
            return best
        }
        var generator = SystemRandomNumberGenerator()
        for count in [1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 95, 96, 97, 1000, 1023, 1024, 1025, 2047, 2049, 49152, 151_936] {
            var values = (0..<count).map { _ in Float.random(in: -5...5, using: &generator) }
            #expect(values.withUnsafeBufferPointer { LlamaSampler.argmax($0) } == reference(values), "\(count) values")
            // Ties: the first of them, across lanes and in the tail.
            let top = Float(10)
            for position in Set([count - 1, count / 2, 0, max(0, count - 9)]).sorted(by: >) { values[position] = top }
            #expect(values.withUnsafeBufferPointer { LlamaSampler.argmax($0) } == reference(values), "\(count) values with ties")
        }
        // Ties in different blocks of the first pass (1,024 values each),
        // none at the start: the first of them, even at a block's edge.
        for positions in [[1500, 1024, 3000], [1023, 1024], [150_000, 140_001, 151_935], [2047, 2048, 5]] {
            var values = (0..<151_936).map { _ in Float.random(in: -5...5, using: &generator) }
            for position in positions { values[position] = 10 }
            #expect(values.withUnsafeBufferPointer { LlamaSampler.argmax($0) } == positions.min(), "ties at \(positions)")
        }
        // Whole blocks of NaN and -infinity before the highest value.
        var blocks = [Float](repeating: .nan, count: 3000)
        for index in 1024..<2048 { blocks[index] = -.infinity }
        blocks[2500] = -7
        blocks[2999] = -8
        #expect(blocks.withUnsafeBufferPointer { LlamaSampler.argmax($0) } == 2500)
        #expect([Float](repeating: -.infinity, count: 20).withUnsafeBufferPointer { LlamaSampler.argmax($0) } == 0)
        #expect(
            [-Float.infinity, -.infinity, -.infinity, -.infinity, -.infinity, -.infinity, -.infinity, -.infinity, 1]
                .withUnsafeBufferPointer { LlamaSampler.argmax($0) } == 8)
        // NaN is never the highest value, in the lanes or in the tail.
        var withNaN = [Float](repeating: 0, count: 70)
        for index in stride(from: 0, to: 70, by: 3) { withNaN[index] = .nan }
        withNaN[41] = 3
        withNaN[68] = 2
        #expect(withNaN.withUnsafeBufferPointer { LlamaSampler.argmax($0) } == 41)
        #expect([Float](repeating: .nan, count: 40).withUnsafeBufferPointer { LlamaSampler.argmax($0) } == 0)
    }
}
