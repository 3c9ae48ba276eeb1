import FoundationModels
import FoundationModelsKit

/// What the flashcards feature needs from a model: a way to get it ready
/// and a deck for some notes. A protocol so the feature's state logic is
/// tested with a stub in milliseconds, and the model's part once, for real.
public protocol FlashcardGenerator: Sendable {
    /// Loads what the first request needs (the weights, the instructions'
    /// prefix), so the user's first tap is answered sooner.
    func prewarm()
    /// Cards for `notes` (already capped by the caller).
    func flashcards(from notes: String) async throws -> [Flashcard]
}

/// The generator on the on-device model: one session for the feature's
/// lifetime, prewarmed, so every deck after the first reuses the
/// instructions already in the model's cache.
///
/// Each request adds its notes and its deck to the session's transcript;
/// when that no longer fits the context, the session is replaced by a fresh
/// one with the same instructions and the request is made once more.
/// Requests are serial: ``FlashcardsFeature`` makes one at a time.
public actor ModelFlashcardGenerator: FlashcardGenerator {
    public static let instructions = """
        You write flashcards for students. Each card asks about one fact stated in the notes the user sends, \
        and its answer is that fact in a few words. Never ask about anything the notes do not say.
        """

    /// Cards in a deck: what the prompt asks for and ``FlashcardDeck``'s
    /// count guide enforces.
    public static let cardsPerDeck = 3

    /// The request for a deck of `notes`.
    public static func prompt(notes: String) -> String {
        "Notes:\n\(notes)\n\nWrite \(cardsPerDeck) flashcards, each about a different fact of these notes."
    }

    private let model: SystemLanguageModel
    private let options: GenerationOptions
    private var session: LanguageModelSession

    public init(model: SystemLanguageModel = .default) {
        self.model = model
        self.options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 240)
        self.session = LanguageModelSession(model: model, instructions: Self.instructions)
    }

    public nonisolated func prewarm() {
        Task { await self.session.prewarm() }
    }

    public func flashcards(from notes: String) async throws -> [Flashcard] {
        do {
            return try await deck(from: notes)
        } catch let error where UserFacingMessage(error).action == .startOver {
            // The context is full (either error family says so).
            session = LanguageModelSession(model: model, instructions: Self.instructions)
            return try await deck(from: notes)
        }
    }

    private func deck(from notes: String) async throws -> [Flashcard] {
        Self.distinct(try await session.respond(to: Self.prompt(notes: notes), generating: FlashcardDeck.self, options: options).content.cards)
    }

    /// The cards without repeated questions (case and punctuation ignored):
    /// a small model sometimes writes one card twice, and a deck shows
    /// each question once.
    public static func distinct(_ cards: [Flashcard]) -> [Flashcard] {
        var seen = Set<String>()
        return cards.filter { seen.insert(String($0.question.lowercased().filter { $0.isLetter || $0.isNumber })).inserted }
    }
}
