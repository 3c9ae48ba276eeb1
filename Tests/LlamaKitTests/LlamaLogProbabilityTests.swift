import Foundation
import LlamaKit
import Testing

/// The log-probabilities fm serve reports (`logprobs`): the logits'
/// distribution at temperature 1 over the tokens a mask allows.
@Suite struct LlamaLogProbabilityTests {
    static let logits: [Float] = [1, 3, 2, 0.5]

    static func normalizer(_ indices: [Int]) -> Double {
        log(indices.map { exp(Double(logits[$0])) }.reduce(0, +))
    }

    @Test func withoutAMaskTheyAreTheWholeVocabularysLogSoftmax() throws {
        let values = try #require(Self.logits.withUnsafeBufferPointer { LlamaSampler.logProbabilities(logits: $0, allowed: nil, chosen: 2, top: 3) })
        let all = Self.normalizer([0, 1, 2, 3])
        #expect(abs(values.chosen - (2 - all)) < 1e-9)
        #expect(values.top.map(\.token) == [1, 2, 0])
        #expect(abs(values.top[0].logProbability - (3 - all)) < 1e-9)
        // The whole distribution sums to one.
        let total = Self.logits.indices.map { index in
            Self.logits.withUnsafeBufferPointer { LlamaSampler.logProbabilities(logits: $0, allowed: nil, chosen: LlamaToken(index), top: 0)!.chosen }
        }.map(exp).reduce(0, +)
        #expect(abs(total - 1) < 1e-9)
    }

    @Test func underAMaskTheyAreRenormalizedOverTheAllowedTokens() throws {
        // Tokens 0, 2 and 3 allowed: the most likely token (1) is not among them.
        let mask: [UInt64] = [0b1101]
        let values = try #require(Self.logits.withUnsafeBufferPointer { LlamaSampler.logProbabilities(logits: $0, allowed: mask, chosen: 2, top: 5) })
        #expect(abs(values.chosen - (2 - Self.normalizer([0, 2, 3]))) < 1e-9)
        #expect(values.top.map(\.token) == [2, 0, 3], "only allowed tokens, most likely first, no more than there are")
        // One allowed token: certain.
        let forced = try #require(
            Self.logits.withUnsafeBufferPointer { LlamaSampler.logProbabilities(logits: $0, allowed: [0b1000], chosen: 3, top: 1) })
        #expect(forced.chosen == 0 && forced.top.map(\.token) == [3])
    }

    @Test func aMaskThatAllowsNothingHasNone() {
        #expect(Self.logits.withUnsafeBufferPointer { LlamaSampler.logProbabilities(logits: $0, allowed: [0], chosen: 0, top: 1) } == nil)
    }
}
