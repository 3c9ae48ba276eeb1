import CLlama
import Foundation

/// A context whose KV cache holds several independent sequences, so that
/// one forward pass (`llama_decode`) can advance all of them at once.
///
/// Why it exists: on a CPU, generating one token reads every weight of the
/// model; generating one token for each of eight sequences in the same pass
/// reads them once. Requests that share a model therefore share its passes
/// (what llama-server does with its parallel slots), and the machine's
/// throughput grows with the number of requests instead of being split
/// between them.
///
/// The sequences share one cache of `sequences × contextLength` cells
/// (`kv_unified`), each holding at most ``sequenceLength`` positions. The
/// caller keeps track of what each sequence holds; this type checks
/// positions against that length.
///
/// Not Sendable, on purpose: a `llama_context` is not thread-safe, so a
/// context must be used by one isolation domain at a time (an actor or a
/// lock owns it). The one thing other threads may touch is ``abortFlag``,
/// which is Sendable.
package final class LlamaBatchContext {
    /// The size and threads of a context, checked against the model when
    /// the context is created.
    package struct Parameters: Sendable, Equatable {
        /// Positions each sequence holds (n_ctx per sequence); at most the
        /// model's training length.
        package var contextLength: Int
        /// Most tokens per `llama_decode` call, over all sequences (n_batch
        /// = n_ubatch); the caller splits longer inputs into steps of this size.
        package var batchSize: Int
        /// Threads for generating one token at a time.
        package var threads: Int
        /// Threads for prompt (batch) processing.
        package var batchThreads: Int
        /// Keep the whole sliding-window cache (models with SWA, e.g. Gemma 3)
        /// so that any prefix can be kept and reused; no effect otherwise.
        package var fullSlidingWindowCache: Bool
        /// Whether attention runs as one fused kernel (less memory, faster
        /// on GPUs; needed for a quantized value cache).
        package var flashAttention: FlashAttention
        /// How the KV cache stores keys and values: a quantized cache holds
        /// about twice (q8_0) or four times (q4_0) the tokens in the same memory.
        package var keyCacheType: CacheType
        package var valueCacheType: CacheType

        package init(
            contextLength: Int = 4096,
            batchSize: Int = 512,
            threads: Int? = nil,
            batchThreads: Int? = nil,
            fullSlidingWindowCache: Bool = true,
            flashAttention: FlashAttention = .automatic,
            keyCacheType: CacheType = .f16,
            valueCacheType: CacheType = .f16
        ) {
            let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
            self.contextLength = contextLength
            self.batchSize = batchSize
            self.threads = threads ?? cores
            self.batchThreads = batchThreads ?? threads ?? cores
            self.fullSlidingWindowCache = fullSlidingWindowCache
            self.flashAttention = flashAttention
            self.keyCacheType = keyCacheType
            self.valueCacheType = valueCacheType
        }

        /// llama.cpp's flash-attention switch.
        package enum FlashAttention: String, Sendable, Hashable, CaseIterable {
            /// llama.cpp decides per device (on where the backend supports it).
            case automatic = "auto"
            case enabled = "on"
            case disabled = "off"
        }

        /// The element types a KV cache can hold.
        package enum CacheType: String, Sendable, Hashable, CaseIterable {
            case f32, f16, bf16
            case q8_0, q4_0

            var ggmlType: ggml_type {
                switch self {
                case .f32: GGML_TYPE_F32
                case .f16: GGML_TYPE_F16
                case .bf16: GGML_TYPE_BF16
                case .q8_0: GGML_TYPE_Q8_0
                case .q4_0: GGML_TYPE_Q4_0
                }
            }

            var isQuantized: Bool { self == .q8_0 || self == .q4_0 }
        }
    }

    package let model: LlamaModel
    /// The sequences the cache holds: ids `0..<sequenceCount`.
    package let sequenceCount: Int
    /// Positions each sequence may hold.
    package let sequenceLength: Int
    /// Most tokens one ``decode(_:)`` takes, over all sequences.
    package let batchSize: Int
    /// Raise it from any thread to stop the decode in progress (all of its
    /// sequences).
    package let abortFlag = LlamaAbortFlag()

    /// The LoRA adapters every forward pass applies, with their scales.
    /// Held here because llama.cpp's context keeps only pointers to them.
    package let adapters: [(adapter: LlamaAdapter, scale: Float)]

    let pointer: OpaquePointer
    private let memory: llama_memory_t
    private var batch: llama_batch

    /// One sequence's part of a decode: `tokens` appended at positions
    /// `position...` of sequence `sequence`.
    package struct Run: Sendable, Equatable {
        package var sequence: Int
        package var position: Int
        package var tokens: ArraySlice<LlamaToken>
        /// Whether the last token's logits are computed (``logits(row:)``).
        package var computesLogits: Bool

        package init(sequence: Int, position: Int, tokens: ArraySlice<LlamaToken>, computesLogits: Bool) {
            self.sequence = sequence
            self.position = position
            self.tokens = tokens
            self.computesLogits = computesLogits
        }
    }

    /// Creates a context on `model` with `sequences` sequences of
    /// `parameters.contextLength` positions each, applying `adapters` (LoRA
    /// adapters loaded for this model, each with its scale) to every pass.
    /// - Throws: `LlamaError.invalidArgument` for out-of-range parameters or
    ///   an adapter of another model, `.contextCreationFailed` when llama.cpp refuses.
    package init(
        model: LlamaModel,
        parameters: Parameters = .init(),
        sequences: Int,
        adapters: [(adapter: LlamaAdapter, scale: Float)] = []
    ) throws {
        for entry in adapters where entry.adapter.model !== model {
            throw LlamaError.invalidArgument("the adapter \(entry.adapter.path) was loaded for another model (\(entry.adapter.model.path))")
        }
        (pointer, memory) = try parameters.makeContext(model: model, sequences: sequences, abortFlag: abortFlag)
        self.adapters = adapters
        if !adapters.isEmpty {
            var pointers: [OpaquePointer?] = adapters.map { $0.adapter.pointer }
            var scales = adapters.map(\.scale)
            _ = llama_set_adapters_lora(pointer, &pointers, pointers.count, &scales)
        }
        self.model = model
        self.sequenceCount = sequences
        // llama.cpp may round the cache up; the extra is not used.
        self.sequenceLength = min(Int(llama_n_ctx_seq(pointer)), parameters.contextLength)
        self.batchSize = Int(llama_n_batch(pointer))
        self.batch = llama_batch_init(Int32(batchSize), 0, 1)
    }

    deinit {
        llama_free(pointer)
        llama_batch_free(batch)
    }

    package var vocabulary: LlamaVocabulary { model.vocabulary }

    /// Decodes every run in one `llama_decode` and returns, for each run,
    /// the row of its logits (nil where it computes none), for
    /// ``logits(row:)``.
    ///
    /// On any failure — abort flag raised, llama.cpp error — every run's
    /// sequence is cut back to the run's `position`: what the sequences held
    /// before the call.
    /// - Throws: `.invalidArgument` (a sequence out of range or named twice,
    ///   more tokens than ``batchSize``), `.contextWindowExceeded`,
    ///   `.invalidToken` (checked before any work), `.aborted`,
    ///   `.kvCacheFull`, `.decodeFailed`.
    package func decode(_ runs: [Run]) throws(LlamaError) -> [Int32?] {
        let vocabularySize = model.vocabulary.count
        var total = 0
        var seen = Set<Int>()
        for run in runs {
            guard run.sequence >= 0, run.sequence < sequenceCount, seen.insert(run.sequence).inserted else {
                throw LlamaError.invalidArgument("sequence \(run.sequence) is out of range or appears twice")
            }
            guard run.position >= 0, run.tokens.count <= sequenceLength - run.position else {
                throw LlamaError.contextWindowExceeded(
                    requested: run.position + run.tokens.count, available: max(0, sequenceLength - run.position), capacity: sequenceLength)
            }
            for token in run.tokens where token < 0 || Int(token) >= vocabularySize {
                throw LlamaError.invalidToken(token)
            }
            total += run.tokens.count
        }
        guard total <= batchSize else {
            throw LlamaError.invalidArgument("\(total) tokens in one decode; at most \(batchSize)")
        }
        var rows: [Int32?] = []
        rows.reserveCapacity(runs.count)
        var slot = 0
        for run in runs {
            var row: Int32?
            for (offset, token) in run.tokens.enumerated() {
                let last = offset == run.tokens.count - 1
                batch.token[slot] = token
                batch.pos[slot] = Int32(run.position + offset)
                batch.n_seq_id[slot] = 1
                batch.seq_id[slot]![0] = Int32(run.sequence)
                batch.logits[slot] = run.computesLogits && last ? 1 : 0
                if run.computesLogits && last { row = Int32(slot) }
                slot += 1
            }
            rows.append(row)
        }
        guard slot > 0 else { return rows }
        batch.n_tokens = Int32(slot)
        let result = abortFlag.isAbortRequested ? 2 : llama_decode(pointer, batch)
        guard result == 0 else {
            // Ubatches already computed stay in the cache (llama.h): cut
            // every sequence back to where its run began.
            for run in runs where !llama_memory_seq_rm(memory, Int32(run.sequence), Int32(run.position), -1) {
                llama_memory_seq_rm(memory, Int32(run.sequence), -1, -1)
            }
            throw .decodeFailure(result)
        }
        return rows
    }

    /// The logits of `row` of the last decode (one per vocabulary entry).
    /// The buffer is llama.cpp's: valid until the next ``decode(_:)``.
    /// - Throws: `.noLogits` for a row that computed none.
    package func logits(row: Int32) throws(LlamaError) -> UnsafeBufferPointer<Float> {
        guard let logits = llama_get_logits_ith(pointer, row) else { throw LlamaError.noLogits }
        return UnsafeBufferPointer(start: logits, count: model.vocabulary.count)
    }

    /// Forgets the positions `position...` of `sequence`, keeping the ones
    /// before (0: empties the sequence).
    /// - Throws: `.invalidArgument` for a sequence out of range or a
    ///   negative position, or when llama.cpp cannot cut the sequence there
    ///   (some recurrent or sliding-window caches); the sequence is then empty.
    package func removeTokens(sequence: Int, from position: Int) throws(LlamaError) {
        guard sequence >= 0, sequence < sequenceCount, position >= 0 else {
            throw LlamaError.invalidArgument("sequence \(sequence), position \(position)")
        }
        guard llama_memory_seq_rm(memory, Int32(sequence), Int32(position), -1) else {
            llama_memory_seq_rm(memory, Int32(sequence), -1, -1)
            throw LlamaError.invalidArgument("llama.cpp cannot remove positions \(position)... of sequence \(sequence) from this cache")
        }
    }

    /// The last position `sequence` holds in the cache, -1 when empty (for
    /// tests: the caller's own record should agree).
    package func lastPosition(of sequence: Int) -> Int {
        Int(llama_memory_seq_pos_max(memory, Int32(sequence)))
    }
}

extension LlamaBatchContext.Parameters {
    /// Checks the parameters against `model` and creates a llama.cpp context
    /// of `sequences` sequences with `contextLength` positions each, in one
    /// cache, whose decodes stop when `abortFlag` is raised. The caller owns
    /// the context (`llama_free`) and must keep `abortFlag` alive until then.
    fileprivate func makeContext(model: LlamaModel, sequences: Int, abortFlag: LlamaAbortFlag) throws(LlamaError) -> (OpaquePointer, llama_memory_t) {
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
        // llama.cpp refuses a quantized value cache without flash attention
        // (and says so only in its log): say it here.
        if valueCacheType.isQuantized && flashAttention == .disabled {
            throw LlamaError.invalidArgument("a \(valueCacheType.rawValue) value cache needs flash attention (it is off)")
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
        // sequence still holds at most `contextLength` positions
        // (`decode` checks).
        params.kv_unified = true
        params.n_threads = Int32(threads)
        params.n_threads_batch = Int32(batchThreads)
        params.swa_full = fullSlidingWindowCache
        params.no_perf = true
        params.flash_attn_type =
            switch flashAttention {
            case .automatic: LLAMA_FLASH_ATTN_TYPE_AUTO
            case .enabled: LLAMA_FLASH_ATTN_TYPE_ENABLED
            case .disabled: LLAMA_FLASH_ATTN_TYPE_DISABLED
            }
        params.type_k = keyCacheType.ggmlType
        params.type_v = valueCacheType.ggmlType
        guard let context = llama_init_from_model(model.pointer, params) else {
            throw LlamaError.contextCreationFailed(
                reason: "llama_init_from_model returned null (\(sequences) × \(contextLength) positions, out of memory?)")
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
