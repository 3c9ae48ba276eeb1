import FoundationModels

/// What a fuel-tracking app asks for a scanned receipt. As such apps do on
/// purpose, the model writes its `reasoning` before it commits to
/// `arithmeticCheckPassed`.
@Generable(description: "Values read from a fuel receipt")
package struct ParsedFuelReceipt: Sendable {
    @Guide(description: "The brand of the fuel station")
    package var stationBrand: String

    @Guide(description: "Total amount paid")
    package var totalAmount: Double

    @Guide(description: "Fuel dispensed, in litres or gallons as printed")
    package var volume: Double

    @Guide(description: "Price per litre or per gallon")
    package var pricePerUnit: Double

    @Guide(description: "Check whether volume times price per unit gives the total")
    package var reasoning: String

    @Guide(description: "Whether volume times price per unit matches the total")
    package var arithmeticCheckPassed: Bool
}

/// Fuel receipts: four values read off noisy OCR rows.
package enum ReceiptTask: EvalTask {
    package static let corpus = Corpus.receipts

    package static let instructions = """
        You read fuel receipts for an expense app. The user sends the text rows an OCR scan found on one receipt. \
        Read the station brand, the total amount paid, the volume of fuel and the price per unit as printed.
        """

    package static func prompt(for item: ReceiptItem) -> String {
        "Receipt rows:\n" + item.rows.joined(separator: "\n")
    }

    package static let fields = ["totalAmount", "volume", "pricePerUnit", "stationBrand", "arithmeticCheckPassed"]
    /// The model's own check is reported, not counted: the acceptance is
    /// about the four values.
    package static let informational: Set<String> = ["arithmeticCheckPassed"]

    package static func score(_ answer: ParsedFuelReceipt, for item: ReceiptItem) -> [FieldScore] {
        let truth = item.truth
        func number(_ name: String, _ got: Double, _ expected: Double) -> FieldScore {
            FieldScore(name, Scoring.close(got, expected), "expected \(Scoring.number(expected)), got \(Scoring.number(got))")
        }
        return [
            number("totalAmount", answer.totalAmount, truth.totalAmount),
            number("volume", answer.volume, truth.volume),
            number("pricePerUnit", answer.pricePerUnit, truth.pricePerUnit),
            FieldScore("stationBrand", brandMatches(answer.stationBrand, truth.stationBrand),
                       "expected \(truth.stationBrand), got \(Scoring.quote(answer.stationBrand))"),
            // The truth is always consistent, so a right check says true.
            FieldScore("arithmeticCheckPassed", answer.arithmeticCheckPassed, "got \(answer.arithmeticCheckPassed)"),
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
}
