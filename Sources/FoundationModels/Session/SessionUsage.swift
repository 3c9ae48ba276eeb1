extension LanguageModelSession {
    /// Tokens read and written, as reported by the model's executor.
    ///
    /// On a ``LanguageModelSession/Response`` it is that request's usage (all
    /// tool rounds together); on the session, the sum over its requests.
    public struct Usage: Sendable, Hashable {
        /// Tokens read.
        public struct Input: Sendable, Hashable {
            /// All tokens the model read.
            public var totalTokenCount: Int = 0
            /// Of those, the tokens served from a cache (not re-evaluated).
            public var cachedTokenCount: Int = 0
        }

        /// Tokens written.
        public struct Output: Sendable, Hashable {
            /// All tokens the model wrote.
            public var totalTokenCount: Int = 0
            /// Of those, the reasoning tokens.
            public var reasoningTokenCount: Int = 0
        }

        public var input = Input()
        public var output = Output()

        public init() {}

        mutating func add(_ other: Usage) {
            input.totalTokenCount += other.input.totalTokenCount
            input.cachedTokenCount += other.input.cachedTokenCount
            output.totalTokenCount += other.output.totalTokenCount
            output.reasoningTokenCount += other.output.reasoningTokenCount
        }

        mutating func add(_ report: LanguageModelExecutorGenerationChannel.UsageReport) {
            input.totalTokenCount += report.input.totalTokenCount
            input.cachedTokenCount += report.input.cachedTokenCount
            output.totalTokenCount += report.output.totalTokenCount
            output.reasoningTokenCount += report.output.reasoningTokenCount
        }
    }
}
