import Foundation

extension SystemLanguageModel {
    /// A failure specific to the system model.
    ///
    /// Replaces ``LanguageModelSession/GenerationError/assetsUnavailable(_:)``
    /// for sessions created with a 27 initializer.
    public enum Error: Swift.Error, LocalizedError, CustomDebugStringConvertible {
        /// The model's assets (here: the GGUF weights) are missing, not
        /// ready, or could not be loaded.
        case assetsUnavailable(AssetsUnavailable)

        /// Why the assets are unavailable.
        public struct AssetsUnavailable: Sendable {
            /// A developer-facing description of the failure.
            public var debugDescription: String

            public init(debugDescription: String) {
                self.debugDescription = debugDescription
            }
        }

        public var debugDescription: String {
            switch self {
            case .assetsUnavailable(let info): info.debugDescription
            }
        }

        public var errorDescription: String? {
            switch self {
            case .assetsUnavailable(let info):
                "The model assets required for this session are unavailable. \(info.debugDescription)"
            }
        }

        public var recoverySuggestion: String? {
            switch self {
            case .assetsUnavailable:
                "Check SystemLanguageModel.availability and try again once the model is available."
            }
        }
    }
}
