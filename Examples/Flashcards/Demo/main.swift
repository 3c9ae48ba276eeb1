import Flashcards
import FoundationModels
import FoundationModelsEval
import TerminalSupport

// Flashcards from notes: the feature held for the screen's lifetime (its
// session prewarmed when it is made), two decks from one session. Each
// deck is marked as the eval judges one (FlashcardTask): three cards, each
// answer whole and taken from the notes (a fact's key term, or mostly the
// notes' words), no question twice.

/// The notes, with the facts' key terms the eval's grounding looks for.
func notes() throws -> [NotesItem] {
    [
        try NotesItem(
            topic: "photosynthesis",
            notes: """
                Photosynthesis happens in the chloroplasts of plant cells. Chlorophyll absorbs mostly red and blue light. \
                The plant takes in carbon dioxide and water and releases oxygen. The sugar it makes is glucose.
                """, keyTerms: ["chloroplasts", "chloroplast", "chlorophyll", "red and blue light", "carbon dioxide", "oxygen", "glucose"]),
        try NotesItem(
            topic: "the Moon",
            notes: """
                The Moon is about 384,000 km from Earth. It takes about 27 days to orbit Earth. \
                Neil Armstrong was the first person to walk on it, in July 1969.
                """, keyTerms: ["384,000", "27 days", "Neil Armstrong", "Armstrong", "1969"]),
    ]
}

await ExampleProgram.run {
    let feature = FlashcardsFeature()
    ExampleProgram.heading("Flashcards from notes")
    for item in try notes() {
        let state = await ExampleProgram.step(
            "deck on \(item.topic)",
            show: { (state: FlashcardsFeature.State) -> String in
                switch state {
                case .ready(let cards): "\(cards.count) cards\n" + cards.map { "   Q: \($0.question)\n   A: \($0.answer)" }.joined(separator: "\n")
                case .failed(let message): "failed: \(message)"
                case .idle, .generating: "\(state)"
                }
            }
        ) {
            await feature.generate(from: item.notes)
            return feature.state
        }
        if case .ready(let cards) = state {
            Verdict(FlashcardDeck(cards: cards), as: FlashcardTask.self, for: item).print()
        }
    }
}
