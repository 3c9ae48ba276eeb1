#if LlamaCpp
import Foundation
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
    private let constraints = Mutex<[Key: TokenConstraint]>([:])
    /// Schemas kept; beyond this the cache starts over (a server generating
    /// with endless distinct dynamic schemas must not grow without bound).
    private static let capacity = 256
    /// Typed answers are written the way instruction-tuned models write JSON
    /// when they answer in text: one member a line, indented
    /// (``JSONLayout/indented``), which the default model answers markedly
    /// better in than one-line or compact JSON. Tool-call blocks are written
    /// on one line, `{"name": "…", "arguments": {…}}`, as chat templates
    /// show them (``turnLayout``). Another layout is for measurements
    /// (``SystemLanguageModel/Configuration/jsonLayout``).
    package let layout: JSONLayout

    /// The layout of turns with tools: one line (compact when answers are).
    package var turnLayout: JSONLayout { layout == .compact ? .compact : .spaced }

    /// What a compiled constraint depends on: the answer's schema, and for
    /// a turn with tools, the tools' argument schemas, whether a call is
    /// required and the format calls are written in.
    private struct Key: Hashable {
        var root: SchemaNode?
        var definitions: [SchemaDefinition]
        var tools: [ToolSchema] = []
        var requiresToolCall = false
        var format = ToolCallFormat.toolCallTags
        var prose = false
    }

    init(vocabulary: LlamaVocabulary, layout: JSONLayout = .indented) {
        self.source = vocabulary
        self.layout = layout
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
        try cached(Key(root: schema.root, definitions: schema.definitions)) { () throws(GuidedGenerationError) in
            try GrammarCompiler.compile(root: schema.root, definitions: schema.definitions, layout: layout)
        }
    }

    /// The constraint for a turn with tools: a block of calls to `tools`
    /// (each name declared, each argument list valid for its tool), or —
    /// unless `requiresToolCall` — the answer (text, or a value of
    /// `answer`), compiled on first use.
    /// - Throws: `GuidedGenerationError` for an answer schema or tool
    ///   arguments that cannot be enforced.
    package func turnConstraint(
        answer: GenerationSchema?,
        tools: [Transcript.ToolDefinition],
        requiresToolCall: Bool,
        format: ToolCallFormat
    ) throws(GuidedGenerationError) -> TokenConstraint {
        let toolSchemas = tools.map { ToolSchema(name: $0.name, arguments: $0.parameters.root, definitions: $0.parameters.definitions) }
        let key = Key(
            root: answer?.root, definitions: answer?.definitions ?? [], tools: toolSchemas, requiresToolCall: requiresToolCall, format: format)
        return try cached(key) { () throws(GuidedGenerationError) in
            try GrammarCompiler.compileTurn(
                answer: answer?.root,
                answerDefinitions: answer?.definitions ?? [],
                tools: toolSchemas,
                requiresToolCall: requiresToolCall,
                format: format,
                layout: turnLayout
            )
        }
    }

    /// The constraint for a prose answer that cannot be read as a tool
    /// call (``GrammarCompiler/compileProse(format:)``).
    package func proseConstraint(format: ToolCallFormat) -> TokenConstraint {
        let key = Key(root: nil, definitions: [], requiresToolCall: false, format: format, prose: true)
        return (try? cached(key) { () throws(GuidedGenerationError) in GrammarCompiler.compileProse(format: format) })
            ?? TokenConstraint(grammar: GrammarCompiler.compileProse(format: format), vocabulary: vocabulary)
    }

    private func cached(_ key: Key, compile: () throws(GuidedGenerationError) -> Grammar) throws(GuidedGenerationError) -> TokenConstraint {
        if let found = constraints.withLock({ $0[key] }) { return found }
        let compiled = TokenConstraint(grammar: try compile(), vocabulary: vocabulary)
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
#endif
