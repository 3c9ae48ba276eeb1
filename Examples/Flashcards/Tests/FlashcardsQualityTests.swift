import Foundation
import FoundationModels
import Testing
import TestSupport
@testable import Flashcards

/// The model's generator on the real default model (`make test` runs
/// suites named *QualityTests with it): two decks from one held session.
@Suite("Flashcards on the default model", .serialized, .tags(.defaultModel), .needs(.defaultModel))
@MainActor
struct FlashcardsQualityTests {
    @Test func twoDecksFromOneHeldSessionAskAboutTheirNotes() async throws {
        try #require(SystemLanguageModel.default.isAvailable, "no model: run `make setup` (FOUNDATION_MODELS_MODEL)")
        let feature = FlashcardsFeature(generator: ModelFlashcardGenerator())
        for (notes, words) in [
            ("Photosynthesis happens in the chloroplasts. Chlorophyll absorbs red and blue light. Plants release oxygen.",
             ["photosynthesis", "chloroplast", "chlorophyll", "light", "oxygen", "plant"]),
            ("The Moon is about 384,000 km from Earth. It orbits Earth in about 27 days. Neil Armstrong walked on it in 1969.",
             ["moon", "earth", "orbit", "armstrong", "1969", "384"]),
        ] {
            await feature.generate(from: notes)
            guard case .ready(let cards) = feature.state else {
                Issue.record("no deck: \(feature.state)")
                continue
            }
            #expect((2...3).contains(cards.count), "\(cards)")
            #expect(Set(cards.map { $0.question.lowercased() }).count == cards.count, "a question repeats: \(cards)")
            for card in cards {
                #expect(card.question.hasSuffix("?"), "\(card)")
                #expect(!card.answer.trimmingCharacters(in: .whitespaces).isEmpty, "\(card)")
            }
            let text = cards.map { $0.question + " " + $0.answer }.joined(separator: " ").lowercased()
            #expect(words.contains { text.contains($0) }, "the deck is not about its notes: \(cards)")
        }
    }
}
