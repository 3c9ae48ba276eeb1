import Foundation
import FoundationModels
import Synchronization

/// `fm-bench`: measures the on-device model through `LanguageModelSession`
/// and the same work done by llama.cpp's own `llama-bench`, in one run, and
/// writes BENCHMARKS.md.
///
/// `fm-bench [OUTPUT.md]` runs everything; `fm-bench guided OUTPUT.md` only
/// the guided-generation part (its section alone); `fm-bench tools` only the
/// tool round, `fm-bench tiers` only the tiers section,
/// `fm-bench concurrency` only the sessions-at-once table, `fm-bench serve`
/// only the `fm serve` against llama-server table (fm-serve must be built
/// beside fm-bench) and
/// `fm-bench throughput MODEL.gguf…` only the throughput table (to standard
/// output); `fm-bench typed [N]` typed answers' times (``TypedAnswers``);
/// `fm-bench devices` llama.cpp's devices; `fm-bench maskbench DATA` the
/// MaskBench comparison (its own section of BENCHMARKS.md, see
/// ``MaskBench``); `fm-bench bigschemas DATA` typed answers on MaskBench's
/// largest schema descriptions, first and repeated (its own section, see
/// ``BigSchemas``); `fm-bench cold-ttft` is
/// the child process the cold time-to-first-token measurement starts, and
/// `fm-bench decode-ceiling` the one that measures llama.cpp alone for the
/// sessions-at-once table (``DecodeCeiling``); `fm-bench own-work MODEL.gguf
/// [--output FILE.md]` counts the session's own instructions under callgrind
/// (``OwnWork``), whose measured process is `fm-bench own-work-child`.
@main
struct Benchmark {
    /// Synchronous on purpose: the work runs in a task while the main thread
    /// waits for it. An `async` main parks the main thread in libdispatch's
    /// `dispatch_main`, whose `sigsuspend` takes a signal mask from read-only
    /// memory, and Debian 12's valgrind 3.19 writes to that mask and crashes
    /// (`fm-bench own-work` runs this program under valgrind). Nothing here
    /// needs the main actor or the main queue.
    static func main() {
        _ = started
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                try await run()
                outcome.result.withLock { $0 = .success(()) }
            } catch {
                outcome.result.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        // A failed run says why on standard error and exits non-zero,
        // instead of trapping with the error.
        if case .failure(let error) = outcome.result.withLock({ $0 }) {
            FileHandle.standardError.write(Data("fm-bench: error: \(error)\n".utf8))
            exit(1)
        }
    }

    /// How the task that does the work ended, for the main thread.
    private final class Outcome: Sendable {
        let result = Mutex<Result<Void, any Error>?>(nil)
    }

    static func run() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.first == "own-work-child", let model = arguments.dropFirst().first {
            try await OwnWork.child(modelPath: model)
            return
        }
        if arguments.first == "own-work" {
            var rest = Array(arguments.dropFirst())
            var output: String?
            if let index = rest.firstIndex(of: "--output"), index + 1 < rest.count {
                output = rest[index + 1]
                rest.removeSubrange(index...(index + 1))
            }
            guard rest.count == 1, let model = rest.first else {
                FileHandle.standardError.write(Data("fm-bench: own-work takes one MODEL.gguf\n\(usage)\n".utf8))
                exit(64)
            }
            let report = try OwnWork.run(modelPath: model) { log($0) }
            let section = report.markdown(machine: Suite.machine()).joined(separator: "\n")
            guard let output else {
                print(section)
                return
            }
            try replaceSection(in: output, begin: OwnWork.Report.begin, end: OwnWork.Report.end, with: section)
            FileHandle.standardError.write(Data("wrote \(output)\n".utf8))
            return
        }
        if arguments.first == "cold-ttft" {
            try await ColdStart.child()
            return
        }
        if arguments.first == "decode-ceiling" {
            try DecodeCeiling.child(Array(arguments.dropFirst()))
            return
        }
        if arguments.first == "guided" {
            let output = arguments.dropFirst().first ?? "GUIDED.md"
            let threads = Int(ProcessInfo.processInfo.environment["FOUNDATION_MODELS_THREADS"] ?? "") ?? ProcessInfo.processInfo.activeProcessorCount
            let report = await GuidedBenchmarks(threads: threads).run { log($0) }
            try report.markdown().joined(separator: "\n").write(toFile: output, atomically: true, encoding: .utf8)
            FileHandle.standardError.write(Data("wrote \(output)\n".utf8))
            return
        }
        if arguments.first == "maskbench" {
            try await MaskBench.run(Array(arguments.dropFirst())) { log($0) }
            return
        }
        if arguments.first == "bigschemas" {
            try await BigSchemas.run(Array(arguments.dropFirst())) { log($0) }
            return
        }
        if arguments.first == "bigschemas-report" {
            try BigSchemas.report(Array(arguments.dropFirst()))
            return
        }
        if arguments.first == "maskbench-explain" {
            try MaskBench.explain(Array(arguments.dropFirst()), modelPath: ProcessInfo.processInfo.environment["FOUNDATION_MODELS_MODEL"] ?? "")
            return
        }
        if arguments.first == "maskbench-worker" {
            try MaskBench.worker(modelPath: arguments.dropFirst().first ?? "")
            return
        }
        if arguments.first == "tiers" {
            let result = try await TiersBenchmark().run { log($0) }
            print(TiersBenchmark.markdown(result, error: nil).joined(separator: "\n"))
            return
        }
        if arguments.first == "throughput" {
            let environment = ProcessInfo.processInfo.environment
            let threads = Int(environment["FOUNDATION_MODELS_THREADS"] ?? "") ?? ProcessInfo.processInfo.activeProcessorCount
            // FM_BENCH_PROMPT_ENDS_ALONE=0 or 1: the prompt's last token in
            // a step of its own or not, whatever the engine would choose.
            let endsAlone = environment["FM_BENCH_PROMPT_ENDS_ALONE"].map { $0 == "1" }
            var results: [Throughput.Result] = []
            for path in arguments.dropFirst() {
                let label = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
                results.append(try await Throughput(label: label, modelPath: path, threads: threads, promptEndsAlone: endsAlone).run { log($0) })
            }
            print(Throughput.markdown(results).joined(separator: "\n"))
            return
        }
        if arguments.first == "concurrency" {
            let environment = ProcessInfo.processInfo.environment
            let threads = Int(environment["FOUNDATION_MODELS_THREADS"] ?? "") ?? ProcessInfo.processInfo.activeProcessorCount
            let result = try await ConcurrencyBenchmark(threads: threads).run { log($0) }
            print(ConcurrencyBenchmark.markdown(result, error: nil).joined(separator: "\n"))
            return
        }
        if arguments.first == "serve" {
            let environment = ProcessInfo.processInfo.environment
            let threads = Int(environment["FOUNDATION_MODELS_THREADS"] ?? "") ?? ProcessInfo.processInfo.activeProcessorCount
            let result = try await ServeBenchmark(threads: threads).run { log($0) }
            print(ServeBenchmark.markdown(result, error: nil).joined(separator: "\n"))
            return
        }
        if arguments.first == "typed" {
            let rows = try await TypedAnswers.run(Array(arguments.dropFirst())) { log($0) }
            print(TypedAnswers.markdown(rows, model: SystemLanguageModel.Configuration.default.modelFile.lastPathComponent).joined(separator: "\n"))
            return
        }
        if arguments.first == "devices" {
            print(ComputeDevice.all.map(\.summary).joined(separator: "\n"))
            return
        }
        if arguments.first == "tools" {
            let result = try await ToolRound().run { log($0) }
            print(ToolRound.markdown(result, error: nil).joined(separator: "\n"))
            return
        }
        if let first = arguments.first {
            if ["--help", "-h", "help"].contains(first) {
                print(usage)
                return
            }
            // Anything else is where the whole run writes, a Markdown file:
            // a mistyped command or option must not start minutes of
            // benchmarks and then write a file named after it.
            guard !first.hasPrefix("-"), first.hasSuffix(".md") else {
                FileHandle.standardError.write(Data("fm-bench: unknown command or option '\(first)'\n\(usage)\n".utf8))
                exit(64)
            }
        }
        let output = arguments.first ?? "BENCHMARKS.md"
        let report = try await Suite().run()
        // The sections other runs write are kept as they were: MaskBench
        // (`make maskbench`), the big schemas' (`make bench-bigschemas`)
        // and the GPU's (scripts/gpu/bench.sh, on another machine).
        var text = report.markdown()
        let kept = [
            (MaskBench.Report.begin, MaskBench.Report.end), (BigSchemas.begin, BigSchemas.end), ("<!-- gpu:begin -->", "<!-- gpu:end -->"),
            (OwnWork.Report.begin, OwnWork.Report.end),
        ]
        if let existing = try? String(contentsOfFile: output, encoding: .utf8) {
            for (begin, end) in kept {
                guard let start = existing.range(of: begin), let stop = existing.range(of: end) else { continue }
                text += (text.hasSuffix("\n") ? "\n" : "\n\n") + existing[start.lowerBound..<stop.upperBound] + "\n"
            }
        }
        try text.write(toFile: output, atomically: true, encoding: .utf8)
        FileHandle.standardError.write(Data("wrote \(output)\n".utf8))
    }

    static let started = Measure.clock.now

    /// What `fm-bench --help` prints, and an unknown command with it.
    static let usage = """
        usage: fm-bench [OUTPUT.md]          every benchmark, into BENCHMARKS.md (or OUTPUT.md)
               fm-bench guided [OUTPUT.md]   guided generation alone (GUIDED.md)
               fm-bench tools | tiers | concurrency | serve
                                             one table, to standard output
               fm-bench throughput MODEL.gguf...
               fm-bench typed [N]
               fm-bench devices              llama.cpp's devices
               fm-bench maskbench DATA [--output FILE] [--limit N] [--timeout S] [--xgrammar-every N] [--engines a,b]
               fm-bench bigschemas DATA [--model PATH] [--only a,b] [--limit N] [--max-tokens 600] [--threshold 8000]
                                  [--timeout S] [--output FILE] [--results FILE.json] [--list]
                                             typed answers on MaskBench's schemas over 8,000 description tokens (make bench-bigschemas)
               fm-bench bigschemas-report RESULTS.json... [--output FILE]
               fm-bench own-work MODEL.gguf [--output FILE.md]
                                             the session's own instructions, under callgrind (make callgrind)
        """

    /// Replaces the text between `begin` and `end` in the Markdown file at
    /// `path` with `section` (which carries both markers), or appends it.
    static func replaceSection(in path: String, begin: String, end: String, with section: String) throws {
        var text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        if let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex) {
            text.replaceSubrange(start.lowerBound..<stop.upperBound, with: section)
        } else {
            text += (text.isEmpty || text.hasSuffix("\n\n") ? "" : "\n") + section + "\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Progress on standard error, with the seconds since the start.
    @Sendable static func log(_ message: String) {
        let elapsed = String(format: "%.1f", (Measure.clock.now - started).inSeconds)
        FileHandle.standardError.write(Data("fm-bench [\(elapsed) s]: \(message)\n".utf8))
    }
}
