import Dispatch
import Foundation
import Synchronization

/// The package's one way to run a program to its end (the OCR engines of
/// the kit, the eval's renderer, the benchmarks' tools, the tests' commands):
/// its status and what it wrote, as a named ``Output``.
///
/// What the program writes goes to temporary files, read once it has
/// exited, so no run can stall on a full pipe (reading standard output to
/// its end before standard error waits forever on a program that fills
/// standard error first), a pipe's end inherited by another program started
/// at the same time cannot keep a run waiting after its own program ended,
/// and no thread is spent reading. Standard input is a file too (or
/// /dev/null). The exit is known from the process's termination handler,
/// or from the kernel where that is late (``ChildExit``):
/// ``run(_:_:environment:unsetting:directory:input:standardError:timeLimit:)``
/// never blocks the cooperative pool, ``runBlocking(_:_:environment:unsetting:directory:input:standardError:timeLimit:)``
/// blocks its own thread only, for synchronous callers (fm-bench's `main`,
/// the tests' static properties). The program is killed when the calling
/// task is cancelled or the time limit passes: with SIGKILL, because a
/// program started from a Dispatch worker thread inherits that thread's
/// signal mask, which blocks SIGTERM.
///
/// Built on Foundation's `Process` rather than swift-subprocess (1.0.2),
/// whose `run` is async only and keeps a child for the span of a closure:
/// a synchronous caller bridged to it with a semaphore hangs once as many
/// callers as the cooperative pool has threads wait at once (two on a
/// 2-core machine: both 20 s waits ran out), and a server held across
/// awaits (``ChildServer``) does not fit a closure's span.
package enum ChildProcess {
    /// How a run ended: its exit status (the signal's number for a program
    /// a signal ended, as Foundation reports it) and what it wrote.
    package struct Output: Sendable, CustomStringConvertible {
        package var status: Int32
        package var standardOutput: String
        package var standardError: String

        package init(status: Int32, standardOutput: String, standardError: String) {
            self.status = status
            self.standardOutput = standardOutput
            self.standardError = standardError
        }

        package var succeeded: Bool { status == 0 }

        package var description: String {
            "status \(status)\nstandard output: \(standardOutput)\nstandard error: \(standardError)"
        }
    }

    /// Where standard error goes.
    package enum StandardError: Sendable {
        /// Kept apart, in ``Output/standardError``.
        case captured
        /// Into standard output, interleaved as the program wrote them
        /// (``Output/standardError`` is empty).
        case intoOutput
        /// Nowhere.
        case discarded
    }

    /// Why a run gave no output.
    package enum Failure: Error, Sendable, CustomStringConvertible {
        case cannotStart(String)
        case timedOut
        case cancelled

        package var description: String {
            switch self {
            case .cannotStart(let reason): "cannot start: \(reason)"
            case .timedOut: "timedOut: stopped at its time limit"
            case .cancelled: "cancelled: stopped"
            }
        }
    }

    /// Runs `executable` with `arguments` to its end, off the cooperative
    /// pool. The environment is this process's with `environment` added
    /// and `unsetting` removed; standard input is `input` (nil: /dev/null).
    /// A non-zero status is an ``Output``, not an error.
    package static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], unsetting: [String] = [],
        directory: URL? = nil, input: String? = nil, standardError: StandardError = .captured, timeLimit: Duration? = nil
    ) async throws(Failure) -> Output {
        let launch = try Launch(
            executable, arguments, environment: environment, unsetting: unsetting, directory: directory,
            input: input, standardError: standardError)
        defer { launch.finish() }
        let process = launch.process
        let stopped = Stopped()
        let end = EndSignal()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                end.wait(with: continuation)
                process.terminationHandler = { _ in end.signal() }
                guard !Task.isCancelled else {
                    stopped.set(.cancelled)
                    end.signal()
                    return
                }
                do {
                    try process.run()
                } catch {
                    stopped.set(.cannotStart(error.localizedDescription))
                    end.signal()
                    return
                }
                end.watch(process.processIdentifier)
                // A cancellation that came while the program was starting
                // found nothing running to kill: it is killed here instead
                // (the handler sets the reason before it looks, so one of
                // the two sees the other).
                if stopped.reason != nil { kill(process.processIdentifier, SIGKILL) }
                killAtTimeLimit(process, timeLimit, stopped)
            }
        } onCancel: {
            stopped.set(.cancelled)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        if let reason = stopped.reason { throw reason }
        return launch.output()
    }

    /// ``run(_:_:environment:unsetting:directory:input:standardError:timeLimit:)``
    /// for a synchronous caller: it blocks the calling thread (never call
    /// it from a task) until the program ends or the time limit passes.
    package static func runBlocking(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], unsetting: [String] = [],
        directory: URL? = nil, input: String? = nil, standardError: StandardError = .captured, timeLimit: Duration? = nil
    ) throws(Failure) -> Output {
        let launch = try Launch(
            executable, arguments, environment: environment, unsetting: unsetting, directory: directory,
            input: input, standardError: standardError)
        defer { launch.finish() }
        let process = launch.process
        let end = EndSignal()
        process.terminationHandler = { _ in end.signal() }
        do {
            try process.run()
        } catch {
            throw .cannotStart(error.localizedDescription)
        }
        let stopped = Stopped()
        killAtTimeLimit(process, timeLimit, stopped)
        end.waitBlocking(for: process.processIdentifier)
        if let reason = stopped.reason { throw reason }
        return launch.output()
    }

    /// Runs a command whose program is found on `PATH` (through
    /// /usr/bin/env), blocking: the tests' and the benchmarks' shorthand.
    package static func runBlocking(
        _ command: [String], environment: [String: String] = [:], directory: URL? = nil, input: String? = nil,
        standardError: StandardError = .captured, timeLimit: Duration? = nil
    ) throws(Failure) -> Output {
        try runBlocking(
            URL(fileURLWithPath: "/usr/bin/env"), command, environment: environment, directory: directory,
            input: input, standardError: standardError, timeLimit: timeLimit)
    }

    private static func killAtTimeLimit(_ process: Process, _ timeLimit: Duration?, _ stopped: Stopped) {
        guard let timeLimit else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit.seconds) {
            if process.isRunning {
                stopped.set(.timedOut)
                kill(process.processIdentifier, SIGKILL)
            }
        }
    }

    /// A configured process and the files it reads and writes.
    private struct Launch {
        let process: Process
        let outputURL: URL
        let errorURL: URL
        let inputURL: URL?
        let standardError: StandardError
        /// The files' handles given to the process, closed by ``finish()``.
        private(set) var handles: [FileHandle] = []

        init(
            _ executable: URL, _ arguments: [String], environment: [String: String], unsetting: [String], directory: URL?,
            input: String?, standardError: StandardError
        ) throws(Failure) {
            let files = FileManager.default
            let stem = files.temporaryDirectory.appendingPathComponent("child-process-\(getpid())-\(UUID().uuidString)")
            outputURL = stem.appendingPathExtension("out")
            errorURL = stem.appendingPathExtension("err")
            inputURL = input == nil ? nil : stem.appendingPathExtension("in")
            self.standardError = standardError
            process = ChildProcess.makeProcess(executable, arguments, environment: environment, unsetting: unsetting, directory: directory)
            do {
                guard files.createFile(atPath: outputURL.path, contents: nil), files.createFile(atPath: errorURL.path, contents: nil) else {
                    throw Failure.cannotStart("cannot create files for its output in \(files.temporaryDirectory.path)")
                }
                let output = try FileHandle(forWritingTo: outputURL)
                handles.append(output)
                process.standardOutput = output
                switch standardError {
                case .captured:
                    let error = try FileHandle(forWritingTo: errorURL)
                    handles.append(error)
                    process.standardError = error
                case .intoOutput: process.standardError = output
                case .discarded: process.standardError = FileHandle.nullDevice
                }
                if let inputURL, let input {
                    try Data(input.utf8).write(to: inputURL)
                    let reading = try FileHandle(forReadingFrom: inputURL)
                    handles.append(reading)
                    process.standardInput = reading
                } else {
                    process.standardInput = FileHandle.nullDevice
                }
            } catch let failure as Failure {
                finish()
                throw failure
            } catch {
                finish()
                throw .cannotStart("cannot create files for its input and output: \(error.localizedDescription)")
            }
        }

        /// What the ended program wrote.
        func output() -> Output {
            let read = { (url: URL) in (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) } ?? "" }
            // The kernel's status while Foundation has not reaped the
            // program yet (its `terminationStatus` is only set then); once
            // reaped, Foundation's, after it has marked the program ended:
            // it reaps, records the status, then clears `isRunning`, and
            // `terminationStatus` traps in between (seen in CI: an illegal
            // instruction in the getter, the whole test process down).
            let status: Int32
            if let peeked = ChildExit.peek(process.processIdentifier) {
                status = peeked
            } else {
                while process.isRunning { usleep(1000) }
                status = process.terminationStatus
            }
            return Output(
                status: status, standardOutput: read(outputURL),
                standardError: standardError == .captured ? read(errorURL) : "")
        }

        /// Closes this process's handles on the files and removes them.
        func finish() {
            for handle in handles { try? handle.close() }
            for url in [outputURL, errorURL] + (inputURL.map { [$0] } ?? []) {
                try? FileManager.default.removeItem(at: url)
            }
        }
    }

    /// The package's one `Process`: `executable` with `arguments`, this
    /// process's environment with `environment` added and `unsetting`
    /// removed, in `directory` (nil: this process's).
    static func makeProcess(
        _ executable: URL, _ arguments: [String], environment: [String: String], unsetting: [String],
        directory: URL?
    ) -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        for name in unsetting { variables[name] = nil }
        process.environment = variables
        if let directory { process.currentDirectoryURL = directory }
        return process
    }

    /// Why the process was stopped, set once from another thread.
    private final class Stopped: Sendable {
        private let stored = Mutex<Failure?>(nil)

        /// The first reason set; later ones are ignored.
        func set(_ reason: Failure) {
            stored.withLock { if $0 == nil { $0 = reason } }
        }

        var reason: Failure? { stored.withLock { $0 } }
    }
}

extension Duration {
    /// The duration in seconds, for Dispatch's deadlines.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// The end of a program run by ``ChildProcess``, known from Foundation's
/// termination handler (``signal()``) or, where that is late, from the
/// kernel (``ChildExit``), checked every 50 ms: awaited by the async run
/// (``wait(with:)`` and ``watch(_:)``) or on the caller's thread
/// (``waitBlocking(for:)``).
private final class EndSignal: Sendable {
    private let continuation = Mutex<CheckedContinuation<Void, Never>?>(nil)
    private let ended = DispatchSemaphore(value: 0)

    func wait(with continuation: CheckedContinuation<Void, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    /// Watches `pid` until it ends or ``signal()`` has come.
    func watch(_ pid: pid_t) {
        let source = DispatchSource.makeTimerSource(queue: .global())
        source.schedule(deadline: .now() + 0.05, repeating: 0.05)
        source.setEventHandler { [self] in
            let signalled = continuation.withLock { $0 == nil }
            if signalled || ChildExit.peek(pid) != nil {
                signal()
                source.cancel()
            }
        }
        source.resume()
    }

    /// Blocks the calling thread until ``signal()`` has come or `pid` has ended.
    func waitBlocking(for pid: pid_t) {
        while ended.wait(timeout: .now() + 0.05) == .timedOut {
            if ChildExit.peek(pid) != nil { return }
        }
    }

    func signal() {
        continuation.withLock { $0.take() }?.resume()
        ended.signal()
    }
}
