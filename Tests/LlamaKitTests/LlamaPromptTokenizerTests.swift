import Foundation
import LlamaKit
import TestSupport
import Testing

/// A prompt tokenized in pieces, with the pieces' tokens reused, has exactly
/// the tokens llama.cpp gives the whole prompt: on each installed model's
/// vocabulary, for conversations and for text built to trip the cutting
/// (markers with white space, inside words, next to other special tokens,
/// half a marker, multi-byte characters).
@Suite(.serialized, .tags(.model), .needs(.smallModel))
struct LlamaPromptTokenizerTests {
    static let paths = [TestMachine.smallModel, TestMachine.fastModel, TestMachine.defaultModel]
        .filter { FileManager.default.fileExists(atPath: $0) }

    static func conversation(turns: Int, instructions: String = "You are a careful assistant.") -> String {
        var text = "<|im_start|>system\n\(instructions)<|im_end|>\n"
        for turn in 0..<turns {
            text += "<|im_start|>user\nQuestion \(turn): what is \(turn) + \(turn)?<|im_end|>\n"
            text += "<|im_start|>assistant\nIt is \(turn * 2). Café, 東京, 😀.<|im_end|>\n"
        }
        return text + "<|im_start|>assistant\n"
    }

    static let awkward = [
        "<|im_end|>",
        "<|im_end|><|im_end|>",
        " <|im_end|> \n  <|im_start|>user\n hi",
        "abc<|im_end|>def",
        "<|im_end|><|im_start|><|endoftext|>x<|im_end|>",
        "text <|im_end| half a marker <|im_end|>",
        "  leading spaces<|im_end|>\n\n\ntrailing\n",
        "東京<|im_end|>😀<|im_end|>é",
        "<|endoftext|><|im_end|>\n",
        "",
    ]

    @Test(arguments: paths)
    func piecesGiveTheWholePromptsTokens(path: String) throws {
        let model = try LlamaModel(path: path, options: .init(vocabularyOnly: true))
        let tokenizer = LlamaPromptTokenizer(vocabulary: model.vocabulary, capacity: 64)
        #expect(tokenizer.reusesPieces, "\(path): the prompt is never cut, so nothing here is tested")
        func check(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let whole = try model.vocabulary.tokenize(text, addSpecial: true, parseSpecial: true)
            #expect(try tokenizer.tokenize(text) == whole, "\(text.debugDescription)", sourceLocation: sourceLocation)
        }
        // A conversation growing turn by turn: each turn reuses the pieces
        // of the ones before (and a second tokenizing of the same text all
        // of them).
        for turns in 0..<6 {
            try check(Self.conversation(turns: turns))
            try check(Self.conversation(turns: turns))
        }
        try check(Self.conversation(turns: 3, instructions: "Other instructions, <|im_end|> inside them."))
        for text in Self.awkward { try check(text) }
        // Random texts from the same parts, many of which the cache holds by
        // now (and, with 64 pieces at most, has forgotten and learned again).
        var generator = SplitMix64(seed: 27)
        let parts = Self.awkward + ["<|im_start|>", "<|im_end|>", " ", "\n", "word", "é", "<|im_end", "|>", "<|", "12 34"]
        for _ in 0..<400 {
            let text = (0..<Int.random(in: 1...8, using: &generator)).map { _ in parts.randomElement(using: &generator)! }.joined()
            try check(text)
        }
    }
}
