import ChildProcess
import Foundation
import Testing

/// The package's one way to run a child process, on /bin/sh: what a run
/// returns, that a full pipe cannot stall it, that a time limit or a
/// cancellation stops its program, and that a server is read line by line
/// and never left running.
@Suite("Child processes")
struct ChildProcessTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    @Test func aRunReturnsItsStatusAndBothStreams() async throws {
        let output = try await ChildProcess.run(Self.shell, ["-c", "echo out; echo err >&2; exit 3"])
        #expect(output.status == 3)
        #expect(output.standardOutput == "out\n")
        #expect(output.standardError == "err\n")
    }

    /// A megabyte on standard error before anything on standard output:
    /// read one pipe to its end before the other and the program waits on
    /// the full pipe forever.
    @Test func muchOnStandardErrorFirstDoesNotStallTheRun() throws {
        let output = try ChildProcess.runBlocking(
            Self.shell, ["-c", "head -c 1048576 /dev/zero | tr '\\0' e >&2; echo done"], timeLimit: .seconds(60))
        #expect(output.status == 0)
        #expect(output.standardOutput == "done\n")
        #expect(output.standardError.utf8.count == 1_048_576)
    }

    @Test func inputDirectoryEnvironmentAndMergedStreams() throws {
        let folder = FileManager.default.temporaryDirectory
        let output = try ChildProcess.runBlocking(
            ["sh", "-c", "cat; pwd; echo \"$CHILD_PROCESS_TEST\" >&2; echo ${HOME:-unset}"],
            environment: ["CHILD_PROCESS_TEST": "set"], directory: folder, input: "in\n", standardError: .intoOutput)
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "in")
        #expect(lines.contains("set"))
        #expect(lines.contains { URL(fileURLWithPath: $0).resolvingSymlinksInPath() == folder.resolvingSymlinksInPath() })
        #expect(output.standardError.isEmpty)
        let unset = try ChildProcess.runBlocking(Self.shell, ["-c", "echo ${HOME:-unset}"], unsetting: ["HOME"])
        #expect(unset.standardOutput == "unset\n")
    }

    @Test func aMissingProgramCannotStart() async {
        await #expect {
            _ = try await ChildProcess.run(URL(fileURLWithPath: "/nonexistent/program"), [])
        } throws: { "\($0)".contains("cannot start") }
    }

    /// The program sleeps ten minutes; stopped, the run ends long before.
    /// How long before is not the point, only that it did not wait for the
    /// program: in the whole suite on 2 cores, other suites' synchronous
    /// model work holds the cooperative threads and the run's end is
    /// noticed late (10.5 s in CI, 78 s in one local run).
    @Test func aProgramPastItsTimeLimitIsStopped() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        await #expect {
            _ = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sleep"), ["600"], timeLimit: .milliseconds(300))
        } throws: { error in
            "\(error)".contains("timedOut")
        }
        #expect(clock.now - start < .seconds(400))
        #expect(throws: ChildProcess.Failure.self) {
            _ = try ChildProcess.runBlocking(URL(fileURLWithPath: "/bin/sleep"), ["600"], timeLimit: .milliseconds(300))
        }
    }

    @Test func aCancelledRunStopsItsProgram() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let task = Task { try await ChildProcess.run(URL(fileURLWithPath: "/bin/sleep"), ["600"], timeLimit: .seconds(900)) }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        let result = await task.result
        #expect { try result.get() } throws: { "\($0)".contains("cancelled") }
        #expect(clock.now - start < .seconds(400))
    }

    /// A server's lines as it writes them, its input, and its end.
    @Test func aServerIsReadLineByLineAndStopped() async throws {
        let server = try ChildServer(
            Self.shell, ["-c", "echo listening on 127.0.0.1:4242; while read line; do echo \"got $line\"; done"],
            acceptsInput: true)
        #expect(await server.nextLine(within: .seconds(30)) == .line("listening on 127.0.0.1:4242"))
        try server.write(Data("one\n".utf8))
        #expect(server.nextLineBlocking(within: .seconds(30)) == .line("got one"))
        #expect(await server.nextLine(within: .milliseconds(200)) == .timedOut)
        let pid = server.processIdentifier
        server.stop()
        #expect(!server.isRunning)
        #expect(kill(pid, 0) != 0, "the process is gone")
        #expect(server.nextLineBlocking(within: .seconds(1)) == .ended)
    }

    @Test func aTerminatedServerReportsItsStatusAndItsLog() async throws {
        let server = try ChildServer(Self.shell, ["-c", "trap 'echo bye >&2; exit 7' TERM; echo up; while :; do sleep 0.1; done"])
        #expect(await server.nextLine(within: .seconds(30)) == .line("up"))
        #expect(server.terminate(within: .seconds(30)) == 7)
        let ended = try ChildServer(Self.shell, ["-c", "echo failing >&2; exit 2"])
        await #expect {
            try await ended.waitUntilReady(within: .seconds(30), name: "sh") { false }
        } throws: { "\($0)".contains("exited (status 2): failing") }
        ended.stop()
    }

    /// A waiter whose task ran again only after its deadline (a busy
    /// cooperative pool) still says the program ended, not that it timed out.
    @Test func anEndBeforeALateWakeIsStillReported() async throws {
        let ended = try ChildServer(Self.shell, ["-c", "echo failing >&2; exit 2"])
        #expect(await ended.nextLine(within: .seconds(30)) == .ended)
        await #expect {
            try await ended.waitUntilReady(within: .zero, name: "sh") { false }
        } throws: { "\($0)".contains("exited (status 2): failing") }
        ended.stop()
    }

    /// The kernel's word on a child's end, read without reaping it, so
    /// Foundation still collects the child after.
    @Test func aChildsEndIsReadWithoutReapingIt() throws {
        let server = try ChildServer(Self.shell, ["-c", "exit 3"])
        let pid = server.processIdentifier
        #expect(server.waitForExit(within: .seconds(30)) == 3)
        let deadline = Date().addingTimeInterval(30)
        while ChildExit.peek(pid) != nil, Date() < deadline { usleep(10_000) }
        #expect(ChildExit.peek(pid) == nil, "Foundation reaped it: nothing left for the kernel to report")
        #expect(server.exitStatus == 3)
    }

    /// A server nobody stopped is killed when its value goes away.
    @Test func aForgottenServerIsKilled() throws {
        var pid: Int32 = 0
        do {
            let server = try ChildServer(URL(fileURLWithPath: "/bin/sleep"), ["600"])
            pid = server.processIdentifier
        }
        let deadline = Date().addingTimeInterval(10)
        var gone = false
        while Date() < deadline, !gone {
            gone = kill(pid, 0) != 0
            if !gone { usleep(20_000) }
        }
        #expect(gone)
    }
}
