// The catch clauses apps write, fed every error the session can throw.

import Foundation
import FoundationModels
import Testing

@Suite("Error handling from app code")
struct ErrorHandlingTests {
    typealias GenerationError = LanguageModelSession.GenerationError

    static func context(_ text: String = "details") -> GenerationError.Context {
        GenerationError.Context(debugDescription: text)
    }

    @Test("each GenerationError case lands in its own catch clause")
    func catchClauses() async {
        let cases: [(any Error, GenerationFailure)] = [
            (GenerationError.exceededContextWindowSize(Self.context()), .contextTooLong),
            (GenerationError.guardrailViolation(Self.context()), .unsafeContent),
            (GenerationError.assetsUnavailable(Self.context()), .modelUnavailable),
            (GenerationError.unsupportedLanguageOrLocale(Self.context()), .unsupportedLanguage),
            (GenerationError.unsupportedGuide(Self.context()), .unsupportedGuide),
            (GenerationError.decodingFailure(Self.context()), .badOutput),
            (GenerationError.concurrentRequests(Self.context()), .busy),
            (GenerationError.rateLimited(Self.context()), .rateLimited),
            (CancellationError(), .other(CancellationError().localizedDescription)),
        ]
        for (error, expected) in cases {
            #expect(await classify(error) == expected, "\(error)")
        }
    }

    @Test("catch .refusal(let refusal, _) and read refusal.explanation")
    func refusal() async throws {
        let explanation = Transcript.Response(
            assetIDs: [],
            segments: [.text(Transcript.TextSegment(content: "I can't help with identifying bootleg pressings."))]
        )
        let refusal = GenerationError.Refusal(transcriptEntries: [.response(explanation)])
        let error = GenerationError.refusal(refusal, Self.context("The model refused."))
        #expect(await classify(error) == .refused(explanation: "I can't help with identifying bootleg pressings."))

        // The streaming form of the explanation yields the same text.
        var streamed = ""
        for try await snapshot in refusal.explanationStream {
            streamed = snapshot.content
        }
        #expect(streamed == "I can't help with identifying bootleg pressings.")
        #expect(alertMessage(for: error).contains("The model refused."))

        // A refusal without words still explains itself.
        let silent = GenerationError.refusal(GenerationError.Refusal(transcriptEntries: []), Self.context())
        guard case .refused(let text) = await classify(silent) else {
            Issue.record("expected a refusal")
            return
        }
        #expect(text?.isEmpty == false)
    }

    @Test("catch let error as ToolCallError names the tool and keeps the underlying error")
    func toolCallError() async throws {
        let error = LanguageModelSession.ToolCallError(tool: PriceLookupTool(), underlyingError: PriceLookupTool.MarketplaceUnavailable())
        #expect(await classify(error) == .toolFailed(toolName: "PriceLookupTool"))
        #expect(error.underlyingError is PriceLookupTool.MarketplaceUnavailable)
        #expect(error.errorDescription?.contains("PriceLookupTool") == true)

        // The tool itself throws, as the session would see it.
        await #expect(throws: PriceLookupTool.MarketplaceUnavailable.self) {
            try await PriceLookupTool().call(arguments: .init(releaseId: 1))
        }
    }

    @Test("every GenerationError reads as real sentences")
    func localizedText() {
        let all: [GenerationError] = [
            .exceededContextWindowSize(Self.context()), .assetsUnavailable(Self.context()),
            .guardrailViolation(Self.context()), .unsupportedGuide(Self.context()),
            .unsupportedLanguageOrLocale(Self.context()), .decodingFailure(Self.context()),
            .rateLimited(Self.context()), .concurrentRequests(Self.context()),
            .refusal(GenerationError.Refusal(transcriptEntries: []), Self.context()),
        ]
        var descriptions = Set<String>()
        for error in all {
            let description = error.errorDescription ?? ""
            #expect(description.first?.isUppercase == true && description.contains(". details"), "\(description)")
            #expect(error.failureReason?.isEmpty == false)
            #expect(error.recoverySuggestion?.isEmpty == false)
            #expect(error.localizedDescription == description)
            descriptions.insert(description)
        }
        #expect(descriptions.count == all.count)
        #expect(alertMessage(for: .exceededContextWindowSize(Self.context("4200 tokens"))) == "Conversation too long. 4200 tokens")
    }

    @Test("the tool runs like app code expects")
    func toolCall() async throws {
        let output = try await FindAlbumTool.sample.call(arguments: Fixtures.arguments)
        #expect(output == "Miles Davis - Kind of Blue (1959)")
        let none = try await FindAlbumTool.sample.call(arguments: .init(artist: "Nobody", decade: nil, limit: 5))
        #expect(none == "No albums by Nobody in the collection.")
        // Arguments the model produced, decoded and passed to the tool.
        let arguments = try FindAlbumTool.Arguments(GeneratedContent(json: #"{"artist":"miles davis","limit":5}"#))
        #expect(try await FindAlbumTool.sample.call(arguments: arguments).split(separator: "\n").count == 2)
    }
}
