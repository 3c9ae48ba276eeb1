import FoundationModels

/// One of the apps' tasks: a corpus of items with ground truth, the
/// instructions and prompt an app sends for an item, the type it asks for,
/// and how an answer is judged.
///
/// The instructions, prompts and answer types are the examples' own
/// (`Examples/`): the eval measures what the examples ship, not copies of
/// it. Every mode of a run sends the same instructions and prompt; only how
/// the answer is produced differs (see ``EvalMode``).
///
/// A task's type crosses into the child task that keeps an answer to the
/// time limit (its static requirements are called there), hence
/// `SendableMetatype`.
package protocol EvalTask: SendableMetatype {
    associatedtype Item: Codable & Sendable & Identifiable where Item.ID == String
    associatedtype Answer: Generable & Sendable

    static var corpus: Corpus { get }
    /// The session's instructions, the same for every item.
    static var instructions: String { get }
    /// The instructions for `item`: ``instructions`` unless the example
    /// fills its instructions from the input (the coaching report's name
    /// the athlete and the goal).
    static func instructions(for item: Item) -> String
    static func prompt(for item: Item) -> String
    /// The schema asked for when it is not the answer type's own: a JSON
    /// Schema an app sends as it is (`fm respond --schema`), answered as
    /// `GeneratedContent`. `nil`: `respond(to:generating:)` with `Answer`.
    static var customSchema: GenerationSchema? { get }
    /// The schema asked for `item`: ``customSchema`` unless the example
    /// builds its schema from the input (the vinyl recommendations' albums
    /// the tool can list).
    static func customSchema(for item: Item) -> GenerationSchema?
    /// The tools the example's request offers for `item` (the vinyl
    /// recommendations' collection lookup); none by default.
    static func tools(for item: Item) throws -> [any Tool]
    /// The example's tool-calling mode for its request, applied in every
    /// guided mode (its own options may not carry it: the feature sets it
    /// per request); `nil` leaves the options' own.
    static var toolCallingMode: GenerationOptions.ToolCallingMode? { get }
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

    /// Whether the example ships a feature around the request (checks,
    /// re-prompts, deterministic readers): ``EvalMode/pipeline`` runs it.
    static var hasPipeline: Bool { get }
    /// The example's whole feature on `item`, as an app calls it.
    static func pipeline(for item: Item, model: SystemLanguageModel) async throws -> PipelineAnswer<Answer>

    /// The options the example's feature sends with this request (its
    /// `maximumResponseTokens` and sampling), read from the feature built
    /// on `model` (``ExampleOptions``); `nil` where the task is no
    /// example's. ``EvalMode/budgeted`` asks with them.
    static func exampleOptions(model: SystemLanguageModel) -> GenerationOptions?

    /// How many times the run's time limit an answer may take: more for a
    /// task whose answer is several times a triage's length (a coaching
    /// report), so the limit catches a runaway answer, not a long one.
    static var timeLimitMultiple: Double { get }

    /// The items as the modes read them, made from the corpus file's items
    /// before the first answer (photo corpora render each receipt and read
    /// it back with OCR here); by default the items as they are.
    static func prepare(_ items: [Item], log: @escaping @Sendable (String) -> Void) async throws -> [Item]

    /// Examples that the answer type's guide descriptions give, by
    /// top-level property: an answer that repeats one the prompt does not
    /// contain copied it from the description instead of reading the input.
    static var descriptionExamples: [String: [String]] { get }
}

extension EvalTask {
    package static func instructions(for item: Item) -> String { instructions }
    package static var customSchema: GenerationSchema? { nil }
    package static func tools(for item: Item) throws -> [any Tool] { [] }
    package static var toolCallingMode: GenerationOptions.ToolCallingMode? { nil }
    package static func customSchema(for item: Item) -> GenerationSchema? { customSchema }
    /// The schema every mode asks for, where no item is at hand:
    /// ``customSchema`` or the answer type's.
    package static var answerSchema: GenerationSchema { customSchema ?? Answer.generationSchema }
    /// The schema every mode asks for `item`.
    package static func answerSchema(for item: Item) -> GenerationSchema { customSchema(for: item) ?? Answer.generationSchema }
    package static func exampleOptions(model: SystemLanguageModel) -> GenerationOptions? { nil }
    package static var timeLimitMultiple: Double { 1 }
    package static func groups(of item: Item) -> [String] { [] }
    package static var informational: Set<String> { [] }
    package static var hasPipeline: Bool { false }
    package static func pipeline(for item: Item, model: SystemLanguageModel) async throws -> PipelineAnswer<Answer> {
        throw CorpusError("\(corpus.rawValue) has no pipeline")
    }
    package static var descriptionExamples: [String: [String]] { [:] }
    package static func prepare(_ items: [Item], log: @escaping @Sendable (String) -> Void) async throws -> [Item] { items }
}

/// What an example's feature returned, as the task's answer type, and how
/// it got there (for the report).
package struct PipelineAnswer<Answer: Sendable>: Sendable {
    package var answer: Answer
    /// The feature's result as the report shows it: its values and where
    /// each came from.
    package var output: String
    /// Model requests the feature made (a re-prompt makes two).
    package var requests: Int

    package init(answer: Answer, output: String, requests: Int) {
        self.answer = answer
        self.output = output
        self.requests = requests
    }
}

/// The corpora, by the name `fm eval CORPUS` takes.
package enum Corpus: String, CaseIterable, Codable, Sendable {
    case receipts
    /// The receipts again, asked for with guide descriptions that carry
    /// examples (`e.g. SHELL, CHEVRON`), as app developers write them.
    case receiptsGuideExamples = "receipts-guide-examples"
    /// The receipts again, asked for with each field documented at length,
    /// as an API's JSON Schema documents it: what the shorter descriptions
    /// of a large schema keep (``SchemaPromptDetail``).
    case receiptsDocumented = "receipts-documented"
    case tickets, flashcards, crates
    /// A collection and one album of it → the vinyl example's `AlbumInsight`.
    case albums
    /// A collection → the vinyl example's three recommendations, looked up
    /// through its tool.
    case recommendations
    /// Training weeks → the coaching example's `CoachingReport`.
    case coaching
    /// Requests for a JSON object with named keys, answered with the schema
    /// `{"type": "object"}`.
    case jsonObject = "json-object"
    /// The receipts rendered to photos with light noise (slight rotation,
    /// blur, grain), read back by Tesseract, laid out in rows.
    case receiptsPhotoLight = "receipts-photo-light"
    /// The same photos with heavy noise: more rotation, blur and grain,
    /// faded print, a softer image.
    case receiptsPhotoHeavy = "receipts-photo-heavy"

    /// The file of its items: variants of a corpus share their items.
    package var fileName: String {
        switch self {
        case .receiptsGuideExamples, .receiptsDocumented, .receiptsPhotoLight, .receiptsPhotoHeavy: Corpus.receipts.fileName
        default: rawValue + ".json"
        }
    }

    /// The corpus's heading in the report.
    package var title: String {
        switch self {
        case .receiptsGuideExamples: "Receipts with guide examples"
        case .receiptsDocumented: "Receipts with a documented schema"
        case .receiptsPhotoLight: "Receipts from photos, light noise"
        case .receiptsPhotoHeavy: "Receipts from photos, heavy noise"
        case .jsonObject: "JSON objects"
        case .albums: "Album insights"
        default: rawValue.capitalized
        }
    }

    /// What `fm eval all` runs: the corpora answered from text (the photo
    /// corpora, and the documented receipts of the schema-detail runs, are
    /// run by name).
    package static var text: [Corpus] { allCases.filter { ![.receiptsPhotoLight, .receiptsPhotoHeavy, .receiptsDocumented].contains($0) } }

    /// The corpora with files of their own.
    package static var files: [Corpus] { allCases.filter { $0.fileName == $0.rawValue + ".json" } }

    /// What the corpus's items are, for the report.
    package var summary: String {
        switch self {
        case .receipts:
            "fuel receipts as OCR rows → the receipt example's `FuelReceipt`: stationBrand, totalAmount, volume, pricePerUnit (numbers within 1 %); the pipeline is its `ReceiptExtractor` (model, pattern reader, arithmetic check, one re-prompt)"
        case .receiptsGuideExamples:
            "the same receipts asked for with guide descriptions that give examples, as app developers write them (`The brand of the fuel station, e.g. SHELL, CHEVRON`); an answer that repeats an example its receipt does not contain copied it"
        case .receiptsDocumented:
            "the same receipts asked for with each field documented in a paragraph, as an API's JSON Schema documents it (`DocumentedFuelReceipt`: what the field is, where it is printed, its unit, what it is not); the runs at each schema detail (`FOUNDATION_MODELS_SCHEMA_DETAIL`: descriptions cut to their first sentence, or names and types alone) show what the shorter descriptions a large schema gets keep"
        case .receiptsPhotoLight, .receiptsPhotoHeavy:
            "the receipts rendered to photos of a thermal receipt (`scripts/receipt_photos.py`, \(self == .receiptsPhotoLight ? "light" : "heavy") noise), read by Tesseract and laid out as `Row NN [y=…]` lines (`ReceiptExtractor.rows(of:)`); the ocr columns say whether each value survived OCR and the row layout at all (in any row, as printed), the others score the answers as for the text receipts; the pipeline is `ReceiptExtractor.extract(photo:)`, OCR included"
        case .tickets:
            "support tickets → the ticket example's `Triage`: queue (one of the acceptable ones), priority (low, normal or urgent as the ticket warrants), a summary of at most 15 words; the pipeline is its `TicketTriager` (on device)"
        case .flashcards:
            "study notes → the flashcards example's `FlashcardDeck`: 3 cards whose answers come from the notes; the pipeline is its `ModelFlashcardGenerator` (repeated questions dropped)"
        case .crates:
            "crates of records → the vinyl example's `CrateInsight`: 3–5 distinct tags, a snippet of at most 20 words, a summary; the input's artists mentioned; the type's name never copied"
        case .coaching:
            "training weeks → the coaching example's `CoachingReport` (its `coaching.yaml` instructions and prompt filled from the week): every free string complete, 2 strengths, 2 focus areas and 3 planned sessions on different days with a distance or a duration, every reason citing the log, no focus area giving a strength's reason again (distinct); the pipeline is its `WeeklyCoach.report(for:)`, with the feature's own options"
        case .albums:
            "a collection of 12 to 20 records with plays and one album of it → the vinyl example's `AlbumInsight`: a summary within its 30 words, a fit that uses the counts the prompt gives (plays, the collection's size, albums by the artist or of the genre; and no other), 2–3 distinct moods of one or two words, and no fact the input contradicts (a year, another album or artist of the collection, an instrument the player is not known for); the pipeline is its `VinylInsights.albumInsight(for:)`"
        case .recommendations:
            "a collection of 12 to 24 records with plays → the vinyl example's 3 `AlbumRecommendation`s, asked with its `searchCollection` tool (required on the first round): each album on the shelves, none twice, none played more than the median of its genre in the collection; the pipeline is its `VinylInsights.recommendations()`, which drops albums not on the shelves"
        case .jsonObject:
            "requests for a JSON object with named keys (one, two or three keys, a nested object, a list), answered with the JSON Schema `{\"type\": \"object\"}` as `fm respond --schema` sends it: the requested keys present with the requested kind of value, and the value right where the request fixes it"
        }
    }

    /// Fields the report also shows item by item, together: a corpus
    /// whose items are few and each worth reading (the coaching weeks:
    /// "complete and citing the log", week by week).
    package var itemTable: (title: String, fields: [String])? {
        switch self {
        case .coaching: ("Complete and citing the log, by week", ["complete", "citing"])
        default: nil
        }
    }

    package var taskType: any EvalTask.Type {
        switch self {
        case .receipts: ReceiptTask.self
        case .receiptsGuideExamples: GuideExampleReceiptTask.self
        case .receiptsDocumented: DocumentedReceiptTask.self
        case .tickets: TicketTask.self
        case .flashcards: FlashcardTask.self
        case .crates: CrateTask.self
        case .receiptsPhotoLight: LightReceiptPhotoTask.self
        case .receiptsPhotoHeavy: HeavyReceiptPhotoTask.self
        case .coaching: CoachingTask.self
        case .jsonObject: JSONObjectTask.self
        case .albums: AlbumTask.self
        case .recommendations: RecommendationTask.self
        }
    }
}
