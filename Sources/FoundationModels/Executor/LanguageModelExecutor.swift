/// The bridge between the framework's types and whatever produces tokens: an
/// in-process engine or a server API.
///
/// The framework creates executors from a model's ``LanguageModel/executorConfiguration``
/// and caches one per configuration, so an executor is the natural owner of
/// expensive shared state (loaded weights, connection pools, KV caches).
///
/// Division of work: the executor renders the transcript for its model,
/// enforces `request.schema` when it declares ``LanguageModelCapabilities/Capability/guidedGeneration``,
/// reuses cached state for a known transcript prefix, and streams deltas into
/// the channel. The session accumulates those deltas, builds snapshots, runs
/// tools, and maintains the transcript.
public protocol LanguageModelExecutor: Sendable {
    /// What an executor is built from; equal configurations share an executor.
    associatedtype Configuration: Hashable, Sendable
    /// The model type this executor serves.
    associatedtype Model: LanguageModel

    /// Creates an executor. An error thrown here fails the request that
    /// needed the executor, as thrown (the next request tries again).
    init(configuration: Configuration) throws

    /// Prepares for a request on `transcript` (load weights, evaluate the
    /// prefix) so the next `respond` starts faster. Must not block.
    func prewarm(model: Model, transcript: Transcript)

    /// Generates the next entry for `request.transcript`, sending deltas into
    /// `channel`. Cancellation of the calling task must stop generation
    /// promptly. Failures are thrown as ``LanguageModelError`` (or the
    /// model's own error type); the session decides what its caller sees
    /// (see ErrorSurfacing.swift).
    func respond(
        to request: LanguageModelExecutorGenerationRequest,
        model: Model,
        streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws
}

extension LanguageModelExecutor {
    public func prewarm(model: Model, transcript: Transcript) {}
}
