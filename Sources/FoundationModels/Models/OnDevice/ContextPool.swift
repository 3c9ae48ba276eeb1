#if LlamaCpp
import LlamaKit
import Synchronization

/// A bounded set of contexts (KV caches) shared by every session on a model,
/// with a bounded, first-come-first-served waiting line.
///
/// Sessions outnumber contexts: a request takes the idle context whose cache
/// shares the longest prefix with its prompt (so a session that comes back
/// usually finds its conversation still cached, and otherwise recomputes
/// it), creating contexts up to `capacity`. When all are busy it waits its
/// turn; when `maximumWaiting` requests already wait, it fails at once with
/// `rateLimited`.
final class ContextPool: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<ContextSlot, any Error>
    }

    private struct State {
        var idle: [ContextSlot] = []
        /// Every context made, leased or idle (``occupancy(tokensPerSequence:)``).
        var made: [ContextSlot] = []
        var created = 0
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
    }

    let capacity: Int
    let maximumWaiting: Int
    private let makeSlot: @Sendable (Int) throws -> ContextSlot
    private let state = Mutex(State())

    init(capacity: Int, maximumWaiting: Int, makeSlot: @escaping @Sendable (Int) throws -> ContextSlot) {
        self.capacity = max(1, capacity)
        self.maximumWaiting = max(0, maximumWaiting)
        self.makeSlot = makeSlot
    }

    private enum Decision {
        case use(ContextSlot)
        case create(Int)
        case wait
        case reject(waiting: Int)
    }

    /// Leases a context for `prompt`. Pair with ``release(_:)``.
    func acquire(for prompt: [LlamaToken]) async throws -> ContextSlot {
        let decision = state.withLock { state -> Decision in
            if !state.idle.isEmpty {
                let best =
                    state.idle.indices.max { lhs, rhs in
                        Self.commonPrefix(state.idle[lhs].cachedTokens, prompt) < Self.commonPrefix(state.idle[rhs].cachedTokens, prompt)
                    } ?? 0
                return .use(state.idle.remove(at: best))
            }
            if state.created < capacity {
                state.created += 1
                return .create(state.created)
            }
            return state.waiters.count >= maximumWaiting ? .reject(waiting: state.waiters.count) : .wait
        }
        switch decision {
        case .use(let slot):
            return slot
        case .create(let number):
            do {
                let slot = try makeSlot(number)
                state.withLock { $0.made.append(slot) }
                return slot
            } catch {
                state.withLock { $0.created -= 1 }
                throw error
            }
        case .reject(let waiting):
            throw LanguageModelError.rateLimited(
                .init(
                    resetDate: nil,
                    debugDescription:
                        "All \(capacity) contexts of the on-device model are busy and \(waiting) requests are already waiting (SystemLanguageModel.Configuration.maximumQueuedRequests)."
                ))
        case .wait:
            return try await waitForSlot()
        }
    }

    private func waitForSlot() async throws -> ContextSlot {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Decided under the lock, and acted on by exactly one party:
                // once the waiter is in the line, only `release` or the
                // cancellation handler (which removes it first) resumes it.
                enum Entry { case slot(ContextSlot), cancelled, waiting }
                let entry = state.withLock { state -> Entry in
                    if Task.isCancelled { return .cancelled }
                    if let slot = state.idle.popLast() { return .slot(slot) }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return .waiting
                }
                switch entry {
                case .slot(let slot): continuation.resume(returning: slot)
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .waiting: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Returns a leased context: to the longest-waiting request, or to the idle set.
    func release(_ slot: ContextSlot) {
        let waiter = state.withLock { state -> Waiter? in
            if !state.waiters.isEmpty { return state.waiters.removeFirst() }
            state.idle.append(slot)
            return nil
        }
        waiter?.continuation.resume(returning: slot)
    }

    /// How full the pool is now: its contexts serving a request, the
    /// requests waiting for one, and the tokens its contexts' caches hold
    /// (each as of the end of its last job: a running job's own tokens are
    /// counted when it ends) of what `capacity` contexts of
    /// `tokensPerSequence` can hold.
    func occupancy(tokensPerSequence: Int) -> EngineOccupancy {
        state.withLock { state in
            EngineOccupancy(
                sequencesInUse: state.created - state.idle.count, sequences: capacity,
                waiting: state.waiters.count, maximumWaiting: maximumWaiting,
                cachedTokens: state.made.reduce(0) { $0 + $1.cachedTokens.count }, tokenCapacity: capacity * tokensPerSequence
            )
        }
    }

    /// How many tokens each idle context holds (for tests and diagnostics).
    var idleCachedTokenCounts: [Int] {
        state.withLock { $0.idle.map(\.cachedTokens.count) }
    }

    static func commonPrefix(_ lhs: [LlamaToken], _ rhs: [LlamaToken]) -> Int {
        var count = 0
        let limit = min(lhs.count, rhs.count)
        while count < limit && lhs[count] == rhs[count] { count += 1 }
        return count
    }
}
#endif
