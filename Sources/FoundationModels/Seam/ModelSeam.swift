// What the session may learn about any model besides Apple's `LanguageModel`
// contract: whether it is available, and whether its executor holds
// resources to give back. Models adopt these; the session never asks which
// model it is talking to.

/// A model that knows, before anything is asked of it, whether it can be
/// used on this machine: the system model (is the GGUF file there?) and
/// Private Cloud Compute. The session checks it before a request; models
/// that do not adopt it are taken as available, and their executors report
/// failures themselves.
package protocol AvailabilityReporting: LanguageModel {
    /// The error requests fail with while the model is unavailable, or
    /// `nil` when it is available.
    var unavailabilityError: (any Error)? { get }
}

/// An executor holding resources worth giving back (loaded weights,
/// contexts), which ``ExecutorCache/removeAll()`` releases.
package protocol ReleasableExecutor: LanguageModelExecutor {
    /// Gives the executor's resources back. Requests in flight finish on
    /// what they hold; later requests load afresh.
    func release()
}
