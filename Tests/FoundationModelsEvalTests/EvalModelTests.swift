import Foundation
import FoundationModels
import ReceiptExtraction
import TestSupport
import Testing

@testable import FoundationModelsEval

/// A couple of receipts on the real default model, in every mode (a real
/// llama-server on 127.0.0.1, started and stopped by the runner).
@Suite("Eval on the real model", .serialized, .tags(.model, .llamaServer), .needs(.model, .llamaServer))
struct EvalModelTests {
    @Test func theTypedTranscriptRendersAsASessionRendersIt() async throws {
        let model = SystemLanguageModel.default
        try #require(model.isAvailable, "The default model is not installed; run `make setup`.")
        let item = ReceiptCorpus.generate()[0]
        let session = LanguageModelSession(model: model, instructions: ReceiptTask.instructions)
        _ = try await session.respond(
            to: ReceiptTask.prompt(for: item), generating: FuelReceipt.self,
            options: GenerationOptions(samplingMode: .greedy))
        let asked = Transcript(entries: session.transcript.dropLast())
        let built = EvalRunner.typedTranscript(
            instructions: ReceiptTask.instructions, prompt: ReceiptTask.prompt(for: item),
            schema: FuelReceipt.generationSchema)
        let expected = try await model.renderedInput(for: asked)
        let rendered = try await model.renderedInput(for: built)
        #expect(rendered == expected)
        #expect(rendered.text.contains(item.rows[0]) && rendered.text.contains("totalAmount"))
        // The free-text request of the same item renders to the same text.
        let turns = EvalRunner.turns(of: rendered)
        #expect(
            try await model.renderedInput(for: EvalRunner.plainTranscript(instructions: turns.instructions, prompt: turns.prompt)).text
                == rendered.text)
    }

    /// The model's tokenizer puts every eval type's whole description under
    /// the limit, and the documented receipt's over it: the session sends
    /// that one cut to first sentences, the others whole.
    @Test func onlyTheDocumentedReceiptIsDescribedBriefly() async throws {
        let model = SystemLanguageModel.default
        try #require(model.isAvailable, "The default model is not installed; run `make setup`.")
        func answerSchema<T: EvalTask>(_ task: T.Type) -> GenerationSchema { T.answerSchema }
        for corpus in Corpus.allCases {
            let schema = answerSchema(corpus.taskType)
            let rendered = try await model.renderedInput(for: EvalRunner.typedTranscript(instructions: "Answer.", prompt: "Go.", schema: schema)).text
            let whole = schema.promptDescription(detail: .full)
            if corpus == .receiptsDocumented {
                #expect(!rendered.contains(whole) && rendered.contains(schema.promptDescription(detail: .brief)), "\(rendered)")
                #expect(try await model.tokenCount(for: whole) > GenerationSchema.wholeDescriptionTokenLimit)
            } else {
                #expect(rendered.contains(whole), "\(corpus): \(rendered)")
            }
        }
    }

    @Test func twoReceiptsInEveryMode() async throws {
        let model = SystemLanguageModel.default
        try #require(model.isAvailable, "The default model is not installed; run `make setup`.")
        let server = try #require(TestMachine.llamaServer)
        var runner = EvalRunner(model: model, label: "test")
        runner.limit = 2
        runner.serverBinary = server
        runner.corporaDirectory = CorpusTests.committed
        let run = try await runner.run([.receipts])

        #expect(run.results.map(\.mode) == [.guided, .budgeted, .doubled, .free, .grammar, .pipeline])
        #expect(run.llamaServer?.contains("--host 127.0.0.1") == true)
        func answers(_ mode: EvalMode) throws -> [AnswerRecord] { try #require(run.results.first { $0.mode == mode }).answers }
        for result in run.results {
            if result.mode == .budgeted {
                #expect(result.note == "the example's options: greedy, 120 tokens")
            } else if result.mode == .doubled {
                #expect(result.note?.hasPrefix("greedy, `maximumResponseTokens` twice") == true, "\(result.note ?? "")")
            } else {
                #expect(result.note == nil, "\(result.mode): \(result.note ?? "")")
            }
            #expect(result.answers.allSatisfy { $0.status != .answered || $0.cut != nil }, "every answered answer's strings were checked")
            // The doubled mode asks only the items with a guided answer (checked below).
            if result.mode != .doubled {
                #expect(result.answers.map(\.id) == ["receipt-01", "receipt-02"])
            }
            #expect(result.answers.allSatisfy { $0.seconds > 0 && $0.fields.count == ReceiptTask.fields.count })
            if result.mode != .pipeline {
                #expect(result.answers.allSatisfy { $0.promptTokens > 100 || $0.status == .timedOut })
            }
        }
        // The pipeline is the example's extractor: its answers say where each value came from.
        for answer in try answers(.pipeline) {
            #expect(answer.status == .answered, "\(answer.id): \(answer.problem ?? "")")
            #expect(
                answer.output.contains("totalAmount") && ["(model)", "(patterns)", "(arithmetic)"].contains { answer.output.contains($0) },
                "\(answer.output)")
            #expect((1...2).contains(answer.requests ?? 0))
        }
        let guided = try answers(.guided)
        try Self.expectTwiceTheTokens(try answers(.doubled), guided: guided)
        // llama-server's grammar lets a number's digits run on: greedy decoding
        // of the small model did so for one receipt on one machine's CPU, and
        // such an answer is recorded as out of time, which the report counts.
        // Ours ends every answer.
        let grammar = try answers(.grammar).filter { answer in
            guard answer.status == .timedOut else { return true }
            #expect(answer.problem?.contains("no answer within") == true, "\(answer.problem ?? "")")
            return false
        }
        #expect(!grammar.isEmpty, "llama-server's grammar answered no receipt in time")
        for answer in guided + grammar {
            // Both enforce the schema: the answer decodes, keys in the type's order.
            #expect(answer.status == .answered, "\(answer.id): \(answer.problem ?? "")")
            guard case .structure(_, let keys) = try GeneratedContent(json: answer.output).kind else {
                Issue.record("\(answer.id) is not an object: \(answer.output)")
                continue
            }
            #expect(keys == ["stationBrand", "totalAmount", "volume", "pricePerUnit"])
        }
        // The same rendered prompt: the same number of prompt tokens.
        for theirs in grammar {
            let ours = try #require(guided.first { $0.id == theirs.id })
            #expect(abs(ours.promptTokens - theirs.promptTokens) <= 1, "\(ours.promptTokens) vs \(theirs.promptTokens)")
        }
        let markdown = EvalReport(runs: [run], command: "test").markdown()
        #expect(markdown.contains("| receipts | test | "))
        #expect(markdown.contains("Identical at twice the tokens (test): "))
    }

    /// The doubled mode asks after the guided answer whatever order the
    /// modes are given in, with twice that answer's output tokens, and
    /// (string pacing's promise) gets that answer back byte for byte.
    @Test func aTicketAtTwiceItsTokens() async throws {
        let model = SystemLanguageModel.default
        try #require(model.isAvailable, "The default model is not installed; run `make setup`.")
        var runner = EvalRunner(model: model, label: "test")
        runner.limit = 1
        runner.modes = [.doubled, .guided]
        runner.corporaDirectory = CorpusTests.committed
        let run = try await runner.run([.tickets])
        #expect(run.results.map(\.mode) == [.doubled, .guided])
        try Self.expectTwiceTheTokens(run.results[0].answers, guided: run.results[1].answers)
    }

    /// Each doubled answer was asked with twice its guided answer's output
    /// tokens and is that answer, byte for byte.
    static func expectTwiceTheTokens(_ doubled: [AnswerRecord], guided: [AnswerRecord]) throws {
        #expect(doubled.map(\.id) == guided.filter { $0.status == .answered }.map(\.id), "every item with a guided answer is asked again")
        for answer in doubled {
            let reference = try #require(guided.first { $0.id == answer.id })
            let comparison = try #require(answer.comparison, "\(answer.id) has no comparison")
            #expect(comparison.unbudgetedTokens == reference.outputTokens && comparison.maximumResponseTokens == 2 * reference.outputTokens)
            #expect(comparison.identical == (answer.output == reference.output))
            // Out of time on a loaded machine says nothing about pacing.
            guard answer.status != .timedOut else { continue }
            #expect(
                comparison.identical,
                "\(answer.id): \(comparison.difference.map { "\($0.path): \($0.unbudgeted ?? "none") vs \($0.budgeted ?? "none")" } ?? "") (\(answer.status.rawValue) \(answer.problem ?? ""))"
            )
            #expect(!answer.truncated, "\(answer.id): closed early with twice the tokens")
        }
    }

    /// The new corpora on the model: a week reported on with no budget and
    /// with the example's 400 tokens, and an object answered with
    /// `{"type": "object"}` (no example: no budgeted run).
    @Test func aWeekAndAnObjectGuidedAndBudgeted() async throws {
        let model = SystemLanguageModel.default
        try #require(model.isAvailable, "The default model is not installed; run `make setup`.")
        var runner = EvalRunner(model: model, label: "test")
        runner.limit = 1
        runner.modes = [.budgeted, .guided]
        runner.timeLimit = 120
        runner.corporaDirectory = CorpusTests.committed
        let run = try await runner.run([.coaching, .jsonObject])
        #expect(run.results.map { "\($0.corpus.rawValue) \($0.mode.rawValue)" } == ["coaching budgeted", "coaching guided", "json-object guided"])
        for result in run.results {
            let answer = try #require(result.answers.first)
            #expect(answer.status == .answered, "\(result.corpus) \(result.mode): \(answer.problem ?? "")")
            #expect(answer.cut != nil)
        }
        let object = try GeneratedContent(json: try #require(run.results.last?.answers.first?.output))
        guard case .structure = object.kind else {
            Issue.record("not an object: \(object.jsonString)")
            return
        }
    }
}
