import Dispatch
import Foundation
import Synchronization
import Testing
@testable import FoundationModels

/// The gate every local context takes turns at, without a model: one body at
/// a time, every caller served, in the order they queued.
@Suite("Compute gate")
struct ComputeGateTests {
    @Test func oneTurnAtATimeAndEveryCallerServed() {
        let gate = ComputeGate()
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let turns = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<500 {
                gate.withTurn {
                    if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 {
                        overlaps.add(1, ordering: .relaxed)
                    }
                    turns.add(1, ordering: .relaxed)
                    inside.subtract(1, ordering: .acquiringAndReleasing)
                }
            }
        }
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(turns.load(ordering: .relaxed) == 4000)
    }

    @Test func waitersAreServedInTheOrderTheyQueued() {
        let gate = ComputeGate()
        let order = Mutex<[Int]>([])
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // The first caller holds the turn while the others queue up, one
        // after another.
        DispatchQueue.global().async {
            gate.withTurn {
                holding.signal()
                release.wait()
            }
        }
        holding.wait()
        let done = DispatchGroup()
        for index in 0..<5 {
            done.enter()
            DispatchQueue.global().async {
                gate.withTurn { order.withLock { $0.append(index) } }
                done.leave()
            }
            // Let this caller reach the queue before the next one starts.
            usleep(30_000)
        }
        release.signal()
        done.wait()
        #expect(order.withLock { $0 } == [0, 1, 2, 3, 4])
    }

    @Test func aThrowingBodyPassesTheTurnOn() {
        struct Failed: Error {}
        let gate = ComputeGate()
        #expect(throws: Failed.self) { try gate.withTurn { throw Failed() } }
        #expect(gate.withTurn { 42 } == 42)
    }
}
