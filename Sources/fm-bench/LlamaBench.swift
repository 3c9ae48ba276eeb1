import ChildProcess
import Foundation

/// llama.cpp's own `llama-bench` on the same model and threads: the reference
/// the session's throughput is compared with.
struct LlamaBench {
    var prefillTokensPerSecond: Double
    var decodeTokensPerSecond: Double
    var command: String

    /// pp`promptTokens` from an empty context, and tg`generatedTokens`
    /// after `depth` tokens of context.
    static func run(binary: String, model: String, threads: Int, promptTokens: Int, generatedTokens: Int, depth: Int = 0, repetitions: Int = 5) throws
        -> LlamaBench
    {
        let depths = depth > 0 ? "0,\(depth)" : "0"
        let arguments = [
            "-m", model, "-t", "\(threads)", "-p", "\(promptTokens)", "-n", "\(generatedTokens)", "-d", depths, "-r", "\(repetitions)", "-o", "json",
        ]
        let child = try ChildProcess.runBlocking(URL(fileURLWithPath: binary), arguments, standardError: .discarded)
        guard child.status == 0, let rows = try JSONSerialization.jsonObject(with: Data(child.standardOutput.utf8)) as? [[String: Any]] else {
            throw BenchmarkError("llama-bench failed (status \(child.status))")
        }
        func speed(where predicate: ([String: Any]) -> Bool) throws -> Double {
            guard let row = rows.first(where: predicate), let value = row["avg_ts"] as? Double else {
                throw BenchmarkError("llama-bench printed no matching row")
            }
            return value
        }
        return LlamaBench(
            prefillTokensPerSecond: try speed {
                ($0["n_prompt"] as? Int) == promptTokens && ($0["n_gen"] as? Int) == 0 && ($0["n_depth"] as? Int ?? 0) == 0
            },
            decodeTokensPerSecond: try speed {
                ($0["n_gen"] as? Int) == generatedTokens && ($0["n_prompt"] as? Int) == 0 && ($0["n_depth"] as? Int ?? 0) == depth
            },
            command: ([binary] + arguments).joined(separator: " ")
        )
    }
}
