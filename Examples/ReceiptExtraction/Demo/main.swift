import Foundation
import FoundationModels
import FoundationModelsEval
import FoundationModelsKit
import ReceiptExtraction
import TerminalSupport

// Fuel receipts read by the model and by patterns, checked against their
// arithmetic, merged; each value says where it came from. Photos and text
// files named on the command line are read instead of the samples:
// `swift run receipt-extraction photo.png`. A sample's values are marked
// right or wrong against what it prints, as the eval scores a receipt
// (ReceiptTask: each number within 1 %, the brand named).

func show(_ extraction: ReceiptExtraction) -> String {
    let receipt = extraction.receipt
    func value(_ value: ExtractedReceipt.Value?) -> String {
        value.map { "\(ReceiptExtractor.format($0.value)) (\($0.source.rawValue))" } ?? "?"
    }
    var text =
        "brand \(receipt.stationBrand ?? "?"), volume \(value(receipt.volume)) × price \(value(receipt.pricePerUnit)) = total \(value(receipt.totalAmount))"
    text += receipt.isConsistent ? ", adds up" : ", does not add up"
    if extraction.reprompted {
        text +=
            "; re-prompted, "
            + (extraction.corrected.isEmpty ? "the first answer was kept" : "the correction gave " + extraction.corrected.joined(separator: " and "))
    }
    return text
}

/// The photos and text files named on the command line: a photo (PNG,
/// JPEG, TIFF) is read by Tesseract and laid out in rows first, a text
/// file is taken as OCR rows, one per line.
func extractFiles(_ paths: [String], with extractor: ReceiptExtractor) async throws {
    let photoExtensions: Set<String> = ["png", "jpg", "jpeg", "tif", "tiff", "bmp", "gif", "webp", "pnm"]
    for path in paths {
        let url = URL(fileURLWithPath: path)
        if photoExtensions.contains(url.pathExtension.lowercased()) {
            let rows = try await ExampleProgram.step("\(url.lastPathComponent): OCR", show: { "\($0.rows.count) rows" }) {
                ReceiptExtractor.rows(of: try await TesseractOCR().words(in: url))
            }
            for row in rows.rows { ExampleProgram.note(row.line) }
            try await ExampleProgram.step(url.lastPathComponent, show: show) { try await extractor.extract(rows: rows) }
        } else {
            let text: String
            do {
                text = try String(contentsOf: url, encoding: .utf8)
            } catch {
                throw ReceiptFileError(description: "cannot read \(path) as UTF-8 text: \(error.localizedDescription)")
            }
            try await ExampleProgram.step(url.lastPathComponent, show: show) { try await extractor.extract(text) }
        }
    }
}

struct ReceiptFileError: Error, CustomStringConvertible {
    var description: String
}

await ExampleProgram.run {
    let paths = Array(CommandLine.arguments.dropFirst())
    let extractor = ReceiptExtractor()
    ExampleProgram.heading(
        paths.isEmpty ? "Receipt extraction: \(SampleReceipts.all.count) fuel receipts" : "Receipt extraction: \(paths.count) file(s)")
    if !SystemLanguageModel.default.isAvailable {
        ExampleProgram.note("no model: the patterns read the numbers alone")
    }
    if !paths.isEmpty {
        try await extractFiles(paths, with: extractor)
        return
    }
    for ((name, text), printed) in zip(SampleReceipts.all, SampleReceipts.expected) {
        let extraction = try await ExampleProgram.step(name, show: show) { try await extractor.extract(text) }
        let item = try ReceiptItem(name: name, text: text, printed: printed)
        var verdict = Verdict(extraction.answer, as: ReceiptTask.self, for: item, success: "right")
        // The brand shown may be the patterns' (the model's can be dropped):
        // the model's own answers are the free strings it wrote.
        let input = ReceiptTask.instructions(for: item) + "\n" + ReceiptTask.prompt(for: item)
        verdict.cuts = extraction.modelAnswers.flatMap { CutShort.cuts(in: $0.generatedContent, schema: FuelReceipt.generationSchema, input: input) }
        verdict.print()
    }
}
