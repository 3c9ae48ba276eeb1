extension LanguageModelSession {
    /// Tokens read and written, as reported by the model's executor, with
    /// the metadata it reported alongside (a provider's served tier or cost).
    ///
    /// On a ``LanguageModelSession/Response`` it is that request's usage (all
    /// tool rounds together); on the session, the sum over its requests.
    public struct Usage: Sendable, Equatable {
        /// Tokens read.
        public struct Input: Sendable, Hashable {
            /// All tokens the model read.
            public var totalTokenCount: Int
            /// Of those, the tokens served from a cache (not re-evaluated).
            public var cachedTokenCount: Int

            public init(totalTokenCount: Int, cachedTokenCount: Int) {
                self.totalTokenCount = totalTokenCount
                self.cachedTokenCount = cachedTokenCount
            }
        }

        /// Tokens written.
        public struct Output: Sendable, Hashable {
            /// All tokens the model wrote.
            public var totalTokenCount: Int
            /// Of those, the reasoning tokens.
            public var reasoningTokenCount: Int

            public init(totalTokenCount: Int, reasoningTokenCount: Int) {
                self.totalTokenCount = totalTokenCount
                self.reasoningTokenCount = reasoningTokenCount
            }
        }

        public var input: Input
        public var output: Output
        /// Values the executor reported with its counts; when usage is
        /// summed, a later report's value for a key replaces an earlier one.
        public var metadata: [String: GeneratedContent]

        /// Tokens read and written together.
        public var totalTokenCount: Int { input.totalTokenCount + output.totalTokenCount }

        /// Creates a usage value.
        public init(input: Input, output: Output, metadata: [String: any ConvertibleToGeneratedContent] = [:]) {
            self.input = input
            self.output = output
            self.metadata = metadata.mapValues(\.generatedContent)
        }

        /// No tokens (the session's start, the server's and the router's
        /// running totals; Apple's API has no such initializer).
        package init() {
            self.init(input: Input(totalTokenCount: 0, cachedTokenCount: 0), output: Output(totalTokenCount: 0, reasoningTokenCount: 0))
        }

        /// The usage an executor reported for one turn.
        init(_ report: LanguageModelExecutorGenerationChannel.Usage) {
            self.input = Input(totalTokenCount: report.input.totalTokenCount, cachedTokenCount: report.input.cachedTokenCount)
            self.output = Output(totalTokenCount: report.output.totalTokenCount, reasoningTokenCount: report.output.reasoningTokenCount)
            self.metadata = report.metadata
        }

        mutating func add(_ other: Usage) {
            input.totalTokenCount += other.input.totalTokenCount
            input.cachedTokenCount += other.input.cachedTokenCount
            output.totalTokenCount += other.output.totalTokenCount
            output.reasoningTokenCount += other.output.reasoningTokenCount
            metadata.merge(other.metadata) { _, later in later }
        }
    }
}
