import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension FM {
    /// `fm bench`: the benchmarks, which live in their own executable
    /// (`fm-bench`, `make bench` → BENCHMARKS.md) so `fm` does not carry
    /// llama-bench's harness. Runs the `fm-bench` built next to `fm`, with
    /// the same arguments; says how to build it when it is missing.
    struct Bench: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the benchmarks (fm-bench, built next to fm).",
            discussion: """
                fm bench [OUTPUT.md] writes the benchmark report (default BENCHMARKS.md); fm bench tiers, tools, guided, \
                maskbench run one suite. `make bench` builds fm-bench in release mode and runs it.
                """
        )

        @Argument(parsing: .captureForPassthrough, help: "Arguments for fm-bench.")
        var arguments: [String] = []

        func run() throws {
            // Passthrough captures --help too: answer it here rather than
            // start a benchmark run.
            if let first = arguments.first, ["-h", "--help", "help"].contains(first) {
                print(Self.helpMessage())
                return
            }
            let directory = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).resolvingSymlinksInPath()
                .deletingLastPathComponent()
            let bench = directory.appendingPathComponent("fm-bench").path
            guard FileManager.default.isExecutableFile(atPath: bench) else {
                throw Failure.exit(Missing(path: bench))
            }
            // Replace this process: fm-bench gets the terminal, the signals
            // and the exit status, and nothing waits beside it on the CPU.
            let argv = ([bench] + arguments).map { strdup($0) } + [nil]
            execv(bench, argv)
            throw Failure.exit(Missing(path: bench, reason: String(cString: strerror(errno))))
        }

        struct Missing: LocalizedError {
            var path: String
            var reason: String?
            var errorDescription: String? { "cannot run \(path)" + (reason.map { ": \($0)" } ?? ": fm-bench is not built next to fm") }
            var recoverySuggestion: String? { "Build it with `swift build -c release --product fm-bench` (or run `make bench`)." }
        }
    }
}
