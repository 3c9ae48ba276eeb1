import CLlama

/// A token id, as llama.cpp numbers them (`0..<vocabulary.count`).
package typealias LlamaToken = Int32

/// The model's tokenizer: text ↔ tokens, special tokens, each token's bytes.
///
/// A value that keeps its model alive. Sendable for the same reasons as
/// `LlamaModel`: the vocabulary is part of the immutable loaded model, and
/// llama.h documents the tokenization API as thread-safe.
package struct LlamaVocabulary: @unchecked Sendable {
    package let model: LlamaModel
    var pointer: OpaquePointer { model.vocabularyPointer }

    init(model: LlamaModel) {
        self.model = model
    }

    /// Number of tokens (49152 for SmolLM2).
    package var count: Int { Int(llama_vocab_n_tokens(pointer)) }

    package var beginningOfSequence: LlamaToken? { nonNull(llama_vocab_bos(pointer)) }
    package var endOfSequence: LlamaToken? { nonNull(llama_vocab_eos(pointer)) }
    package var endOfTurn: LlamaToken? { nonNull(llama_vocab_eot(pointer)) }
    package var newline: LlamaToken? { nonNull(llama_vocab_nl(pointer)) }
    /// Whether tokenizing with `addSpecial: true` prepends the BOS token.
    package var addsBeginningOfSequence: Bool { llama_vocab_get_add_bos(pointer) }

    /// True for every token that ends a generation (EOS, EOT, and the
    /// template's end-of-turn markers such as `<|im_end|>`).
    package func isEndOfGeneration(_ token: LlamaToken) -> Bool {
        contains(token) && llama_vocab_is_eog(pointer, token)
    }

    /// True for control tokens (rendered as nothing in plain text).
    package func isControl(_ token: LlamaToken) -> Bool {
        contains(token) && llama_vocab_is_control(pointer, token)
    }

    package func contains(_ token: LlamaToken) -> Bool {
        token >= 0 && Int(token) < count
    }

    /// Text to tokens.
    /// - Parameters:
    ///   - addSpecial: add BOS/EOS as the model is configured to (true for a
    ///     whole prompt, false for a piece appended to one).
    ///   - parseSpecial: turn the text of special tokens (`<|im_start|>`)
    ///     into those tokens; false treats them as plain text (use false for
    ///     untrusted user content).
    package func tokenize(_ text: String, addSpecial: Bool, parseSpecial: Bool) throws -> [LlamaToken] {
        let byteCount = text.utf8.count
        guard byteCount < Int(Int32.max) - 16 else {
            throw LlamaError.tokenizationFailed("text of \(byteCount) bytes is too long")
        }
        // withCString hands over the whole UTF-8 buffer (NULs included); the
        // length is passed explicitly.
        func run(_ tokens: inout [LlamaToken]) -> Int32 {
            text.withCString { chars in
                llama_tokenize(pointer, chars, Int32(byteCount), &tokens, Int32(tokens.count), addSpecial, parseSpecial)
            }
        }
        var tokens = [LlamaToken](repeating: 0, count: byteCount + 8)
        var written = run(&tokens)
        if written == Int32.min {
            throw LlamaError.tokenizationFailed("the token count overflows Int32")
        }
        if written < 0 {
            tokens = [LlamaToken](repeating: 0, count: Int(-written))
            written = run(&tokens)
            if written < 0 {
                throw LlamaError.tokenizationFailed("llama_tokenize returned \(written)")
            }
        }
        return Array(tokens.prefix(Int(written)))
    }

    /// The raw bytes one token stands for (`llama_token_to_piece`). A piece
    /// can be part of a multi-byte UTF-8 character: join pieces as bytes and
    /// decode the whole.
    /// - Parameter special: render special tokens (`<|im_end|>`) as their
    ///   text; false gives no bytes for them.
    package func piece(_ token: LlamaToken, special: Bool = false) throws -> [UInt8] {
        guard contains(token) else { throw LlamaError.invalidToken(token) }
        var buffer = [CChar](repeating: 0, count: 64)
        var length = llama_token_to_piece(pointer, token, &buffer, Int32(buffer.count), 0, special)
        if length < 0 {
            buffer = [CChar](repeating: 0, count: Int(-length))
            length = llama_token_to_piece(pointer, token, &buffer, Int32(buffer.count), 0, special)
            if length < 0 { throw LlamaError.invalidToken(token) }
        }
        return buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }
    }

    /// Every token's bytes, indexed by token id (for constrained decoding).
    /// Special tokens are empty unless `special` is true. Costs one
    /// `llama_token_to_piece` per token (tens of milliseconds): cache it.
    package func allPieces(special: Bool = false) -> [[UInt8]] {
        (0..<Int32(count)).map { (try? piece($0, special: special)) ?? [] }
    }

    /// Tokens to text: the pieces' bytes joined and decoded as UTF-8
    /// (invalid sequences, e.g. a character cut at the end, become U+FFFD).
    /// - Parameters:
    ///   - removeSpecial: drop a leading BOS / trailing EOS the model adds.
    ///   - renderSpecial: render special tokens as their text.
    package func detokenize(_ tokens: [LlamaToken], removeSpecial: Bool = false, renderSpecial: Bool = false) throws -> String {
        for token in tokens where !contains(token) { throw LlamaError.invalidToken(token) }
        guard !tokens.isEmpty else { return "" }
        var buffer = [CChar](repeating: 0, count: tokens.count * 8 + 16)
        var length = llama_detokenize(pointer, tokens, Int32(tokens.count), &buffer, Int32(buffer.count), removeSpecial, renderSpecial)
        if length < 0 {
            buffer = [CChar](repeating: 0, count: Int(-length))
            length = llama_detokenize(pointer, tokens, Int32(tokens.count), &buffer, Int32(buffer.count), removeSpecial, renderSpecial)
            if length < 0 { throw LlamaError.tokenizationFailed("llama_detokenize returned \(length)") }
        }
        return string(from: buffer, length: Int(length))
    }

    private func nonNull(_ token: LlamaToken) -> LlamaToken? {
        token == LLAMA_TOKEN_NULL ? nil : token
    }
}
