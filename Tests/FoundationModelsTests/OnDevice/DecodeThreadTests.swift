import Dispatch
import Foundation
import Synchronization
import Testing

@testable import FoundationModels

/// The thread every local model's decodes run on, without a model: one body
/// at a time, always on that thread, every caller served with its own
/// result, in the order they called.
@Suite("Decode thread")
struct DecodeThreadTests {
    @Test func oneBodyAtATimeOnOneThreadAndEveryCallerServed() {
        let thread = DecodeThread(name: "test.decode")
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let threads = Mutex<Set<ObjectIdentifier>>([])
        let wrongResults = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { caller in
            for turn in 0..<250 {
                let value = thread.run { () -> Int in
                    if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 {
                        overlaps.add(1, ordering: .relaxed)
                    }
                    threads.withLock { $0.insert(ObjectIdentifier(Thread.current)) }
                    inside.subtract(1, ordering: .acquiringAndReleasing)
                    return caller * 1000 + turn
                }
                if value != caller * 1000 + turn { wrongResults.add(1, ordering: .relaxed) }
            }
        }
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(wrongResults.load(ordering: .relaxed) == 0)
        let used = threads.withLock { $0 }
        #expect(used.count == 1)
        #expect(!used.contains(ObjectIdentifier(Thread.current)))
    }

    @Test func callersAreServedInTheOrderTheyCalled() {
        let thread = DecodeThread(name: "test.decode")
        let order = Mutex<[Int]>([])
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // The first caller's body holds the thread while the others line
        // up, one after another.
        DispatchQueue.global().async {
            thread.run {
                holding.signal()
                release.wait()
            }
        }
        holding.wait()
        let done = DispatchGroup()
        for index in 0..<5 {
            done.enter()
            DispatchQueue.global().async {
                thread.run { order.withLock { $0.append(index) } }
                done.leave()
            }
            // This caller is in line before the next one starts (waited
            // for, not slept on: under a full test run a queued block can
            // take longer than any fixed pause to start).
            while thread.waiting < index + 1 { usleep(1_000) }
        }
        release.signal()
        done.wait()
        #expect(order.withLock { $0 } == [0, 1, 2, 3, 4])
    }
}
