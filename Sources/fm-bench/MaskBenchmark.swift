import Foundation
import FoundationModels
import GuidedGeneration
import LlamaKit

/// The constraint engine alone, on a real model's vocabulary, without
/// running the model: schema compile time, and the time of every
/// `allowedTokens(into:)` and `forcedTokens()` call over seeded random
/// walks through each schema's documents.
struct MaskBenchmark {
    var walksPerSchema = 50
    /// Tokens per walk; a walk that would run past it finishes its value in
    /// the fewest tokens (`accept(_:completableWithin:)`, `completionTokens()`).
    var budget = 150
    var compileSamples = 5

    struct Compile {
        var schema: String
        var isAnswerType: Bool
        /// The first compile of the schema on this vocabulary object, in seconds
        /// (grammar, then a fresh decoder's first mask).
        var firstGrammar: Double
        var firstMask: Double
        /// Medians of later fresh compiles.
        var grammar: Double
        var mask: Double
        var total: Double { grammar + mask }
    }

    struct Result {
        var vocabularyName: String
        var modelPath: String
        var tokenCount: Int
        /// `ConstraintCache.makeVocabulary` (token bytes and trie), seconds.
        var vocabularyBuild: Double
        /// Of which the trie (`TokenVocabulary.init` over the same bytes).
        var trieBuild: Double
        var compiles: [Compile]
        /// The first walk over the fresh vocabulary object: it computes the
        /// vocabulary-wide free-string masks as it first meets each state.
        var coldWalkSeconds: Double
        var coldMaskCalls: Int
        var coldMaskMax: Double
        /// Every other walk, all schemas pooled; nanoseconds.
        var mask: Distribution
        var forced: Distribution
        var accept: Distribution
        var walks: Int
        var warmWalkSeconds: Double
        var tokens: Int
        /// Tokens taken from `forcedTokens()`.
        var forcedTokens: Int
        /// Tokens of shortest completions taken when the budget ran low.
        var closingTokens: Int
        var closedWalks: Int
    }

    func run(name: String, modelPath: String, cases: [GuidedCase], log: @Sendable (String) -> Void) throws -> Result {
        let model = try LlamaModel(path: modelPath, options: .init(vocabularyOnly: true))
        let (vocabulary, build) = Nanoseconds.time { ConstraintCache.makeVocabulary(model.vocabulary) }
        let (_, trie) = Nanoseconds.time { TokenVocabulary(tokens: vocabulary.tokens, endOfGeneration: vocabulary.endOfGeneration) }
        log("\(name): \(vocabulary.count) tokens, vocabulary built in \(String(format: "%.0f", build / 1e6)) ms")

        var compiles: [Compile] = []
        var constraints: [TokenConstraint] = []
        for item in cases {
            var grammar: [Double] = []
            var leaves: [Double] = []
            var constraint: TokenConstraint?
            for _ in 0...compileSamples {
                let (compiled, compileTime) = try Nanoseconds.time {
                    try TokenConstraint(root: item.schema.root, definitions: item.schema.definitions, vocabulary: vocabulary)
                }
                var decoder = compiled.makeDecoder()
                var firstMask = TokenMask(count: vocabulary.count)
                let (_, leafTime) = Nanoseconds.time { decoder.allowedTokens(into: &firstMask) }
                grammar.append(compileTime / 1e9)
                leaves.append(leafTime / 1e9)
                constraint = compiled
            }
            compiles.append(
                Compile(
                    schema: item.name,
                    isAnswerType: item.conversation != nil,
                    firstGrammar: grammar[0],
                    firstMask: leaves[0],
                    grammar: Distribution.median(Array(grammar.dropFirst())),
                    mask: Distribution.median(Array(leaves.dropFirst()))
                ))
            constraints.append(constraint!)
        }

        var mask = TokenMask(count: vocabulary.count)
        var cold = Timings()
        var warm = Timings()
        var coldSeconds = 0.0
        var warmSeconds = 0.0
        var first = true
        for (index, constraint) in constraints.enumerated() {
            for walk in 0..<walksPerSchema {
                var random = SeededRandom(seed: UInt64(index * 10_000 + walk))
                let start = Nanoseconds.now()
                if first {
                    try self.walk(constraint, random: &random, mask: &mask, into: &cold)
                    coldSeconds = Double(Nanoseconds.now() - start) / 1e9
                    first = false
                } else {
                    try self.walk(constraint, random: &random, mask: &mask, into: &warm)
                    warmSeconds += Double(Nanoseconds.now() - start) / 1e9
                }
            }
        }
        return Result(
            vocabularyName: name,
            modelPath: modelPath,
            tokenCount: vocabulary.count,
            vocabularyBuild: build / 1e9,
            trieBuild: trie / 1e9,
            compiles: compiles,
            coldWalkSeconds: coldSeconds,
            coldMaskCalls: cold.mask.count,
            coldMaskMax: cold.mask.max() ?? 0,
            mask: Distribution(warm.mask),
            forced: Distribution(warm.forced),
            accept: Distribution(warm.accept),
            walks: warm.walks,
            warmWalkSeconds: warmSeconds,
            tokens: warm.tokens + cold.tokens,
            forcedTokens: warm.forcedTokens + cold.forcedTokens,
            closingTokens: warm.closingTokens + cold.closingTokens,
            closedWalks: warm.closedWalks + cold.closedWalks
        )
    }

    /// The nanoseconds of each call, and what the walks did.
    struct Timings {
        var mask: [Double] = []
        var forced: [Double] = []
        var accept: [Double] = []
        var walks = 0
        var tokens = 0
        var forcedTokens = 0
        var closingTokens = 0
        var closedWalks = 0
    }

    /// One document: forced runs taken as given, otherwise a uniformly
    /// random allowed token, finished in the fewest tokens when the budget
    /// runs low. Only the decoder's calls are timed, not the choosing.
    func walk(_ constraint: TokenConstraint, random: inout SeededRandom, mask: inout TokenMask, into timings: inout Timings) throws {
        var decoder = constraint.makeDecoder()
        var used = 0
        var closed = false
        while !decoder.isComplete {
            let (forced, forcedTime) = Nanoseconds.time { decoder.forcedTokens() }
            timings.forced.append(forcedTime)
            if !forced.isEmpty {
                for token in forced where !decoder.accept(token) {
                    throw BenchmarkError("a forced token was refused after \(String(decoding: decoder.output, as: UTF8.self))")
                }
                used += forced.count
                timings.forcedTokens += forced.count
                continue
            }
            let (_, maskTime) = Nanoseconds.time { decoder.allowedTokens(into: &mask) }
            timings.mask.append(maskTime)
            guard let token = Self.randomMember(of: mask, using: &random) else {
                throw BenchmarkError("empty mask after \(String(decoding: decoder.output, as: UTF8.self))")
            }
            let (accepted, acceptTime) = Nanoseconds.time { decoder.accept(token, completableWithin: budget - used - 1) }
            timings.accept.append(acceptTime)
            if accepted {
                used += 1
                continue
            }
            guard let closing = decoder.completionTokens() else {
                throw BenchmarkError("no completion after \(String(decoding: decoder.output, as: UTF8.self))")
            }
            for token in closing where !decoder.accept(token) {
                throw BenchmarkError("a completion token was refused after \(String(decoding: decoder.output, as: UTF8.self))")
            }
            used += closing.count
            timings.closingTokens += closing.count
            closed = true
        }
        timings.walks += 1
        timings.tokens += used
        if closed { timings.closedWalks += 1 }
    }

    /// A uniformly chosen token of `mask`, without building its token list.
    static func randomMember(of mask: TokenMask, using random: inout SeededRandom) -> Int32? {
        let population = mask.population
        guard population > 0 else { return nil }
        var remaining = Int.random(in: 0..<population, using: &random)
        for (index, word) in mask.words.enumerated() {
            let bits = word.nonzeroBitCount
            if remaining >= bits {
                remaining -= bits
                continue
            }
            var rest = word
            for _ in 0..<remaining { rest &= rest - 1 }
            return Int32(index * 64 + rest.trailingZeroBitCount)
        }
        return nil
    }
}
