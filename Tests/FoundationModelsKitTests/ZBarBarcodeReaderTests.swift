import Foundation
import Testing

@testable import FoundationModelsKit

/// zbar's `zbarimg` run through ``ZBarBarcodeReader`` (what `fm --tool
/// barcode` calls), on barcodes drawn here: an EAN-13 as a plain PBM, which
/// zbar reads with no image library beyond its own.
@Suite("zbar barcode reader")
struct ZBarBarcodeReaderTests {
    static let installed = ZBarBarcodeReader().isInstalled

    /// An EAN-13 symbol for the twelve digits `digits` (the check digit is
    /// computed), `module` pixels a bar, with a quiet zone, as a PBM file.
    static func ean13(_ digits: String, module: Int = 3) throws -> (file: URL, code: String) {
        let left = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011"]
        let even = ["0100111", "0110011", "0011011", "0100001", "0011101", "0111001", "0000101", "0010001", "0001001", "0010111"]
        let right = ["1110010", "1100110", "1101100", "1000010", "1011100", "1001110", "1010000", "1000100", "1001000", "1110100"]
        let parity = ["LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG", "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL"]
        var values = digits.compactMap(\.wholeNumberValue)
        let sum = values.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 1 ? 3 : 1) }
        values.append((10 - sum % 10) % 10)
        var bits = "101"
        for (index, kind) in parity[values[0]].enumerated() {
            bits += (kind == "L" ? left : even)[values[index + 1]]
        }
        bits += "01010"
        for value in values[7...] { bits += right[value] }
        bits += "101"
        let quiet = String(repeating: "0", count: 10 * module)
        let row = quiet + bits.map { String(repeating: $0, count: module) }.joined() + quiet
        let line = row.map(String.init).joined(separator: " ")
        let text = "P1\n\(row.count) 60\n" + Array(repeating: line, count: 60).joined(separator: "\n") + "\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ean13-\(UUID().uuidString).pbm")
        try Data(text.utf8).write(to: file)
        return (file, values.map(String.init).joined())
    }

    @Test(.enabled(if: installed, "needs zbar's zbarimg on PATH (`make setup` installs Debian's zbar-tools)"))
    func anEAN13IsReadWithItsSymbologyAndDigits() async throws {
        let (file, code) = try Self.ean13("590123412345")
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(code == "5901234123457")
        let codes = try await ZBarBarcodeReader().codes(in: file)
        #expect(codes == [ZBarBarcodeReader.Code(symbology: "EAN-13", value: code)])
    }

    @Test(.enabled(if: installed, "needs zbar's zbarimg on PATH (`make setup` installs Debian's zbar-tools)"))
    func anImageWithoutACodeHasNone() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("blank-\(UUID().uuidString).pbm")
        try Data(
            ("P1\n40 20\n" + Array(repeating: Array(repeating: "0", count: 40).joined(separator: " "), count: 20).joined(separator: "\n") + "\n").utf8
        )
        .write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try await ZBarBarcodeReader().codes(in: file).isEmpty)
    }

    @Test func aMissingReaderSaysWhatToInstall() async throws {
        let (file, _) = try Self.ean13("400638133393")
        defer { try? FileManager.default.removeItem(at: file) }
        let reader = ZBarBarcodeReader(configuration: .init(executable: "zbarimg-that-is-not-installed"))
        #expect(!reader.isInstalled)
        await #expect {
            _ = try await reader.codes(in: file)
        } throws: { error in
            (error as? OCRError)?.kind == .engineNotFound && "\(error)".contains("apt-get install zbar-tools")
        }
    }

    /// zbarimg's lines: one code a line, a QR code's further lines folded
    /// into its value.
    @Test func outputLinesBecomeCodes() {
        let codes = ZBarBarcodeReader.codes(fromOutput: "EAN-13:5901234123457\nQR-Code:first line\nsecond line\nCODE-128:A-1\n")
        #expect(
            codes == [
                .init(symbology: "EAN-13", value: "5901234123457"),
                .init(symbology: "QR-Code", value: "first line\nsecond line"),
                .init(symbology: "CODE-128", value: "A-1"),
            ])
    }
}
