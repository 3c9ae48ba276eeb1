import Foundation
import Observation
import Synchronization

/// A conversation with a language model: instructions, a growing transcript,
/// and the calls that extend it.
///
/// A session serves one request at a time: a second `respond` while one is in
/// flight throws `concurrentRequests` at once. A request that fails or is
/// cancelled leaves the transcript exactly as it was; a request that succeeds
/// appends its prompt, any tool calls and outputs, and its response in one
/// step. Sessions are cheap: the model's weights and executor are shared by
/// every session on the same model.
public final class LanguageModelSession: Observable, Sendable {
    /// The mutable part of a session, guarded by one lock.
    struct State: Sendable {
        var transcript: Transcript
        /// Bumped whenever the transcript is replaced from outside; a request
        /// that started from another version does not commit.
        var transcriptVersion = 0
        var isResponding = false
        var usage = Usage()
        var maximumToolRounds = LanguageModelSession.defaultMaximumToolRounds
        var transcriptErrorHandlingPolicy: TranscriptErrorHandlingPolicy?
    }

    /// Where a request's setup comes from: fixed at creation, or evaluated
    /// from a dynamic profile or dynamic instructions before every request.
    enum SetupSource: Sendable {
        case fixed(RequestSetup)
        case dynamic(DynamicSetup)
    }

    let setupSource: SetupSource
    /// Which error types callers see (see ErrorSurfacing.swift).
    let errorFamily: ErrorFamily
    let state: Mutex<State>
    /// The values `@SessionProperty` reads and writes in this session's
    /// profile, instructions and tools.
    public let properties: SessionPropertyValues
    private let registrar = ObservationRegistrar()

    /// The conversation so far.
    ///
    /// Setting it while a request is in flight makes that request fail with
    /// ``LanguageModelSession/Error/transcriptMutationWhileResponding``
    /// instead of adding its entries.
    public var transcript: Transcript {
        get {
            registrar.access(self, keyPath: \.transcript)
            return state.withLock { $0.transcript }
        }
        set {
            registrar.withMutation(of: self, keyPath: \.transcript) {
                state.withLock { state in
                    state.transcript = newValue
                    state.transcriptVersion += 1
                }
            }
        }
    }

    /// Whether a request is in flight.
    public var isResponding: Bool {
        registrar.access(self, keyPath: \.isResponding)
        return state.withLock { $0.isResponding }
    }

    /// Token usage of every request this session completed, summed.
    public var usage: Usage {
        registrar.access(self, keyPath: \.usage)
        return state.withLock { $0.usage }
    }

    /// What a failed request does to the transcript; `nil` is the profile's
    /// choice, or ``TranscriptErrorHandlingPolicy/revertTranscript``.
    public var transcriptErrorHandlingPolicy: TranscriptErrorHandlingPolicy? {
        get { state.withLock { $0.transcriptErrorHandlingPolicy } }
        set { state.withLock { $0.transcriptErrorHandlingPolicy = newValue } }
    }

    /// The most tool rounds (the model calls tools, the session runs them
    /// and calls the model again) one request may take; the next round
    /// fails the request with `decodingFailure` instead of looping. Not in
    /// Apple's API, which has no such knob; the default, 8, is far above
    /// what a conversation with tools needs.
    public var maximumToolRounds: Int {
        get { state.withLock { $0.maximumToolRounds } }
        set { state.withLock { $0.maximumToolRounds = max(0, newValue) } }
    }

    static let defaultMaximumToolRounds = 8

    init(setup: SetupSource, transcript: Transcript, errorFamily: ErrorFamily, properties: SessionPropertyValues = SessionPropertyValues()) {
        self.setupSource = setup
        self.errorFamily = errorFamily
        self.properties = properties
        self.state = Mutex(State(transcript: transcript))
    }

    /// A session whose model and tools are fixed.
    convenience init(backend: ModelBackend, tools: [any Tool], transcript: Transcript, errorFamily: ErrorFamily) {
        self.init(setup: .fixed(RequestSetup(backend: backend, tools: tools)), transcript: transcript, errorFamily: errorFamily)
    }

    /// The instructions entry a new session starts with: the instructions'
    /// segments and the definitions of the tools whose
    /// `includesSchemaInInstructions` is true (the others can still be
    /// called: their schemas are enforced, just not shown). No entry when
    /// there is neither.
    static func initialTranscript(instructions: Instructions?, tools: [any Tool]) -> Transcript {
        let shown = tools.filter(\.includesSchemaInInstructions)
        guard instructions != nil || !shown.isEmpty else { return Transcript() }
        let entry = Transcript.Instructions(
            segments: instructions?.segments ?? [],
            toolDefinitions: shown.map { Transcript.ToolDefinition(tool: $0) }
        )
        return Transcript(entries: [.instructions(entry)])
    }

    // MARK: Initializers
    //
    // Two families, as in Apple's SDK: the 26 family takes the system model
    // (and defaults to it), so `LanguageModelSession(model: .default)` and
    // `LanguageModelSession(instructions:)` resolve there; the 27 family
    // takes any `LanguageModel` and has no default.

    /// Creates a session on the system model with instructions given as a string.
    @_disfavoredOverload
    public convenience init(
        model: SystemLanguageModel = .default,
        tools: [any Tool] = [],
        instructions: String? = nil
    ) {
        self.init(model: model, tools: tools, instructions: instructions.map { text in Instructions { text } })
    }

    /// Creates a session on the system model with optional instructions.
    public convenience init(
        model: SystemLanguageModel = .default,
        tools: [any Tool] = [],
        instructions: Instructions? = nil
    ) {
        self.init(
            backend: ModelBackend(model),
            tools: tools,
            transcript: Self.initialTranscript(instructions: instructions, tools: tools),
            errorFamily: .generationError
        )
    }

    /// Creates a session on the system model with instructions built by a result builder.
    public convenience init(
        model: SystemLanguageModel = .default,
        tools: [any Tool] = [],
        @InstructionsBuilder instructions: () throws -> Instructions
    ) rethrows {
        self.init(model: model, tools: tools, instructions: try instructions())
    }

    /// Resumes a conversation on the system model from a transcript.
    public convenience init(
        model: SystemLanguageModel = .default,
        tools: [any Tool] = [],
        transcript: Transcript
    ) {
        self.init(backend: ModelBackend(model), tools: tools, transcript: transcript, errorFamily: .generationError)
    }

    /// Creates a session on `model` with instructions given as a string.
    @_disfavoredOverload
    public convenience init(
        model: some LanguageModel,
        tools: [any Tool] = [],
        instructions: String? = nil
    ) {
        self.init(model: model, tools: tools, instructions: instructions.map { text in Instructions { text } })
    }

    /// Creates a session on `model` with optional instructions.
    public convenience init(
        model: some LanguageModel,
        tools: [any Tool] = [],
        instructions: Instructions? = nil
    ) {
        self.init(
            backend: ModelBackend(model),
            tools: tools,
            transcript: Self.initialTranscript(instructions: instructions, tools: tools),
            errorFamily: .current
        )
    }

    /// Creates a session on `model` with instructions built by a result builder.
    ///
    /// Disfavored: for a `SystemLanguageModel` argument both this and the 26
    /// builder initializer apply, and Swift 6.3 finds neither more specific
    /// (the 26 one's model type against this one's typed-throws closure), so
    /// an app's `LanguageModelSession(model: SystemLanguageModel(useCase:),
    /// tools: [...]) { "..." }` would not compile. The attribute sends that
    /// call to the 26 initializer, the one Apple documents for the system
    /// model; any other model type still reaches this one, the only match.
    @_disfavoredOverload
    public convenience init<Failure: Swift.Error>(
        model: some LanguageModel,
        tools: [any Tool] = [],
        @InstructionsBuilder instructions: () throws(Failure) -> Instructions
    ) throws(Failure) {
        self.init(model: model, tools: tools, instructions: try instructions())
    }

    /// Resumes a conversation on `model` from a transcript.
    public convenience init(
        model: some LanguageModel,
        tools: [any Tool] = [],
        transcript: Transcript
    ) {
        self.init(backend: ModelBackend(model), tools: tools, transcript: transcript, errorFamily: .current)
    }

    // MARK: Prewarming

    /// Loads the model and evaluates the instructions (and `promptPrefix`)
    /// ahead of the first request, so that request starts sooner. Returns at
    /// once; the work happens in the background.
    public func prewarm(promptPrefix: Prompt? = nil) {
        var transcript = self.transcript
        if let promptPrefix {
            transcript.append(.prompt(Transcript.Prompt(segments: promptPrefix.segments)))
        }
        let backend: ModelBackend
        switch setupSource {
        case .fixed(let setup): backend = setup.backend
        case .dynamic(let dynamic): backend = dynamic.currentBackend(properties: properties)
        }
        Task.detached(priority: .utility) {
            backend.prewarm(transcript: transcript)
        }
    }

    // MARK: State transitions

    /// Marks the session busy and returns what the request runs with, or
    /// throws `concurrentRequests` if a request is already in flight.
    func beginResponding() throws -> RequestSetup {
        let started = registrar.withMutation(of: self, keyPath: \.isResponding) {
            state.withLock { state -> Bool in
                if state.isResponding { return false }
                state.isResponding = true
                return true
            }
        }
        guard started else {
            throw LanguageModelSession.Error.concurrentRequests
        }
        var setup: RequestSetup
        switch setupSource {
        case .fixed(let fixed):
            setup = fixed
        case .dynamic(let dynamic):
            do {
                setup = try dynamic.evaluate(properties: properties, history: state.withLock { $0.transcript.entries })
            } catch {
                endResponding()
                throw error
            }
        }
        if let policy = transcriptErrorHandlingPolicy { setup.errorPolicy = policy }
        return setup
    }

    /// Appends one request's entries and usage in one step (and, for a
    /// session with dynamic instructions, records the instructions the
    /// request was sent with). Returns the appended entries, at their
    /// indices in the transcript. Throws `transcriptMutationWhileResponding`
    /// when the transcript was replaced since the request started.
    func commit(_ run: RequestRun) throws -> ArraySlice<Transcript.Entry> {
        try registrar.withMutation(of: self, keyPath: \.transcript) {
            try registrar.withMutation(of: self, keyPath: \.usage) {
                try state.withLock { state in
                    guard state.transcriptVersion == run.transcriptVersion else {
                        throw LanguageModelSession.Error.transcriptMutationWhileResponding
                    }
                    if let instructions = run.setup.instructions {
                        let (_, rest) = Transcript.splitInstructions(state.transcript.entries)
                        state.transcript.entries = [.instructions(instructions)] + rest
                    }
                    let start = state.transcript.count
                    state.transcript.append(contentsOf: run.added)
                    state.usage.add(run.usage)
                    return state.transcript.entries[start...]
                }
            }
        }
    }

    /// Marks the session idle without touching the transcript.
    func endResponding() {
        registrar.withMutation(of: self, keyPath: \.isResponding) {
            state.withLock { $0.isResponding = false }
        }
    }
}
