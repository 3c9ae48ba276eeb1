import ChildProcess
import Foundation
import FoundationModels
import FoundationModelsKit
import ReceiptExtraction

/// How much a receipt's photo is degraded (`scripts/receipt_photos.py
/// --noise`).
package enum PhotoNoise: String, Codable, Sendable, CaseIterable {
    case clean, light, heavy
}

/// A receipt as its photo read it back: where the image is, and the rows
/// OCR and the row layout made of it.
package struct ReceiptPhoto: Codable, Sendable, Equatable {
    /// The image.
    package var path: String
    package var noise: PhotoNoise
    /// The rows as the model is shown them (`Row NN [y=…]  TEXT`), after
    /// ``ReceiptExtractor/capped(_:)``.
    package var layout: [String]
    /// The same rows' plain text, which the patterns read.
    package var texts: [String]
    /// What Tesseract took for the image.
    package var ocrSeconds: Double
}

/// The fuel receipts from photos: each receipt of the text corpus rendered
/// to an image at one noise level, read back by Tesseract and laid out in
/// rows, then asked for as the receipt example asks for a photo.
///
/// The answers are scored as ``ReceiptTask`` scores them; four more
/// columns, not counted, say whether each value survived OCR and the
/// layout at all (printed in some row), which separates what the photo
/// lost from what the model missed.
package protocol ReceiptPhotoTask: EvalTask where Item == ReceiptItem, Answer == FuelReceipt {
    static var noise: PhotoNoise { get }
}

package enum LightReceiptPhotoTask: ReceiptPhotoTask {
    package static let corpus = Corpus.receiptsPhotoLight
    package static let noise = PhotoNoise.light
}

package enum HeavyReceiptPhotoTask: ReceiptPhotoTask {
    package static let corpus = Corpus.receiptsPhotoHeavy
    package static let noise = PhotoNoise.heavy
}

/// The columns of what survived OCR: the total, the volume, the price per
/// unit and the brand.
private let survivalFields = ["ocrTotal", "ocrVolume", "ocrPrice", "ocrBrand"]

extension ReceiptPhotoTask {
    package static var instructions: String { ReceiptTask.instructions }

    package static func prompt(for item: ReceiptItem) -> String {
        guard let photo = item.photo else { return ReceiptTask.prompt(for: item) }
        return ReceiptExtractor.prompt(layout: photo.layout, texts: photo.texts)
    }

    package static var fields: [String] { ReceiptTask.fields + survivalFields }
    package static var informational: Set<String> { ReceiptTask.informational.union(survivalFields) }

    package static func score(_ answer: FuelReceipt, for item: ReceiptItem) -> [FieldScore] {
        ReceiptTask.score(answer, for: item) + survival(of: item)
    }

    /// Whether each value is printed in some row OCR gave: the numbers as
    /// amounts (with decimals), the brand's words whole.
    static func survival(of item: ReceiptItem) -> [FieldScore] {
        let text = (item.photo?.texts ?? []).joined(separator: "\n")
        let truth = item.truth
        func number(_ name: String, _ value: Double) -> FieldScore {
            let found = Scoring.containsNumber(text, value, decimals: true)
            return FieldScore(name, found, found ? "\(Scoring.number(value)) is in the rows" : "\(Scoring.number(value)) is in no row")
        }
        let brand =
            Scoring.contains(text, phrase: truth.stationBrand)
            || Scoring.words(text).contains { Scoring.normalized($0).hasPrefix(Scoring.normalized(truth.stationBrand)) }
        return [
            number("ocrTotal", truth.totalAmount),
            number("ocrVolume", truth.volume),
            number("ocrPrice", truth.pricePerUnit),
            FieldScore("ocrBrand", brand, brand ? "\(truth.stationBrand) is in the rows" : "\(truth.stationBrand) is in no row"),
        ]
    }

    package static func groups(of item: ReceiptItem) -> [String] { item.features }
    package static var seed: UInt64 { ReceiptTask.seed }
    package static func generate(seed: UInt64) -> [ReceiptItem] { ReceiptTask.generate(seed: seed) }

    // MARK: The photos

    /// Renders every item to `.build/eval/photos/NOISE/ID.png` (under the
    /// current directory, the repository root when run by `make eval`)
    /// with `scripts/receipt_photos.py` in its pinned environment
    /// (`scripts/photo_env.sh`), then reads each back as the example does.
    package static func prepare(_ items: [ReceiptItem], log: @escaping @Sendable (String) -> Void) async throws -> [ReceiptItem] {
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let folder = root.appendingPathComponent(".build/eval/photos/\(noise.rawValue)")
        log("rendering \(items.count) receipts with \(noise.rawValue) noise into \(folder.path)")
        try await ReceiptPhotos.render(items, noise: noise, into: folder, repository: root)
        var read: [ReceiptItem] = []
        for var item in items {
            let image = folder.appendingPathComponent("\(item.id).png")
            let clock = ContinuousClock()
            let start = clock.now
            let words: [OCRWord]
            do {
                words = try await TesseractOCR().words(in: image)
            } catch {
                throw CorpusError("cannot read the photo of \(item.id): \(error)")
            }
            let seconds = (clock.now - start).inSeconds
            let rows = ReceiptExtractor.capped(ReceiptExtractor.rows(of: words))
            item.photo = ReceiptPhoto(path: image.path, noise: noise, layout: rows.map(\.line), texts: rows.map(\.text), ocrSeconds: seconds)
            read.append(item)
        }
        return read
    }

    // MARK: The example's pipeline

    package static var hasPipeline: Bool { true }

    package static func exampleOptions(model: SystemLanguageModel) -> GenerationOptions? { ReceiptTask.exampleOptions(model: model) }

    /// ``ReceiptExtractor/extract(photo:ocr:)`` on the receipt's image:
    /// OCR, the row layout, the model, the patterns and the check.
    package static func pipeline(for item: ReceiptItem, model: SystemLanguageModel) async throws -> PipelineAnswer<FuelReceipt> {
        guard let photo = item.photo else { throw CorpusError("\(item.id) has no photo (the run did not prepare it)") }
        let extraction = try await ReceiptExtractor(model: model).extract(photo: URL(fileURLWithPath: photo.path))
        return ReceiptTask.pipelineAnswer(extraction)
    }
}

/// The photo renderer: `scripts/receipt_photos.py`, run in the Python
/// environment `scripts/photo_env.sh` prints.
package enum ReceiptPhotos {
    /// Writes `ID.png` into `folder` for each item, at `noise`.
    package static func render(_ items: [ReceiptItem], noise: PhotoNoise, into folder: URL, repository: URL) async throws {
        let scripts = repository.appendingPathComponent("scripts")
        let renderer = scripts.appendingPathComponent("receipt_photos.py")
        guard FileManager.default.fileExists(atPath: renderer.path) else {
            throw CorpusError("\(renderer.path) is missing: the photo corpora are rendered from the repository root")
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let python =
            try await run("/bin/bash", [scripts.appendingPathComponent("photo_env.sh").path], timeLimit: .seconds(600))
            .split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        let corpus = folder.appendingPathComponent("items.json")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(items).write(to: corpus, options: .atomic)
        _ = try await run(
            python, [renderer.path, "--corpus", corpus.path, "--noise", noise.rawValue, "--output", folder.path],
            timeLimit: .seconds(600))
    }

    /// Runs a program and returns what it printed; a failure is a
    /// ``CorpusError`` with its standard error.
    private static func run(_ program: String, _ arguments: [String], timeLimit: Duration) async throws -> String {
        let output: ChildProcess.Output
        do {
            output = try await ChildProcess.run(URL(fileURLWithPath: program), arguments, timeLimit: timeLimit)
        } catch {
            throw CorpusError("\(([program] + arguments).joined(separator: " ")) did not finish: \(error)")
        }
        guard output.status == 0 else {
            throw CorpusError(
                "\(([program] + arguments).joined(separator: " ")) failed (status \(output.status)): \(output.standardError.suffix(500))")
        }
        return output.standardOutput
    }
}
