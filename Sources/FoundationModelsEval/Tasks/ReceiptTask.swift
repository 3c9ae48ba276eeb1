import FoundationModels
import ReceiptExtraction

/// Fuel receipts: four values read off noisy OCR rows, asked for as the
/// receipt example asks (``ReceiptExtractor``'s instructions and prompt,
/// its ``FuelReceipt``), and through its whole pipeline.
package enum ReceiptTask: EvalTask {
    package static let corpus = Corpus.receipts

    package static var instructions: String { ReceiptExtractor.instructions }

    /// The rows as the example sends them: sanitized, then its prompt.
    package static func prompt(for item: ReceiptItem) -> String {
        ReceiptExtractor.prompt(rows: ReceiptExtractor.sanitized(item.text))
    }

    package static let fields = ["totalAmount", "volume", "pricePerUnit", "stationBrand", "consistent"]
    /// Whether the answer's own numbers add up is reported, not counted:
    /// the acceptance is about the four values.
    package static let informational: Set<String> = ["consistent"]

    package static func score(_ answer: FuelReceipt, for item: ReceiptItem) -> [FieldScore] {
        scores(
            stationBrand: answer.stationBrand, totalAmount: answer.totalAmount, volume: answer.volume,
            pricePerUnit: answer.pricePerUnit, for: item)
    }

    /// The scores of a receipt's four values, whichever type carried them.
    static func scores(stationBrand: String, totalAmount: Double, volume: Double, pricePerUnit: Double, for item: ReceiptItem) -> [FieldScore] {
        let truth = item.truth
        func number(_ name: String, _ got: Double, _ expected: Double) -> FieldScore {
            FieldScore(
                name, Scoring.close(got, expected), "expected \(Scoring.number(expected)), got \(got.isFinite ? Scoring.number(got) : "nothing")")
        }
        let consistent = ReceiptArithmetic.isConsistent(volume: volume, pricePerUnit: pricePerUnit, total: totalAmount)
        return [
            number("totalAmount", totalAmount, truth.totalAmount),
            number("volume", volume, truth.volume),
            number("pricePerUnit", pricePerUnit, truth.pricePerUnit),
            FieldScore(
                "stationBrand", brandMatches(stationBrand, truth.stationBrand),
                "expected \(truth.stationBrand), got \(Scoring.quote(stationBrand))"),
            FieldScore("consistent", consistent, consistent ? "volume × price per unit is the total" : "volume × price per unit is not the total"),
        ]
    }

    /// The brand's words appear whole in a short answer: `SHELL`, `Shell
    /// Station #1123` and `circle-k` name the brand; `TOTAL` does not name
    /// TotalEnergies, and a sentence that happens to contain it is not a
    /// brand.
    package static func brandMatches(_ answer: String, _ brand: String) -> Bool {
        guard Scoring.words(answer).count <= 6 else { return false }
        return Scoring.contains(answer, phrase: brand) || Scoring.normalized(answer).hasPrefix(Scoring.normalized(brand))
    }

    package static func groups(of item: ReceiptItem) -> [String] { item.features }

    package static let seed = ReceiptCorpus.seed
    package static func generate(seed: UInt64) -> [ReceiptItem] { ReceiptCorpus.generate(seed: seed) }

    // MARK: The example's pipeline

    package static let hasPipeline = true

    /// ``ReceiptExtractor``'s options (greedy, 120 tokens).
    package static func exampleOptions(model: SystemLanguageModel) -> GenerationOptions? {
        ExampleOptions.of(ReceiptExtractor(model: model))
    }

    /// ``ReceiptExtractor/extract(_:)`` on the receipt's text: a value
    /// neither the model nor the patterns found is scored as missing.
    package static func pipeline(for item: ReceiptItem, model: SystemLanguageModel) async throws -> PipelineAnswer<FuelReceipt> {
        ReceiptTask.pipelineAnswer(try await ReceiptExtractor(model: model).extract(item.text))
    }

    /// An extraction as the report shows it: its values, where each came
    /// from, and whether the model was asked again.
    static func pipelineAnswer(_ extraction: ReceiptExtraction) -> PipelineAnswer<FuelReceipt> {
        let receipt = extraction.receipt
        let answer = FuelReceipt(
            stationBrand: receipt.stationBrand ?? "",
            totalAmount: receipt.totalAmount?.value ?? .nan,
            volume: receipt.volume?.value ?? .nan,
            pricePerUnit: receipt.pricePerUnit?.value ?? .nan
        )
        func describe(_ name: String, _ value: ExtractedReceipt.Value?) -> String {
            value.map { "\(name) \(Scoring.number($0.value)) (\($0.source.rawValue))" } ?? "\(name) none"
        }
        let output =
            [
                "stationBrand \(Scoring.quote(receipt.stationBrand ?? ""))",
                describe("totalAmount", receipt.totalAmount),
                describe("volume", receipt.volume),
                describe("pricePerUnit", receipt.pricePerUnit),
            ].joined(separator: ", ")
            + (extraction.reprompted
                ? "; re-prompted" + (extraction.corrected.isEmpty ? "" : ", corrected \(extraction.corrected.joined(separator: " and "))") : "")
        return PipelineAnswer(answer: answer, output: output, requests: extraction.modelAnswers.count)
    }
}

extension ReceiptItem {
    /// The receipt as an OCR pass hands it over: its rows, one per line.
    package var text: String { rows.joined(separator: "\n") }
}

/// The receipt as app developers often describe it: guides that give
/// examples of the values (the seed apps' own style, e.g. "Look for TOTAL
/// INVOICE, GRAND TOTAL, AMOUNT DUE"). Deliberately not the example's type:
/// the eval measures how often such examples are copied into answers.
@Generable(description: "Values read from a fuel receipt")
package struct GuideExampleFuelReceipt: Sendable {
    @Guide(description: "The brand of the fuel station, e.g. SHELL, CHEVRON")
    package var stationBrand: String

    @Guide(description: "Total amount paid. Look for TOTAL, AMOUNT DUE, SALE TOTAL")
    package var totalAmount: Double

    @Guide(description: "Fuel dispensed, in litres or gallons as printed, e.g. 10.5")
    package var volume: Double

    @Guide(description: "Price per litre or per gallon, e.g. 3.49")
    package var pricePerUnit: Double
}

/// A type that carries a receipt's four values.
package protocol FuelReceiptValues {
    var stationBrand: String { get }
    var totalAmount: Double { get }
    var volume: Double { get }
    var pricePerUnit: Double { get }
}

extension GuideExampleFuelReceipt: FuelReceiptValues {}

/// A variant of the receipts: the same items, instructions, prompts,
/// scoring and breakdowns as ``ReceiptTask``, asked for with another type
/// that carries the same four values.
package protocol ReceiptVariantTask: EvalTask where Item == ReceiptItem, Answer: FuelReceiptValues {}

extension ReceiptVariantTask {
    package static var instructions: String { ReceiptTask.instructions }
    package static func prompt(for item: ReceiptItem) -> String { ReceiptTask.prompt(for: item) }
    package static var fields: [String] { ReceiptTask.fields }
    package static var informational: Set<String> { ReceiptTask.informational }

    package static func score(_ answer: Answer, for item: ReceiptItem) -> [FieldScore] {
        ReceiptTask.scores(
            stationBrand: answer.stationBrand, totalAmount: answer.totalAmount, volume: answer.volume,
            pricePerUnit: answer.pricePerUnit, for: item)
    }

    package static func groups(of item: ReceiptItem) -> [String] { item.features }
    package static func exampleOptions(model: SystemLanguageModel) -> GenerationOptions? { ReceiptTask.exampleOptions(model: model) }
    package static var seed: UInt64 { ReceiptTask.seed }
    package static func generate(seed: UInt64) -> [ReceiptItem] { ReceiptTask.generate(seed: seed) }
}

/// The receipts with ``GuideExampleFuelReceipt``.
package enum GuideExampleReceiptTask: ReceiptVariantTask {
    package typealias Item = ReceiptItem
    package typealias Answer = GuideExampleFuelReceipt
    package static let corpus = Corpus.receiptsGuideExamples

    package static let descriptionExamples = [
        "stationBrand": ["SHELL", "CHEVRON"],
        "volume": ["10.5"],
        "pricePerUnit": ["3.49"],
    ]
}
