import GuidedGeneration
import LlamaKit
import Synchronization

/// The loaded model's vocabulary as the constraint engine sees it, and the
/// schemas compiled against it.
///
/// Exists so guided generation pays its fixed costs once per process: the
/// vocabulary's bytes and trie once per model, each schema's grammar and
/// leaf masks once per schema, however many sessions and requests use them.
package final class ConstraintCache: Sendable {
    private let source: LlamaVocabulary
    private let vocabularyState = Mutex<TokenVocabulary?>(nil)
    private let constraints = Mutex<[SchemaKey: TokenConstraint]>([:])
    /// Schemas kept; beyond this the cache starts over (a server generating
    /// with endless distinct dynamic schemas must not grow without bound).
    private static let capacity = 256

    private struct SchemaKey: Hashable {
        var root: SchemaNode
        var definitions: [SchemaDefinition]
    }

    init(vocabulary: LlamaVocabulary) {
        self.source = vocabulary
    }

    /// The vocabulary, built on first use.
    package var vocabulary: TokenVocabulary {
        vocabularyState.withLock { state in
            if let built = state { return built }
            let built = Self.makeVocabulary(source)
            state = built
            return built
        }
    }

    /// The constraint for `schema`, compiled on first use.
    /// - Throws: `GuidedGenerationError` for a schema that cannot be enforced.
    package func constraint(for schema: GenerationSchema) throws(GuidedGenerationError) -> TokenConstraint {
        let key = SchemaKey(root: schema.root, definitions: schema.definitions)
        if let found = constraints.withLock({ $0[key] }) { return found }
        let compiled = try TokenConstraint(root: schema.root, definitions: schema.definitions, vocabulary: vocabulary)
        compiled.precomputeLeafMasks()
        constraints.withLock { cache in
            if cache.count >= Self.capacity { cache.removeAll() }
            cache[key] = compiled
        }
        return compiled
    }

    package static func makeVocabulary(_ source: LlamaVocabulary) -> TokenVocabulary {
        var tokens: [[UInt8]] = []
        var endOfGeneration: [Int32] = []
        tokens.reserveCapacity(source.count)
        for token in 0..<Int32(source.count) {
            if source.isEndOfGeneration(token) { endOfGeneration.append(token) }
            if source.isControl(token) {
                tokens.append([])
            } else {
                tokens.append((try? source.piece(token)) ?? [])
            }
        }
        return TokenVocabulary(tokens: tokens, endOfGeneration: endOfGeneration) { bytes in
            try? source.tokenize(String(decoding: bytes, as: UTF8.self), addSpecial: false, parseSpecial: false)
        }
    }
}
