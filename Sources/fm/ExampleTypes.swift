import Flashcards
import FoundationModels
import ReceiptExtraction
import VinylCollection

/// The examples' `@Generable` types, by name, for `fm schema TYPE`,
/// `fm tokens --type TYPE` and `fm respond --type TYPE`.
enum ExampleTypes {
    struct Entry {
        var name: String
        var type: any Generable.Type
        /// The example (Examples/<name>) that declares it.
        var example: String
    }

    static let all: [Entry] = [
        Entry(name: "AlbumInsight", type: AlbumInsight.self, example: "VinylCollection"),
        Entry(name: "CrateInsight", type: CrateInsight.self, example: "VinylCollection"),
        Entry(name: "AlbumRecommendation", type: AlbumRecommendation.self, example: "VinylCollection"),
        Entry(name: "FuelReceipt", type: FuelReceipt.self, example: "ReceiptExtraction"),
        Entry(name: "Flashcard", type: Flashcard.self, example: "Flashcards"),
    ]

    /// The type called `name` (case ignored).
    static func named(_ name: String) -> (any Generable.Type)? {
        all.first { $0.name.lowercased() == name.lowercased() }?.type
    }

    static func unknown(_ name: String) -> String {
        "no example type is called \(name): choose one of \(all.map(\.name).joined(separator: ", "))"
    }
}
