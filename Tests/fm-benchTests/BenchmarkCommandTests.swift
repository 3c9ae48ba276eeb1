import Foundation
import TestSupport
import Testing

/// `fm-bench`'s command line, run as a separate process (`swift build
/// --build-tests` builds it beside the test bundle): help is usage on
/// standard output, and a mistyped command or option is an error on
/// standard error with a non-zero exit, where it used to start every
/// benchmark and then write a file named after it. Neither loads a model.
@Suite("fm-bench command line")
struct BenchmarkCommandTests {
    static func run(_ arguments: [String]) throws -> ChildProcess.Output {
        let binary = TestMachine.product("fm-bench")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "no fm-bench executable at \(binary.path); build all products first")
        return try TestMachine.run(binary, arguments, in: FileManager.default.temporaryDirectory)
    }

    @Test func helpPrintsUsage() throws {
        for flag in ["--help", "-h"] {
            let result = try Self.run([flag])
            #expect(result.status == 0, "\(flag): \(result.standardError)")
            #expect(result.standardOutput.hasPrefix("usage: fm-bench"), "\(flag): \(result.standardOutput)")
            #expect(result.standardOutput.contains("maskbench DATA"))
            #expect(result.standardOutput.contains("bigschemas DATA"))
        }
    }

    @Test func anUnknownCommandOrOptionIsAnError() throws {
        for argument in ["--bogus", "maskbnech"] {
            let result = try Self.run([argument])
            #expect(result.status == 64, "\(argument): status \(result.status)")
            #expect(result.standardError.contains("unknown command or option '\(argument)'"), "\(argument): \(result.standardError)")
            #expect(result.standardOutput.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: FileManager.default.temporaryDirectory.appendingPathComponent(argument).path))
        }
    }

    /// `own-work` (`make callgrind`) without its model is a usage error; with
    /// a model that is not there, a failure said on standard error with
    /// status 1 — not a trap on the error thrown out of `main` (status 132
    /// or 133), which is how a failed fm-bench run used to end.
    @Test func ownWorkSaysWhatIsMissing() throws {
        let usage = try Self.run(["own-work"])
        #expect(usage.status == 64, "status \(usage.status)")
        #expect(usage.standardError.contains("own-work takes one MODEL.gguf"), "\(usage.standardError)")
        let missing = try Self.run(["own-work", "/nonexistent/model.gguf"])
        #expect(missing.status == 1, "status \(missing.status): \(missing.standardError)")
        #expect(missing.standardError.contains("fm-bench: error: no model file at /nonexistent/model.gguf"), "\(missing.standardError)")
        #expect(!missing.standardError.contains("Fatal error"), "\(missing.standardError)")
    }
}
