import Foundation

extension MaskBench {
    /// The MaskBench section of BENCHMARKS.md, kept between its own markers
    /// so the rest of `make bench` leaves it alone.
    struct Report {
        static let begin = "<!-- maskbench:begin -->"
        static let end = "<!-- maskbench:end -->"

        var jobs: [Job]
        var applicable: [[Bool]]
        var results: [(engine: String, schemas: [Int], outcomes: [Outcome], note: String)]
        var options: Options
        var vocabularyCount: Int
        var validatorNote: String
        /// What the schemas cost in the prompt (``MaskBench/promptSizes(_:vocabulary:)``).
        var promptSizes: String

        struct Figures {
            var schemas = 0
            var compiled = 0
            var passing = 0
            var hangs = 0
            var crashes = 0
            var validRefused = 0
            var invalidAccepted = 0
            var applicableValid = 0
            var applicableInvalid = 0
            var mask = Distribution([])
            var compile = Distribution([])
            /// Compile plus the first mask of a fresh decoder: the wait before a first token.
            var firstToken = Distribution([])
            var errors: [String: Int] = [:]
        }

        /// One engine's figures over the schemas in `subset` (all it ran when nil).
        func figures(_ result: (engine: String, schemas: [Int], outcomes: [Outcome], note: String), subset: Set<Int>?) -> Figures {
            var figures = Figures()
            var masks: [Double] = []
            var compiles: [Double] = []
            var firstTokens: [Double] = []
            for (position, job) in result.schemas.enumerated() {
                if let subset, !subset.contains(job) { continue }
                let outcome = result.outcomes[position]
                figures.schemas += 1
                if outcome.hang { figures.hangs += 1 }
                if outcome.crash { figures.crashes += 1 }
                guard outcome.compiled else {
                    if let error = outcome.error { figures.errors[Self.category(error), default: 0] += 1 }
                    continue
                }
                figures.compiled += 1
                compiles.append(outcome.compileNanoseconds)
                if let first = outcome.firstMaskNanoseconds { firstTokens.append(outcome.compileNanoseconds + first) }
                masks += outcome.maskNanoseconds
                var right = true
                // Our protocol: the rewritten instances the validator kept;
                // an engine's own protocol: its instances and labels, all.
                let judged: [(test: Int, valid: Bool)] =
                    outcome.labels.map { Array($0.enumerated()).map { ($0.offset, $0.element) } }
                    ?? jobs[job].tests.enumerated().filter { applicable[job][$0.offset] }.map { ($0.offset, $0.element.valid) }
                for (test, valid) in judged {
                    let accepted = test < outcome.accepted.count && outcome.accepted[test]
                    if valid {
                        figures.applicableValid += 1
                        if !accepted {
                            figures.validRefused += 1
                            right = false
                        }
                    } else {
                        figures.applicableInvalid += 1
                        if accepted {
                            figures.invalidAccepted += 1
                            right = false
                        }
                    }
                }
                if right { figures.passing += 1 }
            }
            figures.mask = Distribution(masks)
            figures.compile = Distribution(compiles)
            figures.firstToken = Distribution(firstTokens)
            return figures
        }

        /// A short class of a compile error, for the table of reasons.
        static func category(_ error: String) -> String {
            // The reader's errors are `DecodingError.dataCorrupted`s: their message follows the prefix.
            var message = error
            if let range = message.range(of: "Invalid generation schema: ") { message = String(message[range.upperBound...]) }
            if let range = message.range(of: #"keyword "[^"]+""#, options: .regularExpression) { return String(message[range]) }
            for phrase in [
                "unsatisfiable", "oneOf", "not at", "patternProperties", "pattern", "reference", "$ref", "allOf", "enum", "propertyNames",
                "dependency", "too many states", "more than", "format",
            ] where message.contains(phrase) {
                return phrase
            }
            return String(message.prefix(60))
        }

        func table(subset: Set<Int>?, engines: [String]) -> [String] {
            let chosen = results.filter { engines.contains($0.engine) && !$0.schemas.isEmpty }
            let all = chosen.map { figures($0, subset: subset) }
            func row(_ name: String, _ value: (Figures) -> String) -> String {
                "| \(name) | " + all.map(value).joined(separator: " | ") + " |"
            }
            func micro(_ nanoseconds: Double) -> String { String(format: "%.1f", nanoseconds / 1000) }
            func milli(_ nanoseconds: Double) -> String { String(format: "%.2f", nanoseconds / 1e6) }
            var lines = [
                "| | " + chosen.map(\.engine).joined(separator: " | ") + " |", "|---|" + chosen.map { _ in "---:" }.joined(separator: "|") + "|",
            ]
            lines.append(row("schemas") { "\($0.schemas)" })
            lines.append(row("compiled") { "\($0.compiled)" })
            lines.append(row("**passing**") { "**\($0.passing)**" })
            lines.append(row("valid instances refused") { "\($0.validRefused) of \($0.applicableValid)" })
            lines.append(row("**invalid instances accepted**") { "**\($0.invalidAccepted)** of \($0.applicableInvalid)" })
            lines.append(row("hangs (> \(Int(options.timeout)) s)") { "\($0.hangs)" })
            lines.append(row("crashes") { "\($0.crashes)" })
            lines.append(row("mask calls") { "\($0.mask.count)" })
            lines.append(row("mask mean (µs)") { micro($0.mask.mean) })
            lines.append(row("mask p50 (µs)") { micro($0.mask.p50) })
            lines.append(row("mask p99 (µs)") { micro($0.mask.p99) })
            lines.append(row("mask max (µs)") { micro($0.mask.max) })
            lines.append(row("compile mean (ms)") { milli($0.compile.mean) })
            lines.append(row("compile p50 (ms)") { milli($0.compile.p50) })
            lines.append(row("compile p99 (ms)") { milli($0.compile.p99) })
            lines.append(row("compile max (ms)") { milli($0.compile.max) })
            lines.append(row("compile + first mask mean (ms)") { milli($0.firstToken.mean) })
            lines.append(row("compile + first mask p50 (ms)") { milli($0.firstToken.p50) })
            lines.append(row("compile + first mask p99 (ms)") { milli($0.firstToken.p99) })
            lines.append(row("compile + first mask max (ms)") { milli($0.firstToken.max) })
            if let ours = all.first, chosen.first?.engine == "ours" {
                for (index, other) in all.enumerated().dropFirst() {
                    let name = chosen[index].engine
                    lines.append("")
                    lines.append(
                        String(
                            format:
                                "Ours ÷ %@: mask mean %.2f×, p99 %.2f×; compile mean %.2f×, p99 %.2f×; compile + first mask p99 %.2f× (below 1 is faster).",
                            name, ours.mask.mean / max(other.mask.mean, 1), ours.mask.p99 / max(other.mask.p99, 1),
                            ours.compile.mean / max(other.compile.mean, 1), ours.compile.p99 / max(other.compile.p99, 1),
                            ours.firstToken.p99 / max(other.firstToken.p99, 1)
                        ))
                }
            }
            return lines
        }

        func markdown() -> [String] {
            var lines = [Self.begin, "## MaskBench: JSON Schema coverage and mask time", ""]
            let date = ISO8601DateFormatter().string(from: Date())
            let cores = ProcessInfo.processInfo.activeProcessorCount
            lines.append(
                """
                \(jobs.count) schemas of jsonschemabench's MaskBench (\(jobs.reduce(0) { $0 + $1.tests.count }) instances), one thread, \
                \(cores) cores, \(date). Vocabulary: \(vocabularyCount) tokens from `\(URL(fileURLWithPath: options.modelPath).lastPathComponent)`; \
                every engine gets the same tokens (each instance rewritten compact, properties in schema order, then tokenized by the model's \
                tokenizer). A schema passes when it compiles and every applicable instance is judged right (a valid one accepted to the end, \
                an invalid one refused at some token). Applicability: \(validatorNote). Mask time: one `allowedTokens(into:)` \
                (ours, Swift, timed in process) or one `compute_bitmask()` / `fill_next_token_bitmask()` call (timed in Python around the call), \
                per token including the final one. Compile: reading the schema and building the constraint for this vocabulary (the masks \
                of a state are computed on its first visit, inside the mask times); compile + first mask: that and the first mask of a fresh \
                decoder, the wait before a first token. Per-schema time limit \(Int(options.timeout)) s. Command: `make maskbench\(options.given.isEmpty ? "" : " MASKBENCH_ARGS='\(options.given.joined(separator: " "))'")` \
                (`fm-bench maskbench DATA\(options.given.isEmpty ? "" : " " + options.given.joined(separator: " "))`).
                """)
            lines.append("")
            lines += table(subset: nil, engines: ["ours", "llguidance"])
            if let xgrammar = results.first(where: { $0.engine == "xgrammar" }), !xgrammar.schemas.isEmpty {
                lines.append("")
                lines.append(
                    "XGrammar compiles slowly (the published run needed about 80 minutes on 40 threads), so it runs on every \(options.xgrammarEvery)th schema; all three engines on that sample:"
                )
                lines.append("")
                lines += table(subset: Set(xgrammar.schemas), engines: ["ours", "llguidance", "xgrammar"])
            }
            if let own = results.first(where: { $0.engine == "llguidance-own" }), !own.schemas.isEmpty {
                lines.append("")
                lines.append(
                    """
                    llguidance under jsonschemabench's own MaskBench protocol (`llguidance-own`: maskbench/maskbench/runner.py and \
                    llg_engine.py — the file's schema and instances as written, `json.dumps(indent=None, ensure_ascii=False)`, the model's \
                    tokenizer, llguidance's default options with flexible whitespace, every instance applicable, an instance accepted when no \
                    token is refused) beside llguidance under ours (compact, our property order, the validator's applicability, the model's \
                    tokenizer for the bytes it forces):
                    """)
                lines.append("")
                lines += table(subset: nil, engines: ["llguidance", "llguidance-own"])
                if let ours = results.first(where: { $0.engine == "llguidance" }), !ours.schemas.isEmpty {
                    lines.append("")
                    lines.append(protocolDifferences(ours: ours, own: own))
                }
            }
            for result in results where result.schemas.isEmpty {
                lines.append("")
                lines.append("\(result.engine): \(result.note).")
            }
            if let ours = results.first(where: { $0.engine == "ours" }) {
                let reasons = figures(ours, subset: nil).errors.sorted { $0.value > $1.value }.prefix(12)
                if !reasons.isEmpty {
                    lines.append("")
                    lines.append(
                        "Our compile errors by reason (a schema we cannot enforce exactly is refused before decoding): "
                            + reasons.map { "\($0.key) \($0.value)" }.joined(separator: "; ") + ".")
                }
            }
            lines.append("")
            lines.append(promptSizes)
            lines.append(Self.end)
            return lines
        }

        /// Where llguidance's verdicts differ between our protocol and its
        /// own, instance by instance, grouped by what differs.
        func protocolDifferences(
            ours: (engine: String, schemas: [Int], outcomes: [Outcome], note: String),
            own: (engine: String, schemas: [Int], outcomes: [Outcome], note: String)
        ) -> String {
            var byJob: [Int: (ours: Outcome, own: Outcome)] = [:]
            let ownByJob = Dictionary(uniqueKeysWithValues: zip(own.schemas, own.outcomes))
            for (job, outcome) in zip(ours.schemas, ours.outcomes) {
                if let other = ownByJob[job] { byJob[job] = (outcome, other) }
            }
            var compiledOnlyOurs = 0, compiledOnlyOwn = 0
            var refusedOursReordered = 0, refusedOursSameText = 0, refusedOwnOnly = 0, notApplicable = 0, unjudgedOwn = 0
            for (job, pair) in byJob {
                if pair.ours.compiled != pair.own.compiled {
                    if pair.ours.compiled { compiledOnlyOurs += 1 } else { compiledOnlyOwn += 1 }
                    continue
                }
                guard pair.ours.compiled else { continue }
                var judged = Set<Int>()
                for (test, instance) in jobs[job].tests.enumerated() where instance.valid {
                    judged.insert(instance.position)
                    guard applicable[job][test] else {
                        notApplicable += 1
                        continue
                    }
                    let acceptedOurs = test < pair.ours.accepted.count && pair.ours.accepted[test]
                    let acceptedOwn = instance.position < pair.own.accepted.count && pair.own.accepted[instance.position]
                    if !acceptedOurs && acceptedOwn {
                        if instance.text == jobs[job].originals[instance.position] { refusedOursSameText += 1 } else { refusedOursReordered += 1 }
                    } else if acceptedOurs && !acceptedOwn {
                        refusedOwnOnly += 1
                    }
                }
                // Valid tests its own protocol judges that ours has no tokens for.
                unjudgedOwn += (pair.own.labels ?? []).enumerated().filter { $0.element && !judged.contains($0.offset) }.count
            }
            return """
                Why llguidance's figures differ between the two protocols, schema by schema and instance by instance: it compiles \
                \(compiledOnlyOurs) schemas only under ours and \(compiledOnlyOwn) only under its own (its default options against our \
                compact separators). Of the valid instances both judge, \(refusedOursReordered) are refused under ours and accepted under \
                its own where our rewrite writes them differently (properties in our schema order rather than the file's, which llguidance \
                does not follow), \(refusedOursSameText) where the text is the same; \(refusedOwnOnly) the other way round (refused only \
                with its flexible whitespace and `", "` separators). Its own protocol also judges \(notApplicable) valid instances our \
                validator drops (their rewritten form loses the published label) and \(unjudgedOwn) our tokenizer could not tokenize, and \
                counts a schema without instances as passing, as ours does.
                """
        }

        /// Replaces the section in the output file (or appends it).
        func write() throws {
            try Benchmark.replaceSection(in: options.output, begin: Self.begin, end: Self.end, with: markdown().joined(separator: "\n"))
        }
    }
}
