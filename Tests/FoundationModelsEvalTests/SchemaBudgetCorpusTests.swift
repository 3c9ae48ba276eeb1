import Foundation
import FoundationModels
import TestSupport
import Testing

@testable import FoundationModelsEval

/// The default schema budget (``SchemaPromptDetail/standardTokenBudget``)
/// against the eval's corpora, on the default model's tokenizer: every
/// answer schema is described whole, or cut to first sentences (the
/// documented receipt), within the budget, which is what half the context
/// as the budget chose: the whole is chosen under the same 256-token limit
/// either way, and a brief one that fits the budget fits half the context.
/// So the budget costs the corpora nothing.
@Suite("The schema budget on the eval's corpora", .serialized, .tags(.model), .needs(.model))
struct SchemaBudgetCorpusTests {
    @Test func everyCorpusSchemaIsDescribedAsBeforeUnderTheDefaultBudget() async throws {
        let model = SystemLanguageModel.default
        try #require(model.isAvailable, "The default model is not installed; run `make setup`.")
        let budget = SchemaPromptDetail.standardTokenBudget
        func answerSchema<T: EvalTask>(_ task: T.Type) -> GenerationSchema { T.answerSchema }
        var sizes: [String] = []
        for corpus in Corpus.allCases {
            let schema = answerSchema(corpus.taskType)
            let sent = try await model.schemaPromptReport(for: schema)
            #expect(sent.budget == budget)
            #expect(sent.detail == nil || sent.detail == .brief, "\(corpus): \(String(describing: sent.detail))")
            #expect(sent.tokens <= budget && sent.wholeTokens < budget, "\(corpus): \(sent.tokens), whole \(sent.wholeTokens)")
            if sent.detail == nil { #expect(sent.text == schema.promptDescription(style: .fieldLines)) }
            sizes.append("\(corpus): \(sent.tokens) sent (\(sent.detail?.rawValue ?? "whole")), \(sent.wholeTokens) whole")
        }
        print("schema descriptions on the default model:\n" + sizes.joined(separator: "\n"))
    }
}
