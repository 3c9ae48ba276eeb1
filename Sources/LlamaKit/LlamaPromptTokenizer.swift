import CLlama
import Synchronization

/// Tokenizes whole prompts (`addSpecial` and `parseSpecial` both on), reusing
/// the tokens of the parts it has tokenized before.
///
/// Why it exists: a request renders the whole conversation and tokenizes all
/// of it, and llama.cpp's BPE tokenizer takes 1 to 4 µs a token on the
/// 2-core machine. A conversation's earlier turns and a session's
/// instructions come back with every request, so without this each turn
/// costs time in proportion to the whole transcript: the 20th turn of a
/// conversation (Qwen2.5, 1,634 tokens) took 2.1 ms to tokenize whole and
/// 0.2 ms in pieces, where on a GPU evaluating the turn's new tokens takes
/// a few milliseconds.
///
/// How it stays exact: llama.cpp cuts a prompt at the text of its special
/// tokens before the BPE merges, and tokenizes each stretch of text between
/// them on its own. A prompt is therefore cut after each end-of-turn marker
/// (`<|im_end|>`, the model's end-of-turn or end-of-sequence token) into
/// pieces that each end with the marker, and a piece's tokens are its text's
/// tokens wherever it stands — provided that the marker strips no white space
/// beside it (llama.cpp's `lstrip`/`rstrip` attributes) and that no other
/// special token's text overlaps it there (llama.cpp cuts at longer ones
/// first). Where either does not hold, or the tokenizer is not BPE, or
/// tokenizing adds an end-of-sequence token, the prompt is tokenized whole.
/// `LlamaKitTests` compares the two on every installed model's vocabulary.
package final class LlamaPromptTokenizer: Sendable {
    package let vocabulary: LlamaVocabulary
    /// The markers a prompt is cut after (empty: never cut).
    private let markers: [[UInt8]]
    /// Whether a byte begins a marker, by byte value: the search for
    /// markers steps over every other byte with one look-up instead of
    /// trying each marker there.
    private let startsMarker: [Bool]
    /// Special tokens' texts at least as long as the shortest marker, other
    /// than the markers: a marker is not cut where one of them overlaps it.
    private let rivals: [[UInt8]]
    private let cache: Mutex<Pieces>

    /// The pieces' tokens, the least recently used forgotten first.
    private struct Pieces {
        var tokens: [[UInt8]: (tokens: [LlamaToken], used: UInt64)] = [:]
        var clock: UInt64 = 0
        let capacity: Int

        mutating func lookUp(_ piece: [UInt8]) -> [LlamaToken]? {
            guard let entry = tokens[piece] else { return nil }
            clock &+= 1
            tokens[piece] = (entry.tokens, clock)
            return entry.tokens
        }

        mutating func insert(_ piece: [UInt8], _ pieceTokens: [LlamaToken]) {
            if tokens.count >= capacity {
                // Forget the older half at once, so inserting stays cheap.
                let cutoff = tokens.values.map(\.used).sorted()[tokens.count / 2]
                tokens = tokens.filter { $0.value.used > cutoff }
            }
            clock &+= 1
            tokens[piece] = (pieceTokens, clock)
        }
    }

    /// - Parameter capacity: the most pieces kept (a piece is about a
    ///   message of a conversation).
    package init(vocabulary: LlamaVocabulary, capacity: Int = 1024) {
        self.vocabulary = vocabulary
        self.cache = Mutex(Pieces(capacity: max(2, capacity)))
        let vocab = vocabulary.pointer
        guard llama_vocab_type(vocab) == LLAMA_VOCAB_TYPE_BPE, !llama_vocab_get_add_eos(vocab) else {
            (markers, rivals, startsMarker) = ([], [], [])
            return
        }
        func attributes(_ token: LlamaToken) -> UInt32 { llama_vocab_get_attr(vocab, token).rawValue }
        func text(_ token: LlamaToken) -> [UInt8] {
            guard let text = llama_vocab_get_text(vocab, token) else { return [] }
            return Array(String(cString: text).utf8)
        }
        let strips = LLAMA_TOKEN_ATTR_LSTRIP.rawValue | LLAMA_TOKEN_ATTR_RSTRIP.rawValue
        var markerTokens = Set<LlamaToken>()
        for token in [vocabulary.endOfTurn, vocabulary.endOfSequence].compactMap({ $0 }) where vocabulary.contains(token) {
            let attribute = attributes(token)
            if attribute & LLAMA_TOKEN_ATTR_CONTROL.rawValue != 0, attribute & strips == 0, !text(token).isEmpty {
                markerTokens.insert(token)
            }
        }
        let markers = markerTokens.sorted().map(text)
        // The tokens llama.cpp cuts at before the BPE merges.
        let special = LLAMA_TOKEN_ATTR_CONTROL.rawValue | LLAMA_TOKEN_ATTR_USER_DEFINED.rawValue | LLAMA_TOKEN_ATTR_UNKNOWN.rawValue
        let shortest = markers.map(\.count).min() ?? .max
        var rivals: [[UInt8]] = []
        for token in 0..<LlamaToken(vocabulary.count) where !markerTokens.contains(token) && attributes(token) & special != 0 {
            let candidate = text(token)
            if candidate.count >= shortest { rivals.append(candidate) }
        }
        var startsMarker = [Bool](repeating: false, count: 256)
        for marker in markers { startsMarker[Int(marker[0])] = true }
        (self.markers, self.rivals, self.startsMarker) = (markers, rivals, startsMarker)
    }

    /// Whether prompts are cut into pieces and their tokens reused (false:
    /// each prompt is tokenized whole; see the type's description).
    package var reusesPieces: Bool { !markers.isEmpty }

    /// The tokens of `text` as `vocabulary.tokenize(text, addSpecial: true,
    /// parseSpecial: true)` gives them.
    package func tokenize(_ text: String) throws -> [LlamaToken] {
        let bytes = Array(text.utf8)
        let cuts = cuts(in: bytes)
        guard !cuts.isEmpty else { return try vocabulary.tokenize(text, addSpecial: true, parseSpecial: true) }
        var tokens: [LlamaToken] = []
        if vocabulary.addsBeginningOfSequence, let beginning = vocabulary.beginningOfSequence {
            tokens.append(beginning)
        }
        var start = 0
        for end in cuts + [bytes.count] where end > start {
            let piece = Array(bytes[start..<end])
            start = end
            if let known = cache.withLock({ $0.lookUp(piece) }) {
                tokens += known
                continue
            }
            let pieceTokens = try vocabulary.tokenize(String(decoding: piece, as: UTF8.self), addSpecial: false, parseSpecial: true)
            cache.withLock { $0.insert(piece, pieceTokens) }
            tokens += pieceTokens
        }
        return tokens
    }

    /// Where `bytes` may be cut: right after each marker that no rival
    /// overlaps.
    private func cuts(in bytes: [UInt8]) -> [Int] {
        guard !markers.isEmpty else { return [] }
        var cuts: [Int] = []
        var position = 0
        while position < bytes.count {
            guard startsMarker[Int(bytes[position])],
                let marker = markers.first(where: { bytes.matches($0, at: position) })
            else {
                position += 1
                continue
            }
            let end = position + marker.count
            if !rivals.contains(where: { bytes.occurrence(of: $0, overlaps: position..<end) }) {
                cuts.append(end)
            }
            position = end
        }
        return cuts
    }
}

private extension Array where Element == UInt8 {
    func matches(_ needle: [UInt8], at position: Int) -> Bool {
        guard position + needle.count <= count else { return false }
        for index in needle.indices where self[position + index] != needle[index] { return false }
        return true
    }

    /// Whether `needle` occurs anywhere it shares a byte with `range`.
    func occurrence(of needle: [UInt8], overlaps range: Range<Int>) -> Bool {
        guard !needle.isEmpty else { return false }
        let first = Swift.max(0, range.lowerBound - needle.count + 1)
        let last = Swift.min(count - needle.count, range.upperBound - 1)
        guard first <= last else { return false }
        return (first...last).contains { matches(needle, at: $0) }
    }
}
