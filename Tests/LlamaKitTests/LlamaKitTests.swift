import Foundation
import LlamaKit
import TestSupport
import Testing

/// The small model, SmolLM2-135M, whose vocabulary size and architecture
/// the tests assert.
let modelPath = TestMachine.smallModel

/// Loaded once for the whole suite (memory-mapped, shared by every test).
let sharedModel: Result<LlamaModel, any Error> = Result { try LlamaModel(path: modelPath) }

func model() throws -> LlamaModel {
    switch sharedModel {
    case .success(let model): return model
    case .failure(let error):
        Issue.record("the small model did not load from \(modelPath): \(error) — run `make setup`")
        throw error
    }
}

/// A context of `sequences` sequences of `contextLength` positions each.
func makeContext(_ contextLength: Int = 1024, batchSize: Int = 512, sequences: Int = 1) throws -> LlamaBatchContext {
    try LlamaBatchContext(model: model(), parameters: .init(contextLength: contextLength, batchSize: batchSize, threads: 2), sequences: sequences)
}

/// Decodes `tokens` into `sequence` from `position`, in passes of at most
/// the context's batch size (as the engine's scheduler splits a prompt),
/// and returns the row of the last token's logits, nil when
/// `computesLogits` is false.
@discardableResult
func decode(
    _ context: LlamaBatchContext, _ tokens: [LlamaToken], sequence: Int = 0, at position: Int = 0, computesLogits: Bool = true
) throws -> Int32? {
    var row: Int32?
    var start = 0
    while start < tokens.count {
        let end = min(start + context.batchSize, tokens.count)
        let last = end == tokens.count
        row = try context.decode([
            .init(
                sequence: sequence, position: position + start, tokens: tokens[start..<end], computesLogits: computesLogits && last
            )
        ])[0]
        start = end
    }
    return row
}

/// A copy of the logits `tokens` leave, decoded into an emptied `sequence`.
func lastLogits(_ context: LlamaBatchContext, after tokens: [LlamaToken], sequence: Int = 0) throws -> [Float] {
    try context.removeTokens(sequence: sequence, from: 0)
    return Array(try context.logits(row: #require(try decode(context, tokens, sequence: sequence))))
}

/// Empties `sequence`, decodes `prompt` into it and samples up to `count`
/// tokens after it, one pass per token, stopping at the end of generation.
func generate(_ context: LlamaBatchContext, prompt: [LlamaToken], count: Int, sampler: LlamaSampler, sequence: Int = 0) throws -> [LlamaToken] {
    try context.removeTokens(sequence: sequence, from: 0)
    var row = try #require(try decode(context, prompt, sequence: sequence))
    var output: [LlamaToken] = []
    for _ in 0..<count {
        let token = try sampler.sample(logits: context.logits(row: row))
        output.append(token)
        if context.vocabulary.isEndOfGeneration(token) { break }
        row = try #require(try decode(context, [token], sequence: sequence, at: prompt.count + output.count - 1))
    }
    return output
}

extension LlamaSampler {
    /// Samples from a copy of logits (``lastLogits(_:after:)``).
    func sample(_ logits: [Float], allowed: [UInt64]? = nil) throws -> LlamaToken {
        try logits.withUnsafeBufferPointer { try sample(logits: $0, allowed: allowed) }
    }
}

func chatPrompt(_ model: LlamaModel, _ user: String) throws -> [LlamaToken] {
    let text = try model.applyChatTemplate([.system("You are a helpful assistant."), .user(user)])
    return try model.vocabulary.tokenize(text, addSpecial: true, parseSpecial: true)
}

func argmax(_ values: [Float]) -> Int {
    values.indices.max { values[$0] < values[$1] }!
}

@Suite(.serialized, .tags(.model), .needs(.smallModel))
struct LlamaKitTests {
    @Test func loadsTheModelAndReadsMetadata() throws {
        let model = try model()
        #expect(model.vocabulary.count == 49152)
        #expect(model.trainingContextLength >= 2048)
        #expect(model.name?.isEmpty == false)
        #expect(model.chatTemplate?.contains("<|im_start|>") == true)
        #expect(model.parameterCount > 100_000_000)
        let metadata = try GGUFFile.metadata(path: modelPath)
        #expect(metadata["general.architecture"]?.stringValue == "llama")
        #expect(!LlamaBackend.version.isEmpty)
        print("model: \(model.name ?? "?") — \(model.modelDescription), n_ctx_train \(model.trainingContextLength), languages \(model.languages)")
    }

    @Test func vocabularyRoundTrip() throws {
        let vocabulary = try model().vocabulary
        let text = "Hello, world! Ünïcödé — 日本語 🙂 and code: let x = 42"
        let tokens = try vocabulary.tokenize(text, addSpecial: false, parseSpecial: false)
        #expect(!tokens.isEmpty)
        #expect(try vocabulary.detokenize(tokens) == text)
        // Pieces joined as bytes give the same text, even where a piece
        // holds only part of a multi-byte character.
        let bytes = try tokens.flatMap { try vocabulary.piece($0) }
        #expect(String(decoding: bytes, as: UTF8.self) == text)
        #expect(try vocabulary.tokenize("", addSpecial: false, parseSpecial: false).isEmpty)

        // Special tokens: parsed only when asked.
        let special = try vocabulary.tokenize("<|im_end|>", addSpecial: false, parseSpecial: true)
        #expect(special.count == 1)
        #expect(vocabulary.isEndOfGeneration(special[0]))
        #expect(try vocabulary.tokenize("<|im_end|>", addSpecial: false, parseSpecial: false).count > 1)
        #expect(try vocabulary.piece(special[0], special: false).isEmpty)
        #expect(try vocabulary.piece(special[0], special: true) == Array("<|im_end|>".utf8))
        #expect(vocabulary.endOfSequence != nil)
        #expect(throws: LlamaError.invalidToken(-1)) { try vocabulary.piece(-1) }

        let pieces = vocabulary.allPieces()
        #expect(pieces.count == 49152)
        #expect(pieces[Int(tokens[0])] == (try vocabulary.piece(tokens[0])))
    }

    @Test func chatTemplateRendersInstructionsAsSystemTurn() throws {
        let model = try model()
        let text = try model.applyChatTemplate([.system("Be brief."), .user("Hi!")])
        #expect(text.contains("<|im_start|>system\nBe brief.<|im_end|>"))
        #expect(text.contains("<|im_start|>user\nHi!<|im_end|>"))
        #expect(text.hasSuffix("<|im_start|>assistant\n"))
        let withoutPrefix = try model.applyChatTemplate([.user("Hi!")], addAssistantPrefix: false)
        #expect(!withoutPrefix.hasSuffix("<|im_start|>assistant\n"))
        #expect(throws: LlamaError.self) {
            try LlamaChatTemplate.apply(template: "{{ nonsense that matches no known template }}", messages: [.user("x")])
        }
    }

    @Test func greedyIsDeterministic() throws {
        let context = try makeContext()
        let prompt = try chatPrompt(context.model, "What is the capital of France?")
        let first = try generate(context, prompt: prompt, count: 16, sampler: LlamaSampler(mode: .greedy))
        let second = try generate(context, prompt: prompt, count: 16, sampler: LlamaSampler(mode: .greedy))
        #expect(first == second)
        #expect(first.count == 16 || context.vocabulary.isEndOfGeneration(first.last!))
        let text = try context.vocabulary.detokenize(first)
        print("greedy: \(text.debugDescription)")
        #expect(text.contains("Paris"))
    }

    @Test func seededSamplingIsReproducible() throws {
        let context = try makeContext()
        let prompt = try chatPrompt(context.model, "Write a short poem about the sea.")
        let mode = LlamaSampler.Mode.random(topK: 40, topP: 0.95, temperature: 0.9, seed: 1234)
        let first = try generate(context, prompt: prompt, count: 16, sampler: LlamaSampler(mode: mode))
        let second = try generate(context, prompt: prompt, count: 16, sampler: LlamaSampler(mode: mode))
        #expect(first == second)
        // reset() replays the same draws.
        let sampler = try LlamaSampler(mode: mode)
        let logits = try lastLogits(context, after: prompt)
        let a = try sampler.sample(logits)
        sampler.reset()
        #expect(try sampler.sample(logits) == a)
        #expect(throws: LlamaError.self) { try LlamaSampler(mode: .random(topP: 1.5)) }
    }

    @Test func maskedSamplingPicksOnlyAllowedTokens() throws {
        let context = try makeContext()
        let vocabulary = context.vocabulary
        let logits = try lastLogits(context, after: chatPrompt(context.model, "Say a number."))
        let digits = try ["1", "2", "3"].map { try vocabulary.tokenize($0, addSpecial: false, parseSpecial: false)[0] }
        var mask = [UInt64](repeating: 0, count: (vocabulary.count + 63) / 64)
        for digit in digits { mask[Int(digit) / 64] |= 1 << UInt64(Int(digit) % 64) }
        for mode in [LlamaSampler.Mode.greedy, .random(topK: 5, temperature: 1.5, seed: 7)] {
            let sampler = try LlamaSampler(mode: mode)
            for _ in 0..<5 { #expect(digits.contains(try sampler.sample(logits, allowed: mask))) }
        }
        // Greedy with a mask is the argmax among the allowed tokens.
        let best = digits.max { logits[Int($0)] < logits[Int($1)] }!
        #expect(try LlamaSampler(mode: .greedy).sample(logits, allowed: mask) == best)
        #expect(throws: LlamaError.noAllowedTokens) {
            try LlamaSampler(mode: .greedy).sample(logits, allowed: [UInt64](repeating: 0, count: (vocabulary.count + 63) / 64))
        }
    }

    /// Greedy picks its token without llama.cpp's sampler chain: it must
    /// pick what the chain would (top-k 1 keeps only the chain's best), on
    /// the real model's logits, and the first of tied logits.
    @Test func greedyArgmaxMatchesTheSamplerChain() throws {
        let context = try makeContext()
        let logits = try lastLogits(context, after: chatPrompt(context.model, "Name a colour."))
        let greedy = try LlamaSampler(mode: .greedy)
        let chain = try LlamaSampler(mode: .random(topK: 1, seed: 3))
        #expect(try greedy.sample(logits) == chain.sample(logits))
        let tied: [Float] = [0.5, 2, -1, 2, 1]
        #expect(try [greedy.sample(tied), greedy.sample(tied, allowed: [0b11000]), greedy.sample(tied, allowed: [0b10101])] == [1, 3, 4])
        #expect(throws: LlamaError.noAllowedTokens) { try greedy.sample(tied, allowed: [0]) }
    }

    /// A prompt decoded whole, or as a prefix and a suffix in passes of a
    /// few tokens each, leaves the same logits; so does a tail cut off and
    /// decoded again.
    @Test func kvCacheReuseMatchesFullDecode() throws {
        let full = try makeContext()
        let prompt = try chatPrompt(full.model, "Tell me about the moon and the stars, in three sentences.")
        let expected = try lastLogits(full, after: prompt)

        let split = try makeContext(batchSize: 7)
        #expect(split.batchSize == 7)
        let cut = prompt.count / 2
        #expect(try decode(split, Array(prompt[..<cut]), computesLogits: false) == nil)
        #expect(throws: LlamaError.noLogits) { try split.logits(row: 0) }
        var actual = Array(try split.logits(row: #require(try decode(split, Array(prompt[cut...]), at: cut))))
        #expect(argmax(actual) == argmax(expected))
        let maxDifference = zip(actual, expected).map { abs($0 - $1) }.max()!
        #expect(maxDifference < 0.05, "largest logit difference \(maxDifference)")

        try split.removeTokens(sequence: 0, from: cut)
        #expect(split.lastPosition(of: 0) == cut - 1)
        actual = Array(try split.logits(row: #require(try decode(split, Array(prompt[cut...]), at: cut))))
        #expect(argmax(actual) == argmax(expected))
        #expect(split.lastPosition(of: 0) == prompt.count - 1)
    }

    @Test func contextWindowIsCheckedBeforeDecoding() throws {
        let context = try makeContext(64)
        let tokens = [LlamaToken](repeating: 42, count: 65)
        #expect(throws: LlamaError.contextWindowExceeded(requested: 65, available: 64, capacity: 64)) {
            try context.decode([.init(sequence: 0, position: 0, tokens: tokens[...], computesLogits: true)])
        }
        #expect(context.lastPosition(of: 0) == -1)
        #expect(throws: LlamaError.invalidToken(999_999)) { try decode(context, [999_999]) }
        #expect(throws: LlamaError.self) { try makeContext(10_000_000) }
    }

    @Test func missingAndGarbageFilesThrow() throws {
        let missing = "/nonexistent/dir/model.gguf"
        #expect(throws: LlamaError.fileNotFound(path: missing)) { try LlamaModel(path: missing) }

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("llamakit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: LlamaError.fileNotFound(path: directory.path)) { try LlamaModel(path: directory.path) }

        var generator = SystemRandomNumberGenerator()
        let random = directory.appendingPathComponent("random.gguf")
        try Data((0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: random)
        #expect(throws: LlamaError.self) { try LlamaModel(path: random.path) }
        do {
            _ = try LlamaModel(path: random.path)
        } catch let error as LlamaError {
            guard case .notAGGUFFile = error else { Issue.record("unexpected \(error)"); return }
        }

        let tiny = directory.appendingPathComponent("tiny.gguf")
        try Data("GGUF".utf8).write(to: tiny)
        #expect(throws: LlamaError.self) { try LlamaModel(path: tiny.path) }

        // A valid header followed by garbage: llama.cpp's own parser must refuse it.
        let truncated = directory.appendingPathComponent("truncated.gguf")
        let head = try FileHandle(forReadingFrom: URL(fileURLWithPath: modelPath)).read(upToCount: 4096) ?? Data()
        try head.write(to: truncated)
        #expect(throws: LlamaError.self) { try LlamaModel(path: truncated.path) }
        #expect(throws: LlamaError.self) { try GGUFFile.metadata(path: random.path) }

        // Complete metadata, tensor data cut short: refused at load, not a crash.
        let halfModel = directory.appendingPathComponent("half.gguf")
        let half = try FileHandle(forReadingFrom: URL(fileURLWithPath: modelPath)).read(upToCount: 40_000_000) ?? Data()
        try half.write(to: halfModel)
        #expect(try GGUFFile.metadata(path: halfModel.path)["general.architecture"]?.stringValue == "llama")
        #expect(throws: LlamaError.modelLoadFailed(path: halfModel.path)) { try LlamaModel(path: halfModel.path) }
    }

    /// The abort flag stops a decode of one long pass from another thread,
    /// within a step; the sequence is cut back to what it held.
    @Test func abortFlagStopsALongDecode() async throws {
        let context = try makeContext(2048, batchSize: 2048)
        let prompt = [LlamaToken](repeating: try context.vocabulary.tokenize(" the", addSpecial: false, parseSpecial: false)[0], count: 2000)
        let flag = context.abortFlag
        let started = ContinuousClock.now
        let stopper = Task.detached {
            try await Task.sleep(for: .milliseconds(100))
            flag.requestAbort()
        }
        #expect(throws: LlamaError.aborted) { try decode(context, prompt) }
        let elapsed = ContinuousClock.now - started
        try await stopper.value
        #expect(elapsed < .seconds(3), "decode took \(elapsed) to stop")
        #expect(context.lastPosition(of: 0) == -1, "cut back")
        // Still raised: the next decode stops at once; lowered: it runs.
        #expect(throws: LlamaError.aborted) { try decode(context, [1]) }
        flag.reset()
        try decode(context, Array(prompt[..<8]))
        #expect(context.lastPosition(of: 0) == 7)
        print("abort: stopped after \(elapsed)")
    }
}
