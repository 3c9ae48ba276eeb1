import ChildProcess
import Foundation
import FoundationModels

/// Time to first token from process start: a child process loads the model
/// and answers; the parent times from launch to the child's first token.
enum ColdStart {
    static let marker = "FIRST-TOKEN"

    /// The child: answer one prompt, announce the first token, finish.
    static func child() async throws {
        let session = LanguageModelSession(instructions: "Answer briefly.")
        let stream = session.streamResponse(to: "Name a color.", options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 4))
        var announced = false
        for try await _ in stream where !announced {
            FileHandle.standardOutput.write(Data("\(marker)\n".utf8))
            announced = true
        }
    }

    /// The parent: seconds from launching the child to its first token.
    static func measure() throws -> Double {
        let start = Measure.clock.now
        let child = try ChildServer(
            URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL, ["cold-ttft"],
            standardError: .inherited)
        var announced = false
        while !announced, case .line(let line) = child.nextLineBlocking(within: .seconds(600)) {
            announced = line.contains(marker)
        }
        let elapsed = (Measure.clock.now - start).inSeconds
        let status = child.waitForExit(within: .seconds(600))
        child.stop()
        guard announced else {
            throw BenchmarkError("the cold-start child exited without a token (status \(status.map(String.init) ?? "none"))")
        }
        return elapsed
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
