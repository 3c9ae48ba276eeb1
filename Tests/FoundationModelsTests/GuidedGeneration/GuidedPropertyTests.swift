import Foundation
import GuidedGeneration
import PropertyBased
import TestSupport
import Testing

@testable import FoundationModels

extension OnDeviceTests {
    /// Guided generation's promise, checked over the real SmolLM2 vocabulary
    /// (49,152 tokens) without running the model: random schemas, random
    /// walks through the allowed tokens, and valid documents fed back in.
    @Suite("Guided generation properties")
    struct GuidedProperties {
        /// Seeds per property; `GUIDED_PROPERTY_RUNS` raises it for a soak run.
        static let runs = Int(ProcessInfo.processInfo.environment["GUIDED_PROPERTY_RUNS"] ?? "") ?? 60

        static func vocabulary() async throws -> TokenVocabulary {
            try OnDevice.requireModel()
            let engine = OnDeviceEngine.shared(for: .default)
            return try await engine.loaded().constraints.vocabulary
        }

        /// Random walks: every step's mask is non-empty, every sampled token
        /// is accepted, and every finished output is JSON that the schema's
        /// own JSON Schema (checked by an independent validator) accepts.
        @Test func randomWalksProduceValidDocuments() async throws {
            let vocabulary = try await Self.vocabulary()
            await propertyCheck(count: Self.runs, input: Gen.int(in: 0...Int(Int32.max))) { seed in
                var schemas = RandomSchemas(random: SplitMix64(seed: UInt64(seed)))
                let schema = schemas.schema()
                do {
                    let constraint = try TokenConstraint(root: schema.root, definitions: schema.definitions, vocabulary: vocabulary)
                    let output = try Self.walk(constraint, random: &schemas.random, budget: 120)
                    let validator = try JSONSchemaValidator(schemaJSON: schema.jsonSchema.jsonString)
                    let violations = validator.validate(json: output)
                    #expect(violations.isEmpty, "seed \(seed): \(output) violates \(violations) of \(schema.jsonSchema.jsonString)")
                    let content = try GeneratedContent(json: output)
                    #expect(content.isComplete, "seed \(seed): \(output)")
                } catch {
                    Issue.record("seed \(seed): \(error) for \(schema.jsonSchema.jsonString)")
                }
            }
        }

        /// Completeness: a valid document, in the model's own tokenization
        /// and byte by byte, is allowed at every step.
        @Test func validDocumentsAreReachable() async throws {
            let vocabulary = try await Self.vocabulary()
            await propertyCheck(count: Self.runs, input: Gen.int(in: 0...Int(Int32.max))) { seed in
                var schemas = RandomSchemas(random: SplitMix64(seed: UInt64(seed)))
                let schema = schemas.schema()
                do {
                    let constraint = try TokenConstraint(root: schema.root, definitions: schema.definitions, vocabulary: vocabulary)
                    for _ in 0..<3 {
                        let document = schemas.document(of: schema)
                        let validator = try JSONSchemaValidator(schemaJSON: schema.jsonSchema.jsonString)
                        #expect(validator.validate(json: document).isEmpty, "generator bug: \(document)")
                        let bytes = Array(document.utf8)
                        let modelTokens = try #require(vocabulary.tokenize(bytes))
                        let singleBytes = try bytes.map { byte in
                            let node = try #require(vocabulary.trie.child(of: TokenTrie.root, byte: byte))
                            var token: Int32?
                            vocabulary.trie.forEachToken(endingAt: node) { token = token ?? $0 }
                            return try #require(token)
                        }
                        for tokens in [modelTokens, singleBytes] {
                            var decoder = constraint.makeDecoder()
                            for (index, token) in tokens.enumerated() {
                                let mask = decoder.allowedTokens()
                                let accepted = mask.contains(token) && decoder.accept(token)
                                guard accepted else {
                                    Issue.record(
                                        "seed \(seed): token \(index) of \(document) refused after \(String(decoding: decoder.output, as: UTF8.self))"
                                    )
                                    break
                                }
                            }
                            #expect(decoder.canEnd, "seed \(seed): \(document) not complete")
                        }
                    }
                } catch {
                    Issue.record("seed \(seed): \(error)")
                }
            }
        }

        /// A walk with random choices among the allowed tokens, forced runs
        /// taken as given, finished in the fewest tokens when the budget
        /// runs low.
        static func walk(_ constraint: TokenConstraint, random: inout SplitMix64, budget: Int) throws -> String {
            var decoder = constraint.makeDecoder()
            var used = 0
            while !decoder.isComplete {
                let forced = decoder.forcedTokens()
                if !forced.isEmpty {
                    for token in forced {
                        let accepted = decoder.accept(token)
                        try #require(
                            accepted,
                            "forced token \(token) \(constraint.vocabulary.tokens[Int(token)]) refused after \(String(decoding: decoder.output, as: UTF8.self))"
                        )
                    }
                    used += forced.count
                    continue
                }
                let allowed = decoder.allowedTokens().tokens
                let token = try #require(allowed.randomElement(using: &random), "empty mask after \(String(decoding: decoder.output, as: UTF8.self))")
                if decoder.accept(token, completableWithin: budget - used - 1) {
                    used += 1
                    continue
                }
                let completion = decoder.completionTokens()
                let closing = try #require(completion)
                for token in closing {
                    let accepted = decoder.accept(token)
                    try #require(accepted, "completion token refused")
                }
                used += closing.count
            }
            return String(decoding: decoder.output, as: UTF8.self)
        }
    }
}
