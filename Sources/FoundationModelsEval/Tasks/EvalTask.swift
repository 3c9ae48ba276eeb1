import FoundationModels

/// One of the apps' tasks: a corpus of items with ground truth, the
/// instructions and prompt an app sends for an item, the type it asks for,
/// and how an answer is judged.
///
/// Every mode of a run sends the same instructions and prompt; only how the
/// answer is produced differs (see ``EvalMode``).
package protocol EvalTask {
    associatedtype Item: Codable & Sendable & Identifiable where Item.ID == String
    associatedtype Answer: Generable

    static var corpus: Corpus { get }
    /// The session's instructions, the same for every item.
    static var instructions: String { get }
    static func prompt(for item: Item) -> String
    /// The scored fields, in the order the report lists them.
    static var fields: [String] { get }
    /// Fields reported but not counted toward "all fields right".
    static var informational: Set<String> { get }
    /// One ``FieldScore`` per name in ``fields``.
    static func score(_ answer: Answer, for item: Item) -> [FieldScore]
    /// Labels the report breaks accuracy down by (a receipt's features).
    static func groups(of item: Item) -> [String]
    /// The corpus's own seed: the committed files in `eval/corpora`.
    static var seed: UInt64 { get }
    /// The corpus from `seed`. Another seed gives another sample of the
    /// same distribution: `eval/heldout` (``CorpusFiles/heldOutSeed(for:)``)
    /// checks that instructions tuned on the corpus were not tuned to its
    /// items.
    static func generate(seed: UInt64) -> [Item]
}

extension EvalTask {
    package static func groups(of item: Item) -> [String] { [] }
    package static var informational: Set<String> { [] }
}

/// The corpora, by the name `fm eval CORPUS` takes.
package enum Corpus: String, CaseIterable, Codable, Sendable {
    case receipts, tickets, flashcards, crates

    package var fileName: String { rawValue + ".json" }

    /// What the corpus's items are, for the report.
    package var summary: String {
        switch self {
        case .receipts: "fuel receipts as OCR rows → stationBrand, totalAmount, volume, pricePerUnit (numbers within 1 %), then reasoning and arithmeticCheckPassed"
        case .tickets: "support tickets → headline, urgency 1…5 (in the ticket's expected range), 1–3 routing tags (required ones present, none outside the acceptable set)"
        case .flashcards: "study notes → 3–5 flashcards whose answers come from the notes"
        case .crates: "crates of records → summary, snippet (≤ 25 words), 3–5 distinct tags; the input's artists mentioned; the type's name never copied"
        }
    }

    package var taskType: any EvalTask.Type {
        switch self {
        case .receipts: ReceiptTask.self
        case .tickets: TicketTask.self
        case .flashcards: FlashcardTask.self
        case .crates: CrateTask.self
        }
    }
}
