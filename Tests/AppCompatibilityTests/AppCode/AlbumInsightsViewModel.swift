// A SwiftUI-style view model: owns a session on the main actor and calls
// respond / streamResponse from there, storing non-Sendable results.

import Foundation
import FoundationModels
import Observation

@MainActor
@Observable
final class AlbumInsightsViewModel {
    private(set) var insight: AlbumAIInsight?
    private(set) var recommendations: [AlbumRecommendation] = []
    private(set) var studyPlan: StudyPlan?
    private(set) var draftQuestions: [String] = []
    private(set) var lastFailure: GenerationFailure?
    private(set) var isGenerating = false

    @ObservationIgnored private let session: LanguageModelSession

    init(briefAnswers: Bool = false) {
        session = LanguageModelSession(tools: [FindAlbumTool.sample]) {
            "You are a record store clerk who knows every pressing."
            "Answer in the voice of a friendly expert."
            if briefAnswers {
                "Keep every answer under 50 words."
            }
        }
    }

    init(session: LanguageModelSession) {
        self.session = session
    }

    var transcript: Transcript { session.transcript }
    var isResponding: Bool { session.isResponding }

    func prepare() {
        session.prewarm()
        session.prewarm(promptPrefix: Prompt { "Tell me about the album" })
    }

    func loadInsight(artist: String, title: String) async {
        isGenerating = true
        defer { isGenerating = false }
        do {
            let response = try await session.respond(
                to: "Give me insights about \(title) by \(artist).",
                generating: AlbumAIInsight.self
            )
            insight = response.content
        } catch {
            lastFailure = await classify(error)
        }
    }

    func loadRecommendations(for album: String) async {
        do {
            let prompt = Prompt {
                "Recommend albums from my collection to play after \(album)."
                "Use the findAlbum tool to check what I own."
            }
            let response = try await session.respond(
                to: prompt,
                generating: [AlbumRecommendation].self,
                options: GenerationOptions(sampling: .random(top: 40, seed: 7), temperature: 0.8)
            )
            recommendations = response.content
        } catch {
            lastFailure = await classify(error)
        }
    }

    /// A non-Sendable result produced and kept on the main actor.
    func loadStudyPlan(deck: String) async {
        do {
            let response = try await session.respond(generating: StudyPlan.self) {
                "Plan how to study the deck \(deck)."
            }
            studyPlan = response.content
        } catch {
            lastFailure = await classify(error)
        }
    }

    /// The generic helper apps write once and call with every type.
    func generate<T: Generable>(_ type: T.Type, from prompt: String) async throws -> T {
        let response = try await session.respond(
            to: prompt,
            generating: T.self,
            includeSchemaInPrompt: false,
            options: GenerationOptions(sampling: .greedy, temperature: 0.2, maximumResponseTokens: 200)
        )
        return response.content
    }

    func streamCards(topic: String) async {
        draftQuestions = []
        let stream = session.streamResponse(generating: DraftCardSet.self) {
            "Write five flash cards about \(topic)."
        }
        do {
            for try await partial in stream {
                if let question = partial.content.cards?.first?.question {
                    draftQuestions = [question]
                }
                draftQuestions = partial.content.cards?.compactMap(\.question) ?? draftQuestions
            }
        } catch {
            lastFailure = await classify(error)
        }
    }

    func streamStudyPlan(deck: String) async throws -> StudyPlan {
        let stream = session.streamResponse(
            to: "Plan how to study \(deck).",
            generating: StudyPlan.self,
            options: GenerationOptions(sampling: .random(probabilityThreshold: 0.9))
        )
        for try await partial in stream {
            if let focus = partial.content.focus {
                draftQuestions = [focus]
            }
        }
        return try await stream.collect().content
    }

    func chat(_ message: String) async throws -> String {
        let response = try await session.respond(to: message)
        return response.content
    }

    func streamChat(_ message: String) async throws -> String {
        var latest = ""
        for try await partial in session.streamResponse(to: message) {
            latest = partial.content
        }
        return latest
    }

    func extractReceipt(from text: String, schema: GenerationSchema) async throws -> GeneratedContent {
        let response = try await session.respond(to: text, schema: schema)
        return response.content
    }

    func reportBadAnswer() -> Data {
        session.logFeedbackAttachment(
            sentiment: .negative,
            issues: [.init(category: .incorrect, explanation: "The release year is wrong.")],
            desiredOutput: nil
        )
    }
}
