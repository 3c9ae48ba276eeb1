import Foundation
import FoundationModels
import FoundationModelsEval
import TestSupport
import Testing

@testable import Flashcards

/// The model's generator on the real default model (`make test` runs
/// suites named *QualityTests with it): two decks from one held session,
/// judged as a student reads the cards and by the eval's rules
/// (`FlashcardTask`, `CutShort`): every answer whole, not "…walk on the",
/// and taken from the notes.
@Suite("Flashcards on the default model", .serialized, .tags(.defaultModel), .needs(.defaultModel))
@MainActor
struct FlashcardsQualityTests {
    @Test func twoDecksFromOneHeldSessionAnswerFromTheirNotes() async throws {
        try #require(SystemLanguageModel.default.isAvailable, "no model: run `make setup` (FOUNDATION_MODELS_MODEL)")
        let feature = FlashcardsFeature(generator: ModelFlashcardGenerator())
        for notes in [
            try NotesItem(
                topic: "photosynthesis",
                notes: "Photosynthesis happens in the chloroplasts. Chlorophyll absorbs red and blue light. Plants release oxygen.",
                keyTerms: ["chloroplasts", "chloroplast", "chlorophyll", "red and blue light", "oxygen"]),
            try NotesItem(
                topic: "the Moon",
                notes: "The Moon is about 384,000 km from Earth. It orbits Earth in about 27 days. Neil Armstrong walked on it in 1969.",
                keyTerms: ["384,000", "27 days", "Neil Armstrong", "Armstrong", "1969"]),
        ] {
            await feature.generate(from: notes.notes)
            guard case .ready(let cards) = feature.state else {
                Issue.record("no deck on \(notes.topic): \(feature.state)")
                continue
            }
            // The feature drops a repeated question: two cards or three.
            #expect((2...3).contains(cards.count), "\(cards)")
            for card in cards {
                #expect(card.question.hasSuffix("?"), "\(card)")
            }

            // No answer cut short (mid-word or mid-sentence, the eval's rule).
            let deck = FlashcardDeck(cards: cards)
            let input = FlashcardTask.instructions(for: notes) + "\n" + FlashcardTask.prompt(for: notes)
            let cuts = CutShort.cuts(in: deck.generatedContent, schema: FlashcardDeck.generationSchema, input: input)
            #expect(cuts.isEmpty, "cut short on \(notes.topic): \(cuts.map { "\($0.path) \"\($0.text)\" (\($0.kinds.map(\.rawValue)))" })")

            // Every answer supported by the notes (a fact's key term, or
            // mostly the notes' words), every question asked once: the
            // eval's grounding and distinct scores, card by card.
            for card in cards {
                #expect(FlashcardTask.isGrounded(card.answer, in: notes), "not from the notes on \(notes.topic): \(card)")
            }
            let distinct = try #require(FlashcardTask.score(deck, for: notes).first { $0.field == "distinct" })
            #expect(distinct.right, "\(distinct.detail): \(cards)")
        }
    }
}
