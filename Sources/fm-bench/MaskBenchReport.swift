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
            var errors: [String: Int] = [:]
        }

        /// One engine's figures over the schemas in `subset` (all it ran when nil).
        func figures(_ result: (engine: String, schemas: [Int], outcomes: [Outcome], note: String), subset: Set<Int>?) -> Figures {
            var figures = Figures()
            var masks: [Double] = []
            var compiles: [Double] = []
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
                masks += outcome.maskNanoseconds
                var right = true
                for (test, instance) in jobs[job].tests.enumerated() where applicable[job][test] {
                    let accepted = test < outcome.accepted.count && outcome.accepted[test]
                    if instance.valid {
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
            return figures
        }

        /// A short class of a compile error, for the table of reasons.
        static func category(_ error: String) -> String {
            // The reader's errors are `DecodingError.dataCorrupted`s: their message follows the prefix.
            var message = error
            if let range = message.range(of: "Invalid generation schema: ") { message = String(message[range.upperBound...]) }
            if let range = message.range(of: #"keyword "[^"]+""#, options: .regularExpression) { return String(message[range]) }
            for phrase in ["unsatisfiable", "oneOf", "not at", "patternProperties", "pattern", "reference", "$ref", "allOf", "enum", "propertyNames", "dependency", "too many states", "more than", "format"] where message.contains(phrase) {
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
            var lines = ["| | " + chosen.map(\.engine).joined(separator: " | ") + " |", "|---|" + chosen.map { _ in "---:" }.joined(separator: "|") + "|"]
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
            lines.append(row("compile p99 (ms)") { milli($0.compile.p99) })
            if let ours = all.first, chosen.first?.engine == "ours" {
                for (index, other) in all.enumerated().dropFirst() {
                    let name = chosen[index].engine
                    lines.append("")
                    lines.append(String(
                        format: "Ours ÷ %@: mask mean %.2f×, p99 %.2f×; compile mean %.2f× (below 1 is faster).",
                        name, ours.mask.mean / max(other.mask.mean, 1), ours.mask.p99 / max(other.mask.p99, 1),
                        ours.compile.mean / max(other.compile.mean, 1)
                    ))
                }
            }
            return lines
        }

        func markdown() -> [String] {
            var lines = [Self.begin, "## MaskBench: JSON Schema coverage and mask time", ""]
            let date = ISO8601DateFormatter().string(from: Date())
            let cores = ProcessInfo.processInfo.activeProcessorCount
            lines.append("""
                \(jobs.count) schemas of jsonschemabench's MaskBench (\(jobs.reduce(0) { $0 + $1.tests.count }) instances), one thread, \
                \(cores) cores, \(date). Vocabulary: \(vocabularyCount) tokens from `\(URL(fileURLWithPath: options.modelPath).lastPathComponent)`; \
                every engine gets the same tokens (each instance rewritten compact, properties in schema order, then tokenized by the model's \
                tokenizer). A schema passes when it compiles and every applicable instance is judged right (a valid one accepted to the end, \
                an invalid one refused at some token). Applicability: \(validatorNote). Mask time: one `allowedTokens(into:)` \
                (ours, Swift, timed in process) or one `compute_bitmask()` / `fill_next_token_bitmask()` call (timed in Python around the call), \
                per token including the final one. Compile: reading the schema and building the constraint for this vocabulary, including \
                precomputed masks. Per-schema time limit \(Int(options.timeout)) s. Command: `make maskbench\(options.given.isEmpty ? "" : " MASKBENCH_ARGS='\(options.given.joined(separator: " "))'")` \
                (`fm-bench maskbench DATA\(options.given.isEmpty ? "" : " " + options.given.joined(separator: " "))`).
                """)
            lines.append("")
            lines += table(subset: nil, engines: ["ours", "llguidance"])
            if let xgrammar = results.first(where: { $0.engine == "xgrammar" }), !xgrammar.schemas.isEmpty {
                lines.append("")
                lines.append("XGrammar compiles slowly (the published run needed about 80 minutes on 40 threads), so it runs on every \(options.xgrammarEvery)th schema; all three engines on that sample:")
                lines.append("")
                lines += table(subset: Set(xgrammar.schemas), engines: ["ours", "llguidance", "xgrammar"])
            }
            for result in results where result.schemas.isEmpty {
                lines.append("")
                lines.append("\(result.engine): \(result.note).")
            }
            if let ours = results.first(where: { $0.engine == "ours" }) {
                let reasons = figures(ours, subset: nil).errors.sorted { $0.value > $1.value }.prefix(12)
                if !reasons.isEmpty {
                    lines.append("")
                    lines.append("Our compile errors by reason (a schema we cannot enforce exactly is refused before decoding): " + reasons.map { "\($0.key) \($0.value)" }.joined(separator: "; ") + ".")
                }
            }
            lines.append(Self.end)
            return lines
        }

        /// Replaces the section in the output file (or appends it).
        func write() throws {
            let section = markdown().joined(separator: "\n")
            var text = (try? String(contentsOfFile: options.output, encoding: .utf8)) ?? ""
            if let start = text.range(of: Self.begin), let finish = text.range(of: Self.end), start.lowerBound < finish.upperBound {
                text.replaceSubrange(start.lowerBound..<finish.upperBound, with: section)
            } else {
                text += (text.isEmpty || text.hasSuffix("\n\n") ? "" : "\n") + section + "\n"
            }
            try text.write(toFile: options.output, atomically: true, encoding: .utf8)
        }
    }
}
