import Foundation
import LlamaKit
import TestSupport
import Testing

/// Several sequences in one context, decoded in one pass: what the engine's
/// shared steps rest on.
@Suite(.serialized, .tags(.model), .needs(.smallModel))
struct LlamaBatchContextTests {
    func makeBatchContext(sequences: Int = 3, contextLength: Int = 256) throws -> LlamaBatchContext {
        try makeContext(contextLength, sequences: sequences)
    }

    /// Each sequence of a batch computes what it computes alone: the same
    /// greedy continuation, step after step, with every sequence's next
    /// token in the same `llama_decode`. The reference is each prompt in a
    /// context of one sequence, one pass per token.
    @Test func sequencesDecodedTogetherMatchEachAlone() throws {
        let single = try makeBatchContext(sequences: 1)
        let inputs = try ["Name a color.", "What is two plus two?", "Write a haiku about rain."].map { try chatPrompt(single.model, $0) }
        let steps = 12
        var alone: [[LlamaToken]] = []
        var aloneFirstLogits: [[Float]] = []
        for prompt in inputs {
            aloneFirstLogits.append(try lastLogits(single, after: prompt))
            alone.append(try generate(single, prompt: prompt, count: steps, sampler: LlamaSampler(mode: .greedy)))
        }

        let batch = try makeBatchContext()
        // Each prompt in a pass of its own, then one token per sequence per
        // pass. (llama.cpp's CPU backend multiplies a batch of dozens of
        // tokens by another kernel than a short one, whose results depend on
        // where a row falls in its tiles: on this model the three prompts in
        // one pass give logits up to 1.1 away from each prompt alone. That
        // is the kernels, not the batching, so prompts are not compared so.)
        var together: [[LlamaToken]] = Array(repeating: [], count: inputs.count)
        var positions = inputs.map(\.count)
        let sampler = try LlamaSampler(mode: .greedy)
        // The first token of each answer from its prompt's own pass.
        var next: [LlamaToken] = []
        for (index, prompt) in inputs.enumerated() {
            let row = try #require(try batch.decode([.init(sequence: index, position: 0, tokens: prompt[...], computesLogits: true)])[0])
            let logits = try batch.logits(row: row)
            let difference = zip(logits, aloneFirstLogits[index]).map { abs($0 - $1) }.max() ?? .infinity
            #expect(difference < 0.05, "sequence \(index): logits differ by \(difference) from the same prompt alone")
            next.append(try sampler.sample(logits: logits))
        }
        var rows: [Int32?] = Array(repeating: nil, count: inputs.count)
        for _ in 0..<steps {
            var runs: [LlamaBatchContext.Run] = []
            var runIndex: [Int] = []
            for index in inputs.indices {
                let token: LlamaToken
                if together[index].isEmpty {
                    token = next[index]
                } else {
                    guard let row = rows[index] else { continue }
                    token = try sampler.sample(logits: batch.logits(row: row))
                }
                together[index].append(token)
                if batch.vocabulary.isEndOfGeneration(token) || together[index].count == alone[index].count { continue }
                runs.append(.init(sequence: index, position: positions[index], tokens: [token], computesLogits: true))
                runIndex.append(index)
            }
            if runs.isEmpty { break }
            let decoded = try batch.decode(runs)
            rows = Array(repeating: nil, count: inputs.count)
            for (run, index) in runIndex.enumerated() {
                rows[index] = decoded[run]
                positions[index] += 1
            }
        }
        #expect(together == alone)
        for index in inputs.indices {
            #expect(batch.lastPosition(of: index) == positions[index] - 1)
        }
    }

    /// A decode that fails leaves every sequence as it was; a sequence can
    /// be cut back and go on from there.
    @Test func failuresLeaveTheSequencesAsTheyWere() throws {
        let batch = try makeBatchContext(sequences: 2, contextLength: 64)
        _ = try batch.decode([.init(sequence: 0, position: 0, tokens: [1, 2, 3], computesLogits: true)])
        #expect(batch.lastPosition(of: 0) == 2)
        #expect(batch.lastPosition(of: 1) == -1)

        // Checked before any work: a token outside the vocabulary, a
        // sequence twice or out of range, more than the sequence holds.
        #expect(throws: LlamaError.invalidToken(-1)) {
            try batch.decode([
                .init(sequence: 1, position: 0, tokens: [5], computesLogits: true),
                .init(sequence: 0, position: 3, tokens: [-1], computesLogits: true),
            ])
        }
        #expect(throws: LlamaError.self) {
            try batch.decode([
                .init(sequence: 0, position: 3, tokens: [5], computesLogits: false),
                .init(sequence: 0, position: 4, tokens: [6], computesLogits: false),
            ])
        }
        #expect(throws: LlamaError.self) {
            try batch.decode([.init(sequence: 2, position: 0, tokens: [5], computesLogits: false)])
        }
        #expect(throws: LlamaError.contextWindowExceeded(requested: 65, available: 61, capacity: 64)) {
            try batch.decode([.init(sequence: 0, position: 3, tokens: Array(repeating: 5, count: 62)[...], computesLogits: false)])
        }
        #expect(batch.lastPosition(of: 0) == 2)
        #expect(batch.lastPosition(of: 1) == -1)

        // Aborted: both runs are cut back.
        batch.abortFlag.requestAbort()
        #expect(throws: LlamaError.aborted) {
            try batch.decode([
                .init(sequence: 0, position: 3, tokens: [7, 8], computesLogits: true),
                .init(sequence: 1, position: 0, tokens: [9], computesLogits: true),
            ])
        }
        batch.abortFlag.reset()
        #expect(batch.lastPosition(of: 0) == 2)
        #expect(batch.lastPosition(of: 1) == -1)

        try batch.removeTokens(sequence: 0, from: 1)
        #expect(batch.lastPosition(of: 0) == 0)
        let rows = try batch.decode([.init(sequence: 0, position: 1, tokens: [2, 3], computesLogits: true)])
        #expect(rows == [1])
        #expect(try batch.logits(row: 1).count == batch.vocabulary.count)
    }

    @Test func parametersOutOfRangeThrow() throws {
        #expect(throws: LlamaError.self) { try makeBatchContext(sequences: 0) }
        #expect(throws: LlamaError.self) { try makeBatchContext(sequences: 2, contextLength: 10_000_000) }
    }
}
