import FoundationModels
import Flashcards
import TerminalSupport

// Flashcards from notes: the feature held for the screen's lifetime (its
// session prewarmed when it is made), two decks from one session.

let notes = [
    ("photosynthesis", """
        Photosynthesis happens in the chloroplasts of plant cells. Chlorophyll absorbs mostly red and blue light. \
        The plant takes in carbon dioxide and water and releases oxygen. The sugar it makes is glucose.
        """),
    ("the Moon", """
        The Moon is about 384,000 km from Earth. It takes about 27 days to orbit Earth. \
        Neil Armstrong was the first person to walk on it, in July 1969.
        """),
]

await ExampleProgram.run {
    let feature = FlashcardsFeature()
    ExampleProgram.heading("Flashcards from notes")
    for (topic, text) in notes {
        try await ExampleProgram.step("deck on \(topic)", show: { (state: FlashcardsFeature.State) -> String in
            switch state {
            case .ready(let cards): "\(cards.count) cards\n" + cards.map { "   Q: \($0.question)\n   A: \($0.answer)" }.joined(separator: "\n")
            case .failed(let message): "failed: \(message)"
            case .idle, .generating: "\(state)"
            }
        }) {
            await feature.generate(from: text)
            return feature.state
        }
    }
}
