import Synchronization

/// The log-probabilities of an answer's tokens, for a caller that asks for
/// them: `fm serve`'s `logprobs` and `top_logprobs`, which evaluation and
/// classification read. Apple's API has no place for them, so a caller
/// sets ``TokenLogProbabilityRecorder/current`` around a request and the
/// in-process model records each token it generates there; other models
/// record nothing.
///
/// Each value is in the distribution the token was drawn from: the model's
/// at temperature 1, over the tokens the answer's schema allowed at that
/// point (all of them for free text), renormalized over them. So a token
/// the schema forced has log-probability 0, and under greedy sampling the
/// chosen token is the first of the most likely ones. The request's
/// temperature and top-k or top-p cut-offs shape the draw, not these values.
package struct TokenLogProbability: Sendable, Equatable {
    /// One of the most likely tokens at that point.
    package struct Alternative: Sendable, Equatable {
        /// The token's bytes (a token may hold part of a character).
        package var bytes: [UInt8]
        package var logProbability: Double

        package init(bytes: [UInt8], logProbability: Double) {
            self.bytes = bytes
            self.logProbability = logProbability
        }
    }

    /// The generated token's bytes.
    package var bytes: [UInt8]
    package var logProbability: Double
    /// The most likely tokens, most likely first, as many as asked for.
    package var top: [Alternative]

    package init(bytes: [UInt8], logProbability: Double, top: [Alternative]) {
        self.bytes = bytes
        self.logProbability = logProbability
        self.top = top
    }
}

/// Where the in-process model records the log-probabilities of the tokens
/// it generates for the requests made while it is ``current``; the caller
/// takes them as the answer grows (``take()``).
package final class TokenLogProbabilityRecorder: Sendable {
    /// The recorder of the requests made in this task and its children.
    @TaskLocal package static var current: TokenLogProbabilityRecorder?

    /// How many of the most likely tokens to record at each point (0 to 20).
    package let topCount: Int
    private let recorded = Mutex<[TokenLogProbability]>([])

    package init(topCount: Int) {
        self.topCount = max(0, topCount)
    }

    package func record(_ value: TokenLogProbability) {
        recorded.withLock { $0.append(value) }
    }

    /// What was recorded since the last call, in the order generated.
    package func take() -> [TokenLogProbability] {
        recorded.withLock { values in
            defer { values = [] }
            return values
        }
    }
}
