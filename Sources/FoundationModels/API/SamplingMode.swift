import Foundation

extension GenerationOptions {
    /// How the model picks each next token from its probability
    /// distribution: always the most likely one, or at random from the top
    /// candidates.
    public struct SamplingMode: Sendable, Equatable, Codable {
        /// The strategy a sampling mode stands for, for providers that map
        /// it to their own parameters.
        public enum Kind: Sendable, Equatable, Hashable {
            /// Always the most likely token.
            case greedy
            /// At random among the `k` most likely tokens.
            case randomTopK(Int, seed: UInt64?)
            /// At random among the most likely tokens whose cumulative
            /// probability reaches the threshold (nucleus sampling).
            case randomProbabilityThreshold(Double, seed: UInt64?)
        }

        /// The strategy this sampling mode uses to choose the next token.
        public let kind: Kind

        private init(kind: Kind) {
            self.kind = kind
        }

        /// Always chooses the most likely token; the same input gives the
        /// same output.
        public static var greedy: SamplingMode { SamplingMode(kind: .greedy) }

        /// Chooses at random among the `k` most likely tokens (top-k).
        public static func random(top k: Int, seed: UInt64? = nil) -> SamplingMode {
            SamplingMode(kind: .randomTopK(k, seed: seed))
        }

        /// Chooses at random among the most likely tokens whose cumulative
        /// probability reaches `probabilityThreshold` (top-p).
        public static func random(probabilityThreshold: Double, seed: UInt64? = nil) -> SamplingMode {
            SamplingMode(kind: .randomProbabilityThreshold(probabilityThreshold, seed: seed))
        }
    }
}
