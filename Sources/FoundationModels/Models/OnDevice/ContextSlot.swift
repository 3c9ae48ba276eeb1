#if LlamaCpp
import Dispatch
import GuidedGeneration
import LlamaKit
import Synchronization

/// One sequence of the model's shared context (one conversation's KV
/// cache) and the serial queue its requests run on.
///
/// Generation is blocking CPU work, so it runs on the slot's own queue rather
/// than on Swift's cooperative pool; results flow back through an
/// `AsyncThrowingStream`. Its forward passes go through the model's
/// ``DecodeScheduler``, in steps shared with the other slots' requests.
///
/// A slot runs a job only while it is leased to one request by
/// ``ContextPool``; `tokens` (what its sequence holds) belongs to that job,
/// on `queue`, and is published in `cached` when the job ends.
final class ContextSlot: Sendable {
    let sequence: Int
    let scheduler: DecodeScheduler
    /// How a prompt's last token is evaluated, so that a repeated greedy or
    /// seeded request gives the same answer whether its prompt was cached
    /// or not: llama.cpp's logits for a token differ in the last bits
    /// between a batch of one and a batch of many (other kernels), enough to
    /// flip a near-tie, so the last token must be computed the same way both
    /// times.
    ///
    /// - true: in a step of its own, always (a prompt found whole in the
    ///   cache decodes just that token). On a CPU that step costs little
    ///   beside the prompt's evaluation (about 4 % on the 0.5B model), and
    ///   a repeat costs one token.
    /// - false: with the rest of the prompt, in one pass; a request whose
    ///   prompt is the one the cache was filled with evaluates that
    ///   prompt's last pass again, whole (``SlotSequence/promptPass``). On a
    ///   GPU a pass of a hundred tokens costs about what one token's does,
    ///   so the step of its own would be a whole extra step per request
    ///   (about 1.1 ms of an 8 ms prefill on the 0.5B model, BENCHMARKS.md),
    ///   while evaluating a repeated prompt's last pass again costs about
    ///   the same as that step.
    let promptEndsAlone: Bool
    private let queue: DispatchQueue
    /// Wakes the slot's job when a step it waits for has run.
    private let wake = DispatchSemaphore(value: 0)
    /// Raised to stop the running job within one decoding step.
    private let abortFlag = LlamaAbortFlag()
    private let cached = Mutex(Cached())
    /// The request the slot serves: a request's cancellation may arrive
    /// after its job ended and the slot went to the next request, and must
    /// not stop that one (see ``abort(lease:)``).
    private let lease = Mutex<(number: UInt64, active: Bool)>((0, false))

    /// What the slot's sequence holds between jobs.
    private struct Cached {
        var tokens: [LlamaToken] = []
        var promptPass: Range<Int>?
    }

    init(sequence: Int, scheduler: DecodeScheduler, promptEndsAlone: Bool, label: String) {
        self.sequence = sequence
        self.scheduler = scheduler
        self.promptEndsAlone = promptEndsAlone
        self.queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    /// The tokens whose keys and values are in this slot's cache, as of the
    /// end of its last job.
    var cachedTokens: [LlamaToken] { cached.withLock { $0.tokens } }

    /// Starts serving a request: lowers the abort flag and returns the
    /// lease's number, for ``abort(lease:)``. Pair with ``endLease()``.
    func beginLease() -> UInt64 {
        lease.withLock { lease in
            lease.number += 1
            lease.active = true
            abortFlag.reset()
            return lease.number
        }
    }

    /// Stops the job of lease `number` within one decoding step, if that
    /// lease is still the slot's; a lease that ended stops nothing.
    func abort(lease number: UInt64) {
        let raised = lease.withLock { lease in
            guard lease.active, lease.number == number else { return false }
            abortFlag.requestAbort()
            return true
        }
        if raised { scheduler.abortChanged() }
    }

    /// Ends the current lease: its late cancellations are ignored from now on.
    func endLease() {
        lease.withLock { $0.active = false }
    }

    /// What one job asks of the slot.
    struct Job: Sendable {
        /// The whole prompt; the cached prefix it shares with the slot is reused.
        var promptTokens: [LlamaToken]
        var sampling: LlamaSampler.Mode
        /// The most tokens to generate (0: only evaluate the prompt).
        var maximumTokens: Int
        /// The schema the output must follow, compiled for this model; nil
        /// for free text.
        var constraint: TokenConstraint? = nil
        /// Whether free text ends where it falls into a loop (``RepetitionStop``).
        var stopsLoops = true
        /// How free strings of a typed answer are paced (``StringPacing``);
        /// nil leaves them to the budget alone.
        var pacing: StringPacing? = .standard
        /// Where each generated token's log-probability goes, when the
        /// request asked for them (``TokenLogProbabilityRecorder``).
        var logProbabilities: TokenLogProbabilityRecorder? = nil
        /// Called once the prompt is evaluated, with the number of its
        /// tokens found in the cache, on the slot's queue: where the
        /// engine's tracing spans go from prefill to decode (``EngineSpans``).
        var promptEvaluated: (@Sendable (_ cachedTokens: Int) -> Void)? = nil
    }

    /// How a job ended.
    struct Outcome: Sendable {
        /// Prompt tokens that came from the cache rather than being evaluated.
        var cachedPromptTokens: Int
        /// Tokens generated (the end-of-generation token not counted).
        var generatedTokens: Int
        /// Generation stopped because the context filled up.
        var contextFull: Bool
        /// Forward passes run for the response (one per sampled token, one
        /// per run of forced tokens); the prompt's evaluation not counted.
        var modelSteps = 0
        /// Generated tokens the schema forced (appended without sampling).
        var forcedTokens = 0
        /// Guided generation stopped (token budget or context) where the
        /// output could not end: the text is not a valid value. (A free-text
        /// answer may end anywhere, so running out there is not this.)
        var incomplete = false
        /// Guided generation finished the value in the fewest tokens because
        /// the budget had no room for more.
        var closedEarly = false
        /// Free text ended because it had fallen into a loop.
        var stoppedLoop = false
    }

    /// Receives each piece of new text and the number of tokens it carries,
    /// on the slot's queue, as soon as it is decoded.
    typealias TextHandler = @Sendable (_ text: String, _ tokenCount: Int) -> Void

    /// Runs `job` on the slot's queue. Text goes straight to `onText` (no
    /// hop through another task per token); `completion` gets the outcome
    /// once the context is no longer used. The caller holds a lease
    /// (``beginLease()``) around the call.
    func run(
        _ job: Job,
        onText: @escaping TextHandler,
        completion: @escaping @Sendable (Result<Outcome, any Error>) -> Void
    ) {
        queue.async { [self] in
            let held = cached.withLock { $0 }
            var sequence = SlotSequence(tokens: held.tokens, promptPass: held.promptPass, slot: self)
            let result = Result { try execute(job, &sequence, onText) }
            scheduler.leave(self.sequence)
            cached.withLock { $0 = Cached(tokens: sequence.tokens, promptPass: sequence.promptPass) }
            completion(result)
        }
    }

    /// The slot's sequence as one job sees it: the tokens it holds, and its
    /// forward passes through the scheduler.
    private struct SlotSequence {
        var tokens: [LlamaToken]
        /// The positions of `tokens` the last prompt evaluated in its last
        /// pass (without ``ContextSlot/promptEndsAlone``): from the first it
        /// did not find in the cache to its end. Nil once a job changes the
        /// prompt's part of the sequence.
        var promptPass: Range<Int>?
        let slot: ContextSlot
        /// The logits of the last pass, valid until the next one.
        var logits: UnsafeBufferPointer<Float>?

        var remainingCapacity: Int { slot.scheduler.sequenceLength - tokens.count }

        /// Keeps the longest common prefix of the sequence and `prompt`
        /// (leaving at least the prompt's last token to decode, so that it
        /// yields logits; without ``ContextSlot/promptEndsAlone``, the whole
        /// last pass of a prompt the cache was filled with) and returns its
        /// length.
        mutating func retainCommonPrefix(with prompt: [LlamaToken]) throws -> Int {
            let shared = ContextPool.commonPrefix(tokens, prompt)
            var common = min(shared, max(0, prompt.count - 1))
            // The prompt the cache was filled with, again: its last pass is
            // evaluated again as it was (``ContextSlot/promptEndsAlone``).
            if !slot.promptEndsAlone, shared >= prompt.count, let pass = promptPass, pass.upperBound == prompt.count {
                common = min(common, pass.lowerBound)
            }
            promptPass = nil
            if common < tokens.count {
                // Cut from the record first: if llama.cpp cannot cut, the
                // sequence is emptied, and an empty record matches it.
                tokens.removeSubrange(common...)
                do {
                    try slot.scheduler.trim(slot.sequence, to: common)
                } catch {
                    tokens = []
                    try slot.scheduler.trim(slot.sequence, to: 0)
                    return 0
                }
            }
            return common
        }

        /// Appends `newTokens` in shared steps; the logits of the last one
        /// are read with `sample`. `meanwhile` runs once, on this thread,
        /// while the step computes where it can (``DecodeScheduler/Pass/meanwhile``),
        /// else before it, also when the step fails.
        mutating func decode(_ newTokens: [LlamaToken], computeLogits: Bool = true, meanwhile: (() -> Void)? = nil) throws {
            // Run here unless the scheduler takes it.
            var pending = meanwhile
            defer { pending?() }
            guard !newTokens.isEmpty else { return }
            guard newTokens.count <= remainingCapacity else {
                throw LlamaError.contextWindowExceeded(
                    requested: tokens.count + newTokens.count, available: remainingCapacity, capacity: slot.scheduler.sequenceLength)
            }
            if slot.abortFlag.isAbortRequested { throw LlamaError.aborted }
            logits = nil
            pending = nil
            logits = try slot.scheduler.step(
                DecodeScheduler.Pass(
                    sequence: slot.sequence, tokens: newTokens, position: tokens.count,
                    computesLogits: computeLogits, abort: slot.abortFlag, wake: slot.wake, meanwhile: meanwhile
                ))
            tokens += newTokens
        }

        func sample(_ sampler: LlamaSampler, allowed: [UInt64]? = nil) throws -> LlamaToken {
            guard let logits else { throw LlamaError.noLogits }
            return try sampler.sample(logits: logits, allowed: allowed)
        }

        /// Records in `recorder` the log-probability of `token`, drawn from
        /// the last pass's logits over `allowed` (``TokenLogProbability``).
        func record(
            _ token: LlamaToken, allowed: [UInt64]?, in recorder: TokenLogProbabilityRecorder?, bytes: (LlamaToken) -> [UInt8]
        ) {
            guard let recorder, let logits,
                let values = LlamaSampler.logProbabilities(logits: logits, allowed: allowed, chosen: token, top: recorder.topCount)
            else { return }
            let top = values.top.map { TokenLogProbability.Alternative(bytes: bytes($0.token), logProbability: $0.logProbability) }
            recorder.record(TokenLogProbability(bytes: bytes(token), logProbability: values.chosen, top: top))
        }
    }

    private func execute(_ job: Job, _ sequence: inout SlotSequence, _ onText: @escaping TextHandler) throws -> Outcome {
        dispatchPrecondition(condition: .onQueue(queue))
        let reused = try sequence.retainCommonPrefix(with: job.promptTokens)
        // The scheduler splits a long prompt into batch-sized steps, so it
        // does not stall other requests' token streams for its whole
        // evaluation. The last token is computed the same way whether the
        // prompt was cached or not (``promptEndsAlone``; exactly so while
        // no other request shares the steps).
        let uncached = job.promptTokens[reused...]
        if promptEndsAlone {
            try sequence.decode(Array(uncached.dropLast()), computeLogits: false)
            try sequence.decode(Array(uncached.suffix(1)), computeLogits: job.maximumTokens > 0)
        } else {
            try sequence.decode(Array(uncached), computeLogits: job.maximumTokens > 0)
            // Its last step, as the scheduler splits a pass that runs alone.
            let batch = scheduler.batchSize
            sequence.promptPass = (reused + (uncached.count - 1) / batch * batch)..<job.promptTokens.count
        }
        job.promptEvaluated?(reused)
        var outcome = Outcome(cachedPromptTokens: reused, generatedTokens: 0, contextFull: false)
        if let constraint = job.constraint {
            try generateGuided(job, constraint: constraint, &sequence, onText, &outcome)
            return outcome
        }
        guard job.maximumTokens > 0 else { return outcome }

        let vocabulary = scheduler.vocabulary
        let sampler = try LlamaSampler(mode: job.sampling)
        var text = UTF8Accumulator()
        var unreported = 0
        var output: [UInt8] = []
        // The last token's text, handed on while the next step computes
        // (on a GPU) or before it, or after the loop when no step follows.
        var report: (() -> Void)?
        while outcome.generatedTokens < job.maximumTokens {
            if abortFlag.isAbortRequested { throw LlamaError.aborted }
            let token = try sequence.sample(sampler)
            if vocabulary.isEndOfGeneration(token) { break }
            outcome.generatedTokens += 1
            unreported += 1
            let piece = try vocabulary.piece(token)
            sequence.record(token, allowed: nil, in: job.logProbabilities) { (try? vocabulary.piece($0)) ?? [] }
            if let delta = text.append(piece) {
                let count = unreported
                report = { onText(delta, count) }
                unreported = 0
            }
            if job.stopsLoops {
                output += piece
                if RepetitionStop.endsInLoop(output[...]) {
                    outcome.stoppedLoop = true
                    break
                }
            }
            if outcome.generatedTokens == job.maximumTokens { break }
            if sequence.remainingCapacity == 0 {
                outcome.contextFull = true
                break
            }
            try sequence.decode([token], meanwhile: report)
            report = nil
            outcome.modelSteps += 1
        }
        report?()
        if let rest = text.flush() {
            onText(rest, unreported)
        }
        return outcome
    }

    /// Generation that follows `constraint`: tokens the schema forces are
    /// appended without sampling and evaluated in one batch with the sampled
    /// token before them, the others are sampled from the allowed tokens
    /// only, until the value is complete. Free strings are paced
    /// (``StringPacing``): where one should end, the token is sampled again
    /// from the tokens that close it.
    private func generateGuided(
        _ job: Job, constraint: TokenConstraint, _ sequence: inout SlotSequence, _ onText: @escaping TextHandler, _ outcome: inout Outcome
    ) throws {
        dispatchPrecondition(condition: .onQueue(queue))
        let sampler = try LlamaSampler(mode: job.sampling)
        let vocabulary = constraint.vocabulary
        var decoder = constraint.makeDecoder()
        var mask = TokenMask(count: vocabulary.count)
        var closingMask = TokenMask(count: vocabulary.count)
        var text = UTF8Accumulator()
        var unreported = 0
        let bytes: (LlamaToken) -> [UInt8] = { Array(vocabulary.tokens[Int($0)]) }
        // A token the schema forces was the only one allowed: log-probability 0.
        func recordForced(_ tokens: some Sequence<LlamaToken>) {
            guard let recorder = job.logProbabilities else { return }
            for token in tokens {
                let alternatives = recorder.topCount > 0 ? [TokenLogProbability.Alternative(bytes: bytes(token), logProbability: 0)] : []
                recorder.record(TokenLogProbability(bytes: bytes(token), logProbability: 0, top: alternatives))
            }
        }
        // The last tokens' text, handed on as in free text.
        var report: (() -> Void)?
        var finishing = false
        while !decoder.isComplete, !finishing {
            if abortFlag.isAbortRequested { throw LlamaError.aborted }
            let room = job.maximumTokens - outcome.generatedTokens
            guard room > 0 else {
                outcome.incomplete = !decoder.canEnd
                break
            }
            var next = decoder.forcedTokens()
            if next.isEmpty {
                let pace = job.pacing.map { decoder.pace(room: room - 1, pacing: $0) } ?? .free
                var canClose = pace != .free && decoder.closingTokens(into: &closingMask)
                let stopsLoops = job.pacing?.stopsLoops == true
                if canClose, stopsLoops {
                    // Ending as a copy of an earlier element of its list is
                    // no ending; if every ending would be one, pacing waits.
                    var distinct = closingMask
                    if decoder.forbidRepeatedElement(in: &distinct) {
                        if distinct.isEmpty { canClose = pace == .endNow } else { closingMask = distinct }
                    }
                }
                let closesNow = pace == .endNow && canClose
                if !closesNow {
                    decoder.allowedTokens(into: &mask)
                    if stopsLoops { decoder.forbidRepeatedElement(in: &mask) }
                }
                let token: LlamaToken
                let closes: Bool
                if closesNow {
                    closes = true
                    token = try sequence.sample(sampler, allowed: closingMask.words)
                } else {
                    let chosen = try sequence.sample(sampler, allowed: mask.words)
                    // Same logits, the closing tokens only: the model picks
                    // how the string ends.
                    closes = canClose && decoder.continuesPast(pace, with: chosen)
                    token = closes ? try sequence.sample(sampler, allowed: closingMask.words) : chosen
                }
                if decoder.accept(token, completableWithin: room - 1) {
                    if decoder.ended { break }
                    sequence.record(token, allowed: closes ? closingMask.words : mask.words, in: job.logProbabilities, bytes: bytes)
                    // What the schema forces after this token rides in the
                    // same forward pass: decoding [token] + forced at once
                    // is what decoding them one after another computes.
                    let forced = decoder.isComplete ? [] : decoder.forcedTokens().prefix(room - 1)
                    for token in forced where !decoder.accept(token) { throw LlamaError.noAllowedTokens }
                    recordForced(forced)
                    outcome.forcedTokens += forced.count
                    next = [token] + forced
                } else {
                    // The budget would no longer fit the shortest way to
                    // finish the value: finish it that way now (with no
                    // tokens at all where the output may already end).
                    guard let closing = decoder.completionTokens(), closing.count <= room else {
                        outcome.incomplete = true
                        break
                    }
                    for token in closing where !decoder.accept(token) { throw LlamaError.noAllowedTokens }
                    recordForced(closing)
                    outcome.forcedTokens += closing.count
                    outcome.closedEarly = true
                    finishing = true
                    next = closing
                }
            } else {
                next = Array(next.prefix(room))
                for token in next where !decoder.accept(token) { throw LlamaError.noAllowedTokens }
                recordForced(next)
                outcome.forcedTokens += next.count
            }
            outcome.generatedTokens += next.count
            var bytes: [UInt8] = []
            for token in next { bytes += vocabulary.tokens[Int(token)] }
            // Prose (a turn with tools answering in text) may end anywhere:
            // where it loops, it ends.
            if job.stopsLoops, decoder.canEnd, RepetitionStop.endsInLoop(decoder.output[...]) { finishing = true }
            unreported += next.count
            if let delta = text.append(bytes) {
                let count = unreported
                report = { onText(delta, count) }
                unreported = 0
            }
            if decoder.isComplete || finishing { break }
            guard outcome.generatedTokens < job.maximumTokens else {
                outcome.incomplete = !decoder.canEnd
                break
            }
            guard sequence.remainingCapacity >= next.count else {
                outcome.contextFull = true
                outcome.incomplete = !decoder.canEnd
                break
            }
            try sequence.decode(next, meanwhile: report)
            report = nil
            outcome.modelSteps += 1
        }
        report?()
        if let rest = text.flush() { onText(rest, unreported) }
    }
}
#endif
