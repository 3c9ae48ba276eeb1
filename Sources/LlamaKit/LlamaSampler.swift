import CLlama
import Foundation

/// Picks the next token from logits: a llama.cpp sampler chain it owns and
/// frees in `deinit`.
///
/// Not Sendable: the chain holds mutable state (the random generator), so
/// a sampler belongs to one generation at a time, like its context.
package final class LlamaSampler {
    package enum Mode: Sendable, Equatable {
        /// The most likely token; deterministic.
        case greedy
        /// Sampling: keep the `topK` most likely tokens (when set), then the
        /// smallest set whose probability reaches `topP` (when set), scale by
        /// `temperature`, and draw. The same seed gives the same draws; a nil
        /// seed draws a fresh one.
        case random(topK: Int? = nil, topP: Double? = nil, temperature: Double = 1.0, seed: UInt32? = nil)
    }

    package let mode: Mode
    private let chain: UnsafeMutablePointer<llama_sampler>
    /// Reused candidate buffer, one entry per vocabulary token.
    private var candidates: [llama_token_data] = []

    /// - Throws: `LlamaError.invalidArgument` for a non-positive top-k, a
    ///   top-p outside (0, 1], or a negative temperature.
    package init(mode: Mode) throws {
        LlamaBackend.initialize()
        if case .random(let topK, let topP, let temperature, _) = mode {
            if let topK, topK < 1 { throw LlamaError.invalidArgument("top-k \(topK) must be at least 1") }
            if let topP, !(topP > 0 && topP <= 1) { throw LlamaError.invalidArgument("top-p \(topP) must be in (0, 1]") }
            if !(temperature >= 0) || !temperature.isFinite { throw LlamaError.invalidArgument("temperature \(temperature) must be finite and >= 0") }
        }
        var params = llama_sampler_chain_default_params()
        params.no_perf = true
        guard let chain = llama_sampler_chain_init(params) else {
            throw LlamaError.invalidArgument("llama_sampler_chain_init failed")
        }
        // The chain takes ownership of the samplers added to it.
        switch mode {
        case .greedy:
            llama_sampler_chain_add(chain, llama_sampler_init_greedy())
        case .random(let topK, let topP, let temperature, let seed):
            if let topK { llama_sampler_chain_add(chain, llama_sampler_init_top_k(Int32(clamping: topK))) }
            if let topP, topP < 1 { llama_sampler_chain_add(chain, llama_sampler_init_top_p(Float(topP), 1)) }
            llama_sampler_chain_add(chain, llama_sampler_init_temp(Float(temperature)))
            // LLAMA_DEFAULT_SEED (0xFFFFFFFF) asks llama.cpp for a fresh random seed.
            llama_sampler_chain_add(chain, llama_sampler_init_dist(seed ?? 0xFFFF_FFFF))
        }
        self.mode = mode
        self.chain = chain
    }

    deinit {
        llama_sampler_free(chain)
    }

    /// Samples the next token from `logits` (one per vocabulary token, e.g.
    /// ``LlamaBatchContext/logits(row:)``) and records it in the chain's state.
    /// - Parameter allowed: when given, a bitmask with one bit per
    ///   vocabulary token (bit `i % 64` of word `i / 64`): only tokens whose
    ///   bit is set can be chosen. The chain then runs over the allowed
    ///   tokens alone, which is the same as giving every other token a logit
    ///   of -infinity, and cheaper when few are allowed.
    package func sample(logits: UnsafeBufferPointer<Float>, allowed: [UInt64]? = nil) throws -> LlamaToken {
        let count = logits.count
        guard count > 0 else { throw LlamaError.noLogits }
        if let allowed {
            guard allowed.count == (count + 63) / 64 else {
                throw LlamaError.invalidArgument("mask of \(allowed.count) words for \(count) tokens")
            }
        }
        if mode == .greedy { return try Self.argmax(logits, allowed: allowed) }
        if candidates.count != count {
            candidates = [llama_token_data](repeating: llama_token_data(id: 0, logit: 0, p: 0), count: count)
        }
        let selected: LlamaToken? = try candidates.withUnsafeMutableBufferPointer { buffer in
            var size = 0
            if let allowed {
                Self.forEachAllowed(allowed, below: count) { index in
                    buffer[size] = llama_token_data(id: LlamaToken(index), logit: logits[index], p: 0)
                    size += 1
                }
                guard size > 0 else { throw LlamaError.noAllowedTokens }
            } else {
                for index in 0..<count {
                    buffer[index] = llama_token_data(id: LlamaToken(index), logit: logits[index], p: 0)
                }
                size = count
            }
            var array = llama_token_data_array(data: buffer.baseAddress, size: size, selected: -1, sorted: false)
            llama_sampler_apply(chain, &array)
            guard array.selected >= 0, array.selected < Int64(array.size) else { return nil }
            return array.data[Int(array.selected)].id
        }
        guard let selected else { throw LlamaError.noLogits }
        llama_sampler_accept(chain, selected)
        return selected
    }

    /// Greedy decoding without the sampler chain: the first token with the
    /// highest logit (among the allowed ones), which is what llama.cpp's
    /// greedy sampler selects. It skips copying every logit into a
    /// candidate array and the chain's pass over it, a fixed cost per token
    /// that matters most at small models' speeds.
    static func argmax(_ logits: UnsafeBufferPointer<Float>, allowed: [UInt64]?) throws -> LlamaToken {
        var best = -1
        var bestLogit = -Float.infinity
        if let allowed {
            forEachAllowed(allowed, below: logits.count) { index in
                if best < 0 || logits[index] > bestLogit {
                    best = index
                    bestLogit = logits[index]
                }
            }
            guard best >= 0 else { throw LlamaError.noAllowedTokens }
        } else {
            best = argmax(logits)
        }
        return LlamaToken(best)
    }

    /// The index of the first highest value (0 when every value is NaN or
    /// -infinity). One pass over the values finds each block's highest
    /// value, with four independent eight-lane maxima (no lane waits for the
    /// one before it); the first block that holds the overall highest is
    /// then searched for its first place, so the second pass reads one
    /// block instead of everything up to the winner. Over 151,936 logits on
    /// the 2-core machine: 9 µs wherever the highest value is, against 10,
    /// 16 and 22 µs with it at 10, 50 and 95 % of the way when the second
    /// pass scanned from the start (152,000 instructions instead of 182,000,
    /// `make callgrind`; the first pass is 8 loads and 8 maxima per 32
    /// values in the package's baseline SSE2 code). Per token, what a small
    /// model's decode step costs in tens of percent on a GPU.
    package static func argmax(_ values: UnsafeBufferPointer<Float>) -> Int {
        guard let base = values.baseAddress, !values.isEmpty else { return 0 }
        let count = values.count
        let raw = UnsafeRawPointer(base)
        @inline(__always) func chunk(_ index: Int) -> SIMD8<Float> {
            raw.loadUnaligned(fromByteOffset: index &* 4, as: SIMD8<Float>.self)
        }
        // A block's highest value. NaN is never greater, so it is never the
        // maximum; a block of NaN and -infinity gives -infinity.
        @inline(__always) func blockMaximum(from start: Int, to end: Int) -> Float {
            var m0 = SIMD8<Float>(repeating: -.infinity), m1 = m0, m2 = m0, m3 = m0
            var index = start
            while index &+ 32 <= end {
                let c0 = chunk(index), c1 = chunk(index &+ 8), c2 = chunk(index &+ 16), c3 = chunk(index &+ 24)
                m0.replace(with: c0, where: c0 .> m0)
                m1.replace(with: c1, where: c1 .> m1)
                m2.replace(with: c2, where: c2 .> m2)
                m3.replace(with: c3, where: c3 .> m3)
                index &+= 32
            }
            m0.replace(with: m1, where: m1 .> m0)
            m2.replace(with: m3, where: m3 .> m2)
            m0.replace(with: m2, where: m2 .> m0)
            var best = -Float.infinity
            for lane in 0..<8 where m0[lane] > best { best = m0[lane] }
            while index < end {
                if base[index] > best { best = base[index] }
                index &+= 1
            }
            return best
        }
        let block = 1024
        var best = -Float.infinity
        var bestBlock = -1
        var start = 0
        while start < count {
            let end = min(start &+ block, count)
            // Strictly greater: the first block holding the highest value wins.
            let maximum = blockMaximum(from: start, to: end)
            if maximum > best {
                best = maximum
                bestBlock = start
            }
            start = end
        }
        guard bestBlock >= 0 else { return 0 }
        let target = SIMD8<Float>(repeating: best)
        var index = bestBlock
        while index &+ 8 <= count {
            if any(chunk(index) .== target) { break }
            index &+= 8
        }
        while base[index] != best { index &+= 1 }
        return index
    }

    /// The log-probability of `chosen` and the `top` most likely tokens,
    /// in the distribution `logits` give at temperature 1 over the tokens
    /// `allowed` (all without a mask), renormalized over them: the
    /// distribution a token drawn under that mask comes from, before the
    /// request's temperature and cut-offs shape it. Most likely first;
    /// nil where the mask allows no token.
    package static func logProbabilities(
        logits: UnsafeBufferPointer<Float>, allowed: [UInt64]?, chosen: LlamaToken, top: Int
    ) -> (chosen: Double, top: [(token: LlamaToken, logProbability: Double)])? {
        let count = logits.count
        var maximum = -Float.infinity
        func each(_ body: (Int) -> Void) {
            if let allowed { forEachAllowed(allowed, below: count, body) } else { for index in 0..<count { body(index) } }
        }
        each { maximum = max(maximum, logits[$0]) }
        guard maximum > -Float.infinity else { return nil }
        var sum = 0.0
        // The best `top`, kept sorted (few: a linear insert is cheapest).
        var best: [(token: LlamaToken, logit: Float)] = []
        best.reserveCapacity(top + 1)
        each { index in
            let logit = logits[index]
            sum += exp(Double(logit - maximum))
            guard top > 0, best.count < top || logit > best[best.count - 1].logit else { return }
            let place = best.firstIndex { logit > $0.logit } ?? best.count
            best.insert((LlamaToken(index), logit), at: place)
            if best.count > top { best.removeLast() }
        }
        let normalizer = Double(maximum) + log(sum)
        let index = Int(chosen)
        let chosenLogit = index >= 0 && index < count ? Double(logits[index]) : -Double.infinity
        return (chosenLogit - normalizer, best.map { ($0.token, Double($0.logit) - normalizer) })
    }

    /// Calls `body` with each token the mask allows, in increasing order
    /// (bit `i % 64` of word `i / 64`), stopping at `count`.
    @inline(__always)
    private static func forEachAllowed(_ allowed: [UInt64], below count: Int, _ body: (Int) -> Void) {
        for (wordIndex, word) in allowed.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                let index = wordIndex &* 64 &+ bits.trailingZeroBitCount
                bits &= bits &- 1
                guard index < count else { return }
                body(index)
            }
        }
    }

    /// Back to the state right after `init` (the same seed draws the same
    /// sequence again).
    package func reset() {
        llama_sampler_reset(chain)
    }
}
