import Flashcards
import Foundation
import FoundationModels
import ReceiptExtraction
import Synchronization
import Testing
import TicketTriage
import VinylCollection

@testable import FoundationModelsEval

/// The scorers, on hand-made answers (no model).
@Suite("Eval scoring")
struct ScoringTests {
    static let receipt = ReceiptItem(
        id: "r", rows: ["SHELL", "TOTAL $45.00"],
        truth: .init(stationBrand: "Shell", totalAmount: 45, volume: 12.5, volumeUnit: "gal", pricePerUnit: 3.6, currency: "USD"),
        features: ["gallons"]
    )

    static func reading(brand: String = "Shell", total: Double = 45, volume: Double = 12.5, price: Double = 3.6) -> FuelReceipt {
        FuelReceipt(stationBrand: brand, totalAmount: total, volume: volume, pricePerUnit: price)
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
        #expect(far["consistent"] == false, "12.5 × 1.07 is not 45.45")
        #expect(
            Self.rights(ReceiptTask.score(Self.reading(total: 90, volume: 25), for: Self.receipt))["consistent"] == true,
            "consistent, though wrong")
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

    @Test func ticketQueueAndPriority() {
        let ticket = TicketItem(
            id: "t", category: "two-factor", subject: "s", body: "b",
            expected: .init(
                queues: ["account"], priorities: ["urgent", "normal"]))
        func score(_ queue: Queue, _ priority: Priority, _ summary: String = "Two-factor code rejected after a new phone") -> [String: Bool] {
            Self.rights(TicketTask.score(Triage(queue: queue, priority: priority, summary: summary), for: ticket))
        }
        #expect(score(.account, .urgent) == ["queue": true, "priority": true, "summary": true])
        #expect(score(.account, .normal)["priority"] == true)
        #expect(score(.account, .low)["priority"] == false)
        #expect(score(.technical, .urgent)["queue"] == false)
        #expect(score(.account, .urgent, "")["summary"] == false)
        // 15 words asked for; the engine's tolerance to finish a sentence on top (`WordLimit`).
        let allowed = WordLimit.allowed(TicketTask.summaryWordLimit)
        #expect(allowed > TicketTask.summaryWordLimit)
        #expect(score(.account, .urgent, String(repeating: "word ", count: allowed))["summary"] == true)
        #expect(score(.account, .urgent, String(repeating: "word ", count: allowed + 1))["summary"] == false)
    }

    static let notes = NotesItem(
        id: "n", topic: "The cell",
        notes:
            "- Mitochondria make most of the cell's ATP through cellular respiration.\n- The nucleus holds the cell's DNA.\n- Ribosomes build proteins from amino acids.",
        keyTerms: ["mitochondria", "ATP", "nucleus", "DNA", "ribosomes", "proteins"]
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
            Self.rights(FlashcardTask.score(FlashcardDeck(cards: pairs.map { Flashcard(question: $0.0, answer: $0.1) }), for: Self.notes))
        }
        let good = [("What makes ATP?", "Mitochondria"), ("What holds DNA?", "The nucleus"), ("What builds proteins?", "Ribosomes")]
        #expect(FlashcardTask.expectedCount == 3)
        #expect(deck(good) == ["count": true, "grounding": true, "distinct": true, "coverage": true])
        #expect(deck(Array(good.prefix(2)))["count"] == false)
        #expect(deck(good + [("What is the capital of France?", "Paris")])["count"] == false)
        #expect(
            deck(Array(good.prefix(1)) + [("What is the capital of France?", "Paris"), ("Which planet is largest?", "Jupiter")])["grounding"]
                == false, "1 of 3 grounded")
        #expect(deck([good[0], good[0], good[1]])["distinct"] == false)
    }

    static let crate = CrateItem(
        id: "c", name: "Sunday",
        records: [
            .init(artist: "John Coltrane", title: "A Love Supreme", year: 1965, genre: "Jazz"),
            .init(artist: "Miles Davis", title: "Kind of Blue", year: 1959, genre: "Jazz"),
            .init(artist: "The Clash", title: "London Calling", year: 1979, genre: "Punk"),
        ])

    @Test func crateInsightChecks() {
        func score(
            summary: String = "Coltrane's spiritual search meets Davis's cool.", snippet: String = "Modal jazz for a slow Sunday.",
            tags: [String] = ["calm", "jazz", "late night"]
        ) -> [String: Bool] {
            Self.rights(CrateTask.score(CrateInsight(tags: tags, snippet: snippet, summary: summary), for: Self.crate))
        }
        #expect(score() == ["tags": true, "snippet": true, "artists": true, "typeName": true])
        #expect(score(tags: ["calm", "Calm", "jazz"])["tags"] == false, "repeated tag")
        #expect(score(tags: ["calm", "jazz"])["tags"] == false)
        #expect(score(tags: ["calm", "jazz", "a tag of far too many words"])["tags"] == false)
        let allowed = WordLimit.allowed(CrateTask.snippetWordLimit)
        #expect(score(snippet: Array(repeating: "word", count: allowed).joined(separator: " "))["snippet"] == true)
        #expect(score(snippet: Array(repeating: "word", count: allowed + 1).joined(separator: " "))["snippet"] == false)
        #expect(score(summary: "Great records.", snippet: "Nice.")["artists"] == false)
        #expect(score(summary: "From the Clash to jazz.")["artists"] == true)
        #expect(score(summary: "CrateInsight")["typeName"] == false)
        #expect(score(tags: ["Crate Insight", "jazz", "calm"])["typeName"] == false)
    }

    @Test func wordLimitsAreKeptAsTheEngineKeepsThem() {
        // The engine's tolerance: half the limit, at least two words.
        #expect(WordLimit.allowed(20) == 30)
        #expect(WordLimit.allowed(2) == 4)
        #expect(WordLimit.stated(in: "A one-line teaser for the crate, at most 20 words") == 20)
        #expect(WordLimit.check("", limit: 5).kept == false)
        // 5 words asked for: 3 more to finish a sentence.
        #expect(WordLimit.check("one two three four five six seven eight", limit: 5).kept == true)
        #expect(WordLimit.check("one two three four five six seven eight nine", limit: 5).kept == false)
    }

    @Test func countsAreReadAsNumeralsOrAsNumberWordsBeforeRecords() {
        #expect(Scoring.numbersAndNumberWords(in: "One of your 3 jazz albums among 19") == [3, 19])
        #expect(Scoring.numbersAndNumberWords(in: "it joins two other jazz records") == [2])
        #expect(Scoring.numbersAndNumberWords(in: "one of the most influential albums ever") == [])
    }

    static let albumItem: AlbumItem = {
        let shelves = [
            ShelfRecord(artist: "Miles Davis", title: "Kind of Blue", year: 1959, genre: "jazz", plays: 41),
            ShelfRecord(artist: "John Coltrane", title: "A Love Supreme", year: 1965, genre: "jazz", plays: 3),
            ShelfRecord(artist: "Marvin Gaye", title: "What's Going On", year: 1971, genre: "soul", plays: 9),
            ShelfRecord(artist: "Al Green", title: "Let's Stay Together", year: 1972, genre: "soul", plays: 1),
            ShelfRecord(artist: "Joni Mitchell", title: "Blue", year: 1971, genre: "folk", plays: 0),
        ]
        return AlbumItem(id: "a", shelves: shelves, album: 0)
    }()

    @Test func albumInsightChecks() throws {
        func score(
            summary: String = "Miles Davis's modal masterpiece from 1959, cool and unhurried, with his muted trumpet at its heart.",
            fit: String = "It is one of your 2 jazz albums among 5 records.",
            moods: [String] = ["calm", "late night"]
        ) throws -> [String: Bool] {
            let json = try JSONSerialization.data(withJSONObject: ["summary": summary, "fit": fit, "moods": moods])
            let answer = try AlbumInsight(GeneratedContent(json: String(decoding: json, as: UTF8.self)))
            return Self.rights(AlbumTask.score(answer, for: Self.albumItem))
        }
        #expect(try score() == ["summary": true, "fit": true, "moods": true, "facts": true])
        #expect(try score(fit: "It fits your collection well.")["fit"] == false, "no count cited")
        #expect(try score(fit: "One of your 12 jazz albums.")["fit"] == false, "a count the prompt does not give")
        #expect(try score(fit: "It joins two other jazz records.")["fit"] == true)
        #expect(try score(fit: "You have played it 41 times, a staple of your shelves.")["fit"] == true, "the plays are a count given")
        #expect(try score(moods: ["calm"])["moods"] == false)
        #expect(try score(moods: ["calm", "Calm", "cool"])["moods"] == false)
        #expect(try score(summary: "A 1959 classic and his mastery of the piano.")["facts"] == false, "Miles Davis played the trumpet")
        #expect(try score(summary: "Recorded in 1961, a classic.")["facts"] == false, "the wrong year")
        #expect(try score(summary: "A 1950s classic, like A Love Supreme.")["facts"] == false, "another album")
        #expect(try score(summary: "Cool jazz, with Marvin Gaye's warmth.")["facts"] == false, "another artist")
        #expect(try score(summary: Array(repeating: "word", count: 46).joined(separator: " ") + ".")["summary"] == false)
    }

    @Test func recommendationChecks() {
        let item = ShelvesItem(id: "s", shelves: Self.albumItem.shelves)
        func score(_ picks: [(String, String)]) -> [String: Bool] {
            Self.rights(RecommendationTask.score(picks.map { AlbumRecommendation(title: $0.0, artist: $0.1, reason: "Play it now.") }, for: item))
        }
        // Jazz plays 41 and 3 (median 3), soul 9 and 1 (median 1), folk 0.
        #expect(
            score([("A Love Supreme", "John Coltrane"), ("Let's Stay Together", "Al Green"), ("blue", "JONI MITCHELL")])
                == ["parts": true, "onShelves": true, "distinct": true, "leastPlayed": true])
        #expect(score([("A Love Supreme", "John Coltrane"), ("Let's Stay Together", "Al Green")])["parts"] == false)
        #expect(score([("A Love Supreme", "John Coltrane"), ("Abbey Road", "The Beatles"), ("Blue", "Joni Mitchell")])["onShelves"] == false)
        #expect(score([("Blue", "Joni Mitchell"), ("Blue", "Joni Mitchell"), ("A Love Supreme", "John Coltrane")])["distinct"] == false)
        #expect(score([("Kind of Blue", "Miles Davis"), ("Blue", "Joni Mitchell"), ("A Love Supreme", "John Coltrane")])["leastPlayed"] == false)
        #expect(score([("What's Going On", "Marvin Gaye"), ("Blue", "Joni Mitchell"), ("A Love Supreme", "John Coltrane")])["leastPlayed"] == false)
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
        let prompt = ReceiptTask.prompt(for: Self.receipt)
        var produced = EvalRunner.Produced()
        produced.content = try GeneratedContent(json: #"{"stationBrand":"SHELL","totalAmount":45,"volume":12.5,"pricePerUnit":3.7}"#)
        let right = EvalRunner.score(ReceiptTask.self, item: Self.receipt, prompt: prompt, produced)
        #expect(!right.allRight, "3.7 is not 3.6")
        produced.content = try GeneratedContent(json: #"{"stationBrand":"SHELL","totalAmount":45.4,"volume":12.5,"pricePerUnit":3.6}"#)
        let inconsistent = EvalRunner.score(ReceiptTask.self, item: Self.receipt, prompt: prompt, produced)
        #expect(inconsistent.allRight, "consistent is informational")
        #expect(inconsistent.fields.first { $0.field == "consistent" }?.counts == false)
        #expect(inconsistent.groups == ["gallons"])
        #expect(inconsistent.copied == nil, "the example's guides give no examples")

        produced.content = try GeneratedContent(json: #"{"stationBrand":"","totalAmount":45,"volume":12.5,"pricePerUnit":3.6}"#)
        let emptied = EvalRunner.score(ReceiptTask.self, item: Self.receipt, prompt: prompt, produced)
        #expect(emptied.emptied == ["stationBrand"] && !emptied.allRight)

        produced.truncated = true
        produced.content = try GeneratedContent(json: #"{"stationBrand":"SHELL","totalAmount":45,"volume":12.5,"pricePerUnit":3.6}"#)
        #expect(!EvalRunner.score(ReceiptTask.self, item: Self.receipt, prompt: prompt, produced).allRight)

        produced.truncated = false
        produced.content = try GeneratedContent(json: #"{"stationBrand":"SHELL","totalAmount":"45.00"}"#)
        let undecodable = EvalRunner.score(ReceiptTask.self, item: Self.receipt, prompt: prompt, produced)
        #expect(undecodable.status == .invalid && undecodable.fields.allSatisfy { !$0.right })

        var timedOut = EvalRunner.Produced()
        timedOut.status = .timedOut
        let record = EvalRunner.score(ReceiptTask.self, item: Self.receipt, prompt: prompt, timedOut)
        #expect(!record.allRight && record.fields.map(\.field) == ReceiptTask.fields)
    }

    @Test func examplesCopiedFromDescriptionsAreFound() throws {
        let prompt = GuideExampleReceiptTask.prompt(for: Self.receipt)
        func copied(_ json: String) throws -> [String]? {
            var produced = EvalRunner.Produced()
            produced.content = try GeneratedContent(json: json)
            return EvalRunner.score(GuideExampleReceiptTask.self, item: Self.receipt, prompt: prompt, produced).copied
        }
        #expect(try copied(#"{"stationBrand":"SHELL","totalAmount":45,"volume":12.5,"pricePerUnit":3.6}"#) == [], "the receipt prints SHELL")
        #expect(
            try copied(#"{"stationBrand":"CHEVRON","totalAmount":45,"volume":10.5,"pricePerUnit":3.49}"#)
                == ["stationBrand: CHEVRON", "volume: 10.5", "pricePerUnit: 3.49"])
        #expect(try copied(#"{"stationBrand":"Chevron Station","totalAmount":45,"volume":12.5,"pricePerUnit":3.6}"#) == ["stationBrand: CHEVRON"])
        let printed = ReceiptItem(id: "p", rows: ["CHEVRON", "10,50 GAL @ 3.49"], truth: Self.receipt.truth, features: [])
        var produced = EvalRunner.Produced()
        produced.content = try GeneratedContent(json: #"{"stationBrand":"CHEVRON","totalAmount":45,"volume":10.5,"pricePerUnit":3.49}"#)
        #expect(
            EvalRunner.score(GuideExampleReceiptTask.self, item: printed, prompt: GuideExampleReceiptTask.prompt(for: printed), produced).copied
                == [],
            "values the receipt prints are read, not copied")
    }

    final class Flag: Sendable {
        let raised = Mutex(false)
    }

    @Test func timeLimitCancelsTheAnswer() async throws {
        let flag = Flag()
        await #expect(throws: TimeLimitExceeded.self) {
            try await withTimeLimit(0.2) {
                do {
                    // Only the limit may end this answer, however late a
                    // busy machine wakes the limit's timer: on 2 cores, two
                    // CPU-bound synchronous tests can hold both threads of
                    // the cooperative pool, and once the timer woke after an
                    // answer of 30 s had already returned.
                    try await Task.sleep(for: .seconds(600))
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
