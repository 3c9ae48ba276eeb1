import Foundation
import FoundationModels

/// `fm-bench`: measures the on-device model through `LanguageModelSession`
/// and the same work done by llama.cpp's own `llama-bench`, in one run, and
/// writes BENCHMARKS.md.
///
/// `fm-bench [OUTPUT.md]` runs everything; `fm-bench cold-ttft` is the child
/// process the cold time-to-first-token measurement starts.
@main
struct Benchmark {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.first == "cold-ttft" {
            try await ColdStart.child()
            return
        }
        let output = arguments.first ?? "BENCHMARKS.md"
        let report = try await Suite().run()
        try report.markdown().write(toFile: output, atomically: true, encoding: .utf8)
        FileHandle.standardError.write(Data("wrote \(output)\n".utf8))
    }
}
