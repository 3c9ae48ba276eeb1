import Foundation
import FoundationModelsKit
import Testing

/// Tesseract's TSV read into words, and the errors of a photo that cannot
/// be read, without Tesseract (its output is written by hand here; the
/// receipt example's tests run the real command on rendered photos).
@Suite("Tesseract's output")
struct TesseractOCRTests {
    /// Two rows of a 1000 × 2000 image as Tesseract 5.3 writes them: the
    /// page, block, paragraph and line rows carry no text and a confidence
    /// of -1; a word row has both.
    static let tsv = """
        level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext
        1\t1\t0\t0\t0\t0\t0\t0\t1000\t2000\t-1\t
        2\t1\t1\t0\t0\t0\t100\t200\t800\t120\t-1\t
        3\t1\t1\t1\t0\t0\t100\t200\t800\t120\t-1\t
        4\t1\t1\t1\t1\t0\t100\t200\t800\t40\t-1\t
        5\t1\t1\t1\t1\t1\t100\t200\t120\t40\t96.5\tTOTAL
        5\t1\t1\t1\t1\t2\t780\t204\t120\t40\t91.25\t45.00
        4\t1\t1\t1\t2\t0\t100\t280\t500\t40\t-1\t
        5\t1\t1\t1\t2\t1\t100\t280\t240\t40\t88\tVOLUME
        5\t1\t1\t1\t2\t2\t360\t280\t40\t40\t12\t\u{20}
        5\t1\t1\t1\t2\t3\t360\t282\t180\t40\t90\t12.500

        """

    @Test func wordsComeWithNormalisedBoxesAndConfidences() throws {
        let words = try TesseractOCR.words(fromTSV: Self.tsv)
        #expect(words.map(\.text) == ["TOTAL", "45.00", "VOLUME", "12.500"], "a blank word is left out")
        let total = try #require(words.first)
        #expect(total.box == OCRWord.Box(x: 0.1, y: 0.1, width: 0.12, height: 0.02))
        #expect(total.confidence == 0.965)
        #expect(total.alternates.isEmpty)
        let rows = OCRRows(words)
        #expect(rows.rows.map(\.text) == ["TOTAL        45.00", "VOLUME 12.500"], "\(rows.text)")
    }

    @Test(arguments: [
        ("", "empty"),
        ("1\t1\t0\t0\t0\t0\t0\t0\t10\t10\t-1\t\n", "header"),
        ("level\tpage_num\n5\t1\t1\n", "cannot be read"),
        ("level\ttext\n5\t1\t1\t1\t1\t1\t0\t0\t10\t10\t90\tWORD\n", "before a page"),
        ("level\ttext\n1\t1\t0\t0\t0\t0\t0\t0\t0\t0\t-1\t\n5\t1\t1\t1\t1\t1\t0\t0\t10\t10\t90\tWORD\n", "before a page"),
    ])
    func malformedOutputIsAnErrorThatSaysWhy(tsv: String, reason: String) {
        #expect {
            _ = try TesseractOCR.words(fromTSV: tsv)
        } throws: { error in
            guard let error = error as? OCRError else { return false }
            return error.kind == .malformedOutput && error.description.contains(reason)
        }
    }

    @Test func aMissingImageIsUnreadable() async {
        let ocr = TesseractOCR()
        await #expect {
            _ = try await ocr.words(in: URL(fileURLWithPath: "/nonexistent/receipt.png"))
        } throws: { error in
            (error as? OCRError)?.kind == .imageUnreadable && "\(error)".contains("/nonexistent/receipt.png")
        }
    }

    @Test func aMissingEngineSaysWhatToInstall() async throws {
        let image = FileManager.default.temporaryDirectory.appendingPathComponent("tesseract-test-\(getpid()).png")
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: image)
        defer { try? FileManager.default.removeItem(at: image) }
        for executable in ["/nonexistent/tesseract", "tesseract-that-is-not-installed"] {
            let ocr = TesseractOCR(configuration: .init(executable: executable))
            await #expect {
                _ = try await ocr.words(in: image)
            } throws: { error in
                (error as? OCRError)?.kind == .engineNotFound && "\(error)".contains("apt-get install tesseract-ocr")
            }
        }
    }
}
