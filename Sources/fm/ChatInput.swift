import Foundation
import Synchronization
import TerminalSupport

#if canImport(Glibc)
import Glibc
#endif

/// Lines typed at `fm chat`, read on a thread of their own: `readLine`
/// blocks, and blocking work stays off Swift's cooperative pool, whose few
/// threads the answer being generated needs.
final class ChatInput: Sendable {
    let lines: AsyncStream<String>

    init() {
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        self.lines = lines
        let reader = Thread {
            while let line = readLine(strippingNewline: true) {
                continuation.yield(line)
            }
            continuation.finish()
        }
        reader.name = "fm chat input"
        reader.start()
    }

    /// Whether a person is typing (standard input is a terminal): only then
    /// is a prompt shown.
    static var isInteractive: Bool { TerminalStream.input.isTerminal }
}

/// Ctrl-C in `fm chat`: while an answer is generated it stops the answer
/// (its task is cancelled; the session leaves the transcript as it was);
/// otherwise it says how to leave. The program itself never dies of it.
///
/// SIGINT is ignored as a signal and observed through a dispatch source,
/// the one safe way to run Swift code on a signal: a signal handler may not
/// take locks or allocate.
final class ChatInterrupts: Sendable {
    private let action = Mutex<(@Sendable () -> Void)?>(nil)
    private let idle: @Sendable () -> Void
    /// Set once in `init`; a dispatch source is thread-safe.
    nonisolated(unsafe) private let source: any DispatchSourceSignal

    /// - Parameter idle: what Ctrl-C does when no answer is being generated.
    init(idle: @escaping @Sendable () -> Void) {
        self.idle = idle
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [weak self] in self?.interrupted() }
        source.resume()
    }

    private func interrupted() {
        (action.withLock { $0 } ?? idle)()
    }

    /// Runs `body` with Ctrl-C bound to `onInterrupt`.
    func during<T>(onInterrupt: @escaping @Sendable () -> Void, _ body: () async throws -> T) async rethrows -> T {
        action.withLock { $0 = onInterrupt }
        defer { action.withLock { $0 = nil } }
        return try await body()
    }

    deinit {
        source.cancel()
    }
}
