// Guided generation on the real default model: every app type, generated
// with random seeds (4 runs, ACCEPTANCE_RUNS for more), must decode and
// stay within its guides.
// Runs in its own `make test` step with the model installed (the rest of
// this target runs with the model deliberately missing).

import Foundation
import FoundationModels
import TestSupport
import Testing

@Generable
enum ListeningMood: Equatable {
    case calm, energetic, melancholy
}

@Generable(description: "A listening session planned for tonight")
struct ListeningSession: Equatable {
    @Guide(description: "Catalog number, two capitals and four digits", /[A-Z]{2}[0-9]{4}/)
    var catalogNumber: String
    var mood: ListeningMood
    @Guide(description: "Playback speed", .range(0.5...2.0))
    var speed: Double
    @Guide(.count(3))
    var tracks: [String]
    var note: String?
}

@Generable
enum TrackReaction: Equatable {
    case skip
    case replay(times: Int)
    case note(text: String)
}

@Suite("Guided generation acceptance", .serialized, .tags(.defaultModel), .needs(.defaultModel))
struct GuidedAcceptanceTests {
    /// 4 seeded runs per type in `make test`, ACCEPTANCE_RUNS=50 for a
    /// longer soak. Validity does not rest on the seeds: the decoder cannot
    /// write an invalid value, and the random walks of the guided-generation
    /// tests try far more paths than any number of answers could. What the
    /// runs add is each app type through the real model's sampling, and
    /// one bad run fails the type. The default model takes two to five
    /// seconds per answer on two cores; at 8 runs these two suites were a
    /// third of `make test`.
    static let runs = Int(ProcessInfo.processInfo.environment["ACCEPTANCE_RUNS"] ?? "") ?? 4

    /// Generates `type` `runs` times with seeds 0..<runs and collects every
    /// failure and guide violation. The budget of 96 tokens keeps the run
    /// short; an answer the small model would make longer is finished in
    /// the fewest tokens, and must still be valid.
    static func generate<Value: Generable>(
        _ type: Value.Type,
        instructions: String,
        prompt: String,
        check: (Value) -> [String]
    ) async throws {
        try #require(SystemLanguageModel.default.isAvailable, "the default model is not installed; run `make setup`")
        var failures: [String] = []
        var tokens = 0
        for seed in 0..<runs {
            let session = LanguageModelSession(instructions: instructions)
            let options = GenerationOptions(sampling: .random(top: 40, seed: UInt64(seed)), maximumResponseTokens: 96)
            do {
                let response = try await session.respond(to: prompt, generating: type, options: options)
                tokens += response.usage.output.totalTokenCount
                failures += check(response.content).map { "seed \(seed): \($0) in \(response.rawContent.jsonString)" }
                if session.transcript.count != 3 { failures.append("seed \(seed): transcript has \(session.transcript.count) entries") }
            } catch {
                failures.append("seed \(seed): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(runs) runs failed:\n\(failures.joined(separator: "\n"))")
        #expect(tokens > 0)
    }

    static func within<T: Comparable>(_ value: T, _ range: ClosedRange<T>, _ name: String) -> [String] {
        range.contains(value) ? [] : ["\(name) \(value) outside \(range)"]
    }

    static func count<C: Collection>(_ items: C, _ range: ClosedRange<Int>, _ name: String) -> [String] {
        range.contains(items.count) ? [] : ["\(name) has \(items.count) elements, outside \(range)"]
    }

    @Test func ticketSummary() async throws {
        try await Self.generate(
            TicketSummary.self, instructions: "You triage support tickets.",
            prompt: "My printer shows error 42 and will not print invoices before the deadline."
        ) {
            Self.within($0.urgency, 1...5, "urgency") + Self.count($0.tags, 2...4, "tags")
        }
    }

    @Test func fuelReceipt() async throws {
        try await Self.generate(
            ParsedFuelReceiptSchema.self, instructions: "You read fuel receipts.", prompt: "SHELL Main St. 42.1 L unleaded, total 71.45 EUR, pump 4."
        ) { _ in [] }
    }

    @Test func weeklySummary() async throws {
        try await Self.generate(
            AISummary.self, instructions: "You coach people on their week.",
            prompt: "I slept badly, skipped the gym twice, and finished the report on time."
        ) { summary in
            Self.count(summary.recommendations, 0...3, "recommendations")
                + summary.recommendations.flatMap { Self.within($0.priority, 1...3, "priority") }
        }
    }

    @Test func albumInsight() async throws {
        try await Self.generate(
            AlbumAIInsight.self, instructions: "You write about vinyl records.", prompt: "Kind of Blue by Miles Davis, 1959 Columbia pressing."
        ) { _ in [] }
    }

    @Test func crateInsight() async throws {
        try await Self.generate(
            CrateAIInsight.self, instructions: "You write about vinyl records.", prompt: "A crate with Blue Train, A Love Supreme and Head Hunters."
        ) {
            Self.count($0.moodTags, 3...5, "moodTags")
        }
    }

    @Test func albumRecommendation() async throws {
        try await Self.generate(
            AlbumRecommendation.self, instructions: "You recommend albums from the user's collection.",
            prompt: "I am listening to Blue Train. Collection: 1001 Giant Steps, 1002 Head Hunters, 1003 Moanin'."
        ) {
            (["artist", "genre", "era", "label", "style"].contains($0.connectionType) ? [] : ["connectionType \($0.connectionType)"])
                + Self.count($0.basedOn, 1...3, "basedOn")
        }
    }

    @Test func flashcards() async throws {
        try await Self.generate(
            DraftCardSet.self, instructions: "You write flash cards.", prompt: "Make cards about the planets of the solar system."
        ) { _ in [] }
    }

    @Test func studyPlan() async throws {
        try await Self.generate(StudyPlan.self, instructions: "You plan study sessions.", prompt: "Plan how to study a deck of 40 Spanish verbs.") {
            Self.within($0.minutesPerSession, 5...60, "minutesPerSession")
        }
    }

    @Test func listeningSession() async throws {
        try await Self.generate(ListeningSession.self, instructions: "You plan listening sessions.", prompt: "Plan a relaxed jazz evening.") {
            session in
            (session.catalogNumber.wholeMatch(of: /[A-Z]{2}[0-9]{4}/) == nil ? ["catalogNumber \(session.catalogNumber)"] : [])
                + Self.within(session.speed, 0.5...2.0, "speed")
                + Self.count(session.tracks, 3...3, "tracks")
        }
    }

    @Test func taggedEnum() async throws {
        try await Self.generate(TrackReaction.self, instructions: "You react to songs.", prompt: "The song was great, I want to hear it again.") {
            _ in []
        }
    }
}
