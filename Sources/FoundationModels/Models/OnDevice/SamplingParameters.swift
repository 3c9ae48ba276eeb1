#if LlamaCpp
import LlamaKit

extension GenerationOptions {
    /// The llama.cpp sampler these options ask for.
    ///
    /// `.greedy` is argmax. `.random(top:seed:)` is top-k and
    /// `.random(probabilityThreshold:seed:)` top-p (nucleus) sampling, each at
    /// `temperature` (1 when unset), reproducible for a given seed. With no
    /// sampling mode the model samples with llama.cpp's defaults (top-k 40,
    /// top-p 0.95, temperature 0.8, or `temperature` when set) and a fresh seed.
    var samplerMode: LlamaSampler.Mode {
        switch samplingMode?.kind {
        case .greedy:
            return .greedy
        case .randomTopK(let k, let seed):
            return .random(topK: k, topP: nil, temperature: temperature ?? 1.0, seed: seed.map(Self.seed32))
        case .randomProbabilityThreshold(let threshold, let seed):
            return .random(topK: nil, topP: threshold, temperature: temperature ?? 1.0, seed: seed.map(Self.seed32))
        case nil:
            return .random(topK: 40, topP: 0.95, temperature: temperature ?? 0.8, seed: nil)
        }
    }

    /// llama.cpp seeds are 32 bits; fold the 64-bit seed so both halves count.
    private static func seed32(_ seed: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: seed ^ (seed >> 32))
    }
}
#endif
