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

    /// The explanation as a response entry.
    private var explanationEntry: Transcript.Entry {
        .response(Transcript.Response(assetIDs: [], segments: [.text(Transcript.TextSegment(content: explanationText))]))
    }

    /// An explanation for why the model refused to respond.
    public var explanation: LanguageModelSession.Response<String> {
        get async throws {
            let text = explanationText
            return LanguageModelSession.Response(
                content: text,
                rawContent: GeneratedContent(text),
                transcriptEntries: [explanationEntry][...]
            )
        }
    }

    /// A stream containing an explanation about why the model refused to respond.
    public var explanationStream: LanguageModelSession.ResponseStream<String> {
        LanguageModelSession.ResponseStream(
            rawContent: GeneratedContent(explanationText),
            transcriptEntries: [explanationEntry][...]
        )
    }
}
