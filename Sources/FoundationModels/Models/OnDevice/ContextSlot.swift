import Dispatch
import LlamaKit
import Synchronization

/// One llama.cpp context (one KV cache) and the serial queue it is confined to.
///
/// Generation is blocking CPU work, so it runs on the slot's own queue rather
/// than on Swift's cooperative pool; results flow back through an
/// `AsyncThrowingStream`.
///
/// `@unchecked Sendable` is sound because `context` is only ever touched by
/// blocks running on `queue`, which is serial, and a slot runs a job only
/// while it is leased to one request by ``ContextPool``. The other stored
/// properties are immutable or `Sendable` (`abortFlag`, the `Mutex`).
final class ContextSlot: @unchecked Sendable {
    private let context: LlamaContext
    private let queue: DispatchQueue
    private let gate: ComputeGate
    /// Raised to stop the running job within one decoding step.
    let abortFlag: LlamaAbortFlag
    private let cached = Mutex<[LlamaToken]>([])

    init(context: LlamaContext, gate: ComputeGate, label: String) {
        self.context = context
        self.gate = gate
        self.abortFlag = context.abortFlag
        self.queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    /// The tokens whose keys and values are in this slot's cache, as of the
    /// end of its last job.
    var cachedTokens: [LlamaToken] { cached.withLock { $0 } }

    /// What one job asks of the slot.
    struct Job: Sendable {
        /// The whole prompt; the cached prefix it shares with the slot is reused.
        var promptTokens: [LlamaToken]
        var sampling: LlamaSampler.Mode
        /// The most tokens to generate (0: only evaluate the prompt).
        var maximumTokens: Int
    }

    /// What a job reports, in order.
    enum Event: Sendable {
        /// The prompt is evaluated; `cached` of its tokens came from the cache.
        case promptEvaluated(total: Int, cached: Int)
        /// New text, carried by `tokenCount` tokens.
        case text(String, tokenCount: Int)
        /// Generation ended: at an end-of-generation token, at the limit, or
        /// when the context filled up.
        case finished(generatedTokens: Int, contextFull: Bool)
    }

    /// Runs `job` on the slot's queue, then calls `completion` (which returns
    /// the slot to its pool). Events are yielded as they happen.
    func run(
        _ job: Job,
        into continuation: AsyncThrowingStream<Event, any Error>.Continuation,
        completion: @escaping @Sendable () -> Void
    ) {
        // The lease guarantees the previous job has finished; clear its abort
        // request now, before the caller can raise one for this job.
        abortFlag.reset()
        queue.async { [self] in
            var failure: (any Error)?
            do {
                try execute(job, continuation)
            } catch {
                failure = error
            }
            // Back to the pool before the caller hears the end, so the same
            // conversation's next request finds this context idle.
            cached.withLock { $0 = context.tokens }
            completion()
            continuation.finish(throwing: failure)
        }
    }

    private func execute(_ job: Job, _ continuation: AsyncThrowingStream<Event, any Error>.Continuation) throws {
        let reused = try context.retainCommonPrefix(with: job.promptTokens)
        // The prompt in batch-sized turns, so a long prompt does not stall
        // other requests' token streams for its whole evaluation.
        let remaining = Array(job.promptTokens[reused...])
        let batch = max(1, context.batchSize)
        for start in stride(from: 0, to: remaining.count, by: batch) {
            if abortFlag.isAbortRequested { throw LlamaError.aborted }
            let end = min(start + batch, remaining.count)
            try gate.withTurn { try context.decode(Array(remaining[start..<end]), computeLogits: end == remaining.count) }
        }
        continuation.yield(.promptEvaluated(total: job.promptTokens.count, cached: reused))
        guard job.maximumTokens > 0 else {
            continuation.yield(.finished(generatedTokens: 0, contextFull: false))
            return
        }

        let vocabulary = context.vocabulary
        let sampler = try LlamaSampler(mode: job.sampling)
        var text = UTF8Accumulator()
        var generated = 0
        var unreported = 0
        var contextFull = false
        while generated < job.maximumTokens {
            if abortFlag.isAbortRequested { throw LlamaError.aborted }
            let token = try gate.withTurn { try sampler.sample(from: context) }
            if vocabulary.isEndOfGeneration(token) { break }
            generated += 1
            unreported += 1
            if let delta = text.append(try vocabulary.piece(token)) {
                continuation.yield(.text(delta, tokenCount: unreported))
                unreported = 0
            }
            if generated == job.maximumTokens { break }
            if context.remainingCapacity == 0 {
                contextFull = true
                break
            }
            try gate.withTurn { try context.decode([token]) }
        }
        if let rest = text.flush() {
            continuation.yield(.text(rest, tokenCount: unreported))
        }
        continuation.yield(.finished(generatedTokens: generated, contextFull: contextFull))
    }
}
