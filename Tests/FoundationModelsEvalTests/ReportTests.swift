import Foundation
import Testing

@testable import FoundationModelsEval

/// EVAL.md from runs (no model): the tables say what the answers were.
@Suite("Eval report")
struct ReportTests {
    static func answer(_ id: String, right: Bool, status: AnswerRecord.Status = .answered, seconds: Double, groups: [String] = []) -> AnswerRecord {
        AnswerRecord(
            id: id, status: status, problem: status == .answered ? nil : "no answer within 60 s", output: "{}",
            fields: ReceiptTask.fields.map {
                FieldScore($0, right || $0 == "stationBrand", right ? "" : "expected 45, got 1.07", counts: $0 != "consistent")
            },
            emptied: [], truncated: false, seconds: seconds, promptTokens: 300, cachedPromptTokens: 100, outputTokens: 40, groups: groups
        )
    }

    static func run(label: String) -> EvalRun {
        let model = ModelDescription(path: "/m/model.gguf", fileName: "model.gguf", bytes: 491_400_064, name: "Qwen", contextSize: 4096, threads: 2)
        let guided = CorpusRun(
            corpus: .receipts, mode: .guided, fields: ReceiptTask.fields, informational: ["consistent"],
            answers: [
                answer("receipt-01", right: true, seconds: 2, groups: ["gallons", "prepay"]),
                answer("receipt-02", right: true, seconds: 4, groups: ["gallons"]),
                answer("receipt-03", right: false, seconds: 3, groups: ["decimal-comma"]),
                answer("receipt-04", right: false, status: .timedOut, seconds: 60, groups: ["decimal-comma"]),
            ], seconds: 69)
        let grammar = CorpusRun(
            corpus: .receipts, mode: .grammar, fields: ReceiptTask.fields, informational: ["consistent"],
            answers: [], seconds: 0, note: "LLAMA_SERVER is not set")
        return EvalRun(
            label: label, model: model, machine: "test machine", date: "2026-11-23T12:00:00Z", command: "fm eval receipts",
            timeLimitSeconds: 60, settings: ["STRING_PACING": "0"], llamaServer: nil, results: [guided, grammar], seconds: 75)
    }

    @Test func tablesCountTheAnswers() {
        let markdown = EvalReport(runs: [Self.run(label: "qwen")], command: "make eval").markdown()
        #expect(markdown.contains("| receipts | qwen | 50 % (2/4) | – |"), "summary row")
        #expect(markdown.contains("| run | mode | all right | cut mid-word | cut mid-sentence | prefix of unbudgeted | totalAmount |"))
        #expect(
            markdown.contains(
                "| qwen | guided (ours) | **50 % (2/4)** | 0 | 0 | – | 50 % (2/4) | 50 % (2/4) | 50 % (2/4) | 100 % (4/4) | 50 % (2/4) | 75 % (3/4) | 0 | 0 | 1 | 17.25 s | 60.00 s | 300 | 40 |"
            ))
        #expect(markdown.contains("consistent (info)"))
        #expect(markdown.contains("| 4096 | 2 | `STRING_PACING=0` | guided, grammar |"))
        #expect(markdown.contains("| decimal-comma | 2 | 0/2 |") && markdown.contains("| gallons | 2 | 2/2 |"))
        #expect(!markdown.contains("| prepay |"), "a feature of one item gets no row")
        #expect(markdown.contains("- qwen, llama.cpp JSON-schema grammar: LLAMA_SERVER is not set"))
        #expect(markdown.contains("- receipt-04: timed-out: no answer within 60 s"))
        #expect(markdown.contains("- receipt-03: totalAmount — expected 45, got 1.07"))
    }

    @Test func copiesAreCountedWhereChecked() {
        var run = Self.run(label: "qwen")
        run.results = [
            CorpusRun(
                corpus: .receiptsGuideExamples, mode: .guided, fields: ReceiptTask.fields, informational: ["consistent"],
                answers: [
                    {
                        var a = Self.answer("receipt-01", right: true, seconds: 2); a.copied = []; return a
                    }(),
                    {
                        var a = Self.answer("receipt-02", right: false, seconds: 2); a.copied = ["stationBrand: CHEVRON"]; return a
                    }(),
                ], seconds: 4)
        ]
        let markdown = EvalReport(runs: [run], command: "make eval").markdown()
        #expect(markdown.contains("## Receipts with guide examples"))
        #expect(markdown.contains("| copies an example |"))
        #expect(markdown.contains("| 50 % (1/2) | 100 % (2/2) | 50 % (1/2) | 50 % (1/2) | 100 % (2/2) |"), "copy rate after the fields")
        #expect(markdown.contains("copied from a description: stationBrand: CHEVRON"))
        #expect(!EvalReport(runs: [Self.run(label: "qwen")], command: "make eval").markdown().contains("| copies an example |"))
    }

    @Test func cutStringsAreCountedBesideAllRightAndListed() throws {
        var run = Self.run(label: "qwen")
        var cut = Self.answer("receipt-01", right: true, seconds: 2)
        cut.cut = [
            CutString(path: "stationBrand", kinds: [.midSentence, .prefix], text: "The"),
            CutString(path: "note", kinds: [.midWord], text: "walk on th"),
        ]
        #expect(!cut.allRight, "a cut string fails the answer")
        let whole = Self.answer("receipt-02", right: true, seconds: 2)
        run.results = [
            CorpusRun(
                corpus: .receipts, mode: .budgeted, fields: ReceiptTask.fields, informational: ["consistent"], answers: [cut, whole], seconds: 4,
                note: "the example's options: greedy, 120 tokens")
        ]
        let markdown = EvalReport(runs: [run], command: "make eval").markdown()
        #expect(markdown.contains("| qwen | guided, the example's options | **50 % (1/2)** | 1 | 1 | 1 | 100 % (2/2) |"), "\(markdown)")
        #expect(markdown.contains("cut short: stationBrand (mid-sentence, prefix) \"The\", note (mid-word) \"walk on th\""))
        #expect(markdown.contains("- qwen, guided, the example's options: the example's options: greedy, 120 tokens"))
        // A run written before the check reads as having no cut strings.
        var object = try #require(try JSONSerialization.jsonObject(with: run.encoded()) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        object["results"] = try results.map { result in
            var result = result
            result["answers"] = try #require(result["answers"] as? [[String: Any]]).map { answer in
                var answer = answer
                answer.removeValue(forKey: "cut")
                return answer
            }
            return result
        }
        let decoded = try EvalRun.decode(JSONSerialization.data(withJSONObject: object))
        #expect(decoded.results[0].answers.allSatisfy { $0.cut == nil })
        #expect(decoded.results[0].answers[1].allRight)
    }

    @Test func doubledAnswersAreCountedIdenticalAndTheOthersListed() {
        var run = Self.run(label: "qwen")
        var same = Self.answer("receipt-01", right: true, seconds: 2)
        same.comparison = BudgetComparison(maximumResponseTokens: 80, unbudgetedTokens: 40, difference: nil)
        var paced = Self.answer("receipt-02", right: true, seconds: 2)
        paced.truncated = true
        paced.comparison = BudgetComparison(
            maximumResponseTokens: 80, unbudgetedTokens: 40,
            difference: OutputDifference(
                path: "stationBrand", unbudgeted: #""Shell Station Downtown""#, budgeted: #""Shell""#))
        var failed = Self.answer("receipt-03", right: false, status: .failed, seconds: 1)
        failed.problem = "the response reached its limit of 60 tokens"
        failed.comparison = BudgetComparison(
            maximumResponseTokens: 60, unbudgetedTokens: 30,
            difference: OutputDifference(
                path: "(answer)", unbudgeted: #"{"stationBrand":"Shell"}"#, budgeted: nil))
        run.results.append(
            CorpusRun(
                corpus: .receipts, mode: .doubled, fields: ReceiptTask.fields, informational: ["consistent"],
                answers: [same, paced, failed], seconds: 5, note: "greedy, twice the guided answer's output tokens"))
        let markdown = EvalReport(runs: [run], command: "make eval").markdown()
        #expect(markdown.contains("Identical at twice the tokens (qwen): 1 of 3"), "\(markdown)")
        #expect(
            markdown.contains(
                #"- receipt-02 (80 tokens for the guided 40, closed early): `stationBrand` — guided `"Shell Station Downtown"`, twice the tokens `"Shell"`"#
            ))
        #expect(
            markdown.contains(
                #"- receipt-03 (60 tokens for the guided 30): `(answer)` — guided `{"stationBrand":"Shell"}`, twice the tokens failed: the response reached its limit of 60 tokens"#
            ))
        #expect(!markdown.contains("- receipt-01 (80 tokens"), "an identical answer is not listed")
        // Across corpora, and in the tables beside the other modes (the prefix check is made).
        #expect(markdown.contains("## Identical at twice the tokens") && markdown.contains("| receipts | qwen | 1 of 3 | 1 |"))
        #expect(markdown.contains("| receipts | qwen | 50 % (2/4) | 33 % (1/3) | – |"), "summary: guided, doubled, grammar")
        #expect(markdown.contains("| qwen | guided, twice the tokens | **33 % (1/3)** | 0 | 0 | 0 |"))
        #expect(markdown.contains("- qwen, guided, twice the tokens: greedy, twice the guided answer's output tokens"))
        let without = EvalReport(runs: [Self.run(label: "qwen")], command: "make eval").markdown()
        #expect(
            !without.contains("## Identical at twice the tokens") && !without.contains("Identical at twice the tokens (qwen)"),
            "no doubled run, no count")
    }

    @Test func differingValuesAreShortenedWhereTheyPart() {
        let opening = String(repeating: "word ", count: 30)
        let (whole, cut) = EvalReport.shortened(opening + "walk on the Moon.", opening + "walk on the", limit: 40)
        #expect(whole == "…alk on the Moon." && cut == "…alk on the", "the words where they part, not the common opening")
        let (early, other) = EvalReport.shortened("A " + opening, "B " + opening, limit: 40)
        #expect(early.hasPrefix("A word") && early.hasSuffix("…") && early.count == 41)
        #expect(other.hasPrefix("B word"))
        #expect(EvalReport.shortened(#""a|b""#, #""a""#, limit: 40) == (#""a¦b""#, #""a""#), "short values whole, made safe for a table")
    }

    /// The share of free strings cut short, per run and mode over every
    /// corpus: counted in the answers' own JSON under the corpus's type.
    @Test func freeStringsAndTheirCutsAreCountedOverAllCorpora() {
        func card(_ id: String, _ answers: [String], cut: [CutString]) -> AnswerRecord {
            var answer = Self.answer(id, right: true, seconds: 2)
            let cards = answers.map { #"{"question":"Q?","answer":"\#($0)"}"# }.joined(separator: ",")
            answer.output = #"{"cards":[\#(cards)]}"#
            answer.cut = cut
            return answer
        }
        let cutOne = CutString(path: "cards[1].answer", kinds: [.midSentence], text: "Neil Armstrong was the first person to walk on the")
        var run = Self.run(label: "qwen")
        run.results = [
            CorpusRun(
                corpus: .flashcards, mode: .budgeted, fields: FlashcardTask.fields, informational: [],
                answers: [
                    card("notes-01", ["July 1969.", "Neil Armstrong was the first person to walk on the"], cut: [cutOne]),
                    card("notes-02", ["Yes."], cut: []),
                ],
                seconds: 4),
            CorpusRun(
                corpus: .flashcards, mode: .guided, fields: FlashcardTask.fields, informational: [],
                answers: [card("notes-01", ["July 1969.", "Neil Armstrong was the first person to walk on the Moon."], cut: [])], seconds: 2),
        ]
        let markdown = EvalReport(runs: [run], command: "make eval").markdown()
        #expect(markdown.contains("## Cut short, over every free string"))
        // A card's answer is free, its question (a pattern) is not: 3 free strings budgeted, 2 guided.
        #expect(markdown.contains("| qwen | guided, the example's options | 1 | 3 | 0 % (0/3) | 33 % (1/3) | 0 % (0/3) |"), "\(markdown)")
        #expect(markdown.contains("| qwen | guided (ours) | 1 | 2 | 0 % (0/2) | 0 % (0/2) | – |"))
        #expect(EvalReport.freeStringCount("not JSON", schema: FlashcardTask.answerSchema) == 0)
    }

    /// The free strings a run recorded for an answer (under the schema it
    /// was asked with) are the ones counted: the recommendations' titles
    /// and artists are choices of the item's schema, free strings of the
    /// type's, which counts an answer from a run made before.
    @Test func theFreeStringsARunRecordedAreCounted() {
        var run = Self.run(label: "qwen")
        let output =
            #"[{"title":"Moanin'","artist":"Art Blakey","reason":"Rarely played."},{"title":"A","artist":"B","reason":"C."},{"title":"D","artist":"E","reason":"F."}]"#
        var recorded = AnswerRecord(
            id: "shelves-01", status: .answered, problem: nil, output: output, fields: [], emptied: [], truncated: false, seconds: 1,
            promptTokens: 1, cachedPromptTokens: 0, outputTokens: 1, groups: [], cut: [])
        var older = recorded
        older.id = "shelves-02"
        recorded.freeStrings = 3
        // The pipeline's text, from a run that did not record its strings:
        // neither its strings nor its cut are counted, beside an answer
        // whose strings were recorded.
        var text = older
        text.output = "looked up [\"jazz\"] → \"Moanin'\" by Art Blakey"
        text.cut = [CutString(path: "[0].reason", kinds: [.midSentence], text: "Rarely")]
        run.results = [
            CorpusRun(
                corpus: .recommendations, mode: .guided, fields: RecommendationTask.fields, informational: [], answers: [recorded, older],
                seconds: 2),
            CorpusRun(
                corpus: .recommendations, mode: .pipeline, fields: RecommendationTask.fields, informational: [], answers: [text, recorded],
                seconds: 2),
        ]
        let markdown = EvalReport(runs: [run], command: "make eval").markdown()
        #expect(markdown.contains("| qwen | guided (ours) | 1 | 12 | 0 % (0/12) | 0 % (0/12) | – |"), "\(markdown)")
        #expect(markdown.contains("| qwen | the example's pipeline | 1 | 3 | 0 % (0/3) | 0 % (0/3) | – |"), "\(markdown)")
    }

    /// A run kept from before a field was scored (EVAL.md's runs come from
    /// several revisions) shows "–" for it, not 0 %.
    @Test func aFieldARunWasNotScoredOnIsShownAsADash() {
        var answer = Self.answer("week-01", right: true, seconds: 9)
        answer.fields = [FieldScore("complete", true)]
        let cells = EvalReport.cells([answer], fields: ["complete", "distinct"])
        // After "all right" and the three cut-short columns.
        #expect(Array(cells[4...5]) == ["100 % (1/1)", "–"], "\(cells)")
    }

    @Test func theCoachingWeeksAreListedCompleteAndCiting() {
        func week(_ id: String, complete: Bool, citing: Bool) -> AnswerRecord {
            var answer = Self.answer(id, right: true, seconds: 9)
            answer.fields = CoachingTask.fields.map { FieldScore($0, $0 == "complete" ? complete : $0 == "citing" ? citing : true) }
            return answer
        }
        var run = Self.run(label: "qwen")
        run.results = [
            CorpusRun(
                corpus: .coaching, mode: .guided, fields: CoachingTask.fields, informational: ["numbers"],
                answers: [
                    week("week-01", complete: true, citing: true), week("week-02", complete: false, citing: true),
                    week("week-03", complete: false, citing: false),
                ], seconds: 27)
        ]
        let markdown = EvalReport(runs: [run], command: "make eval").markdown()
        #expect(markdown.contains("Complete and citing the log, by week (complete and citing):"))
        #expect(
            markdown.contains("| week-01 | ✓ |") && markdown.contains("| week-02 | ✗ complete |")
                && markdown.contains("| week-03 | ✗ complete, citing |"))
        #expect(markdown.contains("| coaching | qwen | 33 % (1/3) |"))
    }

    @Test func runsOfOneLabelAreShownAsOne() {
        var other = Self.run(label: "qwen")
        other.results = [CorpusRun(corpus: .tickets, mode: .guided, fields: TicketTask.fields, informational: [], answers: [], seconds: 1)]
        other.command = "fm eval tickets"
        other.revision = "6c9c30a-modified"
        var first = Self.run(label: "qwen")
        first.revision = "6c9c30a"
        let report = EvalReport(runs: [first, other, Self.run(label: "small")], command: "make eval")
        #expect(report.runs.map(\.label) == ["qwen", "small"])
        #expect(report.runs[0].results.count == 3 && report.runs[0].seconds == 150)
        #expect(report.runs[0].command == "fm eval receipts; fm eval tickets")
        // Runs resumed across revisions say so, run by run and in the setup.
        #expect(report.runs[0].revision == "6c9c30a, 6c9c30a-modified" && report.runs[1].revision == nil)
        let markdown = report.markdown()
        #expect(markdown.contains("- Source revision: 6c9c30a, 6c9c30a-modified\n"))
        #expect(markdown.contains("| 6c9c30a, 6c9c30a-modified |") && markdown.contains("| – |"))
    }

    @Test func runsRoundTripThroughJSON() throws {
        let run = Self.run(label: "qwen")
        let decoded = try EvalRun.decode(try run.encoded())
        #expect(try decoded.encoded() == run.encoded())
        #expect(decoded.results[0].answers[3].status == .timedOut)
    }

    @Test func settingsAreTheEnginesSwitches() {
        let settings = EvalRun.settings(from: [
            "FOUNDATION_MODELS_MODEL": "/m.gguf", "FOUNDATION_MODELS_SMALL_MODEL": "/s.gguf", "FOUNDATION_MODELS_REPETITION": "0",
            "FOUNDATION_MODELS_THREADS": "2", "PATH": "/bin",
        ])
        #expect(settings == ["REPETITION": "0", "THREADS": "2"])
    }

    @Test func percentilesAreNearestRank() {
        #expect(EvalReport.percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95) == 10)
        #expect(EvalReport.percentile(Array(1...20).map(Double.init), 0.95) == 19)
        #expect(EvalReport.percentile([], 0.95) == 0)
    }
}
