import Foundation
import FoundationModels
import FoundationModelsKit
import TestSupport
import Testing

@testable import ReceiptExtraction

/// Receipts from photos: a receipt rendered to an image by the eval's own
/// renderer (`scripts/receipt_photos.py`, in its pinned environment), read
/// by the real Tesseract, laid out in rows, and extracted on the real
/// model.
@Suite("Receipts from photos", .needs(.tesseract))
struct ReceiptPhotoTests {
    /// The Vienna sample (`SampleReceipts`): a prepaid total, volume and
    /// price on one row, a euro sign, a VAT row.
    static let receipt = SampleReceipts.all[0].text

    /// `rows` rendered at `noise` into a temporary PNG.
    static func photo(of rows: String, noise: String) throws -> URL {
        let python = try TestMachine.python(environment: "photo_env.sh")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-photo-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let rowsFile = folder.appendingPathComponent("rows.txt")
        try rows.write(to: rowsFile, atomically: true, encoding: .utf8)
        let image = folder.appendingPathComponent("receipt.png")
        let script = TestMachine.packageRoot.appendingPathComponent("scripts/receipt_photos.py").path
        let ran = try TestMachine.run([python, script, "--rows-file", rowsFile.path, "--noise", noise, "--output", image.path])
        try #require(ran.status == 0, "the renderer failed: \(ran.standardOutput)")
        return image
    }

    @Test func aPhotoComesBackAsRowsThatKeepEachLabelWithItsAmount() async throws {
        let image = try Self.photo(of: Self.receipt, noise: "clean")
        let rows = ReceiptExtractor.rows(of: try await TesseractOCR().words(in: image))
        let texts = rows.rows.map(\.text)
        #expect(rows.rows.count >= 9, "\(rows.text)")
        #expect(texts.first?.contains("OMV") == true, "the brand heads the rows: \(rows.text)")
        #expect(texts.contains { $0.contains("SALE") && $0.contains("20.00") }, "\(rows.text)")
        #expect(texts.contains { $0.contains("12.25") && $0.contains("1.633") }, "\(rows.text)")
        #expect(rows.rows.allSatisfy { $0.line.hasPrefix(String(format: "Row %02d [y=", $0.number)) })
        let numbers = ReceiptNumbers(parsing: texts.joined(separator: "\n"))
        #expect(numbers == ReceiptNumbers(volume: 12.25, pricePerUnit: 1.633, totalAmount: 20), "\(rows.text)")

        // A photo turned, blurred and grainy still keeps the total beside its label.
        let photographed = ReceiptExtractor.rows(of: try await TesseractOCR().words(in: try Self.photo(of: Self.receipt, noise: "light")))
        #expect(photographed.rows.contains { $0.text.contains("SALE") && $0.text.contains("20.00") }, "\(photographed.text)")
    }

    @Test(.tags(.model), .needs(.model)) func aPhotoIsExtractedOnTheModel() async throws {
        try #require(SystemLanguageModel.default.isAvailable, "no model: run `make setup` (FOUNDATION_MODELS_MODEL)")
        let image = try Self.photo(of: Self.receipt, noise: "clean")
        let extraction = try await ReceiptExtractor().extract(photo: image)
        #expect(!extraction.modelAnswers.isEmpty, "the model was asked")
        let receipt = extraction.receipt
        func close(_ value: ExtractedReceipt.Value?, _ expected: Double) -> Bool {
            value.map { abs($0.value - expected) <= 0.005 * expected } ?? false
        }
        #expect(close(receipt.volume, 12.25), "\(String(describing: receipt.volume))")
        #expect(close(receipt.pricePerUnit, 1.633), "\(String(describing: receipt.pricePerUnit))")
        #expect(close(receipt.totalAmount, 20), "\(String(describing: receipt.totalAmount))")
        #expect(receipt.isConsistent)
    }

    @Test func aFileThatIsNotAnImageIsAClearError() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-receipt-\(getpid()).png")
        try Data("TOTAL 45.00\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        await #expect {
            _ = try await ReceiptExtractor().extract(photo: file)
        } throws: { error in
            (error as? OCRError)?.kind == .engineFailed && "\(error)".contains("not-a-receipt")
        }
    }
}
