import ChildProcess
import Foundation
import FoundationModels

/// The session's own work per request and per generated token, in machine
/// instructions counted by callgrind instead of seconds.
///
/// Why it exists: at GPU speed the session's own work per token (sampling,
/// text, the scheduler's hand-offs, the stream) is what separates it from
/// llama-bench, and that work has to be improved on machines without a GPU,
/// where a few microseconds drown in the noise of a 2-core timing.
/// Instructions are repeatable: the same binary, model and inputs give the
/// same count, whatever else the machine is doing. What they do not show is
/// waiting (a thread woken late costs time, not instructions): the timed
/// measurement (``Throughput``) stays the one that compares with llama-bench.
///
/// `fm-bench own-work MODEL.gguf` runs this program again under valgrind
/// (`own-work-child`, one thread, deterministic hashing, loop stopping off)
/// and reads callgrind's counts, dumped at each boundary between phases
/// (``boundary(_:)``): a warm-up, ``requests`` 1-token answers, then as many
/// answers of ``answerTokens`` tokens to prompts of the same length. The
/// session's own work is everything the process executes except what runs
/// inside `llama_decode` (with one thread, all of llama.cpp's computing runs
/// inside it, on the calling thread); the instructions inside `llama_decode`
/// are the reference, from the same run.
///
/// valgrind needs a llama.cpp built without AVX-512 (`scripts/setup.sh
/// --gpu=cpu-baseline`: Debian 12's valgrind 3.19 stops at the first AVX-512
/// instruction) and a copy of this program without its DWARF 5 debug
/// information (which 3.19 cannot read): `make callgrind` arranges both.
enum OwnWork {
    static let requests = 4
    static let answerTokens = 65
    static let prompt = "Count from 1 to 100, separated by commas."

    /// The counts of one run.
    struct Report {
        var model: String
        var requests: Int
        /// Tokens of the 1-token answers, then of the long answers (each as
        /// the session reported them).
        var shortTokens: [Int]
        var longTokens: [Int]
        var promptTokens: Int
        /// The phase of the 1-token answers and the phase of the long ones.
        var short: Counts
        var long: Counts
        var command: String

        /// Generated tokens the long phase has beyond the short one.
        var extraTokens: Int { longTokens.reduce(0, +) - shortTokens.reduce(0, +) }
    }

    /// One phase's instructions.
    struct Counts {
        var total: Int
        /// Inside `llama_decode`, all threads.
        var decode: Int
        /// Self instructions of each function of the Swift side (this
        /// program and the Swift runtime libraries), by symbol.
        var swiftFunctions: [String: Int]
        /// Instructions of llama.cpp's calls outside `llama_decode` (the
        /// tokenizer, the KV cache's edits, reading logits), by function.
        var llamaCalls: [String: Int]

        var own: Int { total - decode }
        var swiftSide: Int { swiftFunctions.values.reduce(0, +) }
    }

    // MARK: - The measured process

    /// callgrind dumps its counts each time this function is entered
    /// (`--dump-before=*callgrindBoundary*`), and what it does counts in the
    /// next phase: so it only writes its line with `write` (through
    /// `FileHandle` and `Data` its first call cost 350,000 instructions of
    /// dynamic casts). The line is the side effect that keeps the call where
    /// it is.
    @inline(never)
    static func callgrindBoundary(_ phase: StaticString) {
        phase.withUTF8Buffer { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// The phases, in the process valgrind runs; prints the token counts as
    /// JSON on standard output.
    static func child(modelPath: String) async throws {
        var configuration = SystemLanguageModel.Configuration.default
        configuration.modelPath = modelPath
        configuration.threads = 1
        let model = SystemLanguageModel(configuration: configuration)
        guard model.isAvailable else { throw BenchmarkError("\(modelPath) is not available (\(model.availability))") }
        // The same instructions in every run (so the same tokens and
        // counts), different for every request (so nothing is cached).
        func session(_ index: Int) -> LanguageModelSession {
            LanguageModelSession(
                model: model, instructions: "Session \(index). You are a careful assistant. Speak plainly about rivers and answer in short sentences."
            )
        }
        for index in 0..<2 {
            _ = try await Measure.stream(session(1000 + index), prompt, maximumTokens: answerTokens)
        }
        callgrindBoundary("fm-bench own-work: the 1-token answers\n")
        var short: [Int] = []
        var promptTokens = 0
        for index in 0..<requests {
            let streamed = try await Measure.stream(session(index), prompt, maximumTokens: 1)
            short.append(streamed.outputTokens)
            promptTokens = streamed.inputTokens - streamed.cachedTokens
        }
        callgrindBoundary("fm-bench own-work: the long answers\n")
        var long: [Int] = []
        for index in 0..<requests {
            long.append(try await Measure.stream(session(requests + index), prompt, maximumTokens: answerTokens).outputTokens)
        }
        callgrindBoundary("fm-bench own-work: done\n")
        let counts: [String: [Int]] = ["short": short, "long": long, "prompt": [promptTokens]]
        FileHandle.standardOutput.write(try JSONSerialization.data(withJSONObject: counts))
    }

    // MARK: - Running it under valgrind

    /// Runs the child under callgrind on `modelPath` and reads its counts.
    /// `FM_CALLGRIND_LIBRARY_PATH`, where set, goes before the child's
    /// `LD_LIBRARY_PATH` (the llama.cpp build valgrind can run). With
    /// `FM_OWN_WORK_DIR` the dumps stay in that folder, for
    /// `callgrind_annotate` (`callgrind.out.2`: the 1-token answers,
    /// `.3`: the long ones); otherwise they go to a temporary one.
    static func run(modelPath: String, log: (String) -> Void) throws -> Report {
        let environment = ProcessInfo.processInfo.environment
        guard FileManager.default.fileExists(atPath: modelPath) else { throw BenchmarkError("no model file at \(modelPath)") }
        let kept = environment["FM_OWN_WORK_DIR"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
        let work = kept ?? FileManager.default.temporaryDirectory.appendingPathComponent("fm-own-work-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { if kept == nil { try? FileManager.default.removeItem(at: work) } }

        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let stripped = work.appendingPathComponent("fm-bench")
        let objcopy = try ChildProcess.runBlocking(["objcopy", "--strip-debug", executable.path, stripped.path], standardError: .discarded)
        guard objcopy.status == 0 else { throw BenchmarkError("objcopy --strip-debug failed (binutils installed?)") }

        let output = work.appendingPathComponent("callgrind.out")
        let valgrindArguments = [
            "--tool=callgrind", "--dump-before=*callgrindBoundary*", "--dump-instr=no",
            "--compress-strings=no", "--compress-pos=no", "--callgrind-out-file=\(output.path)",
        ]
        var childEnvironment = [
            "FOUNDATION_MODELS_THREADS": "1", "FOUNDATION_MODELS_REPETITION": "off", "SWIFT_DETERMINISTIC_HASHING": "1",
        ]
        if let libraries = environment["FM_CALLGRIND_LIBRARY_PATH"], !libraries.isEmpty {
            childEnvironment["LD_LIBRARY_PATH"] = libraries + (environment["LD_LIBRARY_PATH"].map { ":" + $0 } ?? "")
        }
        log("running \(modelPath) under callgrind (minutes)")
        let child: ChildProcess.Output
        do {
            child = try ChildProcess.runBlocking(
                ["valgrind"] + valgrindArguments + [stripped.path, "own-work-child", modelPath],
                environment: childEnvironment)
        } catch {
            throw BenchmarkError("valgrind could not be started: \(error)")
        }
        // Valgrind's log, kept beside the dumps.
        try? child.standardError.write(to: work.appendingPathComponent("valgrind.log"), atomically: true, encoding: .utf8)
        guard child.status == 0,
            let counts = try? JSONSerialization.jsonObject(with: Data(child.standardOutput.utf8)) as? [String: [Int]],
            let short = counts["short"], let long = counts["long"], let prompt = counts["prompt"]?.first
        else {
            let log = child.standardError
            if log.contains("unhandled instruction bytes") {
                throw BenchmarkError(
                    "valgrind met an instruction it cannot run (AVX-512 in llama.cpp's native build?): set FM_CALLGRIND_LIBRARY_PATH to the lib folder of `scripts/setup.sh --gpu=cpu-baseline --llama-only` (make callgrind does)"
                )
            }
            throw BenchmarkError("the run under valgrind failed (status \(child.status)):\n\(log.suffix(2000))")
        }
        // Dump 1 is loading and the warm-up, 2 the 1-token answers, 3 the
        // long ones; the last (at exit) the teardown.
        let phases = try (2...3).map { try parse(URL(fileURLWithPath: "\(output.path).\($0)")) }
        let label = URL(fileURLWithPath: modelPath).deletingPathExtension().lastPathComponent
        return Report(
            model: label, requests: requests, shortTokens: short, longTokens: long, promptTokens: prompt,
            short: phases[0], long: phases[1],
            command: "valgrind " + valgrindArguments.dropLast().joined(separator: " ")
                + " --callgrind-out-file=DIR/callgrind.out fm-bench own-work-child \(label).gguf"
        )
    }

    /// The objects of the Swift side: this program (with the package's
    /// modules in it) and the Swift runtime's libraries.
    static func isSwiftSide(_ object: String) -> Bool {
        let name = (object as NSString).lastPathComponent
        return name == "fm-bench" || object.contains("/usr/lib/swift/") || name.hasPrefix("libswift") || name.hasPrefix("libFoundation")
            || name.hasPrefix("lib_Foundation") || name == "libdispatch.so" || name == "libBlocksRuntime.so"
    }

    /// Reads one callgrind dump written with `--compress-strings=no
    /// --compress-pos=no --dump-instr=no` (one event, Ir): its total, the
    /// inclusive cost of every call to `llama_decode` and to llama.cpp's
    /// other entry points, and the self cost of the Swift side's functions.
    static func parse(_ file: URL) throws -> Counts {
        let text = try String(contentsOf: file, encoding: .utf8)
        var total = 0
        var decode = 0
        var swiftFunctions: [String: Int] = [:]
        var llamaCalls: [String: Int] = [:]
        var object = ""
        var function = ""
        var calledObject: String?
        var called = ""
        var afterCalls = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("ob=") { object = String(line.dropFirst(3)); continue }
            if line.hasPrefix("fn=") { function = String(line.dropFirst(3)); calledObject = nil; continue }
            if line.hasPrefix("cob=") { calledObject = String(line.dropFirst(4)); continue }
            if line.hasPrefix("cfn=") { called = String(line.dropFirst(4)); continue }
            if line.hasPrefix("calls=") { afterCalls = true; continue }
            if line.hasPrefix("summary:") || line.hasPrefix("totals:") {
                total = max(total, Int(line.split(separator: " ").last ?? "") ?? 0)
                continue
            }
            guard let first = line.first, first.isNumber || first == "+" || first == "-" || first == "*" else {
                continue
            }
            let cost = Int(line.split(separator: " ").last ?? "") ?? 0
            if afterCalls {
                afterCalls = false
                // A call's inclusive cost. Calls into llama.cpp from
                // outside it: llama_decode is the reference, the rest is
                // the session's own work done by llama.cpp.
                let target = calledObject ?? object
                if called == "llama_decode" {
                    decode += cost
                } else if called.hasPrefix("llama_"), isSwiftSide(object), target.contains("libllama") {
                    llamaCalls[called, default: 0] += cost
                }
                calledObject = nil
            } else if isSwiftSide(object) {
                swiftFunctions[function, default: 0] += cost
            }
        }
        return Counts(total: total, decode: decode, swiftFunctions: swiftFunctions, llamaCalls: llamaCalls)
    }
}

extension OwnWork.Report {
    static let begin = "<!-- own-work:begin -->"
    static let end = "<!-- own-work:end -->"

    /// The section of BENCHMARKS.md, between its markers. Swift symbols are
    /// shown demangled where `swift demangle` runs.
    func markdown(machine: String) -> [String] {
        func count(_ value: Double) -> String {
            let formatter = NumberFormatter()
            formatter.numberStyle = .decimal
            formatter.maximumFractionDigits = 0
            return formatter.string(from: NSNumber(value: value.rounded())) ?? "\(Int(value))"
        }
        let perRequest = Double(requests)
        let extra = Double(max(1, extraTokens))
        func perToken(_ long: Int, _ short: Int) -> Double { Double(long - short) / extra }
        var lines = [Self.begin, "## The session's own work, in instructions (callgrind)", ""]
        lines.append(
            "Written by `make callgrind` (\(machine)). Model: \(model) (\(promptTokens) prompt tokens per request, greedy, loop stopping off), one thread, llama.cpp built for x86-64-v3 (`scripts/setup.sh --gpu=cpu-baseline`: valgrind runs no AVX-512). Instructions, not seconds: the same binary and inputs give the same counts whatever the machine is doing, so a change of a few per cent in the session's own work shows here where a 2-core timing cannot see it. Waiting (a thread woken late) costs time but no instructions: `fm-bench throughput` (the Throughput table) times the same path against llama-bench."
        )
        lines.append("")
        lines.append("| | the session's own work | inside `llama_decode` (llama.cpp, the reference) | own / (own + llama_decode) |")
        lines.append("| --- | ---: | ---: | ---: |")
        lines.append(
            "| a 1-token answer (per request) | \(count(Double(short.own) / perRequest)) | \(count(Double(short.decode) / perRequest)) | \(String(format: "%.1f", 100 * Double(short.own) / Double(max(1, short.total)))) % |"
        )
        let ownToken = perToken(long.own, short.own)
        let decodeToken = perToken(long.decode, short.decode)
        lines.append(
            "| each further generated token | \(count(ownToken)) | \(count(decodeToken)) | \(String(format: "%.1f", 100 * ownToken / max(1, ownToken + decodeToken))) % |"
        )
        lines.append("")
        lines.append(
            "Where a request's own instructions go (per 1-token answer): the Swift side (the package's code and Swift's runtime) \(count(Double(short.swiftSide) / perRequest)); llama.cpp called outside `llama_decode`: "
                + short.llamaCalls.sorted { $0.value > $1.value }.prefix(6).map { "`\($0.key)` \(count(Double($0.value) / perRequest))" }.joined(
                    separator: ", ")
                + "; the rest (the C library under both) \(count(Double(short.own - short.swiftSide - short.llamaCalls.values.reduce(0, +)) / perRequest))."
        )
        lines.append("")
        lines.append(
            "The Swift side's functions with the most instructions of their own per generated token (long answers less 1-token answers, per extra token):"
        )
        lines.append("")
        lines.append("| function | instructions per token |")
        lines.append("| --- | ---: |")
        var perFunction: [String: Double] = [:]
        for (name, value) in long.swiftFunctions { perFunction[name, default: 0] += Double(value) / extra }
        for (name, value) in short.swiftFunctions { perFunction[name, default: 0] -= Double(value) / extra }
        let top = perFunction.sorted { $0.value > $1.value }.prefix(12)
        let names = OwnWork.demangle(top.map(\.key))
        for ((_, value), name) in zip(top, names) {
            lines.append("| `\(OwnWork.shortened(name).replacingOccurrences(of: "|", with: "\\|"))` | \(count(value)) |")
        }
        lines.append("")
        lines.append(
            "Tokens: 1-token answers \(shortTokens.map(String.init).joined(separator: ", ")); long answers \(longTokens.map(String.init).joined(separator: ", ")). Command: `\(command)`."
        )
        lines.append(Self.end)
        return lines
    }
}

extension OwnWork {
    /// A C++ runtime function's name without its template arguments and
    /// parameters (`swift::MetadataCacheKey::operator==`), so a table row
    /// stays readable; shorter names as they are.
    static func shortened(_ name: String) -> String {
        guard name.count > 80 else { return name }
        var result = ""
        var depth = 0
        for character in name {
            if character == "(" && depth == 0 && !result.hasSuffix("operator") { break }
            if character == "<" && !result.hasSuffix("operator") && !result.hasSuffix("operator<") { depth += 1; continue }
            if character == ">" && depth > 0 { depth -= 1; continue }
            if depth == 0 { result.append(character) }
        }
        return result.hasPrefix("std::pair ") || result.hasPrefix("bool ") || result.hasPrefix("void ")
            ? String(result.drop { $0 != " " }.dropFirst()) : result
    }

    /// Swift symbols demangled (simplified) by `swift demangle`, or as they
    /// are where it does not run.
    static func demangle(_ symbols: [String]) -> [String] {
        // Standard input from a file: written to a pipe, a long list would
        // wait on `swift demangle`, which waits on its full output pipe.
        guard
            let child = try? ChildProcess.runBlocking(
                ["swift", "demangle", "--simplified", "--compact"],
                input: symbols.joined(separator: "\n").appending("\n"), standardError: .discarded)
        else { return symbols }
        let lines = child.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard child.status == 0, lines.count >= symbols.count else { return symbols }
        return Array(lines.prefix(symbols.count))
    }
}
