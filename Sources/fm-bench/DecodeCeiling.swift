import ChildProcess
import Foundation
import LlamaKit

/// llama.cpp alone doing the sessions-at-once work: for `n` sequences, one
/// `llama_decode` of all their prompts, then one `llama_decode` per step
/// with one greedy token for each, in a child process with no session, no
/// scheduler and no server around it; tokens per second over the whole
/// (prompts included).
///
/// Exists because aggregate throughput at eight sequences is bounded by
/// llama.cpp's batched kernels on this CPU, not by how requests are
/// scheduled: this is the most any scheduler over llama.cpp can reach, and
/// BENCHMARKS.md prints it beside ours and llama-server's. A child process,
/// because llama.cpp's OpenMP team belongs to the thread that calls it:
/// decoding from a benchmark thread would leave a second team in the
/// process and slow every later measurement (see `DecodeThread`).
enum DecodeCeiling {
    /// The child: `fm-bench decode-ceiling MODEL THREADS CONTEXT TOKENS
    /// PROMPT…`, one prompt per sequence; prints the tokens per second on
    /// standard output.
    static func child(_ arguments: [String]) throws {
        guard arguments.count >= 5, let threads = Int(arguments[1]), let contextLength = Int(arguments[2]),
            let tokens = Int(arguments[3])
        else {
            throw BenchmarkError("usage: fm-bench decode-ceiling MODEL THREADS CONTEXT TOKENS PROMPT…")
        }
        let prompts = Array(arguments.dropFirst(4))
        let model = try LlamaModel(path: arguments[0])
        let context = try LlamaBatchContext(
            model: model, parameters: .init(contextLength: contextLength, batchSize: 512, threads: threads), sequences: prompts.count)
        let tokenized = try prompts.map { try model.vocabulary.tokenize($0, addSpecial: true, parseSpecial: true) }
        // Warm up as the sessions are: one short decode first.
        _ = try context.decode([.init(sequence: 0, position: 0, tokens: tokenized[0].prefix(4), computesLogits: true)])
        try context.removeTokens(sequence: 0, from: 0)

        let count = prompts.count
        let clock = ContinuousClock()
        let start = clock.now
        var positions = tokenized.map(\.count)
        var rows = try context.decode(
            (0..<count).map {
                .init(sequence: $0, position: 0, tokens: tokenized[$0][...], computesLogits: true)
            })
        for _ in 0..<tokens {
            var runs: [LlamaBatchContext.Run] = []
            for sequence in 0..<count {
                guard let row = rows[sequence] else { throw BenchmarkError("no logits for sequence \(sequence)") }
                let next = argmax(try context.logits(row: row))
                runs.append(.init(sequence: sequence, position: positions[sequence], tokens: [next][...], computesLogits: true))
                positions[sequence] += 1
            }
            rows = try context.decode(runs)
        }
        let rate = Double(count * tokens) / (clock.now - start).inSeconds
        FileHandle.standardOutput.write(Data("\(rate)\n".utf8))
    }

    /// The parent: runs the child and reads its tokens per second.
    static func measure(model: String, threads: Int, contextLength: Int, tokens: Int, prompts: [String]) throws -> Double {
        let child = try ChildProcess.runBlocking(
            URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL,
            ["decode-ceiling", model, "\(threads)", "\(contextLength)", "\(tokens)"] + prompts,
            standardError: .discarded)
        let text = child.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard child.status == 0, let rate = Double(text) else {
            throw BenchmarkError("the decode-ceiling child failed (status \(child.status))")
        }
        return rate
    }

    /// The first token with the highest logit: greedy, as the sessions
    /// decode, with the same vectorized pick.
    static func argmax(_ logits: UnsafeBufferPointer<Float>) -> LlamaToken {
        LlamaToken(LlamaSampler.argmax(logits))
    }
}
