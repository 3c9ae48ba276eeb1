import Foundation
import TestSupport
import Testing

/// `fm-bench bigschemas` (issue 59's big-schema benchmark), run as a child
/// process: the section it writes into BENCHMARKS.md from a run's records
/// (synthetic numbers, no model), and which schemas it selects (the small
/// model's tokenizer counts the descriptions; no request is made).
@Suite("fm-bench bigschemas")
struct BigSchemasTests {
    static func run(_ arguments: [String]) throws -> ChildProcess.Output {
        try BenchmarkCommandTests.run(arguments)
    }

    static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bigschemas-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// One request's record as `--results` writes it.
    static func attempt(
        _ seconds: Double, firstPiece: Double? = nil, answer: String? = "{}", valid: Bool? = true, violation: String? = nil, error: String? = nil,
        refused: Bool = false, cached: Int = 0
    ) -> [String: Any] {
        var attempt: [String: Any] = ["seconds": seconds, "refused": refused]
        if let firstPiece { attempt["firstTokenSeconds"] = firstPiece }
        if let answer {
            attempt["answer"] = answer
            attempt["promptTokens"] = 1100
            attempt["cachedTokens"] = cached
            attempt["generatedTokens"] = 200
        }
        if let valid { attempt["valid"] = valid }
        if let violation { attempt["violation"] = violation }
        if let error { attempt["error"] = error }
        return attempt
    }

    /// Twelve schemas of 181: nine valid (first 20-70 s, its first piece
    /// at 10 s; second 5-20 s, at 1 s), one refused, one invalid twice, one
    /// that timed out.
    static func syntheticRun() -> [String: Any] {
        var records: [[String: Any]] = []
        let firsts: [Double] = [20, 25, 30, 35, 40, 45, 50, 55, 70]
        let seconds: [Double] = [5, 6, 7, 8, 9, 10, 11, 12, 20]
        for index in 0..<9 {
            records.append([
                "name": String(format: "r%02d", index + 1), "file": "Set---r\(index + 1).json", "wholeTokens": 9000 + index, "sentTokens": 1020,
                "detail": "bounded", "first": attempt(firsts[index], firstPiece: 10),
                "second": attempt(seconds[index], firstPiece: 1, cached: 1090),
            ])
        }
        records.append([
            "name": "r10", "file": "Set---r10.json", "wholeTokens": 12_000, "sentTokens": 1000, "detail": "outline",
            "first": attempt(
                0.5, answer: nil, valid: nil, error: #"unsupportedGuide: Invalid generation schema: keyword "uniqueItems" at #/properties/tags"#,
                refused: true),
        ])
        let violation = #"the value leaves the schema after 12 bytes: {"a"⟨here⟩"#
        records.append([
            "name": "r11", "file": "Set---r11.json", "wholeTokens": 31_226, "sentTokens": 1024, "detail": "bounded",
            "first": attempt(80, firstPiece: 10, valid: false, violation: violation),
            "second": attempt(30, firstPiece: 1, valid: false, violation: violation, cached: 1090),
        ])
        records.append([
            "name": "r12", "file": "Set---r12.json", "wholeTokens": 8001, "sentTokens": 900, "detail": "brief",
            "first": attempt(300, firstPiece: 25, answer: nil, valid: nil, error: "no answer within the time limit of 300 s"),
        ])
        return [
            "machine": "Test CPU, 2 cores", "model": "model.gguf", "date": "2026-12-07T00:00:00Z", "command": "make bench-bigschemas",
            "prompt": "Give one example record.", "threshold": 8000, "maxTokens": 600, "timeout": 300, "budget": 1024,
            "counts": ["files": 11_305, "readable": 10_000, "over": 181], "validator": "Python `jsonschema`", "loadSeconds": 2.5,
            "warmUpSeconds": 3.5, "load": [3.9, 4.25], "records": records,
        ]
    }

    @Test func theSectionFromSyntheticRecords() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let results = folder.appendingPathComponent("run.json")
        try JSONSerialization.data(withJSONObject: Self.syntheticRun()).write(to: results)
        // The section replaces its earlier self and leaves the rest of the file alone.
        let output = folder.appendingPathComponent("BENCHMARKS.md")
        try "# Benchmarks\n\nbefore\n\n<!-- bigschemas:begin -->\nold figures\n<!-- bigschemas:end -->\n\nafter\n".write(
            to: output, atomically: true, encoding: .utf8)
        let ran = try Self.run(["bigschemas-report", results.path, "--output", output.path])
        #expect(ran.status == 0, "\(ran.standardError)")
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(text.hasPrefix("# Benchmarks\n\nbefore\n\n<!-- bigschemas:begin -->\n## Big schemas"))
        #expect(text.hasSuffix("<!-- bigschemas:end -->\n\nafter\n"))
        #expect(!text.contains("old figures"))
        #expect(text.components(separatedBy: "<!-- bigschemas:begin -->").count == 2)

        #expect(text.contains("12 of the 181 MaskBench schemas whose whole description"))
        #expect(text.contains("more than 8,000 tokens"))
        #expect(text.contains("the largest here, `r11`, takes 31,226"))
        #expect(text.contains("within the model's schema budget (1,024 tokens)"))
        #expect(text.contains("`model.gguf`, Test CPU, 2 cores"))
        #expect(
            text.contains("a request is cancelled after 300 s; the machine's load average was 3.9 when the requests began and 4.2 when they ended"))
        #expect(
            text.contains(
                "**Issue 59's acceptance (a valid answer within 60 s on the first request and within 15 s on the second): 8 of 12 (67 %).**"))
        // First and second columns: times over the answered requests
        // (nearest rank), shares over every schema.
        for row in [
            "| requests | 12 | 10 |", "| answered | 10 | 10 |", "| valid | 9 | 9 |", "| refused | 1 | 0 |", "| failed | 2 | 1 |",
            "| time to the answer, median (s) | 40.0 | 9.0 |", "| time to the answer, p90 (s) | 70.0 | 20.0 |",
            "| time to the answer, max (s) | 80.0 | 30.0 |", "| time to its first piece, median (s) | 10.0 | 1.0 |",
            "| time to its first piece, p90 (s) | 10.0 | 1.0 |",
            // 199 tokens after the first: the median rates are those of the 45 s and the 10 s answers.
            "| decoding after it, median (tokens/s) | 5.7 | 22.1 |", "| valid within 60 s (of all schemas) | 8 of 12 (67 %) | 9 of 12 (75 %) |",
            "| valid within 15 s (of all schemas) | 0 of 12 (0 %) | 8 of 12 (67 %) |", "| prompt tokens, median | 1100 | 1100 |",
            "| of which cached, median | 0 | 1090 |", "| generated tokens, median | 200 | 200 |",
        ] {
            #expect(text.contains(row), "missing row \(row)")
        }
        // Reasons grouped, what is particular to a schema taken out.
        #expect(
            text.contains(
                "Refused, first and second requests together: unsupportedGuide: Invalid generation schema: keyword … at #/properties/tags (1)."))
        #expect(
            text.contains(
                "Failed, first and second requests together: invalid answer: the value leaves the schema after N bytes (2); no answer within the time limit of N s (1)."
            ))
        // The slowest ten by their first request, slowest first.
        let table = text.components(separatedBy: "The slowest ten by their first request:")
        try #require(table.count == 2)
        let rows = table[1].split(separator: "\n").filter { $0.hasPrefix("| `") }
        #expect(rows.count == 10)
        #expect(rows.first?.hasPrefix("| `r12` | 8,001 | 900, brief | 300.0; 25.0 | – | – | – | no answer within the time limit of N s |") == true)
        #expect(
            rows.dropFirst().first?.hasPrefix(
                "| `r11` | 31,226 | 1,024, bounded | 80.0; 10.0 | 1100 / 0 / 200 | 30.0; 1.0 | 1100 / 1090 / 200 | invalid answer: the value leaves the schema after N bytes |"
            ) == true)
        #expect(rows.last?.hasPrefix("| `r02` |") == true)
        #expect(!text.contains("`r01`") && !text.contains("`r10`"))

        // Without --output, the section goes to standard output.
        let printed = try Self.run(["bigschemas-report", results.path])
        #expect(printed.status == 0)
        #expect(printed.standardOutput.hasPrefix("<!-- bigschemas:begin -->\n## Big schemas"))
    }

    /// Runs of parts of the set, made on different days, report as one:
    /// every schema once (the later run's record for a schema asked
    /// twice), both days and commands, no load average (there were two).
    @Test func runsOfPartsOfTheSetReportAsOne() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        var first = Self.syntheticRun()
        var second = Self.syntheticRun()
        let records = try #require(first["records"] as? [[String: Any]])
        first["records"] = Array(records.prefix(8))
        // r03 again, now slower, and r09-r12 for the first time.
        var again = records[2]
        again["first"] = Self.attempt(58, firstPiece: 10)
        second["records"] = [again] + Array(records.dropFirst(8))
        second["date"] = "2026-12-08T00:00:00Z"
        second["command"] = "make bench-bigschemas BIGSCHEMAS_ARGS=\"--only r03,r09\""
        let paths = [("first.json", first), ("second.json", second)].map { name, run in folder.appendingPathComponent(name) }
        try JSONSerialization.data(withJSONObject: first).write(to: paths[0])
        try JSONSerialization.data(withJSONObject: second).write(to: paths[1])
        let ran = try Self.run(["bigschemas-report", paths[0].path, paths[1].path])
        #expect(ran.status == 0, "\(ran.standardError)")
        let text = ran.standardOutput
        #expect(text.contains("12 of the 181 MaskBench schemas"), "\(text)")
        #expect(text.contains("2026-12-07, 2026-12-08 (2 runs)"))
        #expect(text.contains("make bench-bigschemas`; `make bench-bigschemas BIGSCHEMAS_ARGS=\"--only r03,r09\""))
        #expect(!text.contains("load average was"))
        #expect(text.contains("| requests | 12 | 10 |"))
        // r03's first request is now the later run's 58 s, not 30 s: the median of the answered firsts moves from 40 to 45.
        #expect(text.contains("| time to the answer, median (s) | 45.0 | 9.0 |"), "\(text)")

        // Runs of another model are not one distribution.
        var other = Self.syntheticRun()
        other["model"] = "other.gguf"
        let otherPath = folder.appendingPathComponent("other.json")
        try JSONSerialization.data(withJSONObject: other).write(to: otherPath)
        let refused = try Self.run(["bigschemas-report", paths[0].path, otherPath.path])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("the runs differ in their model or request settings"), "\(refused.standardError)")
    }

    @Test func optionsAreChecked() throws {
        for arguments in [["bigschemas"], ["bigschemas", "data", "--bogus"], ["bigschemas", "data", "--limit", "none"]] {
            let ran = try Self.run(arguments)
            #expect(ran.status == 1, "\(arguments): status \(ran.status)")
            #expect(ran.standardError.contains("fm-bench: error:"), "\(arguments): \(ran.standardError)")
        }
    }

    /// Four MaskBench files (and one that is not JSON): a documented schema
    /// whose description takes about 2,800 tokens, a small one, one whose
    /// file is large with an annotation the description leaves out, and one
    /// the library cannot read.
    static func data() throws -> URL {
        let folder = try scratch()
        let files = [
            "Set---big_Normalized.json": SchemaFixtures.documentedSchema(paragraphs: 4),
            "Set---small.json": SchemaFixtures.documentedSchema(paragraphs: 0),
            "Set---annotated.json": #"{"type":"object","properties":{"a":{"type":"string"}},"examples":[""#
                + String(repeating: "an example that is never described ", count: 2000) + #""]}"#,
            "Set---unreadable.json": ##"{"type":"object","properties":{"a":{"$ref":"#/definitions/missing"}}}"##,
        ]
        for (name, schema) in files {
            try #"{"schema":\#(schema),"tests":[]}"#.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try "not JSON".write(to: folder.appendingPathComponent("Set---garbage.json"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test(.needs(.smallModel), .tags(.model)) func theSelectionCountsWholeDescriptions() throws {
        let data = try Self.data()
        defer { try? FileManager.default.removeItem(at: data) }
        func list(_ options: [String]) throws -> [Substring] {
            let ran = try Self.run(["bigschemas", data.path, "--model", TestMachine.smallModel, "--list"] + options)
            #expect(ran.status == 0, "\(options): \(ran.standardError)")
            return ran.standardOutput.split(separator: "\n")
        }
        // Only the documented schema's whole description is over 2,000
        // tokens; it is sent shorter, within the budget.
        let big = try list(["--threshold", "2000"])
        #expect(big.last == "selected 1 of 1 over 2000 tokens (3 readable of 4 files)", "\(big)")
        let fields = try #require(big.first?.split(separator: "\t"))
        #expect(fields.count == 5)
        #expect(fields.first == "big")
        let whole = try #require(Int(fields[1]))
        let sent = try #require(Int(fields[2]))
        #expect(whole > 2000 && whole < 5000, "\(whole)")
        #expect(sent <= 1024 && sent < whole, "\(sent)")
        #expect(fields[3] != "whole")
        #expect(fields[4] == "Set---big_Normalized.json")

        // At 10 tokens all three readable ones are over; --only and --limit choose among them.
        let only = try list(["--threshold", "10", "--only", "small"])
        #expect(only.last == "selected 1 of 3 over 10 tokens (3 readable of 4 files)", "\(only)")
        #expect(only.first?.hasPrefix("small\t") == true)
        let limited = try list(["--threshold", "10", "--limit", "2"])
        #expect(limited.last == "selected 2 of 3 over 10 tokens (3 readable of 4 files)", "\(limited)")
        #expect(limited.dropLast().map { $0.split(separator: "\t").first } == ["annotated", "big"])
    }
}
