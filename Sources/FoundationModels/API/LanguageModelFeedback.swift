import Foundation

/// Feedback about a model's response, in a consistent shape for logging or
/// attaching to a bug report.
///
/// It is a namespace: ``Sentiment`` rates the output and ``Issue`` names what
/// went wrong. `LanguageModelSession.logFeedbackAttachment(...)` turns them,
/// together with the session's transcript, into JSON.
public struct LanguageModelFeedback: Sendable {
    /// How the model's output was received.
    public enum Sentiment: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
        case positive
        case negative
        case neutral
    }

    /// An issue with the model's response.
    public struct Issue: Sendable, Equatable, Hashable, Codable {
        /// Categories for model response issues.
        public enum Category: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
            /// A response that isn't helpful.
            case unhelpful
            /// A response that is longer than it needs to be.
            case tooVerbose
            /// A response that doesn't follow instructions correctly.
            case didNotFollowInstructions
            /// An incorrect response.
            case incorrect
            /// A response that exhibits bias or perpetuates a stereotype.
            case stereotypeOrBias
            /// A response with suggestive or sexual material.
            case suggestiveOrSexual
            /// A response with vulgar or offensive material.
            case vulgarOrOffensive
            /// A guardrail was triggered by a request that should have been allowed.
            case triggeredGuardrailUnexpectedly
        }

        /// The kind of issue.
        package var category: Category
        /// An optional explanation of the issue.
        package var explanation: String?

        /// Creates an issue.
        public init(category: Category, explanation: String? = nil) {
            self.category = category
            self.explanation = explanation
        }
    }
}

extension LanguageModelSession {
    /// Logs and serializes a feedback attachment: JSON holding the session's
    /// transcript, the sentiment, the issues and the desired output entry.
    @discardableResult
    public func logFeedbackAttachment(
        sentiment: LanguageModelFeedback.Sentiment?,
        issues: [LanguageModelFeedback.Issue] = [],
        desiredOutput: Transcript.Entry? = nil
    ) -> Data {
        FeedbackAttachment(
            transcript: transcript,
            sentiment: sentiment,
            issues: issues,
            desiredOutput: desiredOutput.map(Transcript.EntryCoding.init),
            desiredResponseText: nil,
            desiredResponseContent: nil
        ).encoded()
    }

    /// Logs and serializes a feedback attachment that includes the response
    /// text you expected.
    @discardableResult
    public func logFeedbackAttachment(
        sentiment: LanguageModelFeedback.Sentiment?,
        issues: [LanguageModelFeedback.Issue] = [],
        desiredResponseText: String?
    ) -> Data {
        FeedbackAttachment(
            transcript: transcript,
            sentiment: sentiment,
            issues: issues,
            desiredOutput: nil,
            desiredResponseText: desiredResponseText,
            desiredResponseContent: nil
        ).encoded()
    }

    /// Logs and serializes a feedback attachment that includes the content
    /// you expected.
    @discardableResult
    public func logFeedbackAttachment(
        sentiment: LanguageModelFeedback.Sentiment?,
        issues: [LanguageModelFeedback.Issue] = [],
        desiredResponseContent: (any ConvertibleToGeneratedContent)?
    ) -> Data {
        FeedbackAttachment(
            transcript: transcript,
            sentiment: sentiment,
            issues: issues,
            desiredOutput: nil,
            desiredResponseText: nil,
            desiredResponseContent: desiredResponseContent.map { $0.generatedContent.jsonString }
        ).encoded()
    }
}

/// The JSON document `logFeedbackAttachment` returns.
///
/// Shape (absent values left out):
/// `{"sentiment":"negative","issues":[{"category":"incorrect","explanation":"…"}],
///   "desiredOutput":{…transcript entry…},"desiredResponseText":"…",
///   "desiredResponseContent":"<JSON text>","transcript":{…Transcript JSON…}}`
private struct FeedbackAttachment: Encodable {
    var transcript: Transcript
    var sentiment: LanguageModelFeedback.Sentiment?
    var issues: [LanguageModelFeedback.Issue]
    var desiredOutput: Transcript.EntryCoding?
    var desiredResponseText: String?
    var desiredResponseContent: String?

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return try encoder.encode(self)
        } catch {
            // Everything in the attachment is plain JSON data; should a value
            // still fail to encode, return a document that says so rather
            // than losing the feedback silently.
            let message = String(describing: error).replacingOccurrences(of: "\"", with: "'")
            return Data(#"{"error":"\#(message)"}"#.utf8)
        }
    }
}
