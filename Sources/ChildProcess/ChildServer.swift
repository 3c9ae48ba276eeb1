import Dispatch
import Foundation
import Synchronization

/// A program that runs beside this one until it is stopped: llama-server
/// and fm-serve for the eval, the benchmarks and the tests, the
/// benchmarks' workers. Its lines of standard output are read as they come
/// (fm-serve's first line says where it listens; a worker answers a line a
/// job), its standard error goes to a log kept for error messages (or
/// nowhere, or this process's), and it is never left running: ``stop()``
/// or ``terminate(within:)`` end it, deinit kills one still running, and
/// ``OrphanGuard`` kills it when this process is interrupted or terminated.
///
/// A class, because it owns the running process: copies would share it,
/// and its end is tied to this value's life.
package final class ChildServer: Sendable {
    /// Where standard error goes.
    package enum StandardError: Sendable {
        case discarded
        /// This process's standard error.
        case inherited
        /// A temporary file, read by ``logTail(_:)`` and removed when the server is stopped.
        case log
        /// The caller's file (emptied first, kept after).
        case file(URL)
    }

    /// Where standard output goes.
    package enum StandardOutput: Sendable {
        /// Read as it comes, for ``nextLine(within:)``.
        case lines
        case discarded
    }

    /// The next line of standard output, or why there is none.
    package enum Line: Sendable, Equatable {
        case line(String)
        /// None within the time allowed; the program is still running.
        case timedOut
        /// The program closed its standard output or ended.
        case ended
    }

    /// Why a server did not start or become ready.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }

    private let process: Process
    private let input: Pipe?
    private let log: URL?
    private let shared = Shared()
    /// The command as a shell would read it (variables added first), for reports.
    package let command: String

    /// What the handlers, on other threads, tell the readers.
    private final class Shared: Sendable {
        struct State {
            var buffer = Data()
            var closed = false
            var status: Int32?
            /// When it was seen to end: output written just before the
            /// end may still be on its way for a moment.
            var exitedAt: ContinuousClock.Instant?
            /// Whether Foundation has reaped it (its termination handler
            /// ran): until then a process of that id still exists.
            var reaped = false
        }
        let state = Mutex(State())
        /// Signalled on every change of `state`.
        let changed = DispatchSemaphore(value: 0)
    }

    /// Starts `executable` with `arguments`; the environment is this
    /// process's with `environment` added and `unsetting` removed. With
    /// `acceptsInput`, ``write(_:)`` feeds its standard input (else /dev/null).
    package init(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], unsetting: [String] = [],
        standardOutput: StandardOutput = .lines, standardError: StandardError = .log, acceptsInput: Bool = false
    ) throws(Failure) {
        process = ChildProcess.makeProcess(executable, arguments, environment: environment, unsetting: unsetting, directory: nil)
        command = (environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + [executable.path] + arguments)
            .joined(separator: " ")
        input = acceptsInput ? Pipe() : nil
        process.standardInput = input ?? FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = standardOutput == .lines ? output : FileHandle.nullDevice
        switch standardError {
        case .discarded:
            log = nil
            process.standardError = FileHandle.nullDevice
        case .inherited:
            log = nil
            process.standardError = FileHandle.standardError
        case .log, .file:
            let url: URL
            if case .file(let file) = standardError {
                url = file
                log = nil
            } else {
                url = FileManager.default.temporaryDirectory
                    .appendingPathComponent("child-server-\(getpid())-\(UUID().uuidString.prefix(8)).log")
                log = url
            }
            do {
                guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw Failure("cannot create \(url.path)") }
                process.standardError = try FileHandle(forWritingTo: url)
            } catch {
                throw Failure("cannot create its log \(url.path): \(error)")
            }
        }
        let shared = shared
        process.terminationHandler = { process in
            shared.state.withLock {
                $0.status = process.terminationStatus
                $0.exitedAt = $0.exitedAt ?? .now
                $0.reaped = true
            }
            shared.changed.signal()
        }
        // Standard output read as it comes, so a full pipe never stops the
        // program; its end is also the program's end (`State.status`),
        // since another program may hold the pipe open after this one ended.
        if standardOutput == .lines {
            output.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                shared.state.withLock { if data.isEmpty { $0.closed = true } else { $0.buffer.append(data) } }
                if data.isEmpty { handle.readabilityHandler = nil }
                shared.changed.signal()
            }
        }
        do {
            try process.run()
        } catch {
            output.fileHandleForReading.readabilityHandler = nil
            if let log { try? FileManager.default.removeItem(at: log) }
            throw Failure("\(executable.path) could not be started: \(error.localizedDescription)")
        }
        OrphanGuard.adopt(process.processIdentifier)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        OrphanGuard.release(process.processIdentifier)
        if let log { try? FileManager.default.removeItem(at: log) }
    }

    package var processIdentifier: Int32 { process.processIdentifier }
    package var isRunning: Bool { exitStatus == nil }
    /// The exit status once it has ended (the signal's number for a
    /// program a signal ended, as Foundation reports it), else nil: the
    /// termination handler's, or, where that has not come, the kernel's
    /// (``ChildExit/peek(_:)``). Foundation learns of a child's end when a
    /// socket the child holds closes, so another program started at the
    /// same moment that inherited that socket (tests start many at once)
    /// delays the handler for as long as it runs: seen in CI, a `sh` that
    /// exited at once was still "running" 30 s later.
    package var exitStatus: Int32? { noteEnd() }

    /// ``exitStatus``, recording the kernel's word in the state (its time
    /// too, which the line readers' end of output waits on). Once
    /// Foundation has reaped the program the kernel has nothing left to
    /// say, and the termination handler may still be queued behind a busy
    /// process's other work: then Foundation's own record, which it writes
    /// before it marks the program ended (seen in CI: output closed, no
    /// status from the kernel, none from the handler).
    @discardableResult
    private func noteEnd() -> Int32? {
        if let status = shared.state.withLock({ $0.status }) { return status }
        let status: Int32
        if let peeked = ChildExit.peek(process.processIdentifier) {
            status = peeked
        } else if !process.isRunning {
            status = process.terminationStatus
        } else {
            return nil
        }
        shared.state.withLock {
            if $0.status == nil {
                $0.status = status
                $0.exitedAt = .now
            }
        }
        return status
    }

    /// The next line it writes, blocking the calling thread at most
    /// `timeout` (never call it from a task: ``nextLine(within:)`` is the
    /// async one).
    package func nextLineBlocking(within timeout: Duration) -> Line {
        let deadline = DispatchTime.now() + timeout.seconds
        while true {
            noteEnd()
            if let line = takeLine() { return line }
            if DispatchTime.now() >= deadline { return .timedOut }
            _ = shared.changed.wait(timeout: min(deadline, .now() + 0.05))
        }
    }

    /// The next line it writes, polling without holding a thread.
    package func nextLine(within timeout: Duration) async -> Line {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            noteEnd()
            if let line = takeLine() { return line }
            if clock.now >= deadline { return .timedOut }
            do { try await Task.sleep(for: .milliseconds(20)) } catch { return .timedOut }
        }
    }

    /// The first whole line in the buffer, `.ended` once there is none and
    /// the program has ended, else nil.
    private func takeLine() -> Line? {
        shared.state.withLock { state in
            if let newline = state.buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: state.buffer[state.buffer.startIndex..<newline], as: UTF8.self)
                state.buffer.removeSubrange(state.buffer.startIndex...newline)
                return .line(line)
            }
            let drained = state.exitedAt.map { ContinuousClock.now - $0 > .milliseconds(200) } ?? false
            return state.closed || drained ? .ended : nil
        }
    }

    /// The port in a server's line that says where it listens
    /// (`listening on http://127.0.0.1:PORT/v1`): the first address with
    /// one, a URL or `HOST:PORT`; nil when there is none.
    package static func loopbackPort(in line: String) -> Int? {
        for word in line.split(whereSeparator: \.isWhitespace) {
            let address = word.contains("://") ? URL(string: String(word))?.port : nil
            if let address { return address }
            let parts = word.split(separator: ":")
            if parts.count == 2, parts[0] == "127.0.0.1" || parts[0] == "localhost",
                let port = Int(parts[1].prefix { $0.isNumber })
            {
                return port
            }
        }
        return nil
    }

    /// Writes `data` to its standard input (started with `acceptsInput`).
    package func write(_ data: Data) throws(Failure) {
        guard let input else { throw Failure("its standard input was not kept") }
        do {
            try input.fileHandleForWriting.write(contentsOf: data)
        } catch {
            throw Failure("cannot write to it: \(error)")
        }
    }

    /// Waits until `isReady` says so, checking every 100 ms; fails when the
    /// program ends first or `timeout` passes (the server is not stopped:
    /// the caller stops it). Both are looked at once more after the
    /// deadline, so a task that was not scheduled for a while (a busy
    /// cooperative pool) reports what happened meanwhile, not a timeout.
    /// A program that closed its output at the deadline is ending: its
    /// status follows moments after the close, so it gets up to a second
    /// to say so.
    package func waitUntilReady(within timeout: Duration, name: String, _ isReady: () async -> Bool) async throws(Failure) {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let late = clock.now >= deadline
            if let status = exitStatus { throw Failure("\(name) exited (status \(status)): \(logTail())") }
            if await isReady() { return }
            if late { break }
            do { try await Task.sleep(for: .milliseconds(100)) } catch { throw Failure("cancelled while \(name) was starting") }
        }
        if shared.state.withLock({ $0.closed }) {
            let grace = clock.now + .seconds(1)
            while clock.now < grace {
                if let status = exitStatus { throw Failure("\(name) exited (status \(status)): \(logTail())") }
                do { try await Task.sleep(for: .milliseconds(10)) } catch { break }
            }
        }
        throw Failure("\(name) did not become ready in \(timeout.seconds.formatted()) s: \(logTail())")
    }

    /// Sends it `signal` (SIGTERM: asks it to end) and returns at once;
    /// ``waitForExit(within:)`` then waits for its end.
    package func send(_ signal: Int32) {
        if isRunning { kill(process.processIdentifier, signal) }
    }

    /// Kills it (SIGKILL) and waits at most 5 s until it is gone; its log
    /// is removed. SIGKILL, because a program started from a Dispatch
    /// worker thread inherits that thread's signal mask, which blocks
    /// SIGTERM, and nothing is left for it to finish.
    package func stop() {
        if isRunning { kill(process.processIdentifier, SIGKILL) }
        waitForEnd(within: .seconds(5), reaped: true)
        finish()
    }

    /// Asks it to end (SIGTERM), as a user would, and waits at most
    /// `timeout` for its exit status; one still running then is killed and
    /// the status is nil.
    package func terminate(within timeout: Duration = .seconds(60)) -> Int32? {
        if isRunning { kill(process.processIdentifier, SIGTERM) }
        waitForEnd(within: timeout)
        let status = exitStatus
        if status == nil { stop() } else { finish() }
        return status
    }

    /// The last `count` characters of its log (empty without one).
    package func logTail(_ count: Int = 800) -> String {
        guard let log else { return "" }
        return String(((try? String(contentsOf: log, encoding: .utf8)) ?? "").suffix(count))
    }

    /// Waits, blocking the calling thread at most `timeout`, for a program
    /// that ends by itself: its exit status, or nil while it still runs.
    package func waitForExit(within timeout: Duration) -> Int32? {
        waitForEnd(within: timeout)
        let status = exitStatus
        if status != nil { finish() }
        return status
    }

    /// Blocks until it has ended or `timeout` passes: a semaphore the
    /// termination handler signals, waited on in slices that look at the
    /// kernel's word too (``exitStatus``); not `waitUntilExit()`, which
    /// spins a core on a thread without a run loop.
    /// With `reaped`, until Foundation has collected it too, so its
    /// process id is gone (what ``stop()`` promises).
    private func waitForEnd(within timeout: Duration, reaped: Bool = false) {
        let deadline = DispatchTime.now() + timeout.seconds
        while reaped ? !shared.state.withLock({ $0.reaped }) : isRunning {
            if DispatchTime.now() >= deadline { break }
            _ = shared.changed.wait(timeout: min(deadline, .now() + 0.05))
        }
    }

    private func finish() {
        try? input?.fileHandleForWriting.close()
        OrphanGuard.release(process.processIdentifier)
        if let log { try? FileManager.default.removeItem(at: log) }
    }
}

/// Kills the servers this process started when it is interrupted or
/// terminated (Ctrl-C, `timeout`, a closed output pipe), so none is left
/// running, taking the cores, after the process is gone. (Foundation's
/// `Process` has no hook in the child before `exec`, so the child cannot
/// ask for PR_SET_PDEATHSIG itself; a SIGKILL of this process still
/// leaves its servers running.)
package enum OrphanGuard {
    private static let children = Mutex<Set<pid_t>>([])
    /// Written once, by `installOnce` (a lazy static: initialized once, thread-safely).
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    package static func adopt(_ pid: pid_t) {
        installOnce
        children.withLock { _ = $0.insert(pid) }
    }

    package static func release(_ pid: pid_t) {
        children.withLock { _ = $0.remove(pid) }
    }

    private static let installOnce: Void = {
        // A closed output pipe makes writes fail instead of killing us.
        signal(SIGPIPE, SIG_IGN)
        var installed: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                for pid in children.withLock({ $0 }) { kill(pid, SIGKILL) }
                exit(128 + number)
            }
            source.resume()
            installed.append(source)
        }
        sources = installed
    }()
}

/// A child's end read from the kernel without reaping it (`waitid` with
/// `WNOWAIT`), so Foundation's own `waitpid` still collects it: the word a
/// waiter trusts when Foundation's termination handler is late.
package enum ChildExit {
    /// The exit status of `pid`, a child of this process, once it has ended
    /// (the signal's number when a signal ended it, as Foundation reports
    /// it); nil while it runs, or once it has been reaped.
    package static func peek(_ pid: pid_t) -> Int32? {
        guard pid > 0 else { return nil }
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return nil }
        let child = info._sifields._sigchld
        guard child.si_pid == pid else { return nil }
        return child.si_status
    }
}
