import Dispatch
import Foundation
import Synchronization

/// The one thread every `llama_decode` of the process's local models runs on.
///
/// Why: llama.cpp's CPU backend computes a decode with an OpenMP team, and
/// libgomp keeps a pool of worker threads per thread that starts a team.
/// Each new calling thread gets workers of its own; once the process has
/// more of them than cores, libgomp stops spinning at barriers and sleeps
/// instead, and a decode passes hundreds of barriers. Steps are led by
/// whichever request completes them, a different thread nearly every time;
/// running every decode on one thread keeps one team of workers hot, for
/// all models of the process (BENCHMARKS.md has the throughput).
///
/// The same thread is how models loaded side by side share the CPU: their
/// steps wait in one line and run one at a time, first come first served.
/// llama.cpp already uses every core for one decode; two decoding at once
/// would only oversubscribe the CPU (its workers spin-wait, and throughput
/// collapses).
///
/// ``run(_:)`` blocks its caller until the thread has run the work; callers
/// wait in line, in the order they called. A thread other than ``shared``
/// ends when it is freed.
final class DecodeThread: Sendable {
    /// The work waiting for the thread, shared with it.
    private final class Line: Sendable {
        let items = Mutex<[@Sendable () -> Void]>([])
        let available = DispatchSemaphore(value: 0)
    }

    /// One result handed back to a waiting caller.
    private final class Handoff<Value: Sendable>: Sendable {
        let value = Mutex<Value?>(nil)
        let done = DispatchSemaphore(value: 0)
    }

    private let line = Line()

    /// The thread of the process (see above): every model's steps.
    static let shared = DecodeThread(name: "foundation-models.decode")

    init(name: String) {
        let line = self.line
        let thread = Thread {
            while true {
                line.available.wait()
                // A signal with nothing in line: the owner was freed.
                guard let item = line.items.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return }
                item()
            }
        }
        thread.name = name
        thread.stackSize = 8 << 20
        thread.start()
    }

    deinit {
        line.available.signal()
    }

    /// The work waiting in line now, not counting what the thread runs.
    var waiting: Int { line.items.withLock { $0.count } }

    /// Runs `body` on the thread and returns its result; blocks the calling
    /// thread (never Swift's cooperative pool) until then.
    func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> Value {
        let handoff = Handoff<Value>()
        line.items.withLock {
            $0.append {
                let value = body()
                handoff.value.withLock { $0 = value }
                handoff.done.signal()
            }
        }
        line.available.signal()
        while true {
            handoff.done.wait()
            if let value = handoff.value.withLock({ $0 }) { return value }
        }
    }
}
