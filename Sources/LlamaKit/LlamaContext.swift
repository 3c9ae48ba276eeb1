import CLlama
import Foundation
import Synchronization

/// A flag that stops a running `LlamaContext.decode` from any thread.
///
/// llama.cpp polls it between graph nodes of the CPU backend (its abort
/// callback), so a decode stops within one step of the flag being raised,
/// even in the middle of a long prompt. Sendable: its only state is an atomic.
public final class LlamaAbortFlag: Sendable {
    private let raised = Atomic<Bool>(false)

    public init() {}

    /// Asks the decode running now (or the next one) to stop with `LlamaError.aborted`.
    public func requestAbort() { raised.store(true, ordering: .releasing) }
    /// Lowers the flag so that later decodes run.
    public func reset() { raised.store(false, ordering: .releasing) }
    public var isAbortRequested: Bool { raised.load(ordering: .acquiring) }
}

/// An inference context: one KV cache (sequence 0) on a model, with the
/// tokens it holds. Owns its `llama_context` and batch, freed in `deinit`.
///
/// Not Sendable, on purpose: a `llama_context` is not thread-safe, so a
/// context must be used by one isolation domain at a time (an actor owns it,
/// or it is handed over as a `sending` value). The one thing other threads
/// may touch is `abortFlag`, which is Sendable.
public final class LlamaContext {
    public struct Parameters: Sendable, Equatable {
        /// Tokens the KV cache holds (n_ctx); at most the model's training length.
        public var contextLength: Int
        /// Most tokens per `llama_decode` call (n_batch = n_ubatch); longer
        /// inputs are decoded in chunks of this size.
        public var batchSize: Int
        /// Threads for generating one token at a time.
        public var threads: Int
        /// Threads for prompt (batch) processing.
        public var batchThreads: Int
        /// Keep the whole sliding-window cache (models with SWA, e.g. Gemma 3)
        /// so that any prefix can be kept and reused; no effect otherwise.
        public var fullSlidingWindowCache: Bool

        public init(
            contextLength: Int = 4096,
            batchSize: Int = 512,
            threads: Int? = nil,
            batchThreads: Int? = nil,
            fullSlidingWindowCache: Bool = true
        ) {
            let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
            self.contextLength = contextLength
            self.batchSize = batchSize
            self.threads = threads ?? cores
            self.batchThreads = batchThreads ?? threads ?? cores
            self.fullSlidingWindowCache = fullSlidingWindowCache
        }
    }

    public let model: LlamaModel
    public let parameters: Parameters
    /// Raise it from any thread to stop the decode in progress.
    public let abortFlag = LlamaAbortFlag()
    /// The tokens in the KV cache, in position order: position i holds `tokens[i]`.
    public private(set) var tokens: [LlamaToken] = []
    /// Whether the last decode left logits to read.
    public private(set) var hasLogits = false

    let pointer: OpaquePointer
    private let memory: llama_memory_t
    private var batch: llama_batch

    /// Creates a context on `model`.
    /// - Throws: `LlamaError.invalidArgument` for out-of-range parameters
    ///   (e.g. a context longer than the model was trained for),
    ///   `.contextCreationFailed` when llama.cpp refuses.
    public init(model: LlamaModel, parameters: Parameters = Parameters()) throws {
        (pointer, memory) = try parameters.makeContext(model: model, sequences: 1, abortFlag: abortFlag)
        self.model = model
        self.parameters = parameters
        self.batch = llama_batch_init(Int32(llama_n_batch(pointer)), 0, 1)
    }

    deinit {
        llama_free(pointer)
        llama_batch_free(batch)
    }

    /// Positions this context accepts: the requested `contextLength`
    /// (llama.cpp may allocate a little more, rounded up; it is not used).
    public var contextLength: Int { min(Int(llama_n_ctx(pointer)), parameters.contextLength) }
    /// Most tokens per llama_decode call.
    public var batchSize: Int { Int(llama_n_batch(pointer)) }
    /// Positions still free.
    public var remainingCapacity: Int { contextLength - tokens.count }
    public var vocabulary: LlamaVocabulary { model.vocabulary }

    /// Changes the thread counts for later decodes.
    public func setThreads(_ threads: Int, batchThreads: Int? = nil) {
        let generation = Int32(max(1, threads))
        llama_set_n_threads(pointer, generation, Int32(max(1, batchThreads ?? threads)))
    }

    // MARK: Decoding

    /// Appends `newTokens` to the sequence at positions `tokens.count...`,
    /// in chunks of `batchSize`, and computes the logits of the last token
    /// (when `computeLogits`).
    ///
    /// On any failure — abort flag raised, no room, llama.cpp error — the
    /// context is rolled back to exactly the tokens it held before the call,
    /// and `hasLogits` is false.
    /// - Throws: `.contextWindowExceeded` (checked before any work),
    ///   `.invalidToken`, `.aborted`, `.kvCacheFull`, `.decodeFailed`.
    public func decode(_ newTokens: [LlamaToken], computeLogits: Bool = true) throws {
        guard !newTokens.isEmpty else { return }
        let vocabulary = model.vocabulary
        let vocabularySize = vocabulary.count
        for token in newTokens where token < 0 || Int(token) >= vocabularySize {
            throw LlamaError.invalidToken(token)
        }
        guard newTokens.count <= remainingCapacity else {
            throw LlamaError.contextWindowExceeded(requested: tokens.count + newTokens.count, available: remainingCapacity, capacity: contextLength)
        }
        let start = tokens.count
        hasLogits = false
        let chunkSize = batchSize
        var offset = 0
        while offset < newTokens.count {
            if abortFlag.isAbortRequested {
                rollBack(to: start)
                throw LlamaError.aborted
            }
            let end = min(offset + chunkSize, newTokens.count)
            let isLastChunk = end == newTokens.count
            batch.n_tokens = Int32(end - offset)
            for index in offset..<end {
                let slot = index - offset
                batch.token[slot] = newTokens[index]
                batch.pos[slot] = Int32(start + index)
                batch.n_seq_id[slot] = 1
                batch.seq_id[slot]![0] = 0
                batch.logits[slot] = (computeLogits && isLastChunk && index == end - 1) ? 1 : 0
            }
            let result = llama_decode(pointer, batch)
            if result != 0 {
                rollBack(to: start)
                throw LlamaError.decodeFailure(result)
            }
            tokens.append(contentsOf: newTokens[offset..<end])
            offset = end
        }
        hasLogits = computeLogits
    }

    /// Calls `body` with the logits of the last decoded token (one per
    /// vocabulary entry). The buffer is valid only inside `body`.
    public func withLogits<Result>(_ body: (UnsafeBufferPointer<Float>) throws -> Result) throws -> Result {
        guard hasLogits, let logits = llama_get_logits_ith(pointer, -1) else {
            throw LlamaError.noLogits
        }
        return try body(UnsafeBufferPointer(start: logits, count: model.vocabulary.count))
    }

    /// A copy of the last token's logits.
    public func logits() throws -> [Float] {
        try withLogits { Array($0) }
    }

    // MARK: KV cache

    /// Empties the KV cache.
    public func clear() {
        llama_memory_clear(memory, true)
        tokens.removeAll()
        hasLogits = false
    }

    /// Forgets the tokens at positions `position...`, keeping the ones before.
    /// - Throws: `.invalidArgument` for a negative position, or when
    ///   llama.cpp cannot cut the sequence there (some recurrent/SWA caches).
    public func removeTokens(from position: Int) throws {
        guard position >= 0 else { throw LlamaError.invalidArgument("negative position \(position)") }
        guard position < tokens.count else { return }
        guard llama_memory_seq_rm(memory, 0, Int32(position), -1) else {
            throw LlamaError.invalidArgument("llama.cpp cannot remove positions \(position)... from this cache")
        }
        tokens.removeSubrange(position...)
        hasLogits = false
    }

    /// Keeps the longest common prefix of the cache and `prompt` (leaving at
    /// least the prompt's last token to decode, so it yields logits) and
    /// returns its length: decode `prompt[returned...]` next.
    public func retainCommonPrefix(with prompt: [LlamaToken]) throws -> Int {
        var common = 0
        let limit = min(tokens.count, max(0, prompt.count - 1))
        while common < limit && tokens[common] == prompt[common] { common += 1 }
        if common == 0 {
            clear()
        } else {
            try removeTokens(from: common)
        }
        return common
    }

    private func rollBack(to count: Int) {
        // Removing a tail on seq 0 of a plain KV cache cannot fail; if some
        // cache type refuses, start over empty rather than keep a cache that
        // disagrees with `tokens`.
        if !llama_memory_seq_rm(memory, 0, Int32(count), -1) {
            llama_memory_clear(memory, true)
            tokens.removeAll()
        } else if tokens.count > count {
            tokens.removeSubrange(count...)
        }
        hasLogits = false
    }
}

extension LlamaContext.Parameters {
    /// Checks the parameters against `model` and creates a llama.cpp context
    /// of `sequences` sequences with `contextLength` positions each, in one
    /// cache, whose decodes stop when `abortFlag` is raised. The caller owns
    /// the context (`llama_free`) and must keep `abortFlag` alive until then.
    /// Shared by ``LlamaContext`` and ``LlamaBatchContext``.
    func makeContext(model: LlamaModel, sequences: Int, abortFlag: LlamaAbortFlag) throws -> (OpaquePointer, llama_memory_t) {
        LlamaBackend.initialize()
        guard !model.options.vocabularyOnly else {
            throw LlamaError.contextCreationFailed(reason: "the model was loaded vocabulary-only")
        }
        let trained = model.trainingContextLength
        guard contextLength >= 1, trained <= 0 || contextLength <= trained else {
            throw LlamaError.invalidArgument("context length \(contextLength) is outside 1...\(trained) (the model's training length)")
        }
        guard sequences >= 1, sequences <= 256 else {
            throw LlamaError.invalidArgument("\(sequences) sequences: from 1 to 256")
        }
        guard contextLength <= Int(Int32.max) / sequences else {
            throw LlamaError.invalidArgument("\(sequences) sequences of \(contextLength) positions do not fit one context")
        }
        guard batchSize >= 1, batchSize <= Int(Int32.max) else {
            throw LlamaError.invalidArgument("batch size \(batchSize) must be at least 1")
        }
        guard threads >= 1, batchThreads >= 1 else {
            throw LlamaError.invalidArgument("thread counts must be at least 1")
        }
        var params = llama_context_default_params()
        params.n_ctx = UInt32(contextLength * sequences)
        params.n_batch = UInt32(min(batchSize, contextLength * sequences))
        params.n_ubatch = params.n_batch
        params.n_seq_max = UInt32(sequences)
        // One cache for all sequences. Over separate per-sequence caches
        // llama.cpp computes a batch in one pass per run of consecutive
        // sequence ids, and the sequences busy at once are any subset: one
        // token each for sequences 0, 2, 4 and 6 decoded at 45 tokens/s, for
        // 0...3 at 80 (Qwen2.5-0.5B, 2 threads). The one cache decodes both
        // at 75; its attention scans every sequence's cells, masked. Each
        // sequence still holds at most `contextLength` positions (the
        // callers check).
        params.kv_unified = true
        params.n_threads = Int32(threads)
        params.n_threads_batch = Int32(batchThreads)
        params.swa_full = fullSlidingWindowCache
        params.no_perf = true
        guard let context = llama_init_from_model(model.pointer, params) else {
            throw LlamaError.contextCreationFailed(reason: "llama_init_from_model returned null (\(sequences) × \(contextLength) positions, out of memory?)")
        }
        guard let memory = llama_get_memory(context) else {
            llama_free(context)
            throw LlamaError.contextCreationFailed(reason: "the context has no memory (KV cache)")
        }
        // The flag outlives the llama_context: its owner holds both and
        // frees the context first (deinit), so the unretained pointer stays
        // valid.
        llama_set_abort_callback(context, llamaAbortCallback, Unmanaged.passUnretained(abortFlag).toOpaque())
        return (context, memory)
    }
}

/// ggml's abort callback: `data` is the context's `LlamaAbortFlag`, kept
/// alive by the context for as long as the llama_context exists.
private func llamaAbortCallback(_ data: UnsafeMutableRawPointer?) -> Bool {
    guard let data else { return false }
    return Unmanaged<LlamaAbortFlag>.fromOpaque(data).takeUnretainedValue().isAbortRequested
}
