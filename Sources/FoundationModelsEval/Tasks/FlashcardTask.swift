import Flashcards
import FoundationModels

/// Notes → flashcards, asked for as the flashcards example asks
/// (``ModelFlashcardGenerator``'s instructions and prompt, its
/// ``FlashcardDeck``): a full deck whose answers come from the notes.
package enum FlashcardTask: EvalTask {
    package static let corpus = Corpus.flashcards

    package static var instructions: String { ModelFlashcardGenerator.instructions }

    package static func prompt(for item: NotesItem) -> String {
        ModelFlashcardGenerator.prompt(notes: item.notes)
    }

    package static let fields = ["count", "grounding", "distinct", "coverage"]
    /// Whether the deck uses any key term at all: reported, not counted
    /// (grounding is what counts).
    package static let informational: Set<String> = ["coverage"]

    /// Cards the example asks for.
    package static var expectedCount: Int { ModelFlashcardGenerator.cardsPerDeck }

    /// The share of cards that must be grounded for the deck to be.
    package static let groundingThreshold = 0.75

    package static func score(_ answer: FlashcardDeck, for item: NotesItem) -> [FieldScore] {
        let cards = answer.cards
        let expected = expectedCount
        let grounded = cards.filter { isGrounded($0.answer, in: item) }.count
        let share = cards.isEmpty ? 0 : Double(grounded) / Double(cards.count)
        let questions = cards.map { Scoring.normalized($0.question) }
        let distinct = Set(questions).count == questions.count && !questions.contains("")
        let text = cards.map { $0.question + " " + $0.answer }.joined(separator: " ")
        let covered = Set(item.keyTerms.filter { Scoring.contains(text, phrase: $0) }.map { $0.lowercased() })
        return [
            FieldScore("count", cards.count == expected, "expected \(expected), got \(cards.count)"),
            FieldScore(
                "grounding", !cards.isEmpty && share >= groundingThreshold,
                "\(grounded) of \(cards.count) answers grounded"
                    + (cards.first { !isGrounded($0.answer, in: item) }.map { ", e.g. not: \(Scoring.quote($0.answer))" } ?? "")),
            FieldScore("distinct", distinct, "\(Set(questions).count) distinct questions of \(cards.count)"),
            FieldScore("coverage", !covered.isEmpty, "\(covered.count) of \(item.keyTerms.count) key terms used"),
        ]
    }

    /// An answer is grounded when it uses one of the notes' key terms, or
    /// when most of its content words (three letters or more, not a
    /// function word, plural "s" ignored) occur in the notes.
    package static func isGrounded(_ answer: String, in item: NotesItem) -> Bool {
        if item.keyTerms.contains(where: { Scoring.contains(answer, phrase: $0) }) { return true }
        let words = contentWords(answer)
        guard !words.isEmpty else { return false }
        let notes = Set(contentWords(item.notes))
        return Double(words.filter(notes.contains).count) / Double(words.count) >= 0.6
    }

    static func contentWords(_ text: String) -> [String] {
        Scoring.words(text)
            .filter { $0.count >= 3 && !stopWords.contains($0) }
            .map { $0.count > 3 && $0.hasSuffix("s") ? String($0.dropLast()) : $0 }
    }

    static let stopWords: Set<String> = [
        "the", "and", "for", "are", "was", "were", "with", "that", "this", "from", "into", "its", "their", "what",
        "which", "who", "when", "where", "how", "why", "does", "did", "can", "not", "but", "they", "them", "has",
        "have", "had", "you", "your", "about", "than", "then", "there", "these", "those", "also", "called", "known",
    ]

    package static let seed = NotesCorpus.seed
    package static func generate(seed: UInt64) -> [NotesItem] { NotesCorpus.generate(seed: seed) }

    // MARK: The example's feature

    package static let hasPipeline = true

    /// ``ModelFlashcardGenerator``'s options (greedy, 240 tokens).
    package static func exampleOptions(model: SystemLanguageModel) -> GenerationOptions? {
        ExampleOptions.of(ModelFlashcardGenerator(model: model))
    }

    /// ``ModelFlashcardGenerator/flashcards(from:)`` on a new generator: the
    /// deck the screen shows, repeated questions dropped.
    package static func pipeline(for item: NotesItem, model: SystemLanguageModel) async throws -> PipelineAnswer<FlashcardDeck> {
        let cards = try await ModelFlashcardGenerator(model: model).flashcards(from: item.notes)
        return PipelineAnswer(
            answer: FlashcardDeck(cards: cards),
            output: cards.map { "\($0.question) — \($0.answer)" }.joined(separator: " / "),
            requests: 1
        )
    }
}
