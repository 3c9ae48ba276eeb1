import Foundation

extension LanguageModelSession {
    /// A failure caused by how a session was used, not by the model.
    ///
    /// Replaces ``GenerationError/concurrentRequests(_:)`` for sessions
    /// created with a 27 initializer (see ErrorSurfacing.swift).
    public enum Error: Swift.Error, LocalizedError, CustomDebugStringConvertible, Equatable, Hashable {
        /// A request arrived while the session was still responding to another.
        case concurrentRequests
        /// The session's transcript was replaced while a request was in
        /// progress; the request's entries were not committed.
        case transcriptMutationWhileResponding

        public var debugDescription: String {
            switch self {
            case .concurrentRequests:
                "The session is already responding to a request; wait for it to finish (see isResponding) or use another session."
            case .transcriptMutationWhileResponding:
                "The transcript was set while a request was in progress, so the request's prompt and response were not added to it."
            }
        }

        public var errorDescription: String? {
            switch self {
            case .concurrentRequests:
                "The session is already responding to another request."
            case .transcriptMutationWhileResponding:
                "The session's transcript changed while it was responding."
            }
        }

        public var recoverySuggestion: String? {
            switch self {
            case .concurrentRequests:
                "Wait until isResponding is false, or use a separate session for concurrent requests."
            case .transcriptMutationWhileResponding:
                "Change the transcript only while isResponding is false, then send the request again."
            }
        }
    }
}
