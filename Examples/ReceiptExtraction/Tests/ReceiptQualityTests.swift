import Foundation
import FoundationModels
import Testing
import TestSupport
@testable import ReceiptExtraction

/// The extractor on the real default model (`make test` runs suites named
/// *QualityTests with it): the sample receipts come out right and
/// consistent, the pasted instruction in one of them notwithstanding.
@Suite("Receipt extraction on the default model", .serialized, .tags(.defaultModel), .needs(.defaultModel))
struct ReceiptQualityTests {
    @Test(arguments: [
        (0, "OMV", 12.25, 1.633, 20.0),
        (1, "Texaco", 13.415, 5.498, 73.76),
        (2, "Q8", 39.3, 2.032, 79.86),
    ])
    func theSampleReceiptsAreReadRight(index: Int, brand: String, volume: Double, price: Double, total: Double) async throws {
        try #require(SystemLanguageModel.default.isAvailable, "no model: run `make setup` (FOUNDATION_MODELS_MODEL)")
        let extraction = try await ReceiptExtractor().extract(SampleReceipts.all[index].text)
        let receipt = extraction.receipt
        #expect(!extraction.modelAnswers.isEmpty, "the model was not asked")
        #expect(receipt.stationBrand?.localizedCaseInsensitiveContains(brand) == true, "\(String(describing: receipt.stationBrand))")
        #expect(receipt.volume?.value == volume)
        #expect(receipt.pricePerUnit?.value == price)
        #expect(receipt.totalAmount?.value == total)
        #expect(receipt.isConsistent)
    }
}
