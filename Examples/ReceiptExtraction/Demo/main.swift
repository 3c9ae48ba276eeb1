import Foundation
import FoundationModels
import ReceiptExtraction
import TerminalSupport

// Fuel receipts read by the model and by patterns, checked against their
// arithmetic, merged; each value says where it came from.

func show(_ extraction: ReceiptExtraction) -> String {
    let receipt = extraction.receipt
    func value(_ value: ExtractedReceipt.Value?) -> String {
        value.map { "\(ReceiptExtractor.format($0.value)) (\($0.source.rawValue))" } ?? "?"
    }
    var text = "brand \(receipt.stationBrand ?? "?"), volume \(value(receipt.volume)) × price \(value(receipt.pricePerUnit)) = total \(value(receipt.totalAmount))"
    text += receipt.isConsistent ? ", adds up" : ", does not add up"
    if extraction.reprompted {
        text += "; re-prompted, " + (extraction.corrected.isEmpty ? "the first answer was kept" : "the correction gave " + extraction.corrected.joined(separator: " and "))
    }
    return text
}

await ExampleProgram.run {
    ExampleProgram.heading("Receipt extraction: \(SampleReceipts.all.count) fuel receipts")
    let extractor = ReceiptExtractor()
    if !SystemLanguageModel.default.isAvailable {
        ExampleProgram.note("no model: the patterns read the numbers alone")
    }
    for (name, text) in SampleReceipts.all {
        try await ExampleProgram.step(name, show: show) { try await extractor.extract(text) }
    }
}
