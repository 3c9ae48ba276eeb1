import FoundationModels
import FoundationModelsKit
import Observation

/// The flashcards screen's model: notes in, a deck out, and a state the
/// screen draws — nothing to show yet, a spinner, the cards, or a message.
@MainActor
@Observable
public final class FlashcardsFeature {
    public enum State: Equatable {
        case idle
        case generating
        case ready([Flashcard])
        case failed(UserFacingMessage)
    }

    /// Characters of notes sent to the model: a long paste is cut, not
    /// allowed to fill the context.
    public static let maximumNoteCharacters = 2_000

    public private(set) var state: State = .idle
    private let generator: any FlashcardGenerator

    /// Starts the generator's warm-up at once: the screen is open, a tap
    /// is likely.
    public init(generator: any FlashcardGenerator = ModelFlashcardGenerator()) {
        self.generator = generator
        generator.prewarm()
    }

    /// Makes a deck from `notes`. Ignored while a deck is being made (the
    /// button is disabled then) and for notes with nothing in them.
    public func generate(from notes: String) async {
        guard state != .generating else { return }
        let notes = PromptInput.sanitized(notes, maximumCharacters: Self.maximumNoteCharacters)
        guard !notes.isEmpty else { return }
        state = .generating
        do {
            let cards = try await generator.flashcards(from: notes)
            state = cards.isEmpty ? .failed(Self.noCards) : .ready(cards)
        } catch {
            state = .failed(UserFacingMessage(error))
        }
    }

    /// Back to the empty screen.
    public func reset() {
        if state != .generating { state = .idle }
    }

    static let noCards = UserFacingMessage(title: "No flashcards", detail: "These notes gave no cards. Try longer notes.", action: .rephrase)
}
