import Foundation

extension GuidedBenchmarks.Report {
    /// Targets from the guided-generation issue.
    enum Target {
        static let maskMean49k = 20e3  // ns
        static let maskP99At49k = 200e3
        static let maskMean262k = 100e3
        static let compile = 5e-3  // s
        static let speedUp = 1.5
    }

    func markdown() -> [String] {
        func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        func us(_ nanoseconds: Double) -> String { f(nanoseconds / 1e3, nanoseconds < 10e3 ? 2 : 1) + " µs" }
        func ms(_ seconds: Double, _ digits: Int = 1) -> String { f(seconds * 1e3, digits) + " ms" }
        func mark(_ met: Bool) -> String { met ? "✅ met" : "❌ not met" }
        func mean(_ values: [Double]) -> Double { Measure.mean(values) }
        func count(_ value: Int) -> String {
            var digits = String(value)
            var index = digits.count - 3
            while index > 0 {
                digits.insert(",", at: digits.index(digits.startIndex, offsetBy: index))
                index -= 3
            }
            return digits
        }

        var lines: [String] = []
        var targets: [(String, String, Bool?)] = []
        lines.append("## Guided generation")
        lines.append("")
        let typed = GuidedCase.all.filter { $0.conversation != nil }.count
        lines.append("Constrained decoding of typed answers (`respond(to:generating:)`) on \(typed) schemas: the examples' types")
        lines.append("with their own instructions and a prompt from their eval corpus (FuelReceipt, Triage, FlashcardDeck,")
        lines.append("CrateInsight, AlbumInsight), two shapes no example has (a pattern, a range and an exact count in one")
        lines.append("object; an enum with associated values), and the vinyl example's tool arguments (engine figures only).")
        lines.append("Load average (1, 5, 15 min) when this part started: \(loadBefore); when it ended: \(loadAfter).")
        lines.append("This part took \(f(seconds, 0)) s.")
        lines.append("")

        // MARK: Constraint engine
        lines.append("### Constraint engine alone: masks, forced tokens, compile")
        lines.append("")
        lines.append("No model inference: \(walksPerSchema) seeded random walks per schema through the real vocabulary")
        lines.append("(forced runs taken as given, otherwise a uniformly random allowed token; at most \(walkBudget) tokens,")
        lines.append("then the value is finished in the fewest tokens), timing every call with one reused `TokenMask`.")
        lines.append("Steady state pools every walk but the first over a fresh vocabulary object; the first (cold) walk")
        lines.append("also computes the vocabulary-wide free-string masks as it first meets each state.")
        lines.append("")
        if !masks.isEmpty {
            lines.append("| | " + masks.map { "\($0.vocabularyName) (\(count($0.tokenCount)) tokens)" }.joined(separator: " | ") + " |")
            lines.append("| --- |" + String(repeating: " ---: |", count: masks.count))
            func row(_ title: String, _ value: (MaskBenchmark.Result) -> String) {
                lines.append("| \(title) | " + masks.map(value).joined(separator: " | ") + " |")
            }
            row("vocabulary build (token bytes, trie), once per model") { "\(ms($0.vocabularyBuild, 0)) (trie \(ms($0.trieBuild, 0)))" }
            row("first walk over the fresh vocabulary (cold)") {
                "\(ms($0.coldWalkSeconds)), \($0.coldMaskCalls) masks, slowest \(ms($0.coldMaskMax / 1e9, 2))"
            }
            row("`allowedTokens(into:)` mean / p50") { "\(us($0.mask.mean)) / \(us($0.mask.p50))" }
            row("`allowedTokens(into:)` p99 / max") { "\(us($0.mask.p99)) / \(us($0.mask.max))" }
            row("`forcedTokens()` mean / p50") { "\(us($0.forced.mean)) / \(us($0.forced.p50))" }
            row("`forcedTokens()` p99 / max") { "\(us($0.forced.p99)) / \(us($0.forced.max))" }
            row("`accept(_:completableWithin:)` mean / p99") { "\(us($0.accept.mean)) / \(us($0.accept.p99))" }
            row("calls timed (masks, forced, accept), steady state") {
                "\(count($0.mask.count)), \(count($0.forced.count)), \(count($0.accept.count))"
            }
            row("tokens in all walks; forced / closing (budget)") { "\(count($0.tokens)); \(count($0.forcedTokens)) / \(count($0.closingTokens))" }
            row("forced share (forced + closing over all tokens)") {
                f(Double($0.forcedTokens + $0.closingTokens) / Double(max(1, $0.tokens)) * 100, 0) + "%"
            }
            row("walks finished early for the budget") { "\($0.closedWalks) of \($0.walks + 1)" }
            lines.append("")
            lines.append("Random walks pick any allowed token, so their strings are long runs of arbitrary tokens: the forced")
            lines.append("share of real answers is in the end-to-end table below. The steady-state maximum can still include a")
            lines.append("free-string state that a later walk meets for the first time (inside an escape, after `\\`), whose")
            lines.append("vocabulary-wide masks are computed then, or a preemption by another process.")
            lines.append("")
            lines.append("Compile time per schema: `TokenConstraint(root:definitions:vocabulary:)` (grammar, what `ConstraintCache`")
            lines.append("does once per schema) plus the first mask of a fresh decoder (masks of a pattern's or choice's states are")
            lines.append("computed on their first visit): the wait before a first token; median of \(compileSamples) fresh compiles after")
            lines.append("a first one, which is shown apart.")
            lines.append("")
            lines.append("| schema | " + masks.map { "\($0.vocabularyName): grammar + first mask = total (first)" }.joined(separator: " | ") + " |")
            lines.append("| --- |" + String(repeating: " ---: |", count: masks.count))
            for (index, compile) in (masks.first?.compiles ?? []).enumerated() {
                let cells = masks.map { result -> String in
                    let c = result.compiles[index]
                    return "\(ms(c.grammar, 2)) + \(ms(c.mask, 2)) = \(ms(c.total, 2)) (\(ms(c.firstGrammar + c.firstMask, 2)))"
                }
                lines.append("| \(compile.schema)\(compile.isAnswerType ? "" : " (tool arguments)") | " + cells.joined(separator: " | ") + " |")
            }
            lines.append("")
            for result in masks {
                let is49k = result.tokenCount < 100_000
                if is49k {
                    targets.append(
                        ("mask mean ≤ 20 µs at 49k (\(result.vocabularyName))", us(result.mask.mean), result.mask.mean <= Target.maskMean49k))
                    targets.append(
                        ("mask p99 ≤ 200 µs at 49k (\(result.vocabularyName))", us(result.mask.p99), result.mask.p99 <= Target.maskP99At49k))
                } else {
                    targets.append(
                        ("mask mean ≤ 100 µs at 262k (\(result.vocabularyName))", us(result.mask.mean), result.mask.mean <= Target.maskMean262k))
                }
                let answerTypes = result.compiles.filter(\.isAnswerType)
                if let slowest = answerTypes.max(by: { $0.total < $1.total }) {
                    targets.append(
                        (
                            "compile ≤ 5 ms for the answer types (\(result.vocabularyName), slowest)",
                            "\(ms(slowest.total, 2)) (\(slowest.schema)); first compile \(ms(slowest.firstGrammar + slowest.firstMask, 2))",
                            slowest.total <= Target.compile
                        ))
                }
            }
        }
        for error in maskErrors {
            lines.append("Not measured: \(error)")
            lines.append("")
        }

        // MARK: End to end
        lines.append("### Typed answers end to end: ours against llama.cpp's grammar and free text")
        lines.append("")
        if let endToEnd {
            lines.append(
                "`\(GuidedBenchmarks.modelName(model))`, \(threads) threads, greedy, at most \(maximumTokens) tokens, the same rendered prompt for")
            lines.append("both contestants (chat template; the prompt followed by the schema's description, as")
            lines.append("`includeSchemaInPrompt` sends it). Per schema: one first answer (prompt evaluated, schema")
            lines.append("compiled), then \(runs) answers with the prompt cached, whose means are shown; the contestants take")
            lines.append("turns schema by schema (the server idles while ours runs, and the other way round). Ours:")
            lines.append("`LanguageModelSession(instructions:).respond(to:generating:options:)`, wall time to the decoded")
            lines.append("value, model steps and forced tokens from the engine's statistics. llama.cpp: `llama-server`")
            lines.append("`POST /completion` with `json_schema` (`json_schema_to_grammar` and the grammar sampler; no")
            lines.append("jump-forward), wall time of the HTTP request (one blocking socket per request; server-side prompt")
            lines.append("+ generation time in the notes). Model steps are forward passes after the prompt: llama.cpp's are `predicted_n - 1` (it")
            lines.append("counts the end token it samples); free text of our JSON needs one per token of it (the last")
            lines.append("pass yields the end token). Valid: parses, is complete, decodes into the type, keeps its guides.")
            lines.append("")
            lines.append("Server: `\(endToEnd.serverCommand)`")
            lines.append("")
            lines.append(
                "| schema | ours | llama.cpp grammar | speed-up | steps: ours | grammar | free text of our JSON | ours / free | forced share | valid: ours | grammar |"
            )
            lines.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
            var oursTotal = 0.0, grammarTotal = 0.0, serverTotal = 0.0
            var oursSteps = 0.0, grammarSteps = 0.0, freeSteps = 0.0
            var forced = 0, generated = 0
            var oursValid = 0, oursRuns = 0, grammarValid = 0, grammarRuns = 0
            var fewerThanFree = 0, comparedWithFree = 0
            for row in endToEnd.rows {
                let ours = Array(row.oursWarm)
                let grammar = Array(row.grammarWarm)
                let oursWall = mean(ours.map(\.wall))
                let grammarWall = mean(grammar.map(\.wall))
                let oursStep = mean(ours.map { Double($0.steps) })
                let grammarStep = mean(grammar.map { Double($0.steps) })
                let free = mean(row.freeTextOfSameJSON.map(Double.init))
                let rowForced = ours.reduce(0) { $0 + $1.forced }
                let rowGenerated = ours.reduce(0) { $0 + $1.generated }
                oursTotal += oursWall
                oursSteps += oursStep
                forced += rowForced
                generated += rowGenerated
                oursValid += row.ours.filter(\.isValid).count
                oursRuns += row.ours.count
                if !grammar.isEmpty {
                    grammarTotal += grammarWall
                    serverTotal += mean(grammar.map(\.serverTime))
                    grammarSteps += grammarStep
                }
                grammarValid += row.grammar.filter(\.isValid).count
                grammarRuns += row.grammar.count
                if !row.freeTextOfSameJSON.isEmpty {
                    freeSteps += free
                    comparedWithFree += 1
                    if oursStep < free { fewerThanFree += 1 }
                }
                let speedUp = grammar.isEmpty || oursWall == 0 ? "–" : f(grammarWall / oursWall, 2) + "×"
                lines.append(
                    "| \(row.schema) | \(ms(oursWall, 0)) | \(grammar.isEmpty ? "–" : ms(grammarWall, 0)) | \(speedUp) | \(f(oursStep, 0)) | \(grammar.isEmpty ? "–" : f(grammarStep, 0)) | \(row.freeTextOfSameJSON.isEmpty ? "–" : f(free, 0)) | \(free > 0 ? f(oursStep / free, 2) : "–") | \(f(Double(rowForced) / Double(max(1, rowGenerated)) * 100, 0))% | \(row.ours.filter(\.isValid).count)/\(row.ours.count) | \(row.grammar.isEmpty ? "–" : "\(row.grammar.filter(\.isValid).count)/\(row.grammar.count)") |"
                )
            }
            let overallSpeedUp = oursTotal > 0 && grammarTotal > 0 ? grammarTotal / oursTotal : 0
            // Like for like: the schemas where every answer of both was valid.
            let bothValid = endToEnd.rows.filter { !$0.grammar.isEmpty && $0.grammar.allSatisfy(\.isValid) && $0.ours.allSatisfy(\.isValid) }
            let bothOurs = bothValid.reduce(0.0) { $0 + mean($1.oursWarm.map(\.wall)) }
            let bothGrammar = bothValid.reduce(0.0) { $0 + mean($1.grammarWarm.map(\.wall)) }
            let bothSpeedUp = bothOurs > 0 ? bothGrammar / bothOurs : 0
            // Per forward pass and per generated token, every measured answer.
            let allOurs = endToEnd.rows.flatMap(\.oursWarm)
            let allGrammar = endToEnd.rows.flatMap(\.grammarWarm)
            let oursPerStep = allOurs.reduce(0.0) { $0 + $1.wall } / Double(max(1, allOurs.reduce(0) { $0 + $1.steps }))
            let grammarPerStep = allGrammar.reduce(0.0) { $0 + $1.wall } / Double(max(1, allGrammar.reduce(0) { $0 + $1.steps }))
            let oursPerToken = allOurs.reduce(0.0) { $0 + $1.wall } / Double(max(1, allOurs.reduce(0) { $0 + $1.generated }))
            let grammarPerToken = allGrammar.reduce(0.0) { $0 + $1.wall } / Double(max(1, allGrammar.reduce(0) { $0 + ($1.generated - 1) }))
            lines.append(
                "| **all (sum of means)** | **\(ms(oursTotal, 0))** | **\(grammarTotal > 0 ? ms(grammarTotal, 0) : "–")** | **\(overallSpeedUp > 0 ? f(overallSpeedUp, 2) + "×" : "–")** | **\(f(oursSteps, 0))** | **\(grammarSteps > 0 ? f(grammarSteps, 0) : "–")** | **\(f(freeSteps, 0))** | **\(freeSteps > 0 ? f(oursSteps / freeSteps, 2) : "–")** | **\(f(Double(forced) / Double(max(1, generated)) * 100, 0))%** | **\(oursValid)/\(oursRuns)** | **\(grammarRuns > 0 ? "\(grammarValid)/\(grammarRuns)" : "–")** |"
            )
            lines.append("")
            if let error = endToEnd.serverError {
                lines.append("llama.cpp's grammar was not measured completely: \(error)")
                lines.append("")
            }
            let firstOurs = mean(endToEnd.rows.compactMap { $0.ours.first?.wall })
            let firstGrammar = mean(endToEnd.rows.compactMap { $0.grammar.first?.wall })
            let cachedOurs = endToEnd.rows.flatMap { $0.oursWarm.map { Double($0.cachedTokens) / Double(max(1, $0.promptTokens)) } }
            let cachedGrammar = endToEnd.rows.flatMap { $0.grammarWarm.map { Double($0.cachedTokens) / Double(max(1, $0.promptTokens)) } }
            if !allGrammar.isEmpty {
                lines.append("- The same answers are not the same text: greedy decoding follows each grammar, and llama.cpp's lets the model")
                lines.append(
                    "  write whitespace and run on to the token limit. Like for like, on the \(bothValid.count) schemas where every answer of")
                lines.append(
                    "  both was valid (\(bothValid.map(\.schema).joined(separator: ", "))): ours \(ms(bothOurs, 0)), llama.cpp \(ms(bothGrammar, 0)),"
                )
                lines.append(
                    "  \(f(bothSpeedUp, 2))×. Per forward pass after the prompt: ours \(ms(oursPerStep, 1)), llama.cpp \(ms(grammarPerStep, 1)); per")
                lines.append(
                    "  token of the answer (llama.cpp's end token not counted): ours \(ms(oursPerToken, 1)), llama.cpp \(ms(grammarPerToken, 1)).")
                let oursPrompt = mean(allOurs.map { Double($0.promptTokens) })
                let grammarPrompt = mean(allGrammar.map { Double($0.promptTokens) })
                lines.append("- Prompt tokens per answer (same rendered text): ours \(f(oursPrompt, 0)), llama.cpp \(f(grammarPrompt, 0)).")
            }
            lines.append("- First answer per schema (prompt not cached), mean: ours \(ms(firstOurs, 0)), llama.cpp \(ms(firstGrammar, 0)).")
            lines.append(
                "- Prompt tokens served from the cache in the measured answers: ours \(f(mean(cachedOurs) * 100, 0))%, llama.cpp \(f(mean(cachedGrammar) * 100, 0))%."
            )
            if serverTotal > 0 {
                lines.append(
                    "- llama.cpp's own prompt + generation time (`timings`), sum of means: \(ms(serverTotal, 0)); against ours: \(f(serverTotal / max(oursTotal, 1e-9), 2))×."
                )
            }
            lines.append("- CPU time fm-bench itself used while llama.cpp answered: \(f(endToEnd.ownCPUDuringServer, 2)) s in all.")
            lines.append(
                "- Generated tokens per answer: ours \(f(Double(generated) / Double(max(1, endToEnd.rows.reduce(0) { $0 + $1.oursWarm.count })), 1)) (forced included); every token ours forces rides in a batched forward pass."
            )
            lines.append("- End-to-end part: \(f(endToEnd.seconds, 0)) s.")
            lines.append("")

            // The same text: llama.cpp reduced to writing our answer.
            let attempted = endToEnd.rows.filter { $0.sameText != nil && $0.sameTextOurs != nil }
            // Only rows where llama.cpp did write our text count as like for
            // like (it can run out of tokens first on a long answer).
            let same = attempted.filter { $0.sameText!.isValid }
            let sameOurs = same.reduce(0.0) { $0 + $1.sameTextOurs!.wall }
            let sameGrammar = same.reduce(0.0) { $0 + $1.sameText!.wall }
            let sameSpeedUp = sameOurs > 0 ? sameGrammar / sameOurs : 0
            if !attempted.isEmpty {
                lines.append("The same answer, like for like: llama.cpp given a grammar whose only sentence is our first measured")
                lines.append("answer (GBNF literal; prompt cached; one request), so both write the same text; ours is that answer's")
                lines.append("own run.")
                lines.append("")
                lines.append("| schema | ours | llama.cpp, same text | speed-up | steps: ours | llama.cpp | same text? |")
                lines.append("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
                for row in attempted {
                    let ours = row.sameTextOurs!, theirs = row.sameText!
                    lines.append(
                        "| \(row.schema) | \(ms(ours.wall, 0)) | \(ms(theirs.wall, 0)) | \(f(theirs.wall / max(ours.wall, 1e-9), 2))× | \(ours.steps) | \(theirs.steps) | \(theirs.isValid ? "yes" : "no: " + Self.short(theirs.problems.first ?? "", 80)) |"
                    )
                }
                let sameOursSteps = same.reduce(0) { $0 + $1.sameTextOurs!.steps }
                let sameGrammarSteps = same.reduce(0) { $0 + $1.sameText!.steps }
                lines.append(
                    "| **all with the same text (\(same.count))** | **\(ms(sameOurs, 0))** | **\(ms(sameGrammar, 0))** | **\(f(sameSpeedUp, 2))×** | **\(sameOursSteps)** | **\(sameGrammarSteps)** | |"
                )
                lines.append("")
            }

            lines.append("Unconstrained generation of the same prompt (schema description included, nothing enforced), one")
            lines.append("answer each, prompt cached:")
            lines.append("")
            lines.append("| schema | wall | tokens | model steps | a valid answer? |")
            lines.append("| --- | ---: | ---: | ---: | --- |")
            for row in endToEnd.rows {
                guard let free = row.unconstrained else { continue }
                let limit = free.generated >= maximumTokens ? " (stopped at the token limit)" : ""
                lines.append(
                    "| \(row.schema) | \(ms(free.wall, 0)) | \(free.generated) | \(free.steps) | \(free.isValid ? "yes" : "no: " + Self.short(free.problems.first ?? "", 100) + limit) |"
                )
            }
            lines.append("")
            lines.append("<details><summary>The answers (first measured run of each)</summary>")
            lines.append("")
            for row in endToEnd.rows {
                lines.append("- \(row.schema)")
                if let ours = row.oursWarm.first {
                    lines.append("  - ours (\(ours.generated) tokens, \(ours.forced) forced, \(ours.steps) steps): `\(Self.inline(ours.json))`")
                }
                if let grammar = row.grammarWarm.first {
                    lines.append("  - llama.cpp grammar (\(grammar.generated) tokens): `\(Self.inline(grammar.json))`")
                }
                if let problem = row.grammar.flatMap(\.problems).first { lines.append("  - llama.cpp problem: \(Self.short(problem))") }
                if let problem = row.ours.flatMap(\.problems).first { lines.append("  - ours problem: \(Self.short(problem))") }
            }
            lines.append("")
            lines.append("</details>")
            lines.append("")
            if grammarTotal > 0 {
                targets.append(
                    (
                        "typed answer ≥ 1.5× faster end to end than llama.cpp's grammar: all schemas, answers as generated",
                        "\(f(overallSpeedUp, 2))× (\(ms(oursTotal, 0)) against \(ms(grammarTotal, 0)))", overallSpeedUp >= Target.speedUp
                    ))
                targets.append(
                    (
                        "… like for like: the same answer text",
                        same.isEmpty
                            ? "not measured" : "\(f(sameSpeedUp, 2))× (\(ms(sameOurs, 0)) against \(ms(sameGrammar, 0)), \(same.count) schemas)",
                        same.isEmpty ? nil : sameSpeedUp >= Target.speedUp
                    ))
                targets.append(
                    (
                        "… schemas where both answered validly every time (different texts)",
                        bothValid.isEmpty
                            ? "no such schema"
                            : "\(f(bothSpeedUp, 2))× (\(ms(bothOurs, 0)) against \(ms(bothGrammar, 0)), \(bothValid.count) schemas)",
                        bothValid.isEmpty ? nil : bothSpeedUp >= Target.speedUp
                    ))
                targets.append(
                    (
                        "… per token of the answer",
                        "\(f(grammarPerToken / max(oursPerToken, 1e-12), 2))× (\(ms(oursPerToken, 1)) against \(ms(grammarPerToken, 1)))",
                        grammarPerToken / max(oursPerToken, 1e-12) >= Target.speedUp
                    ))
            } else {
                targets.append(("typed answer ≥ 1.5× faster end to end than llama.cpp's grammar", "not measured", nil))
            }
            targets.append(
                (
                    "fewer model steps than free text of the same JSON",
                    "\(f(oursSteps, 0)) against \(f(freeSteps, 0)) (\(f(oursSteps / max(freeSteps, 1e-9), 2))); fewer on \(fewerThanFree) of \(comparedWithFree) schemas",
                    freeSteps > 0 && oursSteps < freeSteps && fewerThanFree == comparedWithFree
                ))
        } else {
            lines.append("Not measured: \(endToEndError ?? "unknown reason")")
            lines.append("")
        }

        lines.append("### Targets")
        lines.append("")
        lines.append("| target | measured | |")
        lines.append("| --- | --- | --- |")
        for (target, figure, met) in targets {
            lines.append("| \(target) | \(figure) | \(met.map(mark) ?? "–") |")
        }
        lines.append("")
        return lines
    }

    static func inline(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: "⏎").replacingOccurrences(of: "`", with: "'")
        return flat.count > 400 ? String(flat.prefix(400)) + "…" : flat
    }

    static func short(_ text: String, _ length: Int = 160) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "|", with: "\\|")
        return flat.count > length ? String(flat.prefix(length)) + "…" : flat
    }
}
