extension LanguageModelSession {
    /// The result of one `respond` call: the typed content, the raw content it
    /// was decoded from, and the transcript entries the call added.
    public struct Response<Content> where Content: Generable {
        /// The response, decoded into the requested type.
        public let content: Content
        /// The content as the model produced it.
        public let rawContent: GeneratedContent
        /// The entries this call appended to the transcript: the prompt, any
        /// tool calls and outputs, and the response.
        public let transcriptEntries: ArraySlice<Transcript.Entry>
        /// The tokens this call read and wrote.
        public let usage: Usage

        package init(
            content: Content,
            rawContent: GeneratedContent,
            transcriptEntries: ArraySlice<Transcript.Entry>,
            usage: Usage = Usage()
        ) {
            self.content = content
            self.rawContent = rawContent
            self.transcriptEntries = transcriptEntries
            self.usage = usage
        }
    }
}

extension LanguageModelSession.Response: Sendable where Content: Sendable {}
