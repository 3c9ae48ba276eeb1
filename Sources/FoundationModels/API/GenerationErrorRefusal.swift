import Foundation

extension LanguageModelSession.GenerationError.Refusal {
    /// The model's own words about the refusal: the text of the last
    /// response in the entries leading up to it, or a generic sentence when
    /// the model gave none.
    package var explanationText: String {
        for entry in transcriptEntries.reversed() {
            if case .response(let response) = entry {
                let text = response.segments.renderedText
                if !text.isEmpty {
                    return text
                }
            }
        }
        return "The model declined to respond to this request."
    }

    /// An explanation for why the model refused to respond.
    public var explanation: LanguageModelSession.Response<String> {
        get async throws { RefusalExplanation.response(explanationText) }
    }

    /// A stream containing an explanation about why the model refused to respond.
    public var explanationStream: LanguageModelSession.ResponseStream<String> {
        RefusalExplanation.stream(explanationText)
    }
}

extension LanguageModelError.Refusal {
    /// An explanation for why the model refused to respond: the model's own
    /// words, as a response.
    public var explanation: LanguageModelSession.Response<String> {
        get async throws { RefusalExplanation.response(explanationText) }
    }

    /// A stream containing an explanation about why the model refused to respond.
    public var explanationStream: LanguageModelSession.ResponseStream<String> {
        RefusalExplanation.stream(explanationText)
    }
}

/// A refusal's explanation as the response types apps read: already
/// complete, so the stream yields it at once.
enum RefusalExplanation {
    static func entry(_ text: String) -> Transcript.Entry {
        .response(Transcript.Response(assetIDs: [], segments: [.text(Transcript.TextSegment(content: text))]))
    }

    static func response(_ text: String) -> LanguageModelSession.Response<String> {
        LanguageModelSession.Response(content: text, rawContent: GeneratedContent(text), transcriptEntries: [entry(text)][...])
    }

    static func stream(_ text: String) -> LanguageModelSession.ResponseStream<String> {
        LanguageModelSession.ResponseStream(rawContent: GeneratedContent(text), transcriptEntries: [entry(text)][...])
    }
}
