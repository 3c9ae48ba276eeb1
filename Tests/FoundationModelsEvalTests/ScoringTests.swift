import Foundation
import Synchronization
import Testing
import FoundationModels
@testable import FoundationModelsEval

/// The scorers, on hand-made answers (no model).
@Suite("Eval scoring")
struct ScoringTests {
    static let receipt = ReceiptItem(
        id: "r", rows: ["SHELL", "TOTAL $45.00"],
        truth: .init(stationBrand: "Shell", totalAmount: 45, volume: 12.5, volumeUnit: "gal", pricePerUnit: 3.6, currency: "USD"),
        features: ["gallons"]
    )

    static func reading(brand: String = "Shell", total: Double = 45, volume: Double = 12.5, price: Double = 3.6) -> ParsedFuelReceipt {
        ParsedFuelReceipt(stationBrand: brand, totalAmount: total, volume: volume, pricePerUnit: price, reasoning: "12.5 × 3.6 = 45", arithmeticCheckPassed: true)
    }

    static func rights(_ scores: [FieldScore]) -> [String: Bool] {
        Dictionary(uniqueKeysWithValues: scores.map { ($0.field, $0.right) })
    }

    @Test func receiptNumbersWithinOnePercent() {
        let exact = ReceiptTask.score(Self.reading(), for: Self.receipt)
        #expect(exact.allSatisfy { $0.right })
        let near = Self.rights(ReceiptTask.score(Self.reading(total: 45 * 1.0099, volume: 12.5 * 0.9901), for: Self.receipt))
        #expect(near["totalAmount"] == true && near["volume"] == true)
        let far = Self.rights(ReceiptTask.score(Self.reading(total: 45 * 1.0101, price: 1.07), for: Self.receipt))
        #expect(far["totalAmount"] == false && far["pricePerUnit"] == false && far["volume"] == true)
        #expect(Self.rights(ReceiptTask.score(Self.reading(total: .nan), for: Self.receipt))["totalAmount"] == false)
    }

    @Test func brandsMatchAfterNormalization() {
        #expect(ReceiptTask.brandMatches("SHELL", "Shell"))
        #expect(ReceiptTask.brandMatches("Shell Station #1123", "Shell"))
        #expect(ReceiptTask.brandMatches("circle-k", "Circle K"))
        #expect(ReceiptTask.brandMatches("CircleK Store", "Circle K"))
        #expect(ReceiptTask.brandMatches("TOTALENERGIES RELAIS", "TotalEnergies"))
        #expect(ReceiptTask.brandMatches("Esso Express", "Esso"))
        #expect(!ReceiptTask.brandMatches("TOTAL", "TotalEnergies"))
        #expect(!ReceiptTask.brandMatches("", "Shell"))
        #expect(!ReceiptTask.brandMatches("MAPLE AUTO LLC", "Shell"))
        #expect(!ReceiptTask.brandMatches("The receipt is from a Shell station on Main Street in Springfield", "Shell"))
    }

    @Test func ticketUrgencyAndTags() {
        let ticket = TicketItem(id: "t", category: "login", subject: "s", body: "b", expected: .init(
            minimumUrgency: 2, maximumUrgency: 4, requiredTags: ["login"], acceptableTags: ["login", "account", "bug"]))
        func score(_ urgency: Int, _ tags: [String], _ headline: String = "Password reset email never arrives") -> [String: Bool] {
            Self.rights(TicketTask.score(TicketTriage(headline: headline, urgency: urgency, tags: tags), for: ticket))
        }
        #expect(score(2, ["login", "account"]) == ["urgency": true, "tags": true, "headline": true])
        #expect(score(4, ["login"])["urgency"] == true)
        #expect(score(5, ["login"])["urgency"] == false)
        #expect(score(1, ["login"])["urgency"] == false)
        #expect(score(3, ["account"])["tags"] == false, "a required tag is missing")
        #expect(score(3, ["login", "billing"])["tags"] == false, "a tag outside the acceptable set")
        #expect(score(3, ["LOGIN"])["tags"] == true)
        #expect(score(3, ["login"], "")["headline"] == false)
        #expect(score(3, ["login"], String(repeating: "word ", count: 21))["headline"] == false)
    }

    static let notes = NotesItem(
        id: "n", topic: "The cell",
        notes: "- Mitochondria make most of the cell's ATP through cellular respiration.\n- The nucleus holds the cell's DNA.\n- Ribosomes build proteins from amino acids.",
        keyTerms: ["mitochondria", "ATP", "nucleus", "DNA", "ribosomes", "proteins"], minimumCards: 3, maximumCards: 5
    )

    @Test func flashcardGrounding() {
        #expect(FlashcardTask.isGrounded("The mitochondria", in: Self.notes))
        #expect(FlashcardTask.isGrounded("It holds DNA", in: Self.notes))
        #expect(FlashcardTask.isGrounded("from amino acids", in: Self.notes), "content words all from the notes")
        #expect(!FlashcardTask.isGrounded("Paris is the capital of France", in: Self.notes))
        #expect(!FlashcardTask.isGrounded("Yes", in: Self.notes))
        #expect(!FlashcardTask.isGrounded("", in: Self.notes))
        #expect(!FlashcardTask.isGrounded("Chloroplasts capture sunlight energy", in: Self.notes))
    }

    @Test func flashcardDeckScores() {
        func deck(_ pairs: [(String, String)]) -> [String: Bool] {
            Self.rights(FlashcardTask.score(FlashcardDeck(topic: "Cells", cards: pairs.map { Flashcard(question: $0.0, answer: $0.1) }), for: Self.notes))
        }
        let good = [("What makes ATP?", "Mitochondria"), ("What holds DNA?", "The nucleus"), ("What builds proteins?", "Ribosomes")]
        #expect(deck(good) == ["count": true, "grounding": true, "distinct": true, "coverage": true])
        #expect(deck(Array(good.prefix(2)))["count"] == false)
        #expect(deck(good + [("Capital of France?", "Paris"), ("Largest planet?", "Jupiter")])["grounding"] == false, "3 of 5 grounded")
        #expect(deck(good + [("Capital of France?", "Paris")])["grounding"] == true, "3 of 4 grounded")
        #expect(deck(good + [("What makes ATP?", "Mitochondria")])["distinct"] == false)
    }

    static let crate = CrateItem(id: "c", name: "Sunday", records: [
        .init(artist: "John Coltrane", title: "A Love Supreme", year: 1965, genre: "Jazz"),
        .init(artist: "Miles Davis", title: "Kind of Blue", year: 1959, genre: "Jazz"),
        .init(artist: "The Clash", title: "London Calling", year: 1979, genre: "Punk"),
    ])

    @Test func crateInsightChecks() {
        func score(summary: String = "Coltrane's spiritual search meets Davis's cool.", snippet: String = "Modal jazz for a slow Sunday.", tags: [String] = ["calm", "jazz", "late night"]) -> [String: Bool] {
            Self.rights(CrateTask.score(CrateAIInsight(summary: summary, snippet: snippet, tags: tags), for: Self.crate))
        }
        #expect(score() == ["tags": true, "snippet": true, "artists": true, "typeName": true])
        #expect(score(tags: ["calm", "Calm", "jazz"])["tags"] == false, "repeated tag")
        #expect(score(tags: ["calm", "jazz"])["tags"] == false)
        #expect(score(tags: ["calm", "jazz", "a tag of far too many words"])["tags"] == false)
        #expect(score(snippet: Array(repeating: "word", count: 25).joined(separator: " "))["snippet"] == true)
        #expect(score(snippet: Array(repeating: "word", count: 26).joined(separator: " "))["snippet"] == false)
        #expect(score(summary: "Great records.", snippet: "Nice.")["artists"] == false)
        #expect(score(summary: "From the Clash to jazz.")["artists"] == true)
        #expect(score(summary: "CrateAIInsight")["typeName"] == false)
        #expect(score(tags: ["Crate AI Insight", "jazz", "calm"])["typeName"] == false)
    }

    @Test func emptiedFieldsAreFoundByPath() throws {
        let content = try GeneratedContent(json: #"{"topic":"x","cards":[{"question":"q","answer":""},{"question":"  ","answer":"a"}],"n":0}"#)
        #expect(Scoring.emptiedFields(in: content) == ["cards[0].answer", "cards[1].question"])
        #expect(Scoring.emptiedFields(in: try GeneratedContent(json: #"{"a":"b","c":[1,2]}"#)).isEmpty)
    }

    @Test func lenientJSONTakesTheFirstCompleteObject() throws {
        let fenced = "Here you go:\n```json\n{\"a\": 1, \"b\": \"}{\"}\n```\nAnything else?"
        #expect(LenientJSON.firstObject(in: fenced)?.json == "{\"a\": 1, \"b\": \"}{\"}")
        let prose = "Use {curly braces} for objects. {\"x\": [1, {\"y\": 2}]} and {\"z\": 3}"
        #expect(LenientJSON.firstObject(in: prose)?.json == "{\"x\": [1, {\"y\": 2}]}")
        #expect(LenientJSON.firstObject(in: "{\"a\": \"unfinished") == nil)
        #expect(LenientJSON.firstObject(in: "no JSON here") == nil)
        #expect(LenientJSON.firstObject(in: "[1, 2]") == nil, "an array is not an object")
    }

    @Test func answerRecordsFromProducedOutput() throws {
        var produced = EvalRunner.Produced()
        produced.content = try GeneratedContent(json: #"{"stationBrand":"SHELL","totalAmount":45,"volume":12.5,"pricePerUnit":3.6,"reasoning":"ok","arithmeticCheckPassed":false}"#)
        let right = EvalRunner.score(ReceiptTask.self, item: Self.receipt, produced)
        #expect(right.allRight, "arithmeticCheckPassed is informational")
        #expect(right.fields.first { $0.field == "arithmeticCheckPassed" }?.counts == false)
        #expect(right.groups == ["gallons"])

        produced.content = try GeneratedContent(json: #"{"stationBrand":"SHELL","totalAmount":45,"volume":12.5,"pricePerUnit":3.6,"reasoning":"","arithmeticCheckPassed":true}"#)
        let emptied = EvalRunner.score(ReceiptTask.self, item: Self.receipt, produced)
        #expect(emptied.emptied == ["reasoning"] && !emptied.allRight)

        produced.truncated = true
        produced.content = try GeneratedContent(json: #"{"stationBrand":"SHELL","totalAmount":45,"volume":12.5,"pricePerUnit":3.6,"reasoning":"ok","arithmeticCheckPassed":true}"#)
        #expect(!EvalRunner.score(ReceiptTask.self, item: Self.receipt, produced).allRight)

        produced.truncated = false
        produced.content = try GeneratedContent(json: #"{"stationBrand":"SHELL","totalAmount":"45.00"}"#)
        let undecodable = EvalRunner.score(ReceiptTask.self, item: Self.receipt, produced)
        #expect(undecodable.status == .invalid && undecodable.fields.allSatisfy { !$0.right })

        var timedOut = EvalRunner.Produced()
        timedOut.status = .timedOut
        let record = EvalRunner.score(ReceiptTask.self, item: Self.receipt, timedOut)
        #expect(!record.allRight && record.fields.map(\.field) == ReceiptTask.fields)
    }

    final class Flag: Sendable {
        let raised = Mutex(false)
    }

    @Test func timeLimitCancelsTheAnswer() async throws {
        let flag = Flag()
        await #expect(throws: TimeLimitExceeded.self) {
            try await withTimeLimit(0.2) {
                do {
                    try await Task.sleep(for: .seconds(30))
                } catch {
                    flag.raised.withLock { $0 = true }
                    throw error
                }
                return 1
            }
        }
        #expect(flag.raised.withLock { $0 }, "the answer's task was cancelled before the limit threw")
        #expect(try await withTimeLimit(5) { 42 } == 42)
    }
}
