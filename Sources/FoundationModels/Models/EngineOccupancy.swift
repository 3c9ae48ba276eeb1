/// How full an in-process model's engine is at one moment: its sequences
/// (contexts) serving a request, the requests queued for one, and its KV
/// caches' tokens. Exists so a server can report what the engine alone
/// knows (`fm serve`'s `/metrics`) without reaching into its pool.
package struct EngineOccupancy: Sendable, Equatable {
    /// Sequences serving a request now, of `sequences`
    /// (`SystemLanguageModel.Configuration.parallelSequences`).
    package var sequencesInUse: Int
    package var sequences: Int
    /// Requests waiting for a sequence, of at most `maximumWaiting`
    /// (`maximumQueuedRequests`; beyond it a request is rate-limited).
    package var waiting: Int
    package var maximumWaiting: Int
    /// Tokens whose keys and values the sequences' caches hold, each as of
    /// the end of its last request (a request running now is counted when
    /// it ends), of `tokenCapacity`: the sequences times the tokens each holds.
    package var cachedTokens: Int
    package var tokenCapacity: Int

    package init(sequencesInUse: Int, sequences: Int, waiting: Int, maximumWaiting: Int, cachedTokens: Int, tokenCapacity: Int) {
        self.sequencesInUse = sequencesInUse
        self.sequences = sequences
        self.waiting = waiting
        self.maximumWaiting = maximumWaiting
        self.cachedTokens = cachedTokens
        self.tokenCapacity = tokenCapacity
    }
}

extension SystemLanguageModel {
    /// How full this model's engine is now; nil until a request (or
    /// `prewarm`) has loaded it, and always nil without the in-process
    /// engine. Never loads the model.
    package var occupancy: EngineOccupancy? {
        #if LlamaCpp
        OnDeviceEngine.occupancy(for: configuration)
        #else
        nil
        #endif
    }
}
