import Foundation

/// The `## Tools` section of EVAL.md, from tools runs: one row per run
/// (label and mode), both-right by kind, and the items not all right with
/// their calls and answers, in the look of the other corpora's sections.
package enum ToolsReport {
    package static func markdown(_ runs: [ToolsRun]) -> String {
        var lines = [
            "## Tools",
            "",
            "Conversations with a shop assistant that has four deterministic tools (`getStock`, `getWeather`, `convertCurrency`, `lookupOrder`; `eval/corpora/tools.json`), each item in a fresh session with `toolCallingMode` `.allowed` and greedy sampling: one call then the answer (single), an answer that must give the result's numbers (numbers), two calls in one request (two-tools), a plain question that must not call (no-tool), a second prompt in the same session (multi-turn). **calls right**: every needed call made, to the right tool with the expected argument values; **answer uses the result**: every answer contains the facts of the tools' outputs (numbers as numbers, words case-insensitively); **no-call items right**: plain questions answered without a call, saying what answers them where one answer is right (Tokyo, 84); no answer may write out a call or its tags instead of answering; mode `library` is the model in process, `fm serve` the same model through the OpenAI-compatible server, and `llama-server --jinja`, the reference, the same model behind llama-server rendering the conversation with the model's own chat template (what the model does with tools without our rendering and turn grammar; a call the model writes as text rather than in its template's block, which llama-server's parser does not read, our client reads as a call where the text is nothing but calls to offered tools, as the in-process engine does).",
            "",
            "| run | mode | items | calls right | answer uses the result | both | no-call items right | errors | timed out | latency mean | date | revision |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |",
        ]
        for run in runs {
            let records = run.records
            let errors = records.filter { $0.error != nil && !$0.timedOut }.count
            let latency = records.isEmpty ? 0 : records.map(\.seconds).reduce(0, +) / Double(records.count)
            lines.append(
                "| \(run.label) | \(run.mode) | \(records.count) | \(share(records.map(\.score.callsRight))) | \(share(records.map(\.score.answerUsesResult))) | **\(share(records.map(\.score.both)))** | \(share(records.map(\.score.noCallRight))) | \(errors) | \(records.filter(\.timedOut).count) | \(String(format: "%.2f", latency)) s | \(run.date.map { String($0.prefix(10)) } ?? "–") | \(run.revision ?? "–") |"
            )
        }
        if !runs.isEmpty {
            lines += ["", "All right by kind:", ""]
            lines.append("| kind | items | " + runs.map { "\($0.label), \($0.mode)" }.joined(separator: " | ") + " |")
            lines.append("| --- | ---: | " + runs.map { _ in "---:" }.joined(separator: " | ") + " |")
            let kinds = ToolsCorpus.kinds.filter { kind in runs.contains { $0.records.contains { $0.kind == kind } } }
            for kind in kinds {
                let count = runs.map { $0.records.filter { $0.kind == kind }.count }.max() ?? 0
                let cells = runs.map { run -> String in
                    let records = run.records.filter { $0.kind == kind }
                    return "\(records.filter(\.score.allRight).count)/\(records.count)"
                }
                lines.append("| \(kind) | \(count) | " + cells.joined(separator: " | ") + " |")
            }
        }
        let misses = runs.filter { $0.records.contains { !$0.score.allRight } }
        if !misses.isEmpty {
            lines += ["", "<details><summary>Items not all right</summary>"]
            for run in misses {
                let wrong = run.records.filter { !$0.score.allRight }
                lines += ["", "**\(run.label), \(run.mode)** (\(wrong.count)):", ""]
                for record in wrong { lines.append(missLine(record)) }
            }
            lines += ["", "</details>"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `- tools-03 (two-tools): expected …, got … — calls: `…` — answer: `…``
    /// (the turns of a conversation separated by ` | `).
    static func missLine(_ record: ToolsRecord) -> String {
        let calls = record.turns.map { turn in turn.calls.isEmpty ? "none" : turn.calls.map(\.text).joined(separator: ", ") }
        let answers = record.turns.map { shortened($0.answer, limit: 160) }
        let line = "- \(record.id) (\(record.kind)): \(record.score.problems.map { shortened($0, limit: 200) }.joined(separator: "; "))"
        guard !record.turns.isEmpty else { return line }
        return line + " — calls: `\(code(calls.joined(separator: " | ")))` — answer: `\(code(answers.joined(separator: " | ")))`"
    }

    /// `75 % (15/20)`, over the items a score applies to; `–` where none does.
    static func share(_ scores: [Bool?]) -> String {
        let applicable = scores.compactMap { $0 }
        guard !applicable.isEmpty else { return "–" }
        let right = applicable.filter { $0 }.count
        return "\(Int((Double(right) / Double(applicable.count) * 100).rounded())) % (\(right)/\(applicable.count))"
    }

    /// One line of at most `limit` characters.
    static func shortened(_ text: String, limit: Int) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return flat.count > limit ? flat.prefix(limit) + "…" : flat
    }

    /// Text that can sit in a Markdown code span in a table-free line.
    static func code(_ text: String) -> String {
        text.replacingOccurrences(of: "`", with: "'")
    }
}
