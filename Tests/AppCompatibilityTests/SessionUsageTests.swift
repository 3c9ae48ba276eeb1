// App session code run against the system model on a machine where the
// model is not ready: `make test` runs this target in its own process with
// FOUNDATION_MODELS_MODEL pointing at a file that does not exist, so the
// model reports `.unavailable(.modelNotReady)` and fails requests with
// `assetsUnavailable` — exactly the path an app takes before the model is
// downloaded. (The same calls on the real model are tested in
// FoundationModelsTests/OnDevice.)

import Foundation
import FoundationModels
import TestSupport
import Testing

@Suite("Session usage from app code")
struct SessionUsageTests {
    @Test("availability switch: the system model is not ready", .tags(.noModel), .needs(.noModel))
    func availability() {
        #expect(SystemLanguageModel.default.availability == .unavailable(.modelNotReady))
        #expect(!SystemLanguageModel.default.isAvailable)
        #expect(aiFeatureState() == .downloading)
        #expect(unavailableReasonText() == "The model is still downloading.")
        #expect(aiFeatureState(for: SystemLanguageModel(useCase: .contentTagging)) == .downloading)
        #expect(SystemLanguageModel.default.contextSize == 4096)
    }

    @Test("respond on an unavailable model throws assetsUnavailable and leaves the transcript alone", .tags(.noModel), .needs(.noModel))
    func respondFails() async throws {
        let session = SessionRecipes.plainSession()
        let before = session.transcript
        #expect(before.count == 1)
        await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await SessionRecipes.albumInsight(session: session)
        }
        do {
            _ = try await session.respond(to: "Hello")
            Issue.record("an unavailable model answered")
        } catch LanguageModelSession.GenerationError.assetsUnavailable(let context) {
            #expect(!context.debugDescription.isEmpty)
        }
        #expect(session.transcript == before)
        #expect(!session.isResponding)
    }

    @Test("every recipe compiles and fails the same way", .tags(.noModel), .needs(.noModel), arguments: 0..<5)
    func recipes(index: Int) async {
        let session = SessionRecipes.builderSession(includeTone: index.isMultiple(of: 2))
        let failure: GenerationFailure
        do {
            switch index {
            case 0: _ = try await SessionRecipes.triage("The app crashes.", session: session)
            case 1: _ = try await SessionRecipes.weeklySummary(session: session)
            case 2: _ = try await SessionRecipes.collectCards(session: session)
            case 3: _ = try await SessionRecipes.toolSession().respond(to: "What do I own?", generating: AlbumAIInsight.self)
            default: _ = try await session.respond(to: "Hi", schema: DraftCard.generationSchema)
            }
            failure = .other("no error")
        } catch {
            failure = await classify(error)
        }
        #expect(failure == .modelUnavailable)
    }

    @Test("builder instructions become the first transcript entry, with conditional lines")
    func builderInstructions() throws {
        func instructionText(_ session: LanguageModelSession) throws -> String {
            guard case .instructions(let instructions) = try #require(session.transcript.first) else {
                Issue.record("the first entry should be the instructions")
                return ""
            }
            return instructions.segments.map(\.description).joined(separator: "\n")
        }
        let kind = try instructionText(SessionRecipes.builderSession(includeTone: true))
        let terse = try instructionText(SessionRecipes.builderSession(includeTone: false))
        #expect(kind.contains("You triage support tickets."))
        #expect(kind.contains("Be kind to the customer."))
        #expect(!kind.contains("Be terse."))
        #expect(terse.contains("Be terse."))
        #expect(try instructionText(SessionRecipes.plainSession()).contains(SessionRecipes.clerkInstructions))

        guard case .instructions(let withTools) = SessionRecipes.toolSession().transcript.first else {
            Issue.record("a session with tools starts with instructions")
            return
        }
        #expect(withTools.toolDefinitions.map(\.name) == ["findAlbum", "PriceLookupTool"])
    }

    @Test("generation options are built the way apps write them")
    func options() {
        let greedy = GenerationOptions(sampling: .greedy, temperature: 0.2, maximumResponseTokens: 200)
        #expect(greedy.sampling == .greedy)
        #expect(greedy.temperature == 0.2)
        #expect(greedy.maximumResponseTokens == 200)
        var options = GenerationOptions()
        options.sampling = .random(top: 40, seed: 7)
        #expect(options.sampling != GenerationOptions.SamplingMode.random(top: 40, seed: 8))
        #expect(GenerationOptions(sampling: .random(probabilityThreshold: 0.9)).sampling == .random(probabilityThreshold: 0.9))
        #expect(GenerationOptions().sampling == nil)
    }

    @Test("prewarm returns at once and doesn't touch the transcript")
    func prewarm() {
        let session = SessionRecipes.plainSession()
        let before = session.transcript
        session.prewarm()
        session.prewarm(promptPrefix: Prompt { "Tell me about" })
        #expect(session.transcript == before)
    }

    // MARK: The main-actor view model

    @Test("a @MainActor view model calls respond and keeps the failure", .tags(.noModel), .needs(.noModel))
    @MainActor
    func viewModelRespond() async {
        let model = AlbumInsightsViewModel(briefAnswers: true)
        model.prepare()
        await model.loadInsight(artist: "Miles Davis", title: "Kind of Blue")
        #expect(model.insight == nil)
        #expect(model.lastFailure == .modelUnavailable)
        #expect(!model.isGenerating)
        #expect(!model.isResponding)
        #expect(model.transcript.count == 1)

        await model.loadRecommendations(for: "Kind of Blue")
        #expect(model.recommendations.isEmpty)
        await model.loadStudyPlan(deck: "Vinyl terms")
        #expect(model.studyPlan == nil)
        #expect(model.lastFailure == .modelUnavailable)
    }

    @Test("a @MainActor view model streams and the stream throws assetsUnavailable", .tags(.noModel), .needs(.noModel))
    @MainActor
    func viewModelStream() async {
        let model = AlbumInsightsViewModel()
        await model.streamCards(topic: "jazz labels")
        #expect(model.draftQuestions.isEmpty)
        #expect(model.lastFailure == .modelUnavailable)

        await #expect(throws: LanguageModelSession.GenerationError.self) {
            _ = try await model.streamStudyPlan(deck: "jazz labels")
        }
        await #expect(throws: LanguageModelSession.GenerationError.self) {
            _ = try await model.streamChat("hi")
        }
        await #expect(throws: LanguageModelSession.GenerationError.self) {
            _ = try await model.chat("hi")
        }
        await #expect(throws: LanguageModelSession.GenerationError.self) {
            _ = try await model.generate(StudyPlan.self, from: "Plan it")
        }
        await #expect(throws: LanguageModelSession.GenerationError.self) {
            _ = try await model.extractReceipt(from: "Shell, 42 L", schema: ParsedFuelReceiptSchema.generationSchema)
        }
        #expect(model.transcript.count == 1)
    }

    // MARK: Feedback

    @Test("logFeedbackAttachment returns JSON with the transcript and the feedback")
    @MainActor
    func feedback() throws {
        let model = AlbumInsightsViewModel()
        let data = model.reportBadAnswer()
        let json = try JSONObject(data: data)
        #expect(json.string("sentiment") == "negative")
        let issue = try #require(json.objects("issues")?.first)
        #expect(issue.string("category") == "incorrect")
        #expect(issue.string("explanation") == "The release year is wrong.")
        let transcript = try #require(json.object("transcript"))
        #expect(transcript.string("type") == "FoundationModels.Transcript")
        #expect(transcript.object("transcript")?.objects("entries")?.first?.string("role") == "instructions")

        // The transcript inside decodes as a Transcript.
        let inner = try JSONSerialization.data(withJSONObject: transcript.raw)
        #expect(try JSONDecoder().decode(Transcript.self, from: inner) == model.transcript)
    }

    @Test("the other feedback overloads carry what the user wanted")
    func feedbackOverloads() throws {
        let session = SessionRecipes.plainSession()
        let text = try JSONObject(data: session.logFeedbackAttachment(sentiment: .positive, desiredResponseText: "Shorter, please."))
        #expect(text.string("sentiment") == "positive")
        #expect(text.string("desiredResponseText") == "Shorter, please.")
        let content = try JSONObject(
            data: session.logFeedbackAttachment(
                sentiment: nil,
                issues: [.init(category: .tooVerbose)],
                desiredResponseContent: Fixtures.ticket
            ))
        #expect(content.objects("issues")?.first?.string("category") == "tooVerbose")
        let desired = try #require(content.raw["desiredResponseContent"])
        let desiredText = try #require(
            desired as? String ?? (try? JSONSerialization.data(withJSONObject: desired)).map { String(decoding: $0, as: UTF8.self) })
        #expect(try TicketSummary(GeneratedContent(json: desiredText)) == Fixtures.ticket)
        #expect(LanguageModelFeedback.Issue.Category.allCases.count == 8)
    }
}
