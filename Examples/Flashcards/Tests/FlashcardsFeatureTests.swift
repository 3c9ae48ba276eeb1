import Foundation
import FoundationModels
import FoundationModelsKit
import Synchronization
import Testing

@testable import Flashcards

/// The feature's states with a stub generator: no model, milliseconds.
@Suite("Flashcards feature with a stub generator")
@MainActor
struct FlashcardsFeatureTests {
    /// Answers from a script and records what it was asked; `gate`, when
    /// set, holds each request until the test opens it.
    final class StubGenerator: FlashcardGenerator {
        let result: Result<[Flashcard], any Error>
        let prewarms = Mutex(0)
        let requests = Mutex<[String]>([])
        let gate: AsyncStream<Void>?

        init(_ result: Result<[Flashcard], any Error>, gate: AsyncStream<Void>? = nil) {
            self.result = result
            self.gate = gate
        }

        func prewarm() { prewarms.withLock { $0 += 1 } }

        func flashcards(from notes: String) async throws -> [Flashcard] {
            requests.withLock { $0.append(notes) }
            if let gate { for await _ in gate { break } }
            return try result.get()
        }
    }

    static let cards = [Flashcard(question: "Where does photosynthesis happen?", answer: "In the chloroplasts")]

    @Test func theGeneratorIsPrewarmedWhenTheFeatureIsMade() {
        let stub = StubGenerator(.success(Self.cards))
        let feature = FlashcardsFeature(generator: stub)
        #expect(stub.prewarms.withLock { $0 } == 1)
        #expect(feature.state == .idle)
        #expect(stub.requests.withLock { $0 }.isEmpty)
    }

    @Test func notesBecomeADeck() async {
        let stub = StubGenerator(.success(Self.cards))
        let feature = FlashcardsFeature(generator: stub)
        await feature.generate(from: "Photosynthesis happens in the chloroplasts.")
        #expect(feature.state == .ready(Self.cards))
        #expect(stub.requests.withLock { $0 } == ["Photosynthesis happens in the chloroplasts."])
        feature.reset()
        #expect(feature.state == .idle)
    }

    @Test func itIsGeneratingUntilTheAnswerComesAndASecondTapIsIgnored() async {
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let stub = StubGenerator(.success(Self.cards), gate: gate)
        let feature = FlashcardsFeature(generator: stub)
        let first = Task { await feature.generate(from: "Notes one.") }
        while stub.requests.withLock({ $0.isEmpty }) { await Task.yield() }
        #expect(feature.state == .generating)
        await feature.generate(from: "Notes two.")  // ignored: returns at once
        feature.reset()  // ignored while generating
        #expect(feature.state == .generating)
        open.yield()
        await first.value
        #expect(feature.state == .ready(Self.cards))
        #expect(stub.requests.withLock { $0 } == ["Notes one."])
    }

    @Test func aFailureBecomesAUserFacingMessage() async {
        let stub = StubGenerator(.failure(LanguageModelSession.GenerationError.exceededContextWindowSize(.init(debugDescription: "full"))))
        let feature = FlashcardsFeature(generator: stub)
        await feature.generate(from: "Some notes.")
        guard case .failed(let message) = feature.state else {
            Issue.record("state \(feature.state)")
            return
        }
        #expect(message == UserFacingMessage(LanguageModelSession.GenerationError.exceededContextWindowSize(.init(debugDescription: "full"))))
        #expect(!message.title.isEmpty)
    }

    @Test func anEmptyDeckIsAFailureNotAnEmptyScreen() async {
        let feature = FlashcardsFeature(generator: StubGenerator(.success([])))
        await feature.generate(from: "Some notes.")
        #expect(feature.state == .failed(FlashcardsFeature.noCards))
    }

    @Test func notesAreSanitizedAndCappedAndBlankNotesAskNothing() async {
        let stub = StubGenerator(.success(Self.cards))
        let feature = FlashcardsFeature(generator: stub)
        await feature.generate(from: "  \n\u{200B} ")
        #expect(feature.state == .idle)
        #expect(stub.requests.withLock { $0 }.isEmpty)

        await feature.generate(from: "<b>Mitochondria</b> " + String(repeating: "make energy. ", count: 1_000))
        let sent = try? #require(stub.requests.withLock { $0 }.first)
        #expect((sent?.count ?? .max) <= FlashcardsFeature.maximumNoteCharacters)
        #expect(sent?.contains("<") == false)
    }
}

@Suite("Flashcard decks without repeats")
struct FlashcardDistinctTests {
    @Test func aRepeatedQuestionIsDropped() {
        let cards = [
            Flashcard(question: "Where does photosynthesis happen?", answer: "In the chloroplasts"),
            Flashcard(question: "where does Photosynthesis happen ?", answer: "Chloroplasts"),
            Flashcard(question: "What does chlorophyll absorb?", answer: "Red and blue light"),
        ]
        #expect(ModelFlashcardGenerator.distinct(cards) == [cards[0], cards[2]])
    }
}
