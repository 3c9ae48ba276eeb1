import Foundation
import FoundationModels
import Testing

@testable import FoundationModelsEval

/// The budgeted mode asks with the examples' own options, read from the
/// features (no model is loaded to build them).
@Suite("Eval example options")
struct ExampleOptionsTests {
    func options<T: EvalTask>(_ task: T.Type) -> GenerationOptions? {
        T.exampleOptions(model: .default)
    }

    @Test func eachExamplesOptionsAreReadFromItsFeature() {
        // The budgets the examples ship (their sources say why each).
        let expected: [Corpus: Int] = [
            .receipts: 120, .receiptsGuideExamples: 120, .receiptsDocumented: 120, .receiptsPhotoLight: 120, .receiptsPhotoHeavy: 120,
            .tickets: 80, .flashcards: 240, .crates: 320, .albums: 320, .recommendations: 320, .coaching: 400,
        ]
        for corpus in Corpus.allCases {
            let read = options(corpus.taskType)
            if let tokens = expected[corpus] {
                #expect(read?.maximumResponseTokens == tokens, "\(corpus): \(String(describing: read))")
                #expect(read?.samplingMode == .greedy, "\(corpus)")
            } else {
                #expect(read == nil, "\(corpus) is no example's")
            }
        }
    }

    @Test func optionsAreDescribedForTheReport() {
        #expect(EvalRunner.describe(GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 80)) == "greedy, 80 tokens")
        #expect(EvalRunner.describe(GenerationOptions()) == "no token limit")
    }

    @Test func aFeatureWithoutOptionsGivesNone() {
        struct Feature { let model = "x" }
        #expect(ExampleOptions.of(Feature()) == nil)
    }
}
