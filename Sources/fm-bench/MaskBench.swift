import ChildProcess
import Foundation
import FoundationModels
import GuidedGeneration
import LlamaKit
import Synchronization

/// MaskBench: JSON Schema coverage and mask speed on about 10,000 real
/// schemas with valid and invalid instances (jsonschemabench's `maskbench`
/// data), for this engine and, in the same run on the same tokens,
/// llguidance and XGrammar.
///
/// Exists because coverage claims need a public corpus: a schema passes
/// when it compiles and every applicable instance is judged right — a valid
/// one accepted token by token to the end, an invalid one refused at some
/// token. Each instance is first rewritten into the form this engine writes
/// (compact, properties in schema order) and tokenized once with the
/// model's tokenizer; every engine gets those same tokens. An instance is
/// applicable only when an independent validator (Python `jsonschema`)
/// still gives its rewritten form the label it was published with.
///
/// llguidance tokenizes the bytes its grammar forces with the model's own
/// tokenizer (the harness reads it from the GGUF file), so its forced
/// tokens are the instances' tokens; and it also runs under jsonschemabench's
/// own protocol (`llguidance-own`: the file's instances as written, its
/// default options), so both protocols' figures stand side by side.
///
/// Every engine runs in worker processes driven by one line protocol (a job
/// per schema in, a result out), so a schema that hangs past the time
/// limit, or crashes its worker, is counted and the run goes on.
/// `fm-bench maskbench DATA [--output FILE] [--limit N] [--timeout S] [--xgrammar-every N] [--engines a,b]`.
enum MaskBench {
    struct Options {
        var data = ""
        var output = "BENCHMARKS.md"
        var limit: Int?
        var timeout: Double = 20
        var xgrammarEvery = 20
        var engines = ["ours", "llguidance", "llguidance-own", "xgrammar"]
        var python = ProcessInfo.processInfo.environment["MASKBENCH_PYTHON"] ?? ""
        var harness = ProcessInfo.processInfo.environment["MASKBENCH_HARNESS"] ?? "scripts/maskbench_harness.py"
        var modelPath = ProcessInfo.processInfo.environment["FOUNDATION_MODELS_MODEL"] ?? ""
        /// The options as given, but the data folder (for the report).
        var given: [String] = []
    }

    static func options(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            func value() throws -> String {
                guard let next = rest.popFirst() else { throw BenchError("\(argument) needs a value") }
                return next
            }
            switch argument {
            case "--output": options.output = try value()
            case "--limit": options.limit = Int(try value())
            case "--timeout": options.timeout = Double(try value()) ?? options.timeout
            case "--xgrammar-every": options.xgrammarEvery = max(1, Int(try value()) ?? options.xgrammarEvery)
            case "--engines": options.engines = try value().split(separator: ",").map(String.init)
            case "--python": options.python = try value()
            case "--harness": options.harness = try value()
            case "--model": options.modelPath = try value()
            default:
                options.data = argument
                continue
            }
            // (Every option takes a value: the one just read.)
            if !["--python", "--harness", "--model", "--output"].contains(argument) { options.given += [argument, arguments[rest.startIndex - 1]] }
        }
        guard !options.data.isEmpty else { throw BenchError("usage: fm-bench maskbench DATA_DIR [--output FILE] [--limit N] [--timeout S]") }
        return options
    }

    struct BenchError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: - Jobs

    /// One schema with its instances, rewritten and tokenized.
    struct Job {
        var id: Int
        var name: String
        /// The MaskBench file (for an engine run under its own protocol).
        var file: String
        var schema: String
        /// The instances this protocol judges: rewritten, tokenized, and
        /// where each sits among the file's tests.
        var tests: [(valid: Bool, text: String, tokens: [Int32], position: Int)]
        /// Every test of the file as it is written there (compact, its own
        /// property order): what an engine's own protocol starts from.
        var originals: [String]
    }

    /// One engine's verdict on one schema.
    struct Outcome {
        var compiled = false
        var error: String?
        var compileNanoseconds: Double = 0
        /// The first mask of a fresh decoder right after compiling: with
        /// the compile, what a request waits before its first token.
        var firstMaskNanoseconds: Double?
        /// Per test: accepted to the end.
        var accepted: [Bool] = []
        /// For an engine under its own protocol: each of the file's tests'
        /// published validity (its instances are its own, all applicable).
        var labels: [Bool]?
        var maskNanoseconds: [Double] = []
        var hang = false
        var crash = false
    }

    // MARK: - Run

    static func run(_ arguments: [String], log: @escaping @Sendable (String) -> Void) async throws {
        let options = try options(arguments)
        guard !options.modelPath.isEmpty else { throw BenchError("FOUNDATION_MODELS_MODEL is not set") }
        let model = try LlamaModel(path: options.modelPath, options: .init(vocabularyOnly: true))
        let vocabulary = ConstraintCache.makeVocabulary(model.vocabulary)
        log("maskbench: \(vocabulary.count) tokens from \(options.modelPath)")
        let scratch = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("maskbench-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let vocabularyFile = scratch.appendingPathComponent("vocabulary.txt")
        try exportVocabulary(vocabulary, to: vocabularyFile)

        let jobs = try loadJobs(options, vocabulary: vocabulary, log: log)
        log("maskbench: \(jobs.count) schemas, \(jobs.reduce(0) { $0 + $1.tests.count }) instances")
        if let path = ProcessInfo.processInfo.environment["MASKBENCH_JOBS"] {
            // The workers' input, one job a line: to run or profile a worker
            // alone (`fm-bench maskbench-worker MODEL < FILE`).
            var lines = Data()
            for job in jobs { lines += try payload(job) + Data([0x0A]) }
            try lines.write(to: URL(fileURLWithPath: path))
        }

        // Applicability: the rewritten instance keeps its published label.
        let python = options.python
        var applicable: [[Bool]] = jobs.map { $0.tests.map { _ in true } }
        var validatorNote = "not run (no Python harness)"
        if !python.isEmpty {
            let outcomes = try runEngine(
                "validate", command: [python, options.harness, "validate", vocabularyFile.path], jobs: jobs, timeout: options.timeout, log: log
            )
            // An instance the validator could not judge (it failed or timed
            // out on the schema) is not applicable either.
            var dropped = 0
            var unjudged = 0
            for (index, job) in jobs.enumerated() {
                let verdicts = outcomes[index].accepted
                for (test, instance) in job.tests.enumerated() {
                    applicable[index][test] = test < verdicts.count && verdicts[test] == instance.valid
                    if test >= verdicts.count { unjudged += 1 } else if !applicable[index][test] { dropped += 1 }
                }
            }
            validatorNote =
                "Python jsonschema 4.23.0 (no format assertions, as the published labels): \(dropped) instances whose rewritten form does not have its published label, and \(unjudged) it could not judge (remote references, errors, time limit), are not applicable"
        }

        var results: [(engine: String, schemas: [Int], outcomes: [Outcome], note: String)] = []
        for engine in options.engines {
            let selected: [Int] = engine == "xgrammar" ? Array(stride(from: 0, to: jobs.count, by: options.xgrammarEvery)) : Array(jobs.indices)
            let subset = selected.map { jobs[$0] }
            let command: [String]
            switch engine {
            case "ours":
                command = [CommandLine.arguments[0], "maskbench-worker", options.modelPath]
            default:
                guard !python.isEmpty else {
                    results.append((engine, [], [], "not run: no Python environment (MASKBENCH_PYTHON)"))
                    continue
                }
                let module = engine.hasPrefix("llguidance") ? "llguidance" : engine
                if let problem = probe(python: python, module: module) {
                    log("maskbench: \(engine) cannot be imported: \(problem)")
                    results.append((engine, [], [], "not run: `import \(engine)` fails here: \(problem)"))
                    continue
                }
                // llguidance tokenizes the bytes it forces: it gets the model's tokenizer.
                command = [python, options.harness, engine, vocabularyFile.path] + (module == "llguidance" ? [options.modelPath] : [])
            }
            log("maskbench: \(engine) on \(subset.count) schemas")
            let started = Date()
            let outcomes = try runEngine(engine, command: command, jobs: subset, timeout: options.timeout, log: log)
            let note = String(format: "%.0f s", Date().timeIntervalSince(started))
            results.append((engine, selected, outcomes, note))
        }
        if let detail = ProcessInfo.processInfo.environment["MASKBENCH_DETAIL"] {
            // Per schema and engine: compile ms, masks, total and worst mask µs, error.
            var lines: [String] = []
            for result in results {
                for (position, index) in result.schemas.enumerated() {
                    let outcome = result.outcomes[position]
                    let total = outcome.maskNanoseconds.reduce(0, +) / 1000
                    let worst = (outcome.maskNanoseconds.max() ?? 0) / 1000
                    lines.append(
                        "\(result.engine)\t\(jobs[index].name)\t\(outcome.compiled)\t\(String(format: "%.1f", outcome.compileNanoseconds / 1e6))\t\(outcome.maskNanoseconds.count)\t\(Int(total))\t\(Int(worst))\t\(outcome.hang ? "HANG" : "")\(outcome.crash ? "CRASH" : "")\t\(outcome.accepted.map { $0 ? "1" : "0" }.joined())\t\(jobs[index].tests.map { $0.valid ? "1" : "0" }.joined())\t\(applicable[index].map { $0 ? "1" : "0" }.joined())\t\(outcome.error ?? "")"
                    )
                }
            }
            try lines.joined(separator: "\n").write(toFile: detail, atomically: true, encoding: .utf8)
        }
        let report = Report(
            jobs: jobs, applicable: applicable, results: results, options: options, vocabularyCount: vocabulary.count,
            validatorNote: validatorNote, promptSizes: promptSizes(jobs, vocabulary: model.vocabulary)
        )
        try report.write()
        log("maskbench: wrote \(options.output)")
    }

    /// What each schema the reader accepts costs in the prompt, tokenized
    /// by the model's tokenizer: its description in full, and the one the
    /// in-process model sends with half a 4,096-token context as its budget
    /// (shorter where the full one is long or does not fit).
    static func promptSizes(_ jobs: [Job], vocabulary: LlamaVocabulary) -> String {
        let budget = 2048
        func count(_ text: String) -> Int { (try? vocabulary.tokenize(text, addSpecial: false, parseSpecial: false).count) ?? 0 }
        var full: [Double] = []
        var sent: [Double] = []
        for job in jobs {
            guard let schema = try? GenerationSchema(jsonSchema: GeneratedContent(json: job.schema)) else { continue }
            full.append(Double(count(schema.promptDescription(style: .standard))))
            sent.append(Double(count(schema.promptDescription(style: .standard, budget: budget, tokenCount: count))))
        }
        let before = Distribution(full), after = Distribution(sent)
        func over(_ values: [Double]) -> Int { values.filter { $0 > Double(budget) }.count }
        return "Schemas in the prompt: of the \(full.count) schemas the reader accepts, the full description (one field a line) takes "
            + String(format: "%.0f tokens at the median, %.0f at p99 and %.0f at most", before.p50, before.p99, before.max)
            + "; \(over(full)) take more than \(budget), half of a 4,096-token context. What the in-process model sends instead (descriptions cut to their first sentence where the whole takes more than \(GenerationSchema.wholeDescriptionTokenLimit) tokens, then names and types alone where that does not fit in half its context): "
            + String(format: "%.0f at the median, %.0f at p99, %.0f at most", after.p50, after.p99, after.max)
            + ", \(over(sent)) still over \(budget). The decoder enforces the whole schema either way."
    }

    /// Nil when `module` imports in `python`, else the last line of its error.
    static func probe(python: String, module: String) -> String? {
        let child: ChildProcess.Output
        do { child = try ChildProcess.runBlocking(URL(fileURLWithPath: python), ["-c", "import \(module)"]) } catch { return "\(error)" }
        guard child.status != 0 else { return nil }
        return child.standardError.split(separator: "\n").last.map(String.init) ?? "exit status \(child.status)"
    }

    static func exportVocabulary(_ vocabulary: TokenVocabulary, to url: URL) throws {
        var text = "eos " + vocabulary.endOfGeneration.map(String.init).joined(separator: " ") + "\n"
        for token in vocabulary.tokens {
            text += token.map { String(format: "%02x", $0) }.joined() + "\n"
        }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// One MaskBench file as read: its name, where it is, and its members
    /// (`schema`, `tests`).
    struct File {
        var name: String
        var url: URL
        var fields: [String: GeneratedContent]
    }

    /// Reads the data's schema files in name order (`DATA` or
    /// `DATA/maskbench/data`), `limit` of them spread evenly over the
    /// corpus, and hands each to `body` (one at a time: the corpus parsed
    /// whole takes gigabytes); a file that is not JSON with a `schema`
    /// member is logged and skipped. What `fm-bench maskbench` and
    /// `fm-bench bigschemas` read.
    static func forEachFile(in data: String, limit: Int? = nil, log: (String) -> Void, _ body: (File) throws -> Void) throws {
        var directory = URL(fileURLWithPath: data)
        let nested = directory.appendingPathComponent("maskbench/data")
        if FileManager.default.fileExists(atPath: nested.path) { directory = nested }
        var names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
        if let limit, limit < names.count {
            // An even spread over the corpus, not its first files.
            let step = Double(names.count) / Double(limit)
            names = (0..<limit).map { names[Int(Double($0) * step)] }
        }
        for name in names {
            let url = directory.appendingPathComponent(name)
            let text = try String(contentsOf: url, encoding: .utf8)
            guard let file = try? GeneratedContent(json: text), case .structure(let fields, _) = file.kind, fields["schema"] != nil else {
                log("maskbench: skipped unreadable \(name)")
                continue
            }
            try body(File(name: name, url: url, fields: fields))
        }
    }

    static func loadJobs(_ options: Options, vocabulary: TokenVocabulary, log: (String) -> Void) throws -> [Job] {
        var jobs: [Job] = []
        try forEachFile(in: options.data, limit: options.limit, log: log) { file in
            let name = file.name
            let fields = file.fields
            let schema = fields["schema"]!
            let rewriter = InstanceRewriter(document: schema)
            var tests: [(Bool, String, [Int32], Int)] = []
            var originals: [String] = []
            if case .array(let entries)? = fields["tests"]?.kind {
                for (position, entry) in entries.enumerated() {
                    let data = entry[wire: "data"]
                    originals.append(data?.jsonString ?? "")
                    guard case .bool(let valid)? = entry[wire: "valid"]?.kind, let data else { continue }
                    let rewritten = rewriter.text(data)
                    guard let tokens = vocabulary.tokenize(Array(rewritten.utf8)) else { continue }
                    tests.append((valid, rewritten, tokens, position))
                }
            }
            jobs.append(
                Job(
                    id: jobs.count, name: name, file: file.url.path, schema: schema.canonicalJSON,
                    tests: tests, originals: originals
                ))
        }
        return jobs
    }

    // MARK: - Workers

    /// One job as the workers read it: a line of JSON.
    static func payload(_ job: Job) throws -> Data {
        var line: [String: Any] = ["id": job.id, "schema": job.schema, "name": job.name, "file": job.file]
        line["tests"] = job.tests.map { $0.tokens.map(Int.init) }
        line["texts"] = job.tests.map(\.text)
        return try JSONSerialization.data(withJSONObject: line)
    }

    static func runEngine(_ engine: String, command: [String], jobs: [Job], timeout: Double, log: (String) -> Void) throws -> [Outcome] {
        var outcomes: [Outcome] = []
        var worker: Worker?
        for (index, job) in jobs.enumerated() {
            if worker == nil { worker = try Worker(command: command) }
            let payload = try payload(job)
            var outcome = Outcome()
            switch worker!.request(payload, timeout: timeout) {
            case .line(let response):
                guard let object = try? JSONSerialization.jsonObject(with: response) as? [String: Any] else {
                    outcome.crash = true
                    worker?.stop()
                    worker = nil
                    break
                }
                outcome.compiled = object["compiled"] as? Bool ?? false
                outcome.error = object["error"] as? String
                outcome.compileNanoseconds = (object["compile_ns"] as? NSNumber)?.doubleValue ?? 0
                outcome.firstMaskNanoseconds = (object["first_mask_ns"] as? NSNumber)?.doubleValue
                outcome.labels = object["labels"] as? [Bool]
                outcome.accepted = object["accepted"] as? [Bool] ?? []
                outcome.maskNanoseconds = (object["mask_ns"] as? [NSNumber])?.map(\.doubleValue) ?? []
            case .timeout:
                outcome.hang = true
                worker?.stop()
                worker = nil
            case .ended:
                outcome.crash = true
                worker?.stop()
                worker = nil
            }
            outcomes.append(outcome)
            if (index + 1) % 500 == 0 { log("maskbench: \(engine) \(index + 1)/\(jobs.count)") }
        }
        worker?.stop()
        return outcomes
    }

    /// A worker process: one job line in, one result line out.
    final class Worker {
        private let server: ChildServer

        enum Reply { case line(Data), timeout, ended }

        /// What a worker writes once it has loaded (the vocabulary, the
        /// engine's tokenizer), before its first job: start-up is not
        /// charged to the first schema's time limit. (On a cold machine
        /// llguidance's start took longer than the limit, and every schema
        /// sent to a restarted worker then "hung" in turn.)
        static let readyLine = #"{"ready":true}"#
        /// How long a worker may take to load.
        static let startupLimit: Double = 600

        init(command: [String]) throws {
            let executable = URL(fileURLWithPath: command[0].contains("/") ? command[0] : "/usr/bin/env")
            let arguments = command[0].contains("/") ? Array(command.dropFirst()) : command
            do {
                server = try ChildServer(executable, arguments, standardError: .inherited, acceptsInput: true)
            } catch {
                throw BenchError(error.description)
            }
            guard case .line(let line) = wait(timeout: Self.startupLimit), line == Data(Self.readyLine.utf8) else {
                stop()
                throw BenchError("\(command.joined(separator: " ")) did not start: no ready line within \(Int(Self.startupLimit)) s")
            }
        }

        func request(_ payload: Data, timeout: Double) -> Reply {
            do {
                try server.write(payload + Data([0x0A]))
            } catch {
                return .ended
            }
            return wait(timeout: timeout)
        }

        /// The worker's next line, or why there is none within `timeout` seconds.
        private func wait(timeout: Double) -> Reply {
            switch server.nextLineBlocking(within: .seconds(timeout)) {
            case .line(let line): .line(Data(line.utf8))
            case .timedOut: .timeout
            case .ended: .ended
            }
        }

        func stop() {
            server.stop()
        }
    }

    /// `fm-bench maskbench-explain FILE...`: for each instance, its label,
    /// its rewritten form and where this engine refuses it.
    static func explain(_ files: [String], modelPath: String) throws {
        let model = try LlamaModel(path: modelPath, options: .init(vocabularyOnly: true))
        let vocabulary = ConstraintCache.makeVocabulary(model.vocabulary)
        for file in files {
            let content = try GeneratedContent(json: String(contentsOfFile: file, encoding: .utf8))
            guard case .structure(let fields, _) = content.kind, let schemaContent = fields["schema"] else { continue }
            print("== \(file)")
            let constraint: TokenConstraint
            do {
                let schema = try GenerationSchema(jsonSchema: schemaContent)
                constraint = try TokenConstraint(root: schema.root, definitions: schema.definitions, vocabulary: vocabulary)
            } catch {
                print("   compile error: \(error)")
                continue
            }
            let rewriter = InstanceRewriter(document: schemaContent)
            guard case .array(let tests)? = fields["tests"]?.kind else { continue }
            for test in tests {
                guard case .structure(let entry, _) = test.kind, case .bool(let valid)? = entry["valid"]?.kind, let data = entry["data"] else {
                    continue
                }
                let text = rewriter.text(data)
                var decoder = constraint.makeDecoder()
                var refusedAt: Int?
                for token in vocabulary.tokenize(Array(text.utf8)) ?? [] {
                    if !decoder.accept(token) {
                        refusedAt = decoder.output.count
                        break
                    }
                }
                let verdict = refusedAt == nil ? (decoder.canEnd ? "accepted" : "incomplete") : "refused at byte \(refusedAt!)"
                let bytes = Array(text.utf8)
                let shown =
                    refusedAt.map {
                        String(decoding: bytes[max(0, $0 - 60)..<$0], as: UTF8.self) + " ⟂ "
                            + String(decoding: bytes[$0..<min(bytes.count, $0 + 30)], as: UTF8.self)
                    } ?? String(text.prefix(200))
                print("   \(valid ? "valid  " : "invalid") \(verdict): \(shown)")
            }
        }
    }

    // MARK: - This engine's worker

    /// `fm-bench maskbench-worker MODEL`: compiles each job's schema and
    /// walks its instances' tokens through the mask.
    static func worker(modelPath: String) throws {
        let model = try LlamaModel(path: modelPath, options: .init(vocabularyOnly: true))
        let vocabulary = ConstraintCache.makeVocabulary(model.vocabulary)
        let endOfGeneration = vocabulary.endOfGeneration
        var mask = TokenMask(count: vocabulary.count)
        FileHandle.standardOutput.write(Data(Worker.readyLine.utf8) + Data([0x0A]))
        while let line = readLine() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            var reply: [String: Any] = ["id": object["id"] ?? 0]
            let start = Nanoseconds.now()
            var constraint: TokenConstraint?
            do {
                let document = try GeneratedContent(json: object["schema"] as? String ?? "")
                let schema = try GenerationSchema(jsonSchema: document)
                constraint = try TokenConstraint(root: schema.root, definitions: schema.definitions, vocabulary: vocabulary)
            } catch {
                reply["error"] = "\(error)"
            }
            reply["compile_ns"] = Int(Nanoseconds.now() - start)
            reply["compiled"] = constraint != nil
            if let constraint {
                var decoder = constraint.makeDecoder()
                let before = Nanoseconds.now()
                decoder.allowedTokens(into: &mask)
                reply["first_mask_ns"] = Int(Nanoseconds.now() - before)
            }
            var accepted: [Bool] = []
            var times: [Int] = []
            if let constraint {
                for tokens in object["tests"] as? [[Int]] ?? [] {
                    var decoder = constraint.makeDecoder()
                    var ok = true
                    for token in tokens {
                        let before = Nanoseconds.now()
                        decoder.allowedTokens(into: &mask)
                        times.append(Int(Nanoseconds.now() - before))
                        guard mask.contains(Int32(token)), decoder.accept(Int32(token)) else {
                            ok = false
                            break
                        }
                    }
                    if ok {
                        let before = Nanoseconds.now()
                        decoder.allowedTokens(into: &mask)
                        times.append(Int(Nanoseconds.now() - before))
                        ok = endOfGeneration.contains { mask.contains($0) }
                    }
                    accepted.append(ok)
                }
            }
            reply["accepted"] = accepted
            reply["mask_ns"] = times
            let data = (try? JSONSerialization.data(withJSONObject: reply)) ?? Data("{}".utf8)
            FileHandle.standardOutput.write(data + Data([0x0A]))
        }
    }
}

/// Rewrites a test instance into the form this engine writes: compact JSON
/// (canonical string escapes, shortest numbers), each object's properties
/// in the order its schema declares them (following `$ref`, `allOf`,
/// `anyOf`, `oneOf`, `then`/`else`; first appearance wins), undeclared
/// properties after them in their own order.
struct InstanceRewriter {
    let document: GeneratedContent

    func text(_ value: GeneratedContent) -> String {
        write(value, schemas: [document])
    }

    private func write(_ value: GeneratedContent, schemas: [GeneratedContent]) -> String {
        let flat = flatten(schemas)
        switch value.kind {
        case .structure(let properties, let keys):
            var order: [String] = []
            for schema in flat {
                for name in declared(schema) where !order.contains(name) { order.append(name) }
            }
            let present = Self.keys(properties, keys)
            let sorted = present.enumerated().sorted { a, b in
                let x = order.firstIndex(of: a.element) ?? (order.count + a.offset)
                let y = order.firstIndex(of: b.element) ?? (order.count + b.offset)
                return x < y
            }.map(\.element)
            let fields = sorted.map { key in
                GeneratedContent(kind: .string(key)).canonicalJSON + ":" + write(properties[key]!, schemas: children(of: key, in: flat))
            }
            return "{" + fields.joined(separator: ",") + "}"
        case .array(let elements):
            return "[" + elements.enumerated().map { write($1, schemas: items(at: $0, in: flat)) }.joined(separator: ",") + "]"
        default:
            return value.canonicalJSON
        }
    }

    /// An object's keys: its recorded order, then any others sorted.
    static func keys(_ properties: [String: GeneratedContent], _ ordered: [String]) -> [String] {
        var seen = Set<String>()
        var result = ordered.filter { properties[$0] != nil && seen.insert($0).inserted }
        result += properties.keys.filter { !seen.contains($0) }.sorted()
        return result
    }

    private func member(_ schema: GeneratedContent, _ key: String) -> GeneratedContent? {
        guard case .structure(let properties, _) = schema.kind else { return nil }
        return properties[key]
    }

    private func declared(_ schema: GeneratedContent) -> [String] {
        guard let properties = member(schema, "properties"), case .structure(let fields, let keys) = properties.kind else { return [] }
        if let order = member(schema, "x-order"), case .array(let names) = order.kind {
            return names.compactMap { if case .string(let name) = $0.kind { name } else { nil } }
        }
        return Self.keys(fields, keys)
    }

    /// The schemas that apply at this point, combinators and references followed.
    private func flatten(_ schemas: [GeneratedContent]) -> [GeneratedContent] {
        var result: [GeneratedContent] = []
        var queue = schemas.map { ($0, 0) }
        while !queue.isEmpty, result.count < 64 {
            let (schema, depth) = queue.removeFirst()
            guard case .structure = schema.kind else { continue }
            result.append(schema)
            guard depth < 6 else { continue }
            if case .string(let reference)? = member(schema, "$ref")?.kind, let target = resolve(reference) {
                queue.append((target, depth + 1))
            }
            for keyword in ["allOf", "anyOf", "oneOf"] {
                if case .array(let branches)? = member(schema, keyword)?.kind { queue += branches.map { ($0, depth + 1) } }
            }
            for keyword in ["then", "else"] {
                if let branch = member(schema, keyword) { queue.append((branch, depth + 1)) }
            }
        }
        return result
    }

    private func resolve(_ reference: String) -> GeneratedContent? {
        guard let hash = reference.firstIndex(of: "#") else { return nil }
        var current = document
        let pointer = reference[reference.index(after: hash)...]
        for token in pointer.split(separator: "/") {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch current.kind {
            case .structure(let fields, _):
                guard let next = fields[key] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(key), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    private func children(of key: String, in schemas: [GeneratedContent]) -> [GeneratedContent] {
        var result: [GeneratedContent] = []
        for schema in schemas {
            if let properties = member(schema, "properties"), let child = member(properties, key) {
                result.append(child)
                continue
            }
            if let patterns = member(schema, "patternProperties"), case .structure(let fields, _) = patterns.kind {
                for (pattern, child) in fields
                where (try? NSRegularExpression(pattern: pattern))?.firstMatch(in: key, range: NSRange(key.startIndex..., in: key)) != nil {
                    result.append(child)
                }
            }
            if let additional = member(schema, "additionalProperties") { result.append(additional) }
        }
        return result
    }

    private func items(at index: Int, in schemas: [GeneratedContent]) -> [GeneratedContent] {
        var result: [GeneratedContent] = []
        for schema in schemas {
            if case .array(let prefix)? = member(schema, "prefixItems")?.kind, index < prefix.count {
                result.append(prefix[index])
            } else if case .array(let prefix)? = member(schema, "items")?.kind {
                if index < prefix.count { result.append(prefix[index]) } else if let rest = member(schema, "additionalItems") { result.append(rest) }
            } else if let items = member(schema, "items") {
                result.append(items)
            }
        }
        return result
    }
}
