import Flashcards
import Foundation
import FoundationModels
import ReceiptExtraction
import Testing
import TicketTriage

@testable import CoachingReport
@testable import FoundationModelsEval

/// The "cut short" rule on handmade answers: the cuts users saw (a
/// flashcard stopped at "walk on the", a headline "Maya's", reasons "The")
/// are found by path, and whole answers are left alone.
@Suite("Eval cut-short strings")
struct CutShortTests {
    static let armstrongNotes =
        "- Neil Armstrong was the first person to walk on the Moon, in July 1969.\n- Apollo 11 landed in the Sea of Tranquility."

    static func paths(_ cuts: [CutString], _ kind: CutString.Kind) -> [String] {
        cuts.filter { $0.kinds.contains(kind) }.map(\.path)
    }

    static func deck(_ answers: [String]) -> GeneratedContent {
        FlashcardDeck(cards: answers.enumerated().map { Flashcard(question: "What is fact \($0.offset + 1)?", answer: $0.element) }).generatedContent
    }

    @Test func aFlashcardStoppedByItsWordLimitIsCutMidSentence() {
        let content = Self.deck(["Neil Armstrong", "Neil Armstrong was the first person to walk on the", "In the Sea of Tranquility."])
        let cuts = CutShort.cuts(in: content, schema: FlashcardDeck.generationSchema, input: Self.armstrongNotes)
        #expect(Self.paths(cuts, .midSentence) == ["cards[1].answer"])
        #expect(Self.paths(cuts, .midWord).isEmpty)
        #expect(cuts.first?.text == "Neil Armstrong was the first person to walk on the")
    }

    @Test func questionsWithAPatternAreNotFreeStrings() {
        let strings = CutShort.freeStrings(in: Self.deck(["July 1969"]), schema: FlashcardDeck.generationSchema)
        #expect(strings.map(\.path) == ["cards[0].answer"])
        let triage = Triage(queue: .billing, priority: .urgent, summary: "Charged twice").generatedContent
        let free = CutShort.freeStrings(in: triage, schema: Triage.generationSchema)
        #expect(free.map(\.path) == ["summary"], "queue and priority are choices")
        #expect(free.first?.isSentence == true, "its description asks for one sentence")
    }

    static func report(headline: String, reason: String, title: String = "Long run") -> GeneratedContent {
        let observation = Observation(title: title, reason: reason)
        return CoachingReport(
            headline: headline, strengths: [observation, observation], focusAreas: [observation, observation],
            nextWeek: [
                PlannedSession(day: .monday, workout: "8 km easy"), PlannedSession(day: .wednesday, workout: "6 x 800 m"),
                PlannedSession(day: .sunday, workout: "18 km long run"),
            ]
        ).generatedContent
    }

    @Test func aHeadlineOfAPossessiveAndReasonsOfAnArticleAreCut() {
        let input = "You are a running coach writing Maya's weekly training report.\n- Sunday: long run, 16 km in 98 min (strong until 14 km)"
        let cuts = CutShort.cuts(in: Self.report(headline: "Maya's", reason: "The"), schema: CoachingReport.generationSchema, input: input)
        #expect(
            Self.paths(cuts, .midSentence) == [
                "headline", "strengths[0].reason", "strengths[1].reason", "focusAreas[0].reason", "focusAreas[1].reason",
            ])
        let whole = CutShort.cuts(
            in: Self.report(
                headline: "Maya's strongest week before the half marathon",
                reason: "The 16 km long run on Sunday stayed strong until 14 km."),
            schema: CoachingReport.generationSchema, input: input)
        #expect(whole.isEmpty, "\(whole)")
    }

    @Test func completeSentencesAndShortLabelsAreWhole() {
        let input = Self.armstrongNotes + "\nCASEY'S #2231"
        for text in [
            "Neil Armstrong was the first person to walk on the Moon.", "Neil Armstrong", "Vitamin A", "Plan B",
            "16 km", "NYC", "Casey's", "late night", "Is it \"done\"?", "Mr. Smith ran the long run",
        ] {
            #expect(!CutShort.endsMidSentence(text, isSentence: false, input: input), "\(text)")
            #expect(!CutShort.endsMidWord(text, input: input), "\(text)")
        }
        // A receipt's brand copied from the receipt is a name, not a cut possessive.
        let receipt = FuelReceipt(stationBrand: "Casey's", totalAmount: 40, volume: 10, pricePerUnit: 4).generatedContent
        #expect(CutShort.cuts(in: receipt, schema: FuelReceipt.generationSchema, input: input).isEmpty)
    }

    @Test func midSentenceEndings() {
        for text in [
            "The", "the long run went well and", "Strong week, steady,", "Focus on:", "Great progress (", "Ran well -",
            "Strong week. Long run stayed", "Maya's", "Keep building mileage with",
        ] {
            #expect(CutShort.endsMidSentence(text, isSentence: true, input: "Maya's week"), "\(text)")
        }
        #expect(!CutShort.endsMidSentence("Maya's", isSentence: false, input: "Maya's week"), "a label may be a name the input prints")
        #expect(CutShort.endsMidSentence("Maya's", isSentence: false, input: "the week"))
        #expect(CutShort.endsMidSentence("Great", isSentence: true, input: ""), "one word where a sentence was asked for")
        #expect(!CutShort.endsMidSentence("Great week", isSentence: true, input: ""), "a headline without a period is whole")
        #expect(!CutShort.endsMidSentence("Rest, then run.", isSentence: true, input: ""))
    }

    @Test func midWordEndings() {
        let input = Self.armstrongNotes
        #expect(CutShort.endsMidWord("walk on th", input: input))
        #expect(CutShort.endsMidWord("Neil Armstr", input: input), "the start of a name the input prints")
        #expect(CutShort.endsMidWord("first person to walk-", input: input))
        #expect(CutShort.endsMidWord("Maya'", input: input))
        #expect(!CutShort.endsMidWord("'Paris'", input: input), "a closing quote")
        #expect(!CutShort.endsMidWord("the 14th", input: input))
        #expect(!CutShort.endsMidWord("The Moon", input: input))
        #expect(!CutShort.endsMidWord("Apollo 11 crew", input: input))
        #expect(!CutShort.endsMidWord("Let It Be", input: "The Beatles, Abbey Road"), "a two-letter word, not the start of Beatles")
    }

    @Test func aBudgetedAnswerThatIsAPrefixOfTheUnbudgetedOneIsCut() {
        let unbudgeted = Triage(queue: .billing, priority: .urgent, summary: "Refund requested after a double charge on the annual plan.")
            .generatedContent
        func cuts(_ summary: String) -> [CutString] {
            CutShort.cuts(
                in: Triage(queue: .billing, priority: .urgent, summary: summary).generatedContent,
                schema: Triage.generationSchema, input: "Ticket: charged twice", unbudgeted: unbudgeted)
        }
        // Nothing else tells this one apart from a whole summary.
        #expect(cuts("Refund requested after a double charge").map(\.kinds) == [[.prefix]])
        #expect(cuts("Refund requested after a double charge on the").map(\.kinds) == [[.midSentence, .prefix]])
        #expect(cuts("Refund requested after a double cha").first?.kinds.contains(.midWord) == true, "stops inside the unbudgeted answer's word")
        #expect(cuts("Refund requested after a double charge on the annual plan").isEmpty, "only the final period is missing")
        #expect(cuts("Refund requested after a double charge on the annual plan.").isEmpty)
        #expect(cuts("Customer wants a refund.").isEmpty, "another summary is not a prefix")
        #expect(CutShort.isCutPrefix("Paris", of: "Paris, France"))
        #expect(!CutShort.isCutPrefix("Paris.", of: "Paris"))
    }

    @Test func aCutStringFailsTheAnswer() throws {
        let item = NotesCorpus.generate()[0]
        var produced = EvalRunner.Produced()
        produced.content = Self.deck(["Chlorophyll", "The green pigment that absorbs light energy in the", "Chloroplasts"])
        let record = EvalRunner.score(FlashcardTask.self, item: item, prompt: FlashcardTask.prompt(for: item), produced)
        #expect(record.cut?.map(\.path) == ["cards[1].answer"])
        #expect(!record.allRight)
        #expect(EvalRunner.summary(record).contains("cut short: cards[1].answer"))
    }

    @Test func stringsOfAnObjectSchemaAreFree() throws {
        let schema = try #require(JSONObjectTask.customSchema)
        let content = try GeneratedContent(json: #"{"city": "Paris", "trip": {"from": "the"}, "tags": ["calm", "late"]}"#)
        #expect(CutShort.freeStrings(in: content, schema: schema).map(\.path) == ["city", "trip.from", "tags[0]", "tags[1]"])
        #expect(CutShort.cuts(in: content, schema: schema, input: "").map(\.path) == ["trip.from"])
    }
}
