import Synchronization

/// A schema compiled against one vocabulary: what every generation with
/// that schema on that model shares.
///
/// Exists to hold the work that does not depend on one output: the grammar
/// and the masks of the schema's own leaf states (patterns, choices),
/// computed on a state's first visit and kept — here, and in the
/// vocabulary by automaton, so another schema with the same pattern or
/// format finds them. Compiling computes no masks: a schema that arrives
/// with a request waits only for its grammar. Thread-safe; each generation gets its
/// own ``GuidedDecoder`` from ``makeDecoder()``.
package final class TokenConstraint: Sendable {
    package let grammar: Grammar
    package let vocabulary: TokenVocabulary
    /// The shortest completion of every node, for honouring token budgets.
    let completions: ShortestCompletion
    private let ownLeafMasks = Mutex<[LeafKey: LeafMasks]>([:])
    private let ownSubtreeMasks = Mutex<[SubtreeKey: LeafMasks]>([:])
    /// ``countedAlways(_:leaf:low:remaining:)`` of the schema's own counted
    /// strings (the free string's are the vocabulary's).
    private let ownCountedMasks = Mutex<[CountedKey: TokenMask]>([:])
    /// ``LeafMasks/textReach(_:)`` of each string leaf's automaton (nil
    /// where it has none), worked out on the leaf's first walk.
    private let ownTextReach = Mutex<[Int32: LeafMasks.TextReach?]>([:])
    /// ``ByteShape/splits(_:)`` of each closed leaf's automaton, worked
    /// out on the leaf's first walk from the trie's root.
    private let ownShapeSplits = Mutex<[Int32: [UInt64]]>([:])

    /// The bytes each reading of the structure may take next, by what they depend on (see
    /// ``GuidedDecoder/firstBytes(of:)``), up to ``firstByteCapacity`` of them.
    let firstBytes = Mutex<[ReadingKey: ByteSet]>([:])
    static let firstByteCapacity = 4096

    /// A reading of the structure as far as its next byte is concerned:
    /// its leaf and the frame on top of the stack.
    struct ReadingKey: Hashable {
        var leaf: Int32
        var leafState: LeafState
        var frame: Frame
    }

    private struct LeafKey: Hashable {
        var leaf: Int32
        var state: LeafState
    }

    package init(grammar: Grammar, vocabulary: TokenVocabulary) {
        self.grammar = grammar
        self.vocabulary = vocabulary
        self.completions = ShortestCompletion(grammar: grammar)
    }

    /// Compiles `root` (with `definitions`) for `vocabulary`.
    package convenience init(root: SchemaNode, definitions: [SchemaDefinition], vocabulary: TokenVocabulary, layout: JSONLayout = .compact)
        throws(GuidedGenerationError)
    {
        self.init(grammar: try GrammarCompiler.compile(root: root, definitions: definitions, layout: layout), vocabulary: vocabulary)
        // (`minItems` of `minItems`: a value no token budget could hold.)
        guard completions.nodeLength[Int(grammar.root)] <= ShortestCompletion.textLimit else {
            throw .unsupportedGuide("#: its shortest value is longer than \(ShortestCompletion.textLimit) bytes (minItems)")
        }
    }

    /// How many states of the schema's own leaves have had their masks
    /// worked out so far: each one a walk of the vocabulary (or a lookup
    /// of another schema's), what a string's first visits cost.
    package var keptLeafStates: Int { ownLeafMasks.withLock { $0.count } }

    /// A decoder for one generation, at the start of the value.
    package func makeDecoder() -> GuidedDecoder {
        GuidedDecoder(constraint: self)
    }

    /// The masks of closed leaf `leaf` in `state`, computed once.
    func masks(leaf: Int32, state: LeafState) -> LeafMasks {
        if let shared = grammar.sharedLeaf(leaf) {
            let key = SharedLeafKey(leaf: shared, state: state)
            if let found = vocabulary.sharedLeafMasks.withLock({ $0[key] }) { return found }
            let computed = walk(leaf: leaf, state: state, node: TokenTrie.root)
            vocabulary.sharedLeafMasks.withLock { $0[key] = computed }
            return computed
        }
        let key = LeafKey(leaf: leaf, state: state)
        if let found = ownLeafMasks.withLock({ $0[key] }) { return found }
        let computed = automatonMasks(leaf: leaf, state: state, node: TokenTrie.root)
        ownLeafMasks.withLock { $0[key] = computed }
        return computed
    }

    /// The masks of a schema's own leaf in `state`, from the vocabulary's
    /// masks by residual automaton (computed there when no state of any
    /// schema with the same residual had them yet).
    private func automatonMasks(leaf: Int32, state: LeafState, node: Int32) -> LeafMasks {
        guard case .string(let automaton) = grammar.leaves[Int(leaf)], state.high == 0, state.low < UInt64(automaton.stateCount),
            automaton.stateCount <= Self.sharedAutomatonStateLimit
        else {
            return walk(leaf: leaf, state: state, node: node)
        }
        let key = AutomatonMaskKey(residual: automaton.residual(from: Int32(truncatingIfNeeded: state.low)), node: node)
        if let found = vocabulary.automatonMasks.withLock({ $0[key] }) { return found.expanded(vocabulary: vocabulary) }
        let reach: LeafMasks.TextReach?
        if let known = ownTextReach.withLock({ $0[leaf] }) {
            reach = known
        } else {
            reach = LeafMasks.textReach(automaton)
            ownTextReach.withLock { $0[leaf] = .some(reach) }
        }
        let computed = LeafMasks(
            automaton: automaton, state: Int32(truncatingIfNeeded: state.low), vocabulary: vocabulary, start: node, textReach: reach,
            shapeSplits: node == TokenTrie.root ? shapeSplits(leaf: leaf, automaton) : nil
        )
        let kept = KeptLeafMasks(computed, text: vocabulary.textTokens)
        vocabulary.automatonMasks.withLock { $0.keep(kept, for: key) }
        return computed
    }

    /// The most states an automaton may have for its states' masks to be
    /// kept in the vocabulary by residual. A larger one (a pattern with a
    /// long count, a length bound on a pattern) is the schema's own: its
    /// residuals take longer to build and hash than the walk they would
    /// save elsewhere, and their masks would crowd out the formats' and
    /// key sets'. Its masks are kept here, with the schema.
    static let sharedAutomatonStateLimit = 1024

    /// The masks of closed leaf `leaf` in `state` for the tokens below trie
    /// node `node`, computed once: how a token that enters a
    /// string after its first bytes (`"` then the key, `,"` then the key)
    /// is judged without walking the vocabulary at every step.
    func subtreeMasks(leaf: Int32, state: LeafState, node: Int32) -> LeafMasks {
        let key = SubtreeKey(leaf: leaf, state: state, node: node)
        if grammar.sharedLeaf(leaf) != nil {
            if let found = vocabulary.sharedSubtreeMasks.withLock({ $0[key] }) { return found }
            let computed = walk(leaf: leaf, state: state, node: node)
            vocabulary.sharedSubtreeMasks.withLock { $0[key] = computed }
            return computed
        }
        if let found = ownSubtreeMasks.withLock({ $0[key] }) { return found }
        let computed = automatonMasks(leaf: leaf, state: state, node: node)
        ownSubtreeMasks.withLock { $0[key] = computed }
        return computed
    }

    /// The masks of closed leaf `leaf` in `state` from trie node `node`,
    /// walked afresh (nothing allowed for a state no string reaches); from
    /// the root, a counted string's (and the free string's) with the
    /// characters of each token counted.
    private func walk(leaf: Int32, state: LeafState, node: Int32) -> LeafMasks {
        guard let automaton = grammar.closedAutomaton(leaf), state.high == 0, state.low < UInt64(automaton.stateCount) else {
            return LeafMasks(vocabulary: vocabulary)
        }
        return LeafMasks(
            automaton: automaton, state: Int32(truncatingIfNeeded: state.low), vocabulary: vocabulary, start: node,
            characters: node == TokenTrie.root ? grammar.characterCounts(leaf) : nil,
            shapeSplits: node == TokenTrie.root ? shapeSplits(leaf: leaf, automaton) : nil
        )
    }

    /// ``ByteShape/splits(_:)`` of `leaf`'s automaton, kept.
    private func shapeSplits(leaf: Int32, _ automaton: ByteDFA) -> [UInt64] {
        if let known = ownShapeSplits.withLock({ $0[leaf] }) { return known }
        let splits = ByteShape.splits(automaton)
        ownShapeSplits.withLock { $0[leaf] = splits }
        return splits
    }

    /// The masks of counted string `leaf` (``Grammar/Leaf/counted``) in
    /// automaton state `low`, its characters counted: the free string's
    /// for a free string, the leaf's own for the others.
    func countedMasks(leaf: Int32, _ string: Grammar.CountedString, low: UInt64) -> LeafMasks {
        masks(leaf: string.isFree ? SharedLeaf.anyString.rawValue : leaf, state: LeafState(low: low))
    }

    /// The tokens counted string `leaf` allows from automaton state `low`
    /// whatever follows it, when it may take at most `remaining` more
    /// characters: ``LeafMasks/always`` of `masks` (from
    /// ``countedMasks(leaf:_:low:)``) less the tokens after which it would
    /// need more. Computed once per state and bound: the free string's for
    /// the vocabulary, the others' for the schema.
    func countedAlways(_ masks: LeafMasks, leaf: Int32, _ string: Grammar.CountedString, low: UInt64, remaining: Int) -> TokenMask {
        guard let longest = masks.alwaysByFewest.first?.characters, remaining < Int(longest) else { return masks.always }
        let key = CountedKey(leaf: string.isFree ? SharedLeaf.anyString.rawValue : leaf, low: low, remaining: Int32(remaining))
        func kept(in cache: borrowing Mutex<[CountedKey: TokenMask]>) -> TokenMask {
            if let found = cache.withLock({ $0[key] }) { return found }
            var mask = masks.always
            for entry in masks.alwaysByFewest {
                guard Int(entry.characters) > remaining else { break }
                mask.remove(entry.token)
            }
            cache.withLock { $0[key] = mask }
            return mask
        }
        return string.isFree ? kept(in: vocabulary.countedMasks) : kept(in: ownCountedMasks)
    }
}
