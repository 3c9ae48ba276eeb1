import Foundation
import FoundationModels
import FoundationModelsEval
import TestSupport
import Testing

@testable import ReceiptExtraction

/// The extractor on the real default model (`make test` runs suites named
/// *QualityTests with it): the sample receipts come out right and
/// consistent, the pasted instruction in one of them notwithstanding, as
/// the eval's `ReceiptTask` judges a receipt, and the brand the model wrote
/// is whole (`CutShort`).
@Suite("Receipt extraction on the default model", .serialized, .tags(.defaultModel), .needs(.defaultModel))
struct ReceiptQualityTests {
    @Test(arguments: SampleReceipts.all.indices)
    func theSampleReceiptsAreReadRight(index: Int) async throws {
        try #require(SystemLanguageModel.default.isAvailable, "no model: run `make setup` (FOUNDATION_MODELS_MODEL)")
        let (name, text) = SampleReceipts.all[index]
        let expected = SampleReceipts.expected[index]
        let extraction = try await ReceiptExtractor().extract(text)
        let receipt = extraction.receipt
        #expect(!extraction.modelAnswers.isEmpty, "the model was not asked")
        #expect(receipt.stationBrand?.localizedCaseInsensitiveContains(expected.stationBrand) == true, "\(String(describing: receipt.stationBrand))")
        #expect(receipt.volume?.value == expected.volume)
        #expect(receipt.pricePerUnit?.value == expected.pricePerUnit)
        #expect(receipt.totalAmount?.value == expected.totalAmount)
        #expect(receipt.isConsistent)

        // Every field the eval counts is right (numbers within 1 %, the
        // brand's words in a short answer).
        let item = try ReceiptItem(name: name, text: text, printed: expected)
        for score in ReceiptTask.score(extraction.answer, for: item) where !ReceiptTask.informational.contains(score.field) {
            #expect(score.right, "\(score.field): \(score.detail)")
        }
        // The brand each model answer wrote, whole (mid-word or mid-sentence).
        let input = ReceiptTask.instructions(for: item) + "\n" + ReceiptTask.prompt(for: item)
        for answer in extraction.modelAnswers {
            let cuts = CutShort.cuts(in: answer.generatedContent, schema: FuelReceipt.generationSchema, input: input)
            #expect(cuts.isEmpty, "cut short: \(cuts.map { "\($0.path) \"\($0.text)\"" })")
        }
    }
}
