#if LlamaCpp
import Dispatch
import LlamaKit
import Synchronization

/// Puts the forward passes of every request on one model into shared
/// steps: one `llama_decode` advances each active sequence by its next
/// tokens (a sampled token, a run of tokens the schema forces, or a chunk of
/// a prompt).
///
/// Why: decoding one token reads every weight of the model, and on a CPU
/// that read is most of a step's cost. Requests that took turns per step
/// shared one session's throughput between them; requests in one step share
/// the read, so eight sessions generate several times what one does (see
/// BENCHMARKS.md, "Sessions at once").
///
/// Each request keeps its own generation loop on its own thread (its
/// sampler, its guided decoder, its cancellation): when it needs a forward
/// pass it calls ``step(_:)`` and blocks. A step runs when every request
/// taking part (a *member*, from its first step until ``leave(_:)``) has
/// asked for its next pass, so each step carries a token from every member,
/// as llama-server's slots do. The member whose request completes the set
/// leads the step: it hands the decode to the process's ``DecodeThread`` and
/// wakes the others when it is done.
///
/// Between steps every member reads its logits from llama.cpp's buffer: the
/// next step cannot start before each member of this one has asked again
/// (after sampling) or left, so the buffer stays as it is while they read.
///
/// Fair admission: a step takes the smallest requests first (single tokens
/// and forced runs) and fills the rest of the batch with prompt chunks, so
/// a long prompt arriving never stalls the streams already running for more
/// than one step; what does not fit waits for the next step.
///
/// Cancellation is per sequence: a cancelled request leaves before its next
/// step; a step whose members are all cancelled is aborted inside
/// llama.cpp.
package final class DecodeScheduler: Sendable {
    /// The context every sequence lives in. Locked by the member running a
    /// step for the step's length, and briefly by a member trimming its own
    /// sequence.
    private let context: Mutex<LlamaBatchContext>
    let sequenceCount: Int
    /// Positions each sequence holds.
    let sequenceLength: Int
    let batchSize: Int
    let vocabulary: LlamaVocabulary
    private let vocabularySize: Int
    private let contextAbort: LlamaAbortFlag
    /// Where every decode runs: one thread for every model (see
    /// ``DecodeThread``), so models loaded side by side take turns per
    /// step, in the order their steps became ready; nil: on the thread of
    /// the member that leads the step.
    ///
    /// A model whose every layer is on a GPU decodes on the leader's own
    /// thread: the CPU's thread team that the decode thread keeps hot does
    /// no work there, and the two handoffs per step would be most of the
    /// session's own time per token (about 200 µs of a step here).
    let thread: DecodeThread?
    private let state = Mutex(State())

    /// One request's asked-for pass, until it is done.
    private struct Request {
        var tokens: [LlamaToken]
        /// Tokens of `tokens` already decoded (a prompt can take several steps).
        var done = 0
        /// Where `tokens` starts in the sequence.
        let position: Int
        let computesLogits: Bool
        let abort: LlamaAbortFlag
        let wake: DispatchSemaphore
        /// Arrival order, to break ties between requests of the same size.
        let number: UInt64
    }

    /// The part of a request a step takes.
    private struct Part {
        var sequence: Int
        /// Where the whole request starts in the sequence.
        var start: Int
        var range: Range<Int>
        var completes: Bool
    }

    /// Totals over the steps run, for tests and benchmarks.
    package struct Statistics: Sendable, Equatable {
        /// `llama_decode` calls.
        package var steps = 0
        /// Passes served by them, a pass counted in each step it took part
        /// in: `passes / steps` is how many requests shared a step.
        package var passes = 0
        /// Tokens decoded.
        package var tokens = 0
        /// Time spent inside `llama_decode`: against the wall time, how busy
        /// the model was.
        package var decodeSeconds = 0.0
    }

    private struct State {
        var statistics = Statistics()
        var members: Set<Int> = []
        var requests: [Int: Request] = [:]
        /// How requests ended: the address of their logits row (0: none),
        /// or the error. Read once by the request's own thread.
        var finished: [Int: Result<UInt, LlamaError>] = [:]
        /// The sequences of the step running now, nil between steps.
        var running: [Int]?
        var arrivals: UInt64 = 0

        /// Every member has asked for a pass and no step runs.
        var isReady: Bool {
            running == nil && !requests.isEmpty && members.allSatisfy { requests[$0] != nil }
        }
    }

    init(context: sending LlamaBatchContext, thread: DecodeThread? = .shared) {
        self.sequenceCount = context.sequenceCount
        self.sequenceLength = context.sequenceLength
        self.batchSize = context.batchSize
        self.vocabulary = context.vocabulary
        self.vocabularySize = context.vocabulary.count
        self.contextAbort = context.abortFlag
        self.context = Mutex(context)
        self.thread = thread
    }

    /// What a request asks of a step.
    struct Pass {
        var sequence: Int
        /// The tokens to append, at positions `position...`.
        var tokens: [LlamaToken]
        var position: Int
        /// Whether the last token's logits are wanted.
        var computesLogits: Bool
        /// The request's cancellation: when raised, the pass is given up
        /// (before it runs) or aborted (when every pass of its step is).
        var abort: LlamaAbortFlag
        /// The request thread's own semaphore, for being woken.
        var wake: DispatchSemaphore
        /// Work of the request's own to do while the step runs, on the
        /// request's thread, exactly once before ``step(_:)`` returns or
        /// throws (the text of the token before, for the stream): where the
        /// request leads a step on its own thread, between `llama_decode`
        /// and reading the logits, when a GPU computes the step; otherwise
        /// before the step.
        var meanwhile: (() -> Void)? = nil
    }

    /// Appends `pass.tokens` to the sequence, in as many steps as the batch
    /// size needs, shared with the other members' passes, and returns the
    /// last token's logits (nil when not asked for). The buffer is valid
    /// until this sequence's next call of `step` or `leave`.
    ///
    /// Blocks the calling thread (a context slot's queue, never Swift's
    /// cooperative pool). Joins the caller as a member; pair with
    /// ``leave(_:)`` when its request ends.
    /// - Throws: `.aborted` when `pass.abort` is raised (the sequence is cut
    ///   back to `pass.position`), or the step's error, with the same cut.
    func step(_ pass: Pass) throws(LlamaError) -> UnsafeBufferPointer<Float>? {
        // Run before returning unless a step took it; through the decode
        // thread, before the step (it cannot overlap it).
        var meanwhile = pass.meanwhile
        defer { meanwhile?() }
        guard !pass.tokens.isEmpty else { return nil }
        if thread != nil {
            meanwhile?()
            meanwhile = nil
        }
        let sequence = pass.sequence
        state.withLock { state in
            state.members.insert(sequence)
            state.requests[sequence] = Request(
                tokens: pass.tokens, position: pass.position, computesLogits: pass.computesLogits,
                abort: pass.abort, wake: pass.wake, number: state.arrivals
            )
            state.arrivals &+= 1
        }
        enum Action {
            case finished(Result<UInt, LlamaError>)
            case withdraw(decoded: Bool)
            case run([Part], [LlamaBatchContext.Run])
            case wait
        }
        while true {
            let action = state.withLock { state -> Action in
                if let result = state.finished.removeValue(forKey: sequence) { return .finished(result) }
                guard state.running == nil else { return .wait }
                if let request = state.requests[sequence], request.abort.isAbortRequested {
                    state.requests[sequence] = nil
                    state.members.remove(sequence)
                    Self.wakeAll(state)
                    return .withdraw(decoded: request.done > 0)
                }
                guard state.isReady, let (parts, runs) = Self.nextStep(&state, batchSize: batchSize) else { return .wait }
                contextAbort.reset()
                return .run(parts, runs)
            }
            switch action {
            case .finished(let result):
                let address = try result.get()
                guard let start = UnsafePointer<Float>(bitPattern: address) else { return nil }
                return UnsafeBufferPointer(start: start, count: vocabularySize)
            case .withdraw(let decoded):
                if decoded { try? trim(sequence, to: pass.position) }
                throw .aborted
            case .run(let parts, let runs):
                runStep(parts, runs, meanwhile: meanwhile)
                meanwhile = nil
            case .wait:
                meanwhile?()
                meanwhile = nil
                pass.wake.wait()
            }
        }
    }

    package var statistics: Statistics { state.withLock { $0.statistics } }

    /// Ends `sequence`'s membership: steps no longer wait for it.
    func leave(_ sequence: Int) {
        state.withLock { state in
            guard state.members.remove(sequence) != nil else { return }
            Self.wakeAll(state)
        }
    }

    /// Called when a request's abort flag was raised: wakes it if it waits
    /// for a step, and aborts the running step when every pass in it is
    /// cancelled.
    func abortChanged() {
        state.withLock { state in
            if let running = state.running, !running.isEmpty,
                running.allSatisfy({ state.requests[$0]?.abort.isAbortRequested ?? true })
            {
                contextAbort.requestAbort()
            }
            Self.wakeAll(state)
        }
    }

    /// Forgets positions `position...` of `sequence` (between its steps).
    func trim(_ sequence: Int, to position: Int) throws(LlamaError) {
        try context.withLock { context throws(LlamaError) in
            try context.removeTokens(sequence: sequence, from: position)
        }
    }

    private static func wakeAll(_ state: State) {
        for request in state.requests.values { request.wake.signal() }
    }

    /// Chooses the next step: the smallest requests first, each whole or,
    /// for the last one to fit, its first part; marks the step running.
    private static func nextStep(_ state: inout State, batchSize: Int) -> ([Part], [LlamaBatchContext.Run])? {
        let order = state.requests
            .filter { !$0.value.abort.isAbortRequested }
            .sorted { lhs, rhs in
                let left = lhs.value.tokens.count - lhs.value.done, right = rhs.value.tokens.count - rhs.value.done
                return left != right ? left < right : lhs.value.number < rhs.value.number
            }
        var room = batchSize
        var parts: [Part] = []
        var runs: [LlamaBatchContext.Run] = []
        for (sequence, request) in order where room > 0 {
            let count = min(request.tokens.count - request.done, room)
            let range = request.done..<(request.done + count)
            let completes = range.upperBound == request.tokens.count
            room -= count
            parts.append(Part(sequence: sequence, start: request.position, range: range, completes: completes))
            runs.append(
                LlamaBatchContext.Run(
                    sequence: sequence, position: request.position + range.lowerBound,
                    tokens: request.tokens[range], computesLogits: completes && request.computesLogits
                ))
        }
        guard !parts.isEmpty else { return nil }
        // Laid out by sequence, not by size: a step's layout does not
        // depend on the order the passes arrived in.
        let bySequence = parts.indices.sorted { parts[$0].sequence < parts[$1].sequence }
        state.running = parts.map(\.sequence)
        return (bySequence.map { parts[$0] }, bySequence.map { runs[$0] })
    }

    /// Decodes one step and returns the address of each run's logits row
    /// (0: none), with the time spent in llama.cpp.
    private func decode(_ parts: [Part], _ runs: [LlamaBatchContext.Run], meanwhile: (() -> Void)?) -> (Result<[UInt], LlamaError>, Double) {
        context.withLock { context in
            let started = ContinuousClock.now
            // The request's own work is not llama.cpp's time.
            var excluded = Duration.zero
            var pending = meanwhile
            let outcome: Result<[UInt], LlamaError>
            do throws(LlamaError) {
                let rows = try context.decode(runs)
                // A GPU computes the step after `llama_decode` has
                // returned, and reading the logits waits for it: the
                // request's own work in between costs nothing.
                if let work = pending {
                    pending = nil
                    let began = ContinuousClock.now
                    work()
                    excluded = ContinuousClock.now - began
                }
                // Every row's address now, on this thread: reading
                // them is llama.cpp's business; the floats
                // themselves stay put until the next decode.
                outcome = .success(
                    try rows.map { row throws(LlamaError) -> UInt in
                        guard let row else { return 0 }
                        return UInt(bitPattern: try context.logits(row: row).baseAddress)
                    })
            } catch {
                // `decode` cut each run back; a long pass's earlier
                // steps are cut here, so that the pass fails as a
                // whole (before any member can use its sequence again).
                for part in parts where part.range.lowerBound > 0 {
                    try? context.removeTokens(sequence: part.sequence, from: part.start)
                }
                outcome = .failure(error)
                pending?()
            }
            return (outcome, (ContinuousClock.now - started - excluded).inSeconds)
        }
    }

    /// Runs one step (on the calling member's thread) and hands each
    /// request its result.
    private func runStep(_ parts: [Part], _ runs: [LlamaBatchContext.Run], meanwhile: (() -> Void)? = nil) {
        let outcome: Result<[UInt], LlamaError>
        let seconds: Double
        if let thread {
            (outcome, seconds) = thread.run { [self] in decode(parts, runs, meanwhile: nil) }
        } else {
            (outcome, seconds) = decode(parts, runs, meanwhile: meanwhile)
        }
        state.withLock { state in
            state.running = nil
            state.statistics.decodeSeconds += seconds
            state.statistics.steps += 1
            state.statistics.passes += parts.count
            state.statistics.tokens += runs.reduce(0) { $0 + $1.tokens.count }
            for (index, part) in parts.enumerated() {
                guard var request = state.requests[part.sequence] else { continue }
                switch outcome {
                case .success(let addresses):
                    request.done = part.range.upperBound
                    if part.completes {
                        state.requests[part.sequence] = nil
                        state.finished[part.sequence] = .success(addresses[index])
                    } else {
                        state.requests[part.sequence] = request
                        continue
                    }
                case .failure(let error):
                    state.requests[part.sequence] = nil
                    state.finished[part.sequence] = .failure(error)
                }
                // Finished: no longer among the requests `wakeAll` reaches.
                request.wake.signal()
            }
            // The rest: a prompt with more steps to go, and whoever asked
            // while this step ran (one of them may lead the next).
            Self.wakeAll(state)
        }
    }
}
#endif
