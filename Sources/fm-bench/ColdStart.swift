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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        process.arguments = ["cold-ttft"]
        let pipe = Pipe()
        process.standardOutput = pipe
        let start = Measure.clock.now
        try process.run()
        var buffer = Data()
        while let chunk = try pipe.fileHandleForReading.read(upToCount: 64), !chunk.isEmpty {
            buffer.append(chunk)
            if String(decoding: buffer, as: UTF8.self).contains(marker) { break }
        }
        let elapsed = (Measure.clock.now - start).inSeconds
        process.waitUntilExit()
        guard String(decoding: buffer, as: UTF8.self).contains(marker) else {
            throw BenchmarkError("the cold-start child exited without a token (status \(process.terminationStatus))")
        }
        return elapsed
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
