import LlamaKit
import Testing

/// Whether an adapter fits a model, judged from the two headers: the checks
/// llama.cpp makes at load, with the reason in words (no files needed).
@Suite struct LoRACompatibilityTests {
    let model: [String: [Int64]] = [
        "token_embd.weight": [576, 49152],
        "blk.0.attn_q.weight": [576, 576],
        "blk.0.attn_v.weight": [576, 192],
    ]

    func mismatch(_ adapter: [String: [Int64]], architecture: String = "llama") -> String? {
        LoRACompatibility.mismatch(adapterArchitecture: architecture, adapterTensors: adapter, modelArchitecture: "llama", modelTensors: model)
    }

    @Test func aFittingAdapterPasses() {
        #expect(
            mismatch([
                "blk.0.attn_q.weight.lora_a": [576, 8], "blk.0.attn_q.weight.lora_b": [8, 576],
                "blk.0.attn_v.weight.lora_a": [576, 8], "blk.0.attn_v.weight.lora_b": [8, 192],
                "blk.0.attn_norm.weight": [576],
                // Token embeddings are stored the other way round.
                "token_embd.weight.lora_a": [8, 49152], "token_embd.weight.lora_b": [8, 576],
            ]) == nil)
    }

    @Test func eachMismatchIsNamed() {
        #expect(
            mismatch(["blk.0.attn_q.weight.lora_a": [576, 8], "blk.0.attn_q.weight.lora_b": [8, 576]], architecture: "gemma3")?
                .contains("gemma3 architecture") == true)
        #expect(
            mismatch(["blk.0.attn_q.weight.lora_a": [576, 8], "blk.0.attn_q.weight.lora_b": [8, 577]])?
                .contains("blk.0.attn_q.weight is [576, 576]") == true)
        #expect(
            mismatch(["blk.0.attn_q.weight.lora_a": [576, 8], "blk.0.attn_q.weight.lora_b": [4, 576]])?
                .contains("blk.0.attn_q.weight") == true)
        #expect(
            mismatch(["blk.9.attn_q.weight.lora_a": [576, 8], "blk.9.attn_q.weight.lora_b": [8, 576]])?
                .contains("no tensor blk.9.attn_q.weight") == true)
        #expect(mismatch(["blk.0.attn_q.weight.lora_a": [576, 8]])?.contains("only one") == true)
        #expect(mismatch(["blk.0.attn_q.weight.delta": [576, 8]])?.contains("neither") == true)
        #expect(mismatch([:])?.contains("no LoRA tensors") == true)
    }

    @Test func onlyLoRAAdaptersAreAdapters() {
        #expect(LoRACompatibility.adapterProblem(metadata: ["general.type": .string("adapter"), "adapter.type": .string("lora")]) == nil)
        #expect(LoRACompatibility.adapterProblem(metadata: ["general.type": .string("model")])?.contains("a model file?") == true)
        #expect(
            LoRACompatibility.adapterProblem(metadata: ["general.type": .string("adapter"), "adapter.type": .string("control_vector")])?
                .contains("not \"lora\"") == true)
    }
}
