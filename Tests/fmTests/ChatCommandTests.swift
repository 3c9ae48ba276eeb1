import Foundation
import FoundationModels
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension FMTests {
    /// `fm chat` driven as a person drives it: through a pseudo-terminal,
    /// typing lines, Ctrl-C and Ctrl-D (mechanics: the small model in
    /// `make test`'s first run).
    @Suite("fm chat through a pseudo-terminal", .serialized)
    struct ChatCommand {
        static func transcriptFile() -> URL {
            FileManager.default.temporaryDirectory.appendingPathComponent("fm-chat-\(UUID().uuidString).json")
        }

        static func chat(_ file: URL, _ extra: [String] = []) throws -> PseudoTerminalProcess {
            try PseudoTerminalProcess(
                CommandLineTool.binary(), arguments: ["chat", "--transcript", file.path, "--greedy", "--max-tokens", "32"] + extra)
        }

        /// The prompts of a saved transcript, in order, and its entry count.
        static func saved(_ file: URL) throws -> (prompts: [String], entries: [Transcript.Entry]) {
            let transcript = try JSONDecoder().decode(Transcript.self, from: Data(contentsOf: file))
            let prompts = transcript.compactMap { entry -> String? in
                guard case .prompt(let prompt) = entry else { return nil }
                return prompt.segments.compactMap { if case .text(let text) = $0 { text.content } else { nil } }.joined()
            }
            return (prompts, Array(transcript))
        }

        @Test func aTwoTurnChatIsSavedResumedAndContinued() async throws {
            try OnDevice.requireModel()
            let file = Self.transcriptFile()
            defer { try? FileManager.default.removeItem(at: file) }

            let first = try Self.chat(file, ["--instructions", "You answer in one short sentence."])
            try await first.waitFor("> ")
            first.send("My name is Ada.\n")
            try await first.waitFor("> ")
            first.send("What is the capital of France?\n")
            try await first.waitFor("> ")
            first.send("\u{04}")
            #expect(try await first.exitStatus() == 0, "\(first.output)")
            let afterTwo = try Self.saved(file)
            #expect(afterTwo.prompts == ["My name is Ada.", "What is the capital of France?"])
            #expect(afterTwo.entries.count == 5, "instructions, two prompts and two responses: \(afterTwo.entries)")

            let second = try Self.chat(file)
            try await second.waitFor("resumed 2 turns")
            try await second.waitFor("> ")
            second.send("Thank you.\n")
            try await second.waitFor("> ")
            second.send("/quit\n")
            #expect(try await second.exitStatus() == 0, "\(second.output)")
            let afterThree = try Self.saved(file)
            #expect(afterThree.prompts == afterTwo.prompts + ["Thank you."])
            #expect(Array(afterThree.entries.prefix(5)) == afterTwo.entries, "the resumed turns are kept as they were")
        }

        @Test func ctrlCStopsTheAnswerAndLeavesTheConversationAsItWas() async throws {
            try OnDevice.requireModel()
            let file = Self.transcriptFile()
            defer { try? FileManager.default.removeItem(at: file) }
            // An answer long enough to interrupt whatever the small model
            // writes: 400 tokens, its loops not cut short.
            let chat = try PseudoTerminalProcess(
                CommandLineTool.binary(), arguments: ["chat", "--transcript", file.path, "--greedy", "--max-tokens", "400"],
                environment: ["FOUNDATION_MODELS_REPETITION": "off"])
            try await chat.waitFor("> ")
            chat.send("Say hello.\n")
            try await chat.waitFor("> ")
            let before = try Data(contentsOf: file)

            chat.send("Count from 1 to 300, separated by commas.\n")
            try await chat.waitFor("commas.\r\n")
            try await chat.waitFor(" ")  // the answer is streaming
            chat.send("\u{03}")
            try await chat.waitFor("(stopped")
            try await chat.waitFor("> ")
            #expect(try Data(contentsOf: file) == before, "the stopped question left the saved conversation untouched")

            // The program is still there, and so is the conversation.
            chat.send("Say goodbye.\n")
            try await chat.waitFor("> ")
            chat.send("\u{04}")
            #expect(try await chat.exitStatus() == 0, "\(chat.output)")
            #expect(try Self.saved(file).prompts == ["Say hello.", "Say goodbye."])
        }

        @Test func aFullContextOffersToDropTheOldestTurns() async throws {
            try OnDevice.requireModel()
            let file = Self.transcriptFile()
            defer { try? FileManager.default.removeItem(at: file) }
            let chat = try Self.chat(file, ["--context-size", "256"])
            try await chat.waitFor("> ")
            var asked = 0
            var shown = "> "
            while shown != "n/d/k? " {
                asked += 1
                try #require(asked <= 10, "the context never filled: \(chat.output)")
                chat.send("Question \(asked): tell me one fact about the number \(asked * 7), please, in a sentence or two.\n")
                shown = try await chat.waitFor("> ", orAnyOf: ["n/d/k? "])
            }
            #expect(chat.output.contains("too long"), "\(chat.output)")
            let full = try Self.saved(file)
            chat.send("d\n")
            try await chat.waitFor("oldest turns were dropped")
            try await chat.waitFor("> ")
            chat.send("\u{04}")
            #expect(try await chat.exitStatus() == 0, "\(chat.output)")
            let trimmed = try Self.saved(file)
            #expect(trimmed.prompts.last == "Question \(asked): tell me one fact about the number \(asked * 7), please, in a sentence or two.")
            #expect(trimmed.prompts.count < full.prompts.count + 1, "\(trimmed.prompts)")
            #expect(trimmed.prompts.first != full.prompts.first, "the oldest turn went first")
        }
    }
}

/// A program run on a pseudo-terminal of its own: its standard input,
/// output and error are the terminal, and it leads a new session with that
/// terminal as its controlling terminal, so the Ctrl-C and Ctrl-D a test
/// types reach it exactly as they would from a keyboard.
final class PseudoTerminalProcess {
    let pid: pid_t
    private let master: Int32
    private(set) var output = ""
    /// Where the last ``waitFor(_:orAnyOf:timeout:)`` matched.
    private var searchFrom: String.Index

    init(_ executable: URL, arguments: [String], environment extra: [String: String] = [:]) throws {
        var master: Int32 = -1, slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw PseudoTerminalError("openpty failed: errno \(errno)") }
        defer { close(slave) }
        let slavePath = String(cString: ttyname(slave))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // After setsid, opening the terminal makes it the controlling one.
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        posix_spawn_file_actions_addclose(&actions, master)
        posix_spawn_file_actions_addclose(&actions, slave)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The test runner's threads block signals; the program gets none blocked, all default.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // POSIX_SPAWN_SETSID (0x80, glibc; a GNU extension Swift does not import).
        let setSession: Int32 = 0x80
        posix_spawnattr_setflags(&attributes, Int16(setSession | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.merging(["TERM": "xterm", "NO_COLOR": "1"].merging(extra) { $1 }) { $1 }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            close(master)
            throw PseudoTerminalError("posix_spawn failed: \(spawned)")
        }
        self.pid = pid
        self.master = master
        self.searchFrom = output.startIndex
    }

    /// Types `text` (a newline ends a line; "\u{03}" is Ctrl-C, "\u{04}" Ctrl-D).
    func send(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
    }

    /// Reads the terminal until `text` (or one of `others`) appears after
    /// the previous match; fails after `timeout` with what was read.
    @discardableResult
    func waitFor(_ text: String, orAnyOf others: [String] = [], timeout: Duration = .seconds(120)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            for candidate in [text] + others {
                if let range = output.range(of: candidate, range: searchFrom..<output.endIndex) {
                    searchFrom = range.upperBound
                    return candidate
                }
            }
            guard ContinuousClock.now < deadline else {
                throw PseudoTerminalError("\"\(text)\" did not appear; the terminal shows:\n\(output)")
            }
            if !readAvailable() { try await Task.sleep(for: .milliseconds(20)) }
        }
    }

    /// Reads what the terminal has now; false when nothing was there.
    private func readAvailable() -> Bool {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0, descriptor.revents & Int16(POLLIN) != 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(master, &buffer, buffer.count)
        guard count > 0 else { return false }
        // Keep the search position valid across the append.
        let offset = output.distance(from: output.startIndex, to: searchFrom)
        output += String(decoding: buffer[..<count], as: UTF8.self)
        searchFrom = output.index(output.startIndex, offsetBy: offset)
        return true
    }

    /// The exit status, once the program has ended (at most `timeout`).
    func exitStatus(timeout: Duration = .seconds(60)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            _ = readAvailable()
            guard ContinuousClock.now < deadline else { throw PseudoTerminalError("fm did not exit; the terminal shows:\n\(output)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    deinit {
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == 0 {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        close(master)
    }
}

struct PseudoTerminalError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
