import Foundation
import Testing

@testable import FoundationModels

@Suite struct FeedbackTests {
    private func session() throws -> LanguageModelSession {
        LanguageModelSession(transcript: try everyKindTranscript())
    }

    private func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func categoriesAndSentiments() {
        #expect(LanguageModelFeedback.Issue.Category.allCases.count == 8)
        #expect(LanguageModelFeedback.Sentiment.allCases == [.positive, .negative, .neutral])
        let issue = LanguageModelFeedback.Issue(category: .tooVerbose)
        #expect(issue.category == .tooVerbose)
        #expect(issue.explanation == nil)
    }

    @Test func attachmentHoldsFeedbackAndTranscript() throws {
        let session = try session()
        let data = session.logFeedbackAttachment(
            sentiment: .negative,
            issues: [
                LanguageModelFeedback.Issue(category: .incorrect, explanation: "Paris is cloudy."),
                LanguageModelFeedback.Issue(category: .tooVerbose),
            ],
            desiredOutput: .response(Transcript.Response(id: "wanted", assetIDs: [], segments: [.text(.init(id: "w", content: "Cloudy."))]))
        )
        let json = try object(data)
        #expect(json["sentiment"] as? String == "negative")
        let issues = try #require(json["issues"] as? [[String: Any]])
        #expect(issues.map { $0["category"] as? String } == ["incorrect", "tooVerbose"])
        #expect(issues[0]["explanation"] as? String == "Paris is cloudy.")
        #expect(issues[1]["explanation"] == nil)
        let desired = try #require(json["desiredOutput"] as? [String: Any])
        #expect(desired["role"] as? String == "response")
        #expect(desired["id"] as? String == "wanted")

        // The transcript inside is the session's, in the Transcript JSON form.
        let transcriptData = try JSONSerialization.data(withJSONObject: try #require(json["transcript"]))
        #expect(try JSONDecoder().decode(Transcript.self, from: transcriptData) == session.transcript)
    }

    @Test func desiredResponseText() throws {
        let data = try session().logFeedbackAttachment(sentiment: .positive, desiredResponseText: "Sunny everywhere.")
        let json = try object(data)
        #expect(json["sentiment"] as? String == "positive")
        #expect(json["desiredResponseText"] as? String == "Sunny everywhere.")
        #expect((json["issues"] as? [Any])?.isEmpty == true)
        #expect(json["desiredOutput"] == nil)
    }

    @Test func desiredResponseContent() throws {
        let city = PromptCity(name: "Nice", population: 340_000)
        let data = try session().logFeedbackAttachment(sentiment: nil, issues: [.init(category: .unhelpful)], desiredResponseContent: city)
        let json = try object(data)
        #expect(json["sentiment"] == nil)
        let content = try #require(json["desiredResponseContent"] as? String)
        #expect(try PromptCity(GeneratedContent(json: content)) == city)
    }

    @Test func emptySessionStillProducesJSON() throws {
        let data = LanguageModelSession(transcript: Transcript()).logFeedbackAttachment(sentiment: .neutral)
        let json = try object(data)
        #expect(json["sentiment"] as? String == "neutral")
        let transcript = try #require(json["transcript"] as? [String: Any])
        #expect(transcript["type"] as? String == "FoundationModels.Transcript")
    }
}
