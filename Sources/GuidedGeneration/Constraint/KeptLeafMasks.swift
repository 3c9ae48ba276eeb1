/// A token mask as the vocabulary keeps it across schemas: the words in
/// which it differs from the mask it most resembles — no token at all, or
/// the vocabulary's text tokens (``TokenVocabulary/textTokens``).
///
/// Exists because most states' masks allow a few hundred tokens (a key
/// set's state, a date's digits) or nearly every text token (a search not
/// yet matched). At 151,936 tokens a whole mask is 19 KB; the words where
/// one of those differs from its base are a few hundred bytes. On all of
/// MaskBench the 42,540 states' masks are 882 MB whole and 189 MB patched,
/// so the same memory keeps about four times as many states' masks.
struct PatchedMask: Sendable {
    private enum Base: Sendable {
        /// No token: `words` are the mask's nonzero words.
        case empty
        /// The text tokens: `words` are the words that differ from theirs.
        case text
        /// None: `words` are all of the mask's (it resembles neither).
        case whole
    }

    private let base: Base
    /// The index of each of `words` (empty for ``Base/whole``).
    private let indices: [Int32]
    private let words: [UInt64]

    init(_ mask: TokenMask, text: TokenMask) {
        let maskWords = mask.words
        let textWords = text.words
        var nonzero = 0
        var differing = 0
        for index in maskWords.indices {
            if maskWords[index] != 0 { nonzero += 1 }
            if maskWords[index] != textWords[index] { differing += 1 }
        }
        // An index and a word cost 12 bytes, a whole mask's word 8.
        guard min(nonzero, differing) * 3 < maskWords.count * 2 else {
            (base, indices, words) = (.whole, [], maskWords)
            return
        }
        let onText = differing < nonzero
        var indices: [Int32] = []
        var words: [UInt64] = []
        indices.reserveCapacity(min(nonzero, differing))
        words.reserveCapacity(min(nonzero, differing))
        for index in maskWords.indices where maskWords[index] != (onText ? textWords[index] : 0) {
            indices.append(Int32(index))
            words.append(maskWords[index])
        }
        (base, self.indices, self.words) = (onText ? .text : .empty, indices, words)
    }

    /// The mask itself; `text` must be the text tokens it was patched against.
    func expanded(text: TokenMask) -> TokenMask {
        var mask: TokenMask
        switch base {
        case .empty: mask = TokenMask(count: text.count)
        case .text: mask = text
        case .whole:
            mask = TokenMask(count: text.count)
            mask.withUnsafeMutableWords { target in
                words.withUnsafeBufferPointer { _ = target.update(fromContentsOf: $0) }
            }
            return mask
        }
        mask.withUnsafeMutableWords { target in
            for (index, word) in zip(indices, words) { target[Int(index)] = word }
        }
        return mask
    }

    /// About what it holds in memory, in bytes.
    var byteCount: Int { indices.count * 4 + words.count * 8 }
}

/// A state's ``LeafMasks`` as the vocabulary keeps them across schemas
/// (``TokenVocabulary/automatonMasks``): the allowed tokens patched
/// (``PatchedMask``), the exits as they are, and no table of where each
/// exit's first byte begins when there are no exits. Only a string's
/// own automaton is kept so, never a counted string, so there are no
/// characters counted to keep.
struct KeptLeafMasks: Sendable {
    private let always: PatchedMask
    private let exits: [LeafMasks.Exit]
    private let exitStart: [Int32]
    private let closers: [Int32]

    init(_ masks: LeafMasks, text: TokenMask) {
        always = PatchedMask(masks.always, text: text)
        exits = masks.exits
        exitStart = masks.exits.isEmpty ? [] : masks.exitStart
        closers = masks.closers
        assert(masks.alwaysByFewest.isEmpty && masks.alwaysByMost.isEmpty, "a counted string's masks are not kept by automaton")
    }

    /// The masks themselves, for `vocabulary` (the one they were kept by).
    func expanded(vocabulary: TokenVocabulary) -> LeafMasks {
        var masks = LeafMasks(vocabulary: vocabulary)
        masks.always = always.expanded(text: vocabulary.textTokens)
        masks.exits = exits
        if !exitStart.isEmpty { masks.exitStart = exitStart }
        masks.closers = closers
        return masks
    }

    /// About what it holds in memory, in bytes.
    var byteCount: Int {
        always.byteCount + exits.count * MemoryLayout<LeafMasks.Exit>.stride + exitStart.count * 4 + closers.count * 4
    }
}

/// The vocabulary's masks of schemas' own string states by residual
/// automaton, within a budget of memory.
///
/// Past the budget each state taken in drops kept ones, the first the
/// dictionary lists, until it fits. Emptied at once, the cache freed
/// thousands of masks inside one mask; the dictionary is sized from the
/// start for as many entries as the budget holds of typical ones, so it
/// does not rehash them inside one either.
struct AutomatonMaskCache: Sendable {
    private var entries: [AutomatonMaskKey: (masks: KeptLeafMasks, cost: Int)]
    private(set) var byteCount = 0
    let byteBudget: Int

    init(byteBudget: Int) {
        self.byteBudget = byteBudget
        // (A key set's or format's state typically costs 1–4 KB kept.)
        entries = Dictionary(minimumCapacity: byteBudget / 2048)
    }

    var count: Int { entries.count }

    subscript(key: AutomatonMaskKey) -> KeptLeafMasks? { entries[key]?.masks }

    mutating func keep(_ masks: KeptLeafMasks, for key: AutomatonMaskKey) {
        let cost = masks.byteCount + key.byteCount
        guard cost <= byteBudget else { return }
        if let replaced = entries.removeValue(forKey: key) { byteCount -= replaced.cost }
        while byteCount + cost > byteBudget, !entries.isEmpty {
            byteCount -= entries.remove(at: entries.startIndex).value.cost
        }
        entries[key] = (masks, cost)
        byteCount += cost
    }
}
