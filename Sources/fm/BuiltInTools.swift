import ArgumentParser
import Foundation
import FoundationModels
import FoundationModelsKit
import TerminalSupport

/// Apple's built-in tools of `fm chat` and `fm respond` (`--tool ocr`,
/// `--tool barcode`), over what this machine has in place of Vision:
/// Tesseract for text, zbar for barcodes. The model calls them with an
/// image file's path.
enum BuiltInTool: String, ExpressibleByArgument, CaseIterable {
    case ocr, barcode

    /// The tool, or an error naming what to install when its program is
    /// missing: said before the model loads, not when it first calls it.
    func make() throws -> any Tool {
        switch self {
        case .ocr:
            let ocr = TesseractOCR()
            guard ocr.isInstalled else {
                throw ValidationError(
                    "--tool ocr reads images with Tesseract, which is not installed: apt-get install tesseract-ocr (macOS: brew install tesseract)")
            }
            return OCRTool(ocr: ocr)
        case .barcode:
            let reader = ZBarBarcodeReader()
            guard reader.isInstalled else {
                throw ValidationError(
                    "--tool barcode reads barcodes with zbar's zbarimg, which is not installed: apt-get install zbar-tools (macOS: brew install zbar)"
                )
            }
            return BarcodeTool(reader: reader)
        }
    }

    static func make(_ names: [BuiltInTool]) throws -> [any Tool] {
        var seen = Set<BuiltInTool>()
        return try names.filter { seen.insert($0).inserted }.map { try $0.make() }
    }
}

/// The one argument both image tools take.
@Generable
struct ImageFile: Sendable {
    @Guide(description: "The image file's path")
    var path: String
}

/// `ocr(path)`: the text of an image, line by line.
struct OCRTool: Tool {
    let name = "ocr"
    let description = "Reads the text in an image file (a photo, a scan, a screenshot) and returns it line by line."
    let ocr: TesseractOCR

    typealias Arguments = ImageFile

    func call(arguments: Arguments) async throws -> String {
        do {
            let text = try await ImageText.read(URL(fileURLWithPath: arguments.path), with: ocr)
            return text.isEmpty ? "No text was found in \(arguments.path)." : text
        } catch {
            // The model is told, so it can say so, rather than the turn failing.
            return "The image could not be read: \(error)"
        }
    }
}

/// `barcode(path)`: the barcodes and QR codes in an image.
struct BarcodeTool: Tool {
    let name = "barcode"
    let description = "Reads the barcodes and QR codes in an image file and returns each one's type and content."
    let reader: ZBarBarcodeReader

    typealias Arguments = ImageFile

    func call(arguments: Arguments) async throws -> String {
        do {
            let codes = try await reader.codes(in: URL(fileURLWithPath: arguments.path))
            return codes.isEmpty ? "No barcode was found in \(arguments.path)." : codes.map(\.description).joined(separator: "\n")
        } catch {
            return "The image could not be read: \(error)"
        }
    }
}

/// `--image FILE` where the model has no vision (the in-process model has
/// none): the image's text, read by Tesseract, goes into the prompt, and
/// standard error says so, since the model never sees the picture itself.
enum ImageText {
    /// The image's text lines, in reading order.
    static func read(_ image: URL, with ocr: TesseractOCR = TesseractOCR()) async throws -> String {
        let words = try await ocr.words(in: image)
        return OCRRows(words).rows.map(\.text).joined(separator: "\n")
    }

    /// The prompt segment for each image, labelled with its `--label` (paired
    /// by order) or its file name.
    static func segments(images: [String], labels: [String]) async throws -> [String] {
        guard !images.isEmpty else { return [] }
        let ocr = TesseractOCR()
        var segments: [String] = []
        for (index, path) in images.enumerated() {
            let label = labels.indices.contains(index) ? labels[index] : URL(fileURLWithPath: path).lastPathComponent
            let notice = TerminalStream.error
            notice.line(notice.styled("--image \(path): the model has no vision; its text, read by OCR (Tesseract), goes into the prompt", .dim))
            let text: String
            do {
                text = try await read(URL(fileURLWithPath: path), with: ocr)
            } catch {
                throw ValidationError("--image \(path): \(error)")
            }
            segments.append("Image \"\(label)\" (its text, read by OCR):\n" + (text.isEmpty ? "(no text found)" : text))
        }
        return segments
    }

    /// Before anything runs: each image is there, each label has its image,
    /// and Tesseract is installed.
    static func validate(images: [String], labels: [String]) throws {
        if labels.count > images.count {
            throw ValidationError("--label names the --image given in the same position: \(labels.count) labels for \(images.count) images")
        }
        for image in images where !FileManager.default.isReadableFile(atPath: image) {
            throw ValidationError("--image \(image): no readable file there")
        }
        if !images.isEmpty, !TesseractOCR().isInstalled {
            throw ValidationError(
                "--image: the model has no vision, and an image's text is read with Tesseract, which is not installed: apt-get install tesseract-ocr")
        }
    }
}
