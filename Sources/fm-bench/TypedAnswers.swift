import Foundation
import FoundationModels

/// `fm-bench typed [N]`: how long typed answers take end to end on the
/// configured model, for the first N cases of the guided suite (default 3):
/// each answered twice through `respond(to:generating:options:)`, greedy, at
/// most 256 tokens, in a fresh session each time. The first answer includes
/// compiling the schema for the vocabulary; the second finds it compiled.
///
/// A short measurement for the GPU script (scripts/gpu/bench.sh), where the
/// whole guided section (`fm-bench guided`, against llama-server's
/// JSON-schema grammar) does not fit the time a device is lent for.
enum TypedAnswers {
    struct Row {
        var schema: String
        var firstSeconds: Double
        var warmSeconds: Double
        var generatedTokens: Int
        var modelSteps: Int
        var valid: Bool
        var problems: [String]
    }

    static func run(_ arguments: [String], log: @Sendable (String) -> Void) async throws -> [Row] {
        let count = Int(arguments.first ?? "") ?? 3
        let engine = OnDeviceEngine.shared(for: .default)
        _ = try await engine.loaded()
        let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 256)
        var rows: [Row] = []
        for item in GuidedCase.all.prefix(count) {
            guard let conversation = item.conversation else { continue }
            log("typed answers: \(item.name)")
            var times: [Double] = []
            var row = Row(schema: item.name, firstSeconds: 0, warmSeconds: 0, generatedTokens: 0, modelSteps: 0, valid: true, problems: [])
            for _ in 0..<2 {
                let before = engine.statistics.withLock { $0 }
                let started = Measure.clock.now
                do {
                    let answer = try await conversation.respond(LanguageModelSession(instructions: conversation.instructions), options)
                    row.problems += conversation.problems(answer.json)
                } catch {
                    row.problems.append("\(error)")
                }
                times.append((Measure.clock.now - started).inSeconds)
                let after = engine.statistics.withLock { $0 }
                row.generatedTokens = after.generatedTokens - before.generatedTokens
                row.modelSteps = after.modelSteps - before.modelSteps
            }
            row.firstSeconds = times[0]
            row.warmSeconds = times[1]
            row.valid = row.problems.isEmpty
            rows.append(row)
        }
        return rows
    }

    static func markdown(_ rows: [Row], model: String) -> [String] {
        func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        var lines = ["## Typed answers end to end", ""]
        lines.append("`\(model)`, greedy, at most 256 tokens, a fresh session per answer; the first answer compiles the schema.")
        lines.append("")
        lines.append("| schema | first answer | second answer | tokens | forward passes | tokens/s (second) | valid |")
        lines.append("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
        for row in rows {
            let rate = row.warmSeconds > 0 ? Double(row.generatedTokens) / row.warmSeconds : 0
            lines.append(
                "| \(row.schema) | \(f(row.firstSeconds * 1000)) ms | \(f(row.warmSeconds * 1000)) ms | \(row.generatedTokens) | \(row.modelSteps) | \(f(rate)) | \(row.valid ? "yes" : "no: " + row.problems.prefix(2).joined(separator: "; ")) |"
            )
        }
        lines.append("")
        return lines
    }
}
