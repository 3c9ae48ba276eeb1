import Foundation
import FoundationModels
import FoundationModelsEval
import GuidedGeneration
import Synchronization

/// `fm-bench bigschemas DATA`: typed answers on MaskBench's largest schema
/// descriptions, timed as a user of `fm respond --schema` waits for them
/// (issue 59's acceptance: a valid answer within 60 s for the first
/// request, within 15 s for a second with the same schema, on the default
/// model on 2 cores).
///
/// Exists because a schema's description in the prompt is read before the
/// first token of the answer, at about 100 tokens a second on 2 cores: a
/// Washington Post or Kubernetes schema described whole takes minutes.
/// The library describes it within a budget
/// (``SystemLanguageModel/Configuration/schemaPromptTokenBudget``) and the
/// decoder enforces the rest; this measures what that costs and whether
/// the answers still follow the schema.
///
/// Selection: every schema of the MaskBench data (read by
/// ``MaskBench/forEachFile(in:limit:log:_:)``, as `fm-bench maskbench`
/// reads it) that the library reads and whose whole description (the
/// configured style, every description in full, no budget) takes more than
/// `--threshold` tokens of the model's vocabulary — counted by
/// `schemaPromptReport(for:)`, what `fm tokens --schema` prints. Each is
/// asked what `fm respond --schema FILE --greedy --max-tokens 600 PROMPT`
/// asks (a fresh session, the schema in the prompt, the model's default
/// budget), then the same again in a second fresh session. Answers are
/// judged by Python's `jsonschema` through MaskBench's harness where an
/// environment is given (`make bench-bigschemas` makes one), else by the
/// engine's own matcher (`SchemaConformance`).
///
/// `fm-bench bigschemas DATA [--model PATH] [--only a,b] [--limit N]
/// [--max-tokens 600] [--threshold 8000] [--timeout S] [--output FILE]
/// [--results FILE.json] [--list]`; `fm-bench bigschemas-report
/// RESULTS.json... [--output FILE]` writes the section again from runs'
/// results: several runs of parts of the set (`--only`), made on
/// different days, together make one distribution.
enum BigSchemas {
    static let begin = "<!-- bigschemas:begin -->"
    static let end = "<!-- bigschemas:end -->"

    struct Options {
        var data = ""
        var output = "BENCHMARKS.md"
        var limit: Int?
        var only: [String] = []
        var maxTokens = 600
        var threshold = 8000
        /// A request still running after this many seconds is cancelled
        /// and counted as failed.
        var timeout: Double = 300
        var prompt = "Give one example record."
        var modelPath: String?
        /// Print the selection and stop.
        var list = false
        /// Where the run's records go as JSON (``Run``), if anywhere.
        var results: String?
        var python = ProcessInfo.processInfo.environment["MASKBENCH_PYTHON"] ?? ""
        var harness = ProcessInfo.processInfo.environment["MASKBENCH_HARNESS"] ?? "scripts/maskbench_harness.py"
        /// The options as given, but the data folder and paths (for the report).
        var given: [String] = []
    }

    static let usage =
        "usage: fm-bench bigschemas DATA [--model PATH] [--only a,b] [--limit N] [--max-tokens 600] [--threshold 8000] [--timeout S] [--output FILE] [--results FILE.json] [--list]"

    static func options(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            func value() throws -> String {
                guard let next = rest.popFirst() else { throw BenchmarkError("\(argument) needs a value") }
                return next
            }
            func number(_ text: String) throws -> Int {
                guard let number = Int(text), number > 0 else { throw BenchmarkError("\(argument) takes a positive whole number, not '\(text)'") }
                return number
            }
            switch argument {
            case "--output": options.output = try value()
            case "--limit": options.limit = try number(value())
            case "--only": options.only = try value().split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            case "--max-tokens": options.maxTokens = try number(value())
            case "--threshold": options.threshold = try number(value())
            case "--timeout": options.timeout = Double(try number(value()))
            case "--prompt": options.prompt = try value()
            case "--model": options.modelPath = try value()
            case "--results": options.results = try value()
            case "--python": options.python = try value()
            case "--harness": options.harness = try value()
            case "--list":
                options.list = true
                continue
            default:
                guard !argument.hasPrefix("-"), options.data.isEmpty else { throw BenchmarkError("unknown option '\(argument)'\n\(usage)") }
                options.data = argument
                continue
            }
            if ["--limit", "--only", "--max-tokens", "--threshold", "--timeout", "--prompt"].contains(argument) {
                options.given += [argument, arguments[rest.startIndex - 1]]
            }
        }
        guard !options.data.isEmpty else { throw BenchmarkError(usage) }
        return options
    }

    // MARK: - Selection

    /// A schema the run asks for.
    struct Candidate {
        /// The short name (`wp_0`), and the file's.
        var name: String
        var file: String
        var schema: GenerationSchema
        /// The file's schema as JSON, for the validator.
        var json: String
        /// What its description takes: whole, and as sent with the budget.
        var wholeTokens: Int
        var sentTokens: Int
        /// How the sent one was shortened (`whole` where it was not).
        var detail: String
    }

    /// What the selection read.
    struct Counts: Codable, Equatable {
        /// Files with a schema, and of them the schemas the library reads.
        var files = 0
        var readable = 0
        /// Readable schemas over the threshold.
        var over = 0
    }

    /// `wp_0` for `WashingtonPost---wp_0_Normalized.json`: the name after the
    /// collection's, without the corpus's suffix.
    static func shortName(_ file: String) -> String {
        var name = file.hasSuffix(".json") ? String(file.dropLast(5)) : file
        if let range = name.range(of: "---") { name = String(name[range.upperBound...]) }
        if name.hasSuffix("_Normalized") { name = String(name.dropLast("_Normalized".count)) }
        return name
    }

    /// Whether `--only`'s names pick `candidate` (its short name or its
    /// file's name, with or without `.json`).
    static func picked(_ name: String, file: String, by only: [String]) -> Bool {
        only.isEmpty || only.contains { $0 == name || $0 == file || $0 + ".json" == file }
    }

    /// The schemas over the threshold, in file order, then those `--only`
    /// names, then `--limit` of them spread evenly.
    static func select(_ options: Options, model: SystemLanguageModel, log: @escaping @Sendable (String) -> Void) async throws -> (
        [Candidate], Counts
    ) {
        var counts = Counts()
        // A token is at least a byte of the text, so a description of no
        // more bytes than the threshold (and a few for the tokenizer's
        // special tokens) cannot take more tokens: only longer ones are counted.
        var long: [(name: String, file: String, schema: GenerationSchema, json: String)] = []
        let style = model.configuration.schemaPromptStyle
        try MaskBench.forEachFile(in: options.data, log: log) { file in
            counts.files += 1
            guard let document = file.fields["schema"], let schema = try? GenerationSchema(jsonSchema: document) else { return }
            counts.readable += 1
            guard schema.promptDescription(style: style).utf8.count + 8 > options.threshold else { return }
            long.append((shortName(file.name), file.name, schema, document.canonicalJSON))
        }
        log("bigschemas: \(counts.files) files, \(counts.readable) readable schemas, \(long.count) with descriptions over \(options.threshold) bytes")
        var selected: [Candidate] = []
        for item in long {
            let report = try await model.schemaPromptReport(for: item.schema)
            guard report.wholeTokens > options.threshold else { continue }
            counts.over += 1
            selected.append(
                Candidate(
                    name: item.name, file: item.file, schema: item.schema, json: item.json, wholeTokens: report.wholeTokens,
                    sentTokens: report.tokens,
                    detail: report.detail?.rawValue ?? "whole"
                ))
        }
        return (choose(selected, only: options.only, limit: options.limit), counts)
    }

    /// `--only`'s, then `limit` of them spread evenly over the order.
    static func choose<T>(_ items: [T], only: [String], limit: Int?, name: (T) -> (name: String, file: String)) -> [T] {
        var items = items.filter { picked(name($0).name, file: name($0).file, by: only) }
        if let limit, limit < items.count {
            let step = Double(items.count) / Double(limit)
            items = (0..<limit).map { items[Int(Double($0) * step)] }
        }
        return items
    }

    static func choose(_ candidates: [Candidate], only: [String], limit: Int?) -> [Candidate] {
        choose(candidates, only: only, limit: limit) { ($0.name, $0.file) }
    }

    // MARK: - Records

    /// One request's outcome.
    struct Attempt: Codable, Equatable {
        /// Wall time from the request to its end, the model loaded.
        var seconds: Double
        /// To the answer's first piece: the schema compiled and the prompt
        /// read (the rest is decoding); nil where none came.
        var firstTokenSeconds: Double?
        var promptTokens: Int?
        var cachedTokens: Int?
        var generatedTokens: Int?
        /// The answer's JSON; nil when the request threw.
        var answer: String?
        /// What the request threw, as said.
        var error: String?
        /// The error is a clear refusal (the schema cannot be enforced, its
        /// value cannot be finished within the limit, no room in the
        /// context) rather than a failure.
        var refused = false
        /// The validator's verdict on the answer; nil: not judged.
        var valid: Bool?
        var violation: String?

        init(
            seconds: Double, firstTokenSeconds: Double? = nil, promptTokens: Int? = nil, cachedTokens: Int? = nil, generatedTokens: Int? = nil,
            answer: String? = nil,
            error: String? = nil, refused: Bool = false, valid: Bool? = nil, violation: String? = nil
        ) {
            self.seconds = seconds
            self.firstTokenSeconds = firstTokenSeconds
            self.promptTokens = promptTokens
            self.cachedTokens = cachedTokens
            self.generatedTokens = generatedTokens
            self.answer = answer
            self.error = error
            self.refused = refused
            self.valid = valid
            self.violation = violation
        }

        enum Verdict: Equatable {
            case valid, refused(String), failed(String)
        }

        /// Valid, refused or failed, with the reason grouped (numbers and
        /// quoted names taken out, so schemas that fail alike count together).
        var verdict: Verdict {
            if let error { return refused ? .refused(BigSchemas.reason(error)) : .failed(BigSchemas.reason(error)) }
            switch valid {
            case true?: return .valid
            case false?:
                // Grouped by what kind of violation, not where: the part before its first colon.
                return .failed("invalid answer" + (violation.map { ": " + BigSchemas.reason(String($0.prefix { $0 != ":" })) } ?? ""))
            case nil: return .failed("not judged" + (violation.map { ": " + BigSchemas.reason($0) } ?? ""))
            }
        }
    }

    struct Record: Codable, Equatable {
        var name: String
        var file: String
        var wholeTokens: Int
        var sentTokens: Int
        var detail: String
        var first: Attempt
        /// The same request again; nil where the first had no answer.
        var second: Attempt?
    }

    /// A run, as `--results` writes it and `bigschemas-report` reads it.
    struct Run: Codable, Equatable {
        var machine: String
        var model: String
        var date: String
        var command: String
        var prompt: String
        var threshold: Int
        var maxTokens: Int
        var timeout: Double
        /// The schema budget the model describes within.
        var budget: Int?
        var counts: Counts
        var validator: String
        /// Before the first schema: loading the model, and a first small
        /// typed answer (one-time work no schema should be charged).
        var loadSeconds: Double
        var warmUpSeconds: Double
        /// The machine's 1-minute load average when the requests began and
        /// when they ended: other work on the cores slows every figure.
        var load: [Double]?
        var records: [Record]
    }

    /// The 1-minute load average (`/proc/loadavg`), where there is one.
    static func loadAverage() -> Double? {
        Suite.loadAverages().first.flatMap { Double($0) }
    }

    // MARK: - Run

    static func run(_ arguments: [String], log: @escaping @Sendable (String) -> Void) async throws {
        let options = try options(arguments)
        let model =
            options.modelPath.map { SystemLanguageModel(configuration: .init(modelFile: URL(fileURLWithPath: $0))) }
            ?? SystemLanguageModel(configuration: .default)
        guard FileManager.default.fileExists(atPath: model.configuration.modelPath) else {
            throw BenchmarkError("no model file at \(model.configuration.modelPath)")
        }
        let engine = OnDeviceEngine.shared(for: model.configuration)
        let loadStart = Measure.clock.now
        _ = try await engine.loaded()
        let loadSeconds = (Measure.clock.now - loadStart).inSeconds
        log("bigschemas: \(model.configuration.modelFile.lastPathComponent) loaded in \(String(format: "%.1f", loadSeconds)) s")

        let (candidates, counts) = try await select(options, model: model, log: log)
        log("bigschemas: \(counts.over) schemas over \(options.threshold) tokens; asking \(candidates.count)")
        if options.list {
            for candidate in candidates {
                print("\(candidate.name)\t\(candidate.wholeTokens)\t\(candidate.sentTokens)\t\(candidate.detail)\t\(candidate.file)")
            }
            print(
                "selected \(candidates.count) of \(counts.over) over \(options.threshold) tokens (\(counts.readable) readable of \(counts.files) files)"
            )
            return
        }

        let generation = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: options.maxTokens)
        // One-time work (the vocabulary's tables, the first prompt) before
        // the first schema, so no schema is charged for it.
        let warmUp = try GenerationSchema(jsonSchema: GeneratedContent(json: #"{"type":"object","properties":{"name":{"type":"string"}}}"#))
        let warmUpAttempt = await ask(model, schema: warmUp, prompt: options.prompt, options: generation, timeout: options.timeout)
        log("bigschemas: warm-up answer in \(String(format: "%.1f", warmUpAttempt.seconds)) s")

        let loadBefore = loadAverage()
        var records: [Record] = []
        for (index, candidate) in candidates.enumerated() {
            let first = await ask(model, schema: candidate.schema, prompt: options.prompt, options: generation, timeout: options.timeout)
            let second =
                first.answer == nil
                ? nil : await ask(model, schema: candidate.schema, prompt: options.prompt, options: generation, timeout: options.timeout)
            records.append(
                Record(
                    name: candidate.name, file: candidate.file, wholeTokens: candidate.wholeTokens, sentTokens: candidate.sentTokens,
                    detail: candidate.detail, first: first, second: second))
            log(
                "bigschemas: \(index + 1)/\(candidates.count) \(candidate.name): whole \(candidate.wholeTokens), sent \(candidate.sentTokens) (\(candidate.detail)); "
                    + "first \(String(format: "%.1f", first.seconds)) s\(first.error.map { ", " + $0 } ?? ""); "
                    + (second.map { "second \(String(format: "%.1f", $0.seconds)) s" } ?? "no second"))
        }

        let load = [loadBefore, loadAverage()].compactMap { $0 }
        let validator = try validate(&records, candidates: candidates, options: options, log: log)
        let budget = try await model.schemaPromptReport(for: warmUp).budget
        let result = Run(
            machine: Suite.machine(), model: model.configuration.modelFile.lastPathComponent, date: ISO8601DateFormatter().string(from: Date()),
            command: command(options), prompt: options.prompt, threshold: options.threshold, maxTokens: options.maxTokens, timeout: options.timeout,
            budget: budget, counts: counts, validator: validator, loadSeconds: loadSeconds, warmUpSeconds: warmUpAttempt.seconds,
            load: load.count == 2 ? load : nil, records: records
        )
        if let path = options.results {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(result).write(to: URL(fileURLWithPath: path))
            log("bigschemas: wrote \(path)")
        }
        try Benchmark.replaceSection(in: options.output, begin: begin, end: end, with: markdown(result).joined(separator: "\n"))
        log("bigschemas: wrote \(options.output)")
    }

    /// The command that repeats the run, for the report.
    static func command(_ options: Options) -> String {
        let given = options.given.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
        return given.isEmpty ? "make bench-bigschemas" : "make bench-bigschemas BIGSCHEMAS_ARGS=\"\(given)\""
    }

    /// `fm-bench bigschemas-report RESULTS.json... [--output FILE]`: the
    /// section from runs' records (``merged(_:)``), into FILE or to
    /// standard output.
    static func report(_ arguments: [String]) throws {
        var rest = arguments
        var output: String?
        if let index = rest.firstIndex(of: "--output") {
            guard index + 1 < rest.count else { throw BenchmarkError("--output needs a value") }
            output = rest[index + 1]
            rest.removeSubrange(index...(index + 1))
        }
        guard !rest.isEmpty else { throw BenchmarkError("usage: fm-bench bigschemas-report RESULTS.json... [--output FILE]") }
        let runs = try rest.map { path in try JSONDecoder().decode(Run.self, from: Data(contentsOf: URL(fileURLWithPath: path))) }
        let section = markdown(try merged(runs)).joined(separator: "\n")
        guard let output else {
            print(section)
            return
        }
        try Benchmark.replaceSection(in: output, begin: begin, end: end, with: section)
    }

    /// Runs of parts of the set as one: every schema's record (a schema
    /// asked again takes its latest run's), their dates and commands
    /// listed; the load averages kept only for a single run, since
    /// several had several. Runs made with different models or request
    /// settings are not one distribution and are refused.
    static func merged(_ runs: [Run]) throws(BenchmarkError) -> Run {
        guard var merged = runs.first else { throw BenchmarkError("no runs to report") }
        guard runs.count > 1 else { return merged }
        for run in runs.dropFirst() {
            guard
                run.model == merged.model, run.prompt == merged.prompt, run.threshold == merged.threshold, run.maxTokens == merged.maxTokens,
                run.timeout == merged.timeout, run.budget == merged.budget
            else {
                throw BenchmarkError("the runs differ in their model or request settings (model, prompt, threshold, max tokens, timeout or budget)")
            }
            for record in run.records {
                if let index = merged.records.firstIndex(where: { $0.name == record.name }) {
                    merged.records[index] = record
                } else {
                    merged.records.append(record)
                }
            }
        }
        let dates = Set(runs.map { String($0.date.prefix(10)) }).sorted()
        merged.date = dates.joined(separator: ", ") + " (\(runs.count) runs)"
        merged.command = runs.map(\.command).joined(separator: "`; `")
        merged.load = nil
        return merged
    }

    /// One request in a fresh session, as `fm respond --schema` sends it
    /// (streamed, to time its first piece; the engine's work is the same);
    /// cancelled after `timeout` seconds.
    static func ask(_ model: SystemLanguageModel, schema: GenerationSchema, prompt: String, options: GenerationOptions, timeout: Double) async
        -> Attempt
    {
        let start = Measure.clock.now
        // Set by the request's task, read after it ends or is cancelled.
        let firstPiece = FirstPiece()
        @Sendable func since() -> Double { (Measure.clock.now - start).inSeconds }
        do {
            let response = try await withThrowingTaskGroup(of: LanguageModelSession.Response<GeneratedContent>?.self) { group in
                group.addTask {
                    let session = LanguageModelSession(model: model)
                    let stream = session.streamResponse(to: prompt, schema: schema, includeSchemaInPrompt: true, options: options)
                    for try await _ in stream {
                        firstPiece.seconds.withLock { if $0 == nil { $0 = since() } }
                    }
                    return try await stream.collect()
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(timeout))
                    return nil
                }
                let first = try await group.next() ?? nil
                group.cancelAll()
                return first
            }
            let seconds = since()
            let firstTokenSeconds = firstPiece.seconds.withLock { $0 }
            guard let response else {
                return Attempt(seconds: seconds, firstTokenSeconds: firstTokenSeconds, error: "no answer within the time limit of \(Int(timeout)) s")
            }
            return Attempt(
                seconds: seconds, firstTokenSeconds: firstTokenSeconds, promptTokens: response.usage.input.totalTokenCount,
                cachedTokens: response.usage.input.cachedTokenCount, generatedTokens: response.usage.output.totalTokenCount,
                answer: response.rawContent.jsonString)
        } catch {
            return Attempt(seconds: since(), firstTokenSeconds: firstPiece.seconds.withLock { $0 }, error: describe(error), refused: isRefusal(error))
        }
    }

    /// When a request's first piece came, from its start.
    final class FirstPiece: Sendable {
        let seconds = Mutex<Double?>(nil)
    }

    /// The error as `fm respond` says it: the case and its description.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? LanguageModelSession.GenerationError else { return "\(error)" }
        let name = "\(error)".prefix { $0 != "(" }
        return "\(name): \(error.context.debugDescription)"
    }

    /// A clear refusal: the schema cannot be enforced, its shortest value
    /// does not fit the limit, the prompt does not fit the context, or the
    /// model declined; anything else a request throws is a failure.
    static func isRefusal(_ error: any Error) -> Bool {
        guard let error = error as? LanguageModelSession.GenerationError else { return false }
        switch error {
        case .unsupportedGuide, .exceededContextWindowSize, .refusal, .guardrailViolation, .unsupportedLanguageOrLocale: return true
        case .decodingFailure(let context): return context.debugDescription.contains("could not be finished within")
        default: return false
        }
    }

    /// A reason with what is particular to one schema taken out: quoted
    /// names and values become `…`, numbers `N`, and it is cut at 100
    /// characters.
    static func reason(_ text: String) -> String {
        var text = text.split(separator: "\n").first.map(String.init) ?? text
        for pattern in [#"'[^']*'"#, #""[^"]*""#, #"`[^`]*`"#] {
            text = text.replacingOccurrences(of: pattern, with: "…", options: .regularExpression)
        }
        text = text.replacingOccurrences(of: #"\d+(\.\d+)?"#, with: "N", options: .regularExpression)
        return text.count > 100 ? String(text.prefix(99)) + "…" : text
    }

    // MARK: - Validation

    /// Judges every answer: Python's `jsonschema` through MaskBench's
    /// harness where an environment is given (its verdict; the engine's own
    /// matcher says where it goes wrong), else the engine's own matcher.
    /// Returns what judged them, for the report.
    static func validate(_ records: inout [Record], candidates: [Candidate], options: Options, log: (String) -> Void) throws -> String {
        // The engine's own matcher first: the reason an answer leaves its schema.
        var ours: [[String?]] = []
        for (index, record) in records.enumerated() {
            ours.append(
                [record.first, record.second].map { attempt in
                    guard let answer = attempt?.answer else { return nil }
                    do {
                        try SchemaConformance.validate(GeneratedContent(json: answer), against: candidates[index].schema)
                        return nil
                    } catch {
                        return "\(error)"
                    }
                })
        }
        var python: [[Bool?]]?
        var note =
            "the engine's own matcher (`SchemaConformance`, the decoder's grammar; no Python environment was given, so not an independent check)"
        if !options.python.isEmpty {
            let vocabulary = FileManager.default.temporaryDirectory.appendingPathComponent(
                "bigschemas-\(ProcessInfo.processInfo.processIdentifier).txt")
            try "eos \n".write(to: vocabulary, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: vocabulary) }
            let jobs = records.enumerated().map { index, record in
                let answers = [record.first.answer, record.second?.answer].compactMap { $0 }
                return MaskBench.Job(
                    id: index, name: record.file, file: record.file, schema: candidates[index].json,
                    tests: answers.enumerated().map { (valid: true, text: $0.element, tokens: [Int32](), position: $0.offset) }, originals: [])
            }
            let outcomes = try MaskBench.runEngine(
                "validate", command: [options.python, options.harness, "validate", vocabulary.path], jobs: jobs, timeout: 60, log: log)
            python = zip(records, outcomes).map { record, outcome in
                guard outcome.compiled else { return [nil, nil] }
                var verdicts = outcome.accepted.map { Optional($0) }
                if record.first.answer == nil { verdicts.insert(nil, at: 0) }
                return Array((verdicts + [nil, nil]).prefix(2))
            }
            note = "Python `jsonschema` 4.23.0 (MaskBench's validator, no format assertions)"
        }
        for index in records.indices {
            func judge(_ attempt: inout Attempt, _ position: Int) {
                guard attempt.answer != nil else { return }
                let violation = ours[index][position]
                if let python {
                    attempt.valid = python[index][position]
                    if attempt.valid == nil {
                        attempt.violation = "jsonschema could not judge the schema"
                    } else if attempt.valid == false {
                        attempt.violation = violation ?? "jsonschema refuses it (the engine's matcher accepts it)"
                    }
                } else {
                    attempt.valid = violation == nil
                    attempt.violation = violation
                }
            }
            judge(&records[index].first, 0)
            if records[index].second != nil { judge(&records[index].second!, 1) }
        }
        return note
    }

    // MARK: - Report

    /// The nearest-rank percentile of `values` (as ``Distribution``'s).
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[max(0, min(sorted.count - 1, index))]
    }

    /// Reasons and how many share each, most first, then by name.
    static func grouped(_ reasons: [String]) -> [(reason: String, count: Int)] {
        Dictionary(grouping: reasons, by: { $0 }).map { ($0.key, $0.value.count) }.sorted { ($0.count, $1.reason) > ($1.count, $0.reason) }
    }

    /// The section of BENCHMARKS.md, between its markers.
    static func markdown(_ run: Run) -> [String] {
        func s(_ seconds: Double) -> String { String(format: "%.1f", seconds) }
        func thousands(_ value: Int) -> String {
            let formatter = NumberFormatter()
            formatter.numberStyle = .decimal
            formatter.locale = Locale(identifier: "en_US")
            return formatter.string(from: NSNumber(value: value)) ?? "\(value)"
        }
        func share(_ count: Int, of total: Int) -> String {
            total == 0 ? "0 of 0" : "\(count) of \(total) (\(String(format: "%.0f", Double(count) / Double(total) * 100)) %)"
        }
        let records = run.records
        let total = records.count
        let firsts = records.map(\.first)
        let seconds = records.compactMap(\.second)

        var lines = [begin, "## Big schemas: typed answers on MaskBench's largest descriptions", ""]
        let loadNote =
            run.load.map {
                "; the machine's load average was \(String(format: "%.1f", $0[0])) when the requests began and \(String(format: "%.1f", $0[1])) when they ended"
                    + " (the benchmark's own decoding keeps up to two cores busy; a load above the machine's core count means other work shared them, and every time is longer than on a quiet machine)"
            } ?? ""
        let largest = records.max { $0.wholeTokens < $1.wholeTokens }
        let selection =
            total == run.counts.over
            ? "All \(thousands(run.counts.over))"
            : "\(total) of the \(thousands(run.counts.over))"
        lines.append(
            """
            \(selection) MaskBench schemas whose whole description (one field a line, every description in full, no budget) takes more \
            than \(thousands(run.threshold)) tokens of the model's vocabulary, counted as `fm tokens --schema` counts it (of \
            \(thousands(run.counts.files)) files, \(thousands(run.counts.readable)) schemas the library reads)\
            \(largest.map { "; the largest here, `\($0.name)`, takes \(thousands($0.wholeTokens))" } ?? ""). Each is asked what \
            `fm respond --schema FILE --greedy --max-tokens \(run.maxTokens) "\(run.prompt)"` asks: a fresh session, the schema \
            described in the prompt within the model's schema budget\(run.budget.map { " (\(thousands($0)) tokens)" } ?? ""), greedy, at \
            most \(run.maxTokens) tokens; then the same request in a second fresh session, which finds the prompt's prefix evaluated and \
            the schema's grammar compiled (a request with no answer is not asked again). Time: from the request to the whole answer, the \
            model loaded (loading took \(s(run.loadSeconds)) s and a first small typed answer \(s(run.warmUpSeconds)) s before the first \
            schema, not counted); a request is cancelled after \(Int(run.timeout)) s\(loadNote). Answers judged by \(run.validator). `\(run.model)`, \
            \(run.machine), \(run.date). Command: `\(run.command)` (`fm-bench bigschemas DATA`).
            """)
        lines.append("")
        let met = records.filter { record in
            record.first.verdict == .valid && record.first.seconds <= 60 && record.second.map { $0.verdict == .valid && $0.seconds <= 15 } == true
        }
        lines.append(
            "**Issue 59's acceptance (a valid answer within 60 s on the first request and within 15 s on the second): \(share(met.count, of: total)).**"
        )
        lines.append("")

        func column(_ attempts: [Attempt]) -> [String] {
            let answered = attempts.filter { $0.answer != nil }
            let times = answered.map(\.seconds)
            func median(_ values: [Int?]) -> String {
                let present = values.compactMap { $0 }.map(Double.init)
                return present.isEmpty ? "–" : String(format: "%.0f", percentile(present, 0.5))
            }
            let firstPieces = answered.compactMap(\.firstTokenSeconds)
            // Tokens after the first over the time after the first piece.
            let rates = answered.compactMap { attempt -> Double? in
                guard let first = attempt.firstTokenSeconds, let tokens = attempt.generatedTokens, tokens > 1, attempt.seconds > first else {
                    return nil
                }
                return Double(tokens - 1) / (attempt.seconds - first)
            }
            let valid = attempts.filter { $0.verdict == .valid }
            let refused = attempts.filter { if case .refused = $0.verdict { true } else { false } }
            return [
                "\(attempts.count)", "\(answered.count)", "\(valid.count)", "\(refused.count)", "\(attempts.count - valid.count - refused.count)",
                times.isEmpty ? "–" : s(percentile(times, 0.5)), times.isEmpty ? "–" : s(percentile(times, 0.9)),
                times.isEmpty ? "–" : s(times.max()!), firstPieces.isEmpty ? "–" : s(percentile(firstPieces, 0.5)),
                firstPieces.isEmpty ? "–" : s(percentile(firstPieces, 0.9)), rates.isEmpty ? "–" : s(percentile(rates, 0.5)),
                share(valid.filter { $0.seconds <= 60 }.count, of: total), share(valid.filter { $0.seconds <= 15 }.count, of: total),
                median(answered.map(\.promptTokens)), median(answered.map(\.cachedTokens)), median(answered.map(\.generatedTokens)),
            ]
        }
        let rows = [
            "requests", "answered", "valid", "refused", "failed", "time to the answer, median (s)", "time to the answer, p90 (s)",
            "time to the answer, max (s)", "time to its first piece, median (s)", "time to its first piece, p90 (s)",
            "decoding after it, median (tokens/s)", "valid within 60 s (of all schemas)", "valid within 15 s (of all schemas)",
            "prompt tokens, median",
            "of which cached, median", "generated tokens, median",
        ]
        let first = column(firsts)
        let second = column(seconds)
        lines.append("| | first request | second request, same schema |")
        lines.append("|---|---:|---:|")
        for (index, row) in rows.enumerated() { lines.append("| \(row) | \(first[index]) | \(second[index]) |") }
        lines.append("")
        lines.append(
            "Times are over the requests that answered (valid or not); refusals and failures are counted apart. The first piece of a streamed "
                + "answer comes once the schema is compiled and the prompt read: before it the time is the prompt's, after it the answer's.")

        var refusals: [String] = []
        var failures: [String] = []
        for attempt in firsts + seconds {
            switch attempt.verdict {
            case .valid: break
            case .refused(let reason): refusals.append(reason)
            case .failed(let reason): failures.append(reason)
            }
        }
        for (title, reasons) in [("Refused", refusals), ("Failed", failures)] {
            lines.append("")
            let list = grouped(reasons).map { "\($0.reason) (\($0.count))" }.joined(separator: "; ")
            lines.append("\(title), first and second requests together: " + (list.isEmpty ? "none." : list + "."))
        }

        let slowest = records.sorted { ($0.first.seconds, $1.name) > ($1.first.seconds, $0.name) }.prefix(10)
        if !slowest.isEmpty {
            lines.append("")
            lines.append("The slowest \(slowest.count == 10 ? "ten" : "\(slowest.count)") by their first request:")
            lines.append("")
            lines.append(
                "| schema | whole description (tokens) | sent (tokens, detail) | first (s; to its first piece) | prompt / cached / generated | second (s; to its first piece) | prompt / cached / generated | verdict |"
            )
            lines.append("|---|---:|---:|---:|---:|---:|---:|---|")
            func tokens(_ attempt: Attempt?) -> String {
                guard let attempt, attempt.answer != nil else { return "–" }
                return [attempt.promptTokens, attempt.cachedTokens, attempt.generatedTokens].map { $0.map(String.init) ?? "?" }.joined(
                    separator: " / ")
            }
            func verdict(_ record: Record) -> String {
                func one(_ attempt: Attempt) -> String {
                    switch attempt.verdict {
                    case .valid: "valid"
                    case .refused(let reason): "refused: " + reason
                    case .failed(let reason): reason
                    }
                }
                let first = one(record.first)
                guard let second = record.second.map(one), second != first else { return first }
                return "\(first); second: \(second)"
            }
            func time(_ attempt: Attempt?) -> String {
                guard let attempt else { return "–" }
                return s(attempt.seconds) + (attempt.firstTokenSeconds.map { "; \(s($0))" } ?? "")
            }
            for record in slowest {
                lines.append(
                    "| `\(record.name)` | \(thousands(record.wholeTokens)) | \(thousands(record.sentTokens)), \(record.detail) | \(time(record.first)) | "
                        + "\(tokens(record.first)) | \(time(record.second)) | \(tokens(record.second)) | "
                        + verdict(record).replacingOccurrences(of: "|", with: "\\|") + " |")
            }
        }
        lines.append(end)
        return lines
    }
}
