import Dispatch
import Synchronization

/// Lets one model's step compute at a time, in the order they asked.
///
/// llama.cpp already uses every core for one decode; two models decoding
/// at once only oversubscribe the CPU (its worker threads spin-wait, and
/// throughput collapses). The requests on one model share their steps
/// (``DecodeScheduler``); models loaded side by side take turns per step
/// here instead — fair, and as fast as the machine allows.
///
/// A first-come-first-served hand-off lock: a caller that finds the gate
/// busy queues a semaphore and sleeps on it; the caller whose turn ends
/// wakes the longest-waiting one, or opens the gate. All state is behind a
/// `Mutex`, so the type is `Sendable` without an unchecked claim.
final class ComputeGate: Sendable {
    /// The one gate of the process: every step of every local model takes
    /// its turn here, so two models loaded side by side interleave their
    /// steps instead of each using every core at once.
    static let shared = ComputeGate()

    private struct State {
        /// Someone holds the turn.
        var busy = false
        /// The callers waiting for a turn, longest-waiting first.
        var waiting: [DispatchSemaphore] = []
    }

    private let state = Mutex(State())

    /// Runs `body` when it is this caller's turn. Blocks the calling thread
    /// (a context slot's queue, never Swift's cooperative pool).
    func withTurn<Result>(_ body: () throws -> Result) rethrows -> Result {
        let wait = state.withLock { state -> DispatchSemaphore? in
            guard state.busy else {
                state.busy = true
                return nil
            }
            let semaphore = DispatchSemaphore(value: 0)
            state.waiting.append(semaphore)
            return semaphore
        }
        // Woken by the previous holder, which hands the turn over without
        // opening the gate in between.
        wait?.wait()
        defer {
            let next = state.withLock { state -> DispatchSemaphore? in
                guard !state.waiting.isEmpty else {
                    state.busy = false
                    return nil
                }
                return state.waiting.removeFirst()
            }
            next?.signal()
        }
        return try body()
    }
}
