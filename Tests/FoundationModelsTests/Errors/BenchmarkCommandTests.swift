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
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let binary = TestMachine.product("fm-bench")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "no fm-bench executable at \(binary.path); build all products first")
        return try TestMachine.run(binary, arguments, in: FileManager.default.temporaryDirectory)
    }

    @Test func helpPrintsUsage() throws {
        for flag in ["--help", "-h"] {
            let result = try Self.run([flag])
            #expect(result.status == 0, "\(flag): \(result.error)")
            #expect(result.output.hasPrefix("usage: fm-bench"), "\(flag): \(result.output)")
            #expect(result.output.contains("maskbench DATA"))
        }
    }

    @Test func anUnknownCommandOrOptionIsAnError() throws {
        for argument in ["--bogus", "maskbnech"] {
            let result = try Self.run([argument])
            #expect(result.status == 64, "\(argument): status \(result.status)")
            #expect(result.error.contains("unknown command or option '\(argument)'"), "\(argument): \(result.error)")
            #expect(result.output.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: FileManager.default.temporaryDirectory.appendingPathComponent(argument).path))
        }
    }
}
