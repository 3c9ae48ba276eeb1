extension LanguageModelSession {
    /// The error a caller sees for an error raised while serving a request.
    ///
    /// Code written against 26 catches ``GenerationError``; executors written
    /// against 27 throw ``LanguageModelError``. Each 27 case that has a 26
    /// equivalent is translated; the others, and every other error
    /// (``ToolCallError``, `CancellationError`), pass through unchanged.
    static func surfaced(_ error: any Error) -> any Error {
        guard let error = error as? LanguageModelError else { return error }
        switch error {
        case .contextSizeExceeded(let e):
            return GenerationError.exceededContextWindowSize(.init(
                debugDescription: "\(e.debugDescription) (\(e.tokenCount) tokens needed, context size \(e.contextSize))"
            ))
        case .rateLimited(let e):
            return GenerationError.rateLimited(.init(debugDescription: e.debugDescription))
        case .guardrailViolation(let e):
            return GenerationError.guardrailViolation(.init(debugDescription: e.debugDescription))
        case .refusal(let e):
            let explanation = Transcript.Response(
                assetIDs: [],
                segments: e.explanation.map { [.text(Transcript.TextSegment(content: $0))] } ?? []
            )
            return GenerationError.refusal(
                GenerationError.Refusal(transcriptEntries: [.response(explanation)]),
                .init(debugDescription: e.debugDescription)
            )
        case .unsupportedGenerationGuide(let e):
            return GenerationError.unsupportedGuide(.init(debugDescription: e.debugDescription))
        case .unsupportedLanguageOrLocale(let e):
            return GenerationError.unsupportedLanguageOrLocale(.init(debugDescription: e.debugDescription))
        case .unsupportedCapability, .unsupportedTranscriptContent, .timeout:
            return error
        }
    }
}
