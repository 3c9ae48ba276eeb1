import Foundation
import FoundationModels
import TestSupport
import Testing

@testable import FoundationModelsEval

/// Two items of the tools corpus through the library on the system model:
/// the runner records the calls and the answers of every turn, scores them,
/// and the report shows the run. Whether the model gets them right is the
/// eval's measure, not asserted here (any installed model passes).
@Suite("Tools eval on the real model", .serialized, .tags(.model), .needs(.model))
struct ToolsModelTests {
    @Test func twoItemsThroughTheLibrary() async throws {
        let model = SystemLanguageModel.default
        try #require(model.isAvailable, "The default model is not installed; run `make setup`.")
        let items = ToolsCorpus.generate()
        // A single call and a multi-turn conversation.
        let chosen = [items.first { $0.kind == "single" }!, items.first { $0.kind == "multi-turn" }!]
        let run = await ToolsEval.run(items: chosen, model: model, options: ToolsOptions(label: "test", timeLimit: 120))
        #expect(run.records.map(\.id) == chosen.map(\.id))
        for (record, item) in zip(run.records, chosen) {
            if record.error == nil {
                #expect(record.turns.count == item.turns.count, "\(record)")
            } else {
                #expect(!record.score.allRight && record.score.problems.first == record.error)
            }
            #expect(record.score == ToolsScoring.score(item, turns: record.turns, failure: record.error))
            for call in record.turns.flatMap(\.calls) {
                #expect(ToolsEval.tools.contains { $0.name == call.tool }, "\(call.text)")
                #expect((try? JSONSerialization.jsonObject(with: Data(call.arguments.utf8))) != nil, "\(call.text)")
            }
        }
        let text = ToolsReport.markdown([run])
        #expect(text.contains("| test | library | 2 |"), "\(text)")
    }
}

/// A tools item the default model answers by explaining which function
/// does it and showing that call in a json fence, "Here's how you can do
/// it:" (greedy, the eval's tools and instructions): the engine runs the
/// call the answer introduces, and the answer gives the result's amount
/// instead of a recipe the reader cannot use.
@Suite("Tools eval on the default model", .serialized, .tags(.defaultModel), .needs(.defaultModel))
struct ToolsDefaultModelTests {
    @Test func aCallTheAnswerIntroducesRunsAndTheAnswerUsesItsResult() async throws {
        let model = SystemLanguageModel.default
        try #require(model.isAvailable, "The default model is not installed; run `make setup`.")
        let item = try #require(ToolsCorpus.generate().first { $0.id == "tools-06" })
        #expect(item.turns.map(\.prompt) == ["I have 120 GBP. What is that in CAD?"])
        let run = await ToolsEval.run(items: [item], model: model, options: ToolsOptions(label: "test", timeLimit: 300))
        let record = try #require(run.records.first)
        #expect(record.turns.first?.calls.map(\.tool) == ["convertCurrency"], "\(record)")
        #expect(record.score.allRight, "\(record.score.problems); answer: \(record.turns.first?.answer ?? "")")
        #expect(record.turns.first?.answer.contains("```") == false, "\(record)")
    }
}
