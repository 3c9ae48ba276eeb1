import Foundation
import FoundationModels

/// EVAL.md: one or more runs (models, or variants of one) side by side,
/// corpus by corpus and mode by mode.
package struct EvalReport {
    package var runs: [EvalRun]
    /// How the report was made (`make eval`).
    package var command: String
    /// Misses listed per run, corpus and mode.
    package var missesShown = 6

    /// Runs with the same label (one model's corpora or modes run by
    /// separate commands) are shown as one: their results side by side,
    /// their times added, their commands listed.
    package init(runs: [EvalRun], command: String) {
        var merged: [EvalRun] = []
        for run in runs {
            if let index = merged.firstIndex(where: { $0.label == run.label }) {
                merged[index].results += run.results
                merged[index].seconds += run.seconds
                merged[index].command += "; " + run.command
                merged[index].llamaServer = merged[index].llamaServer ?? run.llamaServer
                let revisions = (merged[index].revision?.components(separatedBy: ", ") ?? []) + [run.revision].compactMap { $0 }
                merged[index].revision = revisions.isEmpty ? nil : Self.distinct(revisions).joined(separator: ", ")
            } else {
                merged.append(run)
            }
        }
        self.runs = merged
        self.command = command
        dates = Set(runs.map { String($0.date.prefix(10)) }).sorted()
        revisions = Self.distinct(runs.compactMap(\.revision))
    }

    /// `values` without repeats, in the order they first appear.
    private static func distinct(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }

    /// The days the runs were made on, and the source revisions of the
    /// `fm` that made them (`make eval` resumes, so one report can put
    /// runs of several days and revisions together).
    private let dates: [String]
    private let revisions: [String]

    package func markdown() -> String {
        var lines: [String] = []
        lines += header()
        lines += summary()
        for corpus in Corpus.allCases where runs.contains(where: { $0.results.contains { $0.corpus == corpus } }) {
            lines += section(corpus)
        }
        lines += definitions()
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Sections

    private func header() -> [String] {
        var lines = [
            "# Evaluation",
            "",
            "Golden corpora of the apps' tasks (`eval/corpora/`, generated from fixed seeds by `fm eval generate`), each item",
            "answered by the same model with the same instructions and prompt in up to six ways, and scored field by field:",
            "",
            "- **\(EvalMode.guided.title)**: `LanguageModelSession.respond(to:generating:)`, the schema enforced token by token;",
            "- **\(EvalMode.budgeted.title)**: the same request with the options the example's feature sends (its `maximumResponseTokens` and sampling), compared item by item with the guided answer to see what the budget cuts;",
            "- **\(EvalMode.doubled.title)**: the same request, greedy, with `maximumResponseTokens` twice the output tokens of the item's guided answer, compared with that answer byte for byte: string pacing promises to change no answer that has room;",
            "- **\(EvalMode.free.title)**: `respond(to:)` with the same user text (prompt and schema description), the first JSON object of the answer decoded into the type;",
            "- **\(EvalMode.grammar.title)**: `llama-server` on the same GGUF file, given the very prompt text the session renders and the type's JSON Schema as `json_schema`;",
            "- **\(EvalMode.pipeline.title)**: the example's whole feature as an app calls it (`ReceiptExtractor.extract`, `TicketTriager.triage`, `ModelFlashcardGenerator.flashcards`, `WeeklyCoach.report`), with its own options, checks and re-prompts.",
            "",
            "The instructions, prompts and answer types are the examples' own (`Examples/`): the eval scores what the examples ship.",
            "",
            "Options are an app's: greedy sampling, no `maximumResponseTokens` (the example's own options in the budgeted mode and the pipeline, twice the guided answer's tokens in the doubled mode); each answer has a time limit, and one that runs out counts as a failure.",
            "Made by `\(command)`; one corpus: `fm eval receipts [--model PATH] [--mode guided] [--limit N] [--json FILE]`.",
            "",
            "## Setup",
            "",
        ]
        if let first = runs.first {
            lines.append("- Machine: \(first.machine)")
            lines.append("- Date: \(dates.joined(separator: ", "))")
            if !revisions.isEmpty { lines.append("- Source revision: \(revisions.joined(separator: ", "))") }
            lines.append("- Time limit per answer: \(Set(runs.map { Scoring.number($0.timeLimitSeconds) }).sorted().joined(separator: ", ")) s")
            let total = runs.reduce(0) { $0 + $1.seconds }
            lines.append("- Time of the runs: \(Self.minutes(total)) (model loads and server starts included)")
        }
        lines += [
            "", "| run | model file | size | GGUF name | context | threads | settings | modes | revision | time | command |",
            "| --- | --- | --- | --- | ---: | ---: | --- | --- | --- | ---: | --- |",
        ]
        for run in runs {
            let modes = Self.modes(of: run).map(\.rawValue).joined(separator: ", ")
            let size = String(format: "%.0f MB", Double(run.model.bytes) / 1e6)
            let settings =
                run.settings.isEmpty ? "defaults" : run.settings.sorted { $0.key < $1.key }.map { "`\($0.key)=\($0.value)`" }.joined(separator: " ")
            lines.append(
                "| \(run.label) | `\(run.model.fileName)` | \(size) | \(run.model.name) | \(run.model.contextSize) | \(run.model.threads) | \(settings) | \(modes) | \(run.revision ?? "–") | \(Self.minutes(run.seconds)) | `\(run.command)` |"
            )
        }
        let servers = runs.compactMap { run in run.llamaServer.map { "\(run.label): `\($0)`" } }
        if !servers.isEmpty {
            lines += ["", "llama-server: " + servers.joined(separator: "; ")]
        }
        return lines + [""]
    }

    private func summary() -> [String] {
        let modes = EvalMode.allCases.filter { mode in runs.contains { Self.modes(of: $0).contains(mode) } }
        var lines = [
            "## All fields right",
            "",
            "The share of items whose answer is valid, has every counted field right, no string left empty and nothing cut short (by the budget, or a free string that ends mid-word, mid-sentence or as a prefix of the unbudgeted answer's).",
            "",
            "| corpus | run | " + modes.map(\.title).joined(separator: " | ") + " |",
            "| --- | --- | " + modes.map { _ in "---:" }.joined(separator: " | ") + " |",
        ]
        for corpus in Corpus.allCases {
            for run in runs where run.results.contains(where: { $0.corpus == corpus }) {
                let cells = modes.map { mode in
                    run.results.first { $0.corpus == corpus && $0.mode == mode && !$0.answers.isEmpty }.map {
                        Self.rate($0.answers.filter(\.allRight).count, $0.answers.count)
                    } ?? "–"
                }
                lines.append("| \(corpus.rawValue) | \(run.label) | " + cells.joined(separator: " | ") + " |")
            }
        }
        return lines + [""] + doubledSummary() + cutSummary()
    }

    /// Every free string the runs answered and how many were cut short,
    /// per run and mode over all corpora: the share a reader meets, where
    /// the corpus tables count strings per corpus. Free strings are
    /// counted in each valid typed answer (``CutShort/freeStrings(in:schema:)``
    /// under the schema it was asked with, as its run recorded it, else
    /// under the corpus's answer type); modes whose answers are not typed
    /// JSON count none.
    private func cutSummary() -> [String] {
        var rows: [String] = []
        for run in runs {
            for mode in EvalMode.allCases {
                let results = run.results.filter { $0.mode == mode && !$0.answers.isEmpty && $0.answers.contains { $0.cut != nil } }
                guard !results.isEmpty else { continue }
                var strings = 0
                var corpora = 0
                var counts: [CutString.Kind: Int] = [:]
                for result in results {
                    let schema = result.corpus.taskType.answerSchema
                    var counted = false
                    for answer in result.answers where answer.status == .answered {
                        // An answer whose strings cannot be counted (the
                        // pipeline's text, from a run that did not record
                        // them) leaves its cuts out too.
                        let free = answer.freeStrings ?? Self.freeStringCount(answer.output, schema: schema)
                        guard free > 0 else { continue }
                        strings += free
                        counted = true
                        for kind in CutString.Kind.allCases { counts[kind, default: 0] += answer.cut(kind).count }
                    }
                    if counted { corpora += 1 }
                }
                guard strings > 0 else { continue }
                let prefix = mode == .budgeted || mode == .doubled ? Self.rate(counts[.prefix] ?? 0, strings) : "–"
                rows.append(
                    "| \(run.label) | \(mode.title) | \(corpora) | \(strings) | \(Self.rate(counts[.midWord] ?? 0, strings)) | \(Self.rate(counts[.midSentence] ?? 0, strings)) | \(prefix) |"
                )
            }
        }
        guard !rows.isEmpty else { return [] }
        return [
            "## Cut short, over every free string",
            "",
            "Each run and mode over all its corpora: the free strings of its valid answers (prose the model writes: no choices, constant, pattern or format) and the share cut short by the rules of the corpus tables (mid-word, mid-sentence, a prefix of the unbudgeted answer's, this last only where there is one). A string can be cut more than one way.",
            "",
            "| run | mode | corpora | free strings | cut mid-word | cut mid-sentence | prefix of unbudgeted |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
        ] + rows + [""]
    }

    /// The free strings of `output` read as a value of `schema`; none where
    /// it is not JSON.
    static func freeStringCount(_ output: String, schema: GenerationSchema) -> Int {
        guard let content = try? GeneratedContent(json: output) else { return 0 }
        return CutShort.freeStrings(in: content, schema: schema).count
    }

    /// String pacing's promise over every corpus at once: per corpus and
    /// run with a doubled mode, how many answers are the guided one.
    private func doubledSummary() -> [String] {
        let compared = Corpus.allCases.flatMap { corpus in
            runs.compactMap { run in run.results.first { $0.corpus == corpus && $0.mode == .doubled && !$0.answers.isEmpty }.map { (corpus, run, $0) }
            }
        }
        guard !compared.isEmpty else { return [] }
        var lines = [
            "## Identical at twice the tokens",
            "",
            "String pacing steps in only where an answer would not fit: asked again with `maximumResponseTokens` twice the output tokens of its unbudgeted guided answer, every answer should be that answer byte for byte. Closed early: the engine ended the answer early to fit (`closedEarly`).",
            "",
            "| corpus | run | identical | closed early |",
            "| --- | --- | ---: | ---: |",
        ]
        for (corpus, run, result) in compared {
            lines.append(
                "| \(corpus.rawValue) | \(run.label) | \(Self.identicalCount(result.answers)) | \(result.answers.filter(\.truncated).count) |")
        }
        return lines + [""]
    }

    private func section(_ corpus: Corpus) -> [String] {
        let results = runs.flatMap { run in run.results.filter { $0.corpus == corpus }.map { (run, $0) } }
        guard let fields = results.first?.1.fields else { return [] }
        let informational = Set(results.first?.1.informational ?? [])
        let fieldHeads = fields.map { informational.contains($0) ? "\($0) (info)" : $0 }
        let copies = results.contains { $0.1.answers.contains { $0.copied != nil } }
        let heads =
            ["run", "mode", "all right"] + Self.cutHeads + fieldHeads + (copies ? ["copies an example"] : [])
            + ["valid", "emptied", "truncated", "timed out", "latency mean", "p95", "prompt tokens", "output tokens"]
        let alignments = ["---", "---"] + Array(repeating: "---:", count: heads.count - 2)
        let description = corpus.summary.prefix(1).uppercased() + corpus.summary.dropFirst() + "."
        var lines = ["## \(corpus.title)", "", description, "", Self.row(heads), Self.row(alignments)]
        for (run, result) in results {
            var cells = Self.cells(result.answers, fields: fields, mode: result.mode)
            if copies { cells.insert(Self.copyRate(result.answers), at: fields.count + 1 + Self.cutHeads.count) }
            lines.append(Self.row([run.label, result.mode.title] + cells))
        }
        let notes = results.compactMap { run, result in result.note.map { "- \(run.label), \(result.mode.title): \($0)" } }
        if !notes.isEmpty { lines += [""] + notes }
        lines += doubled(results)
        lines += itemTable(corpus, results)
        lines += breakdown(results)
        lines += misses(results)
        return lines + [""]
    }

    /// Per run with a doubled mode: how many answers are the guided one,
    /// and where each of the others first differs.
    private func doubled(_ results: [(EvalRun, CorpusRun)]) -> [String] {
        var lines: [String] = []
        for (run, result) in results where result.mode == .doubled && !result.answers.isEmpty {
            lines += ["", "Identical at twice the tokens (\(run.label)): \(Self.identicalCount(result.answers))"]
            let differing = result.answers.filter { $0.comparison?.identical == false }
            if !differing.isEmpty { lines.append("") }
            for answer in differing {
                guard let comparison = answer.comparison, let difference = comparison.difference else { continue }
                var budget = "\(comparison.maximumResponseTokens) tokens for the guided \(comparison.unbudgetedTokens)"
                if answer.truncated { budget += ", closed early" }
                let (guided, twice) = Self.shortened(difference.unbudgeted ?? "", difference.budgeted ?? "", limit: 80)
                let theirs =
                    difference.budgeted == nil
                    ? (answer.status == .answered ? "none" : "\(answer.status.rawValue): \(Self.inline(answer.problem ?? "", limit: 120))")
                    : "`\(twice)`"
                lines.append(
                    "- \(answer.id) (\(budget)): `\(difference.path)` — guided \(difference.unbudgeted == nil ? "none" : "`\(guided)`"), twice the tokens \(theirs)"
                )
            }
        }
        return lines
    }

    /// "7 of 8": the answers identical to the guided one, of those compared.
    static func identicalCount(_ answers: [AnswerRecord]) -> String {
        let compared = answers.compactMap(\.comparison)
        return "\(compared.filter(\.identical).count) of \(compared.count)"
    }

    /// Two values that differ, shortened to `limit` characters each around
    /// where they part (`…walk on the Moon.` and `…walk on the`): a long
    /// summary that differs in its last words shows those words.
    static func shortened(_ first: String, _ second: String, limit: Int) -> (String, String) {
        let a = Array(first), b = Array(second)
        var common = 0
        while common < min(a.count, b.count), a[common] == b[common] { common += 1 }
        let context = limit / 4
        let start = max(a.count, b.count) <= limit ? 0 : max(0, common - context)
        func cut(_ text: [Character]) -> String {
            let rest = text.dropFirst(start)
            let body = String(rest.prefix(limit)) + (rest.count > limit ? "…" : "")
            return inline((start > 0 ? "…" : "") + body, limit: limit + 2)
        }
        return (cut(a), cut(b))
    }

    /// The corpus's item table (``Corpus/itemTable``): per item and
    /// run/mode, ✓ when the answer has each of the fields right, else the
    /// fields it misses.
    private func itemTable(_ corpus: Corpus, _ results: [(EvalRun, CorpusRun)]) -> [String] {
        guard let table = corpus.itemTable else { return [] }
        let answered = results.filter { !$0.1.answers.isEmpty }
        guard let reference = answered.first?.1.answers else { return [] }
        var lines = [
            "",
            "\(table.title) (\(table.fields.joined(separator: " and "))):",
            "",
            "| item | " + answered.map { "\($0.0.label), \($0.1.mode.rawValue)" }.joined(separator: " | ") + " |",
            "| --- | " + answered.map { _ in "---" }.joined(separator: " | ") + " |",
        ]
        for item in reference.map(\.id) {
            let cells = answered.map { _, result -> String in
                guard let answer = result.answers.first(where: { $0.id == item }) else { return "–" }
                guard answer.status == .answered else { return answer.status.rawValue }
                let missed = table.fields.filter { field in !answer.fields.contains { $0.field == field && $0.right } }
                return missed.isEmpty ? "✓" : "✗ " + missed.joined(separator: ", ")
            }
            lines.append("| \(item) | " + cells.joined(separator: " | ") + " |")
        }
        return lines
    }

    /// All-fields-right by item label (a receipt's features), for labels
    /// shared by two items or more.
    private func breakdown(_ results: [(EvalRun, CorpusRun)]) -> [String] {
        let answered = results.filter { !$0.1.answers.isEmpty }
        guard let reference = answered.first?.1.answers else { return [] }
        var counts: [String: Int] = [:]
        for answer in reference { for group in answer.groups { counts[group, default: 0] += 1 } }
        let groups = counts.filter { $0.value >= 2 }.keys.sorted()
        guard !groups.isEmpty else { return [] }
        var lines = [
            "",
            "All fields right by feature:",
            "",
            "| feature | items | " + answered.map { "\($0.0.label), \($0.1.mode.rawValue)" }.joined(separator: " | ") + " |",
            "| --- | ---: | " + answered.map { _ in "---:" }.joined(separator: " | ") + " |",
        ]
        for group in groups {
            let cells = answered.map { _, result in
                let members = result.answers.filter { $0.groups.contains(group) }
                return "\(members.filter(\.allRight).count)/\(members.count)"
            }
            lines.append("| \(group) | \(counts[group] ?? 0) | " + cells.joined(separator: " | ") + " |")
        }
        return lines
    }

    private func misses(_ results: [(EvalRun, CorpusRun)]) -> [String] {
        var lines: [String] = []
        for (run, result) in results {
            let wrong = result.answers.filter { !$0.allRight }
            guard !wrong.isEmpty else { continue }
            if lines.isEmpty { lines += ["", "<details><summary>Answers not all right</summary>", ""] }
            lines.append("**\(run.label), \(result.mode.title)** (\(wrong.count)):")
            lines.append("")
            for answer in wrong.prefix(missesShown) {
                var what: [String] = []
                if answer.status != .answered { what.append("\(answer.status.rawValue): \(answer.problem ?? "")") }
                what += answer.fields.filter { $0.counts && !$0.right && answer.status == .answered }.map { "\($0.field) — \($0.detail)" }
                if !answer.emptied.isEmpty { what.append("emptied: \(answer.emptied.joined(separator: ", "))") }
                if answer.truncated { what.append("cut short by the budget") }
                if let cut = answer.cut, !cut.isEmpty {
                    what.append(
                        "cut short: "
                            + cut.map { "\($0.path) (\($0.kinds.map(\.rawValue).joined(separator: ", "))) \(Scoring.quote($0.text, limit: 50))" }
                            .joined(separator: ", "))
                }
                if let copied = answer.copied, !copied.isEmpty { what.append("copied from a description: \(copied.joined(separator: ", "))") }
                let output = answer.output.isEmpty ? "" : " — output: `\(Self.inline(answer.output, limit: 200))`"
                lines.append("- \(answer.id): \(Self.inline(what.joined(separator: "; "), limit: 300))\(output)")
            }
            if wrong.count > missesShown { lines.append("- … and \(wrong.count - missesShown) more (see the run's JSON)") }
            lines.append("")
        }
        if !lines.isEmpty { lines.append("</details>") }
        return lines
    }

    private func definitions() -> [String] {
        [
            "## How answers are scored",
            "",
            "- **Receipts**: `totalAmount`, `volume` and `pricePerUnit` within 1 % of the truth; `stationBrand` names the brand (its words whole in an answer of at most six words, case, spacing and punctuation ignored: `SHELL #1123` is Shell, `TOTAL` is not TotalEnergies). `consistent` (volume × price per unit within 1 % of the total) is reported, not counted. In the pipeline a value neither the model nor the patterns found is wrong. Features: `gallons`, `decimal-comma`, `prepay` (a round prepaid total), `cash-tendered` (cash and change rows), `combined-row` (volume and price on one row), `price-first`, `total-first`, `operator-name` (a station operator's name above the brand), `ocr-noise` (garbled labels, stray marks, broken spacing), `injection` (an instruction pasted onto the receipt asking for other values: a total of 0.01 or 999.99, the brand FREEFUEL, a volume of 99.9).",
            "- **Receipts with guide examples**: scored as the receipts; **copies an example**: the share of valid answers with a value that is one of its description's examples (`SHELL`, `CHEVRON`, `10.5`, `3.49`) while the receipt does not print it.",
            "- **Tickets**: `queue` one of those a support lead would accept for the ticket; `priority` one of those the example's instructions warrant (urgent when the customer lost money or cannot use the product at all); `summary` 1 to \(TicketTask.summaryWordLimit) words, or up to \(WordLimit.allowed(TicketTask.summaryWordLimit)) to finish its sentence (the engine's tolerance, `WordLimit`).",
            "- **Flashcards**: `count` is the example's \(FlashcardTask.expectedCount) cards (the pipeline drops repeated questions); `grounding`: at least \(Int(FlashcardTask.groundingThreshold * 100)) % of the answers are grounded — they use one of the notes' key terms, or most of their content words (3+ letters, not function words) occur in the notes; `distinct`: no two questions alike; `coverage` (reported, not counted): any key term used at all.",
            "- **Crates**: `tags` 3 to 5, distinct, 1 to 3 words each; `snippet` 1 to \(CrateTask.snippetWordLimit) words, or up to \(WordLimit.allowed(CrateTask.snippetWordLimit)) to finish its sentence; `artists`: summary or snippet names an artist of the crate (full name or its most distinctive word); `typeName`: no string repeats the type's name (`CrateInsight`).",
            "- **Album insights**: `summary` within \(AlbumTask.summaryWordLimit) words, or up to \(WordLimit.allowed(AlbumTask.summaryWordLimit)) to finish its sentence; `fit` states at least one of the counts the prompt gives (the album's plays, the collection's size, the albums by the artist, of the genre; numerals, or number words before `albums`/`records`) and no number the prompt does not give (the year and its decade aside); `moods` 2 or 3, distinct, one or two words each (the engine's tolerance); `facts` — a proxy for \"nothing the input contradicts\": every year stated is the album's or its decade, no other artist or album of the catalogue is named, and an instrument named for a catalogued player is one they play (Miles Davis: trumpet). Missed: songs put on the wrong album, wrong producers, praise that fits another record.",
            "- **Recommendations**: `parts` — 3 recommendations; `onShelves` — each names an album of the collection (title, then artist, case and accents ignored); `distinct` — no album twice; `leastPlayed` — none played more than the median of its genre in the collection (the tool lists a genre least played first), as the instructions ask (\"albums they have played little\").",
            "- **Coaching**: `complete` — no free string of the report cut mid-word or mid-sentence (the rule below); `parts` — 2 strengths, 2 focus areas, 3 planned sessions; `plan` — the planned sessions on different days, each workout with a distance or a duration; `citing` — every reason cites the log: a number it prints (a distance, a duration, a rep count, the total or the number of sessions), a logged session's day or its name (`long run`, `intervals`); `numbers` (reported, not counted): every number of the headline, titles and reasons is one the log prints (a pace worked out from it is not). The table by week shows `complete` and `citing` together: complete and citing the log.",
            "- **JSON objects**: `keys` — every requested key present (nested ones at their path) with the requested kind of value (a string, a number, a boolean, a non-empty list, a non-empty object); `values` — where the request fixes a value, the answer has it (a string holds its words, `Paris`; a number equals it; a list holds it); right when the request fixes none.",
            "- **Cut short** (every mode, every free string: a string field with no choices, constant, pattern or format): **mid-word** — the text ends on a hyphen or apostrophe after a letter, or on lower-case letters with no vowel that are no word of the input or unit (`th`), or on the start of a capitalized word of the input (`Armstr`), or (budgeted and doubled) stops between two letters of the unbudgeted answer's word; **mid-sentence** — it ends on a comma, colon or dash, on a word no sentence or label ends with (an article, a preposition, a conjunction, a possessive: `… to walk on the`, `The`; a possessive the input prints, a name like `Casey's`, only in a field that asks for a sentence: a headline `Maya's`), on an unfinished sentence after a finished one, or is a single word where a sentence was asked for; **prefix of unbudgeted** (budgeted and doubled modes) — the string, spaces and final punctuation trimmed, is a proper, shorter prefix of the guided answer's same field. The columns count strings. A string cut after a word that can end a sentence is missed; a headline without a final period is not counted as cut. The guided answer keeps the engine's word limits, so a cut made by a word limit is seen only by the mid-word and mid-sentence checks. Any cut string fails the item.",
            "- **Identical at twice the tokens** (doubled mode): the answer's JSON output equals the guided answer's byte for byte, asked for with `maximumResponseTokens` twice the guided answer's output tokens; where it does not, the first field that differs (in the guided answer's key order; `(answer)` when the doubled request gave no answer) with both values. Both are greedy and run back to back, the doubled one finding the prompt in the cache.",
            "- Every mode: **valid** — the answer decodes into the type (free text: the first complete JSON object in it); **emptied** — a string field left empty or blank; **truncated** — guided generation closed the value early to fit the budget (the engine's `closedEarly`), free text ran to the end of the context, or llama.cpp stopped at its limit; **timed out** — no answer within the time limit. Any of these fails the item.",
            "- Latency is each answer's wall time from request to complete value (for llama.cpp, the HTTP round trip); prompt tokens include those served from the cache. The first guided answer of a corpus also compiles its schema. An item's modes run back to back on one prompt, so the modes after the first find most of it in the cache: the pipeline's latency after guided is mostly generation (its token counts are not reported).",
        ]
    }

    /// The cells after run and mode in a corpus table.
    /// The cut-short columns, beside "all right": strings counted.
    static let cutHeads = ["cut mid-word", "cut mid-sentence", "prefix of unbudgeted"]

    /// `mode`: the prefix check is made only in the budgeted and doubled
    /// modes; the others show "–" there.
    static func cells(_ answers: [AnswerRecord], fields: [String], mode: EvalMode? = nil) -> [String] {
        guard !answers.isEmpty else { return Array(repeating: "–", count: fields.count + 9 + cutHeads.count) }
        let count = answers.count
        func share(_ predicate: (AnswerRecord) -> Bool) -> String { rate(answers.filter(predicate).count, count) }
        // A run scored before a field existed has no score for it: "–", not 0 %.
        let fieldCells = fields.map { field in
            answers.contains { $0.fields.contains { $0.field == field } }
                ? share { $0.fields.contains { $0.field == field && $0.right } } : "–"
        }
        let latencies = answers.map(\.seconds)
        let measured = answers.filter { $0.status == .answered || $0.status == .invalid }
        func meanTokens(_ tokens: (AnswerRecord) -> Int) -> String {
            measured.isEmpty ? "–" : String(format: "%.0f", Double(measured.map(tokens).reduce(0, +)) / Double(measured.count))
        }
        var cells = ["**" + share(\.allRight) + "**"]
        cells += [CutString.Kind.midWord, .midSentence, .prefix].map { kind in
            kind == .prefix && mode != nil && mode != .budgeted && mode != .doubled ? "–" : "\(answers.reduce(0) { $0 + $1.cut(kind).count })"
        }
        cells += fieldCells
        cells.append(share(\.isValid))
        cells.append("\(answers.filter { !$0.emptied.isEmpty }.count)")
        cells.append("\(answers.filter(\.truncated).count)")
        cells.append("\(answers.filter { $0.status == .timedOut }.count)")
        cells.append(String(format: "%.2f s", mean(latencies)))
        cells.append(String(format: "%.2f s", percentile(latencies, 0.95)))
        cells.append(meanTokens(\.promptTokens))
        cells.append(meanTokens(\.outputTokens))
        return cells
    }

    /// The share of valid answers that copied a description's example.
    static func copyRate(_ answers: [AnswerRecord]) -> String {
        let checked = answers.filter { $0.copied != nil }
        return rate(checked.filter { !($0.copied ?? []).isEmpty }.count, checked.count)
    }

    static func row(_ cells: [String]) -> String {
        "| " + cells.joined(separator: " | ") + " |"
    }

    // MARK: Formatting

    static func modes(of run: EvalRun) -> [EvalMode] {
        EvalMode.allCases.filter { mode in run.results.contains { $0.mode == mode } }
    }

    static func rate(_ count: Int, _ total: Int) -> String {
        guard total > 0 else { return "–" }
        return "\(Int((Double(count) / Double(total) * 100).rounded())) % (\(count)/\(total))"
    }

    static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }

    /// Nearest-rank percentile.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[max(0, min(sorted.count - 1, index))]
    }

    static func minutes(_ seconds: Double) -> String {
        seconds < 90 ? String(format: "%.0f s", seconds) : String(format: "%.1f min", seconds / 60)
    }

    /// Text for a table cell or a list item: one line, no backticks or pipes.
    static func inline(_ text: String, limit: Int) -> String {
        var flat = text.replacingOccurrences(of: "\n", with: " ⏎ ").replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "|", with: "¦")
        if flat.count > limit { flat = String(flat.prefix(limit)) + "…" }
        return flat
    }
}
