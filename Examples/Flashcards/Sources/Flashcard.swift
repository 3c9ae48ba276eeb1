import FoundationModels

/// One card: a question on the front, its answer on the back.
@Generable(description: "A study flashcard")
public struct Flashcard: Sendable, Codable, Equatable {
    /// A question word first and a question mark last, enforced while it is
    /// generated: a small model otherwise copies a sentence of the notes
    /// onto the front of the card.
    @Guide(description: "A question about one fact in the notes", #/(What|Where|When|Who|Which|How|Why)[^?\n]{3,100}\?/#)
    public var question: String

    @Guide(description: "The answer to this question only, at most 10 words, taken from the notes")
    public var answer: String

    public init(question: String, answer: String) {
        self.question = question
        self.answer = answer
    }
}

/// What the model is asked for: a deck of a fixed size
/// (``ModelFlashcardGenerator/cardsPerDeck``).
@Generable(description: "Flashcards for studying a set of notes")
public struct FlashcardDeck: Sendable {
    @Guide(description: "Cards on different facts from the notes", .count(3))
    public var cards: [Flashcard]

    public init(cards: [Flashcard]) {
        self.cards = cards
    }
}
