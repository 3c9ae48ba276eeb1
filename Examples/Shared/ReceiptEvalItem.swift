import Foundation
import FoundationModelsEval
import ReceiptExtraction

// Linked into ReceiptExtraction's Demo and Tests folders.

extension ReceiptItem {
    /// A sample receipt and the values it prints as the eval's item, so
    /// that `ReceiptTask`'s scorers (each number within 1 %, the brand's
    /// words in a short answer) judge an extraction on it as `make eval`
    /// judges the corpus's receipts.
    ///
    /// Made through the item's `Codable` form (the corpus file's): its
    /// memberwise initializer is internal to FoundationModelsEval.
    init(name: String, text: String, printed: FuelReceipt) throws {
        let truth: [String: Any] = [
            "stationBrand": printed.stationBrand, "totalAmount": printed.totalAmount, "volume": printed.volume,
            "volumeUnit": "", "pricePerUnit": printed.pricePerUnit, "currency": "",
        ]
        let fields: [String: Any] = ["id": name, "rows": text.split(separator: "\n").map(String.init), "truth": truth, "features": [String]()]
        self = try JSONDecoder().decode(Self.self, from: JSONSerialization.data(withJSONObject: fields))
    }
}

extension ReceiptExtraction {
    /// The merged receipt as the eval's pipeline scores it: a value neither
    /// the model nor the patterns found is missing (not a number).
    var answer: FuelReceipt {
        FuelReceipt(
            stationBrand: receipt.stationBrand ?? "",
            totalAmount: receipt.totalAmount?.value ?? .nan,
            volume: receipt.volume?.value ?? .nan,
            pricePerUnit: receipt.pricePerUnit?.value ?? .nan
        )
    }
}
