import Foundation
import Testing

@testable import FoundationModels

@Suite struct ErrorTests {
    typealias GenerationError = LanguageModelSession.GenerationError

    static let context = GenerationError.Context(debugDescription: "detail-XYZ")

    static var allCases: [GenerationError] {
        [
            .exceededContextWindowSize(context), .assetsUnavailable(context), .guardrailViolation(context),
            .unsupportedGuide(context), .unsupportedLanguageOrLocale(context), .decodingFailure(context),
            .rateLimited(context), .concurrentRequests(context),
            .refusal(GenerationError.Refusal(transcriptEntries: []), context),
        ]
    }

    @Test func everyCaseHasSpecificSentences() {
        let cases = Self.allCases
        let descriptions = cases.map { $0.errorDescription ?? "" }
        let reasons = cases.map { $0.failureReason ?? "" }
        let suggestions = cases.map { $0.recoverySuggestion ?? "" }
        for text in descriptions + reasons + suggestions {
            #expect(text.count > 20, "\(text)")
            #expect(text.hasSuffix(".") || text.hasSuffix("detail-XYZ"), "\(text)")
        }
        #expect(Set(descriptions).count == cases.count)
        #expect(Set(reasons).count == cases.count)
        #expect(Set(suggestions).count == cases.count)
        #expect(descriptions.allSatisfy { $0.contains("detail-XYZ") })
    }

    @Test func descriptionsSayWhatHappened() {
        #expect(GenerationError.exceededContextWindowSize(Self.context).errorDescription?.contains("context window") == true)
        #expect(GenerationError.concurrentRequests(Self.context).errorDescription?.contains("already responding") == true)
        #expect(GenerationError.guardrailViolation(Self.context).errorDescription?.contains("guardrails") == true)
        #expect(GenerationError.concurrentRequests(Self.context).recoverySuggestion?.contains("isResponding") == true)
        #expect(GenerationError.rateLimited(.init(debugDescription: "")).errorDescription == "The session was rate limited.")
        let localized = (GenerationError.decodingFailure(Self.context) as any Error).localizedDescription
        #expect(localized.contains("couldn't be decoded"))
    }

    @Test func contextKeepsItsDebugDescription() {
        #expect(GenerationError.decodingFailure(Self.context).context.debugDescription == "detail-XYZ")
        #expect(GenerationError.refusal(.init(transcriptEntries: []), Self.context).context.debugDescription == "detail-XYZ")
    }

    @Test func catchPatternsFromAppsCompile() async {
        func failing() throws {
            throw GenerationError.refusal(
                .init(transcriptEntries: [.response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: "I can't help with that."))]))]
                ),
                Self.context
            )
        }
        var why: String?
        do {
            try failing()
        } catch GenerationError.exceededContextWindowSize {
            Issue.record("wrong case")
        } catch GenerationError.refusal(let refusal, _) {
            why = try? await refusal.explanation.content
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(why == "I can't help with that.")
    }

    @Test func refusalExplanationUsesTheLastResponse() async throws {
        let entries: [Transcript.Entry] = [
            .prompt(Transcript.Prompt(segments: [.text(.init(content: "Do something bad."))])),
            .response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: "First."))])),
            .response(
                Transcript.Response(assetIDs: [], segments: [.text(.init(content: "I won't do that,")), .text(.init(content: "it is unsafe."))])),
        ]
        let refusal = GenerationError.Refusal(transcriptEntries: entries)
        let explanation = try await refusal.explanation
        #expect(explanation.content == "I won't do that,\nit is unsafe.")
        #expect(explanation.rawContent == GeneratedContent("I won't do that,\nit is unsafe."))
        #expect(explanation.transcriptEntries.count == 1)
        #expect(explanation.transcriptEntries.first?.text == "I won't do that,\nit is unsafe.")
    }

    @Test func refusalWithoutResponseStillExplains() async throws {
        let refusal = GenerationError.Refusal(transcriptEntries: [.prompt(Transcript.Prompt(segments: []))])
        #expect(try await refusal.explanation.content == "The model declined to respond to this request.")
    }

    @Test func refusalExplanationStream() async throws {
        let refusal = GenerationError.Refusal(transcriptEntries: [
            .response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: "Not allowed."))]))
        ])
        var snapshots: [String] = []
        for try await snapshot in refusal.explanationStream {
            snapshots.append(snapshot.content)
        }
        #expect(snapshots.last == "Not allowed.")
        #expect(try await refusal.explanationStream.collect().content == "Not allowed.")
    }

    @Test func toolCallErrorNamesToolAndCause() {
        struct Offline: LocalizedError {
            var errorDescription: String? { "The network is offline." }
            var recoverySuggestion: String? { "Reconnect." }
        }
        let error = LanguageModelSession.ToolCallError(tool: WeatherTool(), underlyingError: Offline())
        #expect(error.errorDescription == "The tool 'getWeather' failed: The network is offline.")
        #expect(error.recoverySuggestion == "Reconnect.")
        #expect(error.tool.name == "getWeather")
        #expect(error.underlyingError is Offline)

        struct Plain: Error {}
        let plain = LanguageModelSession.ToolCallError(tool: WeatherTool(), underlyingError: Plain())
        #expect(plain.errorDescription?.hasPrefix("The tool 'getWeather' failed: ") == true)
        #expect(plain.errorDescription?.contains("Plain") == true)
    }
}
