import Dispatch
import Foundation
import Synchronization

/// One run of a program to its end: its status and what it wrote.
///
/// What the program writes goes to temporary files, read once it has
/// exited: a pipe's end can be inherited by another program started at the
/// same time and keep it open after this one is stopped, and reading two
/// pipes takes threads that Dispatch's pool (as wide as the machine has
/// cores) needs for the time limit. Nothing blocks the cooperative pool:
/// the exit is awaited through the process's termination handler. The
/// program is killed when the calling task is cancelled or the time limit
/// passes: with SIGKILL, because a program started from a Dispatch worker
/// thread inherits that thread's signal mask, which blocks SIGTERM.
package enum ProcessRun {
    package struct Output: Sendable {
        package var status: Int32
        package var standardOutput: String
        package var standardError: String
    }

    /// Why a run gave no output.
    package enum Failure: Error, Sendable {
        case cannotStart(String)
        case timedOut
        case cancelled
    }

    /// Runs `executable` with `arguments`, this process's environment with
    /// `environment` added, and no standard input.
    package static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:],
                            timeLimit: Duration) async throws(Failure) -> Output {
        let files = FileManager.default
        let stem = files.temporaryDirectory.appendingPathComponent("process-run-\(getpid())-\(UUID().uuidString)")
        let outputURL = stem.appendingPathExtension("out"), errorURL = stem.appendingPathExtension("err")
        defer {
            try? files.removeItem(at: outputURL)
            try? files.removeItem(at: errorURL)
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = FileHandle.nullDevice
        let output: FileHandle, error: FileHandle
        do {
            guard files.createFile(atPath: outputURL.path, contents: nil), files.createFile(atPath: errorURL.path, contents: nil) else {
                throw Failure.cannotStart("cannot create files for its output in \(files.temporaryDirectory.path)")
            }
            output = try FileHandle(forWritingTo: outputURL)
            error = try FileHandle(forWritingTo: errorURL)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .cannotStart("cannot create files for its output: \(error.localizedDescription)")
        }
        process.standardOutput = output
        process.standardError = error
        defer {
            try? output.close()
            try? error.close()
        }

        let stopped = Stopped()
        let started: Bool = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                process.terminationHandler = { _ in continuation.resume(returning: true) }
                do {
                    guard !Task.isCancelled else {
                        stopped.set(.cancelled)
                        continuation.resume(returning: false)
                        return
                    }
                    try process.run()
                    // A cancellation that came while the program was
                    // starting found nothing running to kill: it is killed
                    // here instead (the handler sets the reason before it
                    // looks, so one of the two sees the other).
                    if stopped.reason != nil { kill(process.processIdentifier, SIGKILL) }
                } catch {
                    stopped.set(.cannotStart(error.localizedDescription))
                    continuation.resume(returning: false)
                    return
                }
                let seconds = Double(timeLimit.components.seconds) + Double(timeLimit.components.attoseconds) / 1e18
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                    if process.isRunning {
                        stopped.set(.timedOut)
                        kill(process.processIdentifier, SIGKILL)
                    }
                }
            }
        } onCancel: {
            stopped.set(.cancelled)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        if let reason = stopped.reason { throw reason }
        precondition(started, "a process that did not start has a reason")
        let read = { (url: URL) in (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) } ?? "" }
        return Output(status: process.terminationStatus, standardOutput: read(outputURL), standardError: read(errorURL))
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
