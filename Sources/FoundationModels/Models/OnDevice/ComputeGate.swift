import Foundation

/// Lets one context compute at a time, in the order they asked.
///
/// llama.cpp already uses every core for one decode; two contexts decoding
/// at once only oversubscribe the CPU (its worker threads spin-wait, and
/// throughput collapses). Taking turns per decoding step instead interleaves
/// concurrent requests token by token — fair, and as fast as the machine
/// allows.
///
/// A ticket lock: `withTurn` takes the next ticket and waits until it is
/// served. `@unchecked Sendable` is sound because `nextTicket` and `serving`
/// are only read or written while `condition` is locked.
final class ComputeGate: @unchecked Sendable {
    /// The one gate of the process: every context of every local model
    /// takes its turn here, so two models loaded side by side interleave
    /// their steps instead of each using every core at once.
    static let shared = ComputeGate()

    private let condition = NSCondition()
    private var nextTicket: UInt64 = 0
    private var serving: UInt64 = 0

    /// Runs `body` when it is this caller's turn. Blocks the calling thread
    /// (a context's own queue, never Swift's cooperative pool).
    func withTurn<Result>(_ body: () throws -> Result) rethrows -> Result {
        condition.lock()
        let ticket = nextTicket
        nextTicket += 1
        while serving != ticket {
            condition.wait()
        }
        condition.unlock()
        defer {
            condition.lock()
            serving += 1
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}
