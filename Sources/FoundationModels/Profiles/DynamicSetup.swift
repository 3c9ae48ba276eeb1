import Foundation
import Synchronization

/// The setup of a session made with a dynamic profile or dynamic
/// instructions, worked out again before every request.
///
/// Evaluation binds the session's ``SessionPropertyValues`` (so
/// `@SessionProperty` reads the session's values), refreshes
/// `properties.history`, and runs the `onActivate`/`onDeactivate`
/// callbacks of the parts of the profile that appeared or disappeared
/// since the previous request.
final class DynamicSetup: Sendable {
    enum Source: Sendable {
        /// `init(profile:history:)`.
        case profile(Unchecked<any LanguageModelSession.DynamicProfile>)
        /// `init(model:dynamicInstructions:history:)`.
        case instructions(ModelBackend, Unchecked<any DynamicInstructions>)
    }

    private let source: Source
    /// The lifecycle callbacks of the parts active after the last evaluation.
    private let active = Mutex<[String: ProfileResolution.Lifecycle]>([:])
    /// Set while an evaluation runs; evaluations never overlap (see `Unchecked`).
    private let evaluating = Atomic<Bool>(false)

    init(_ source: Source) {
        self.source = source
    }

    /// The request setup the profile or instructions describe now.
    func evaluate(properties: SessionPropertyValues, history: [Transcript.Entry]) throws -> RequestSetup {
        let overlapping = evaluating.exchange(true, ordering: .acquiring)
        assert(!overlapping, "a session evaluated its dynamic profile for two requests at once")
        defer { evaluating.store(false, ordering: .releasing) }

        let (leading, rest) = Transcript.splitInstructions(history)
        properties.history = Transcript.HistoryView(rest[...])
        let resolution = resolve(properties: properties)
        var setup = RequestSetup(
            backend: resolution.backend ?? ModelBackend(SystemLanguageModel.default),
            tools: resolution.instructions.tools,
            instructions: resolution.instructions.entry(id: leading?.id ?? UUID().uuidString)
        )
        setup.adjustments = resolution.adjustments
        setup.hooks = resolution.hooks
        if let policy = resolution.errorPolicy { setup.errorPolicy = policy }
        runLifecycles(resolution.lifecycles)
        return setup
    }

    /// The model the profile names now, for `prewarm`; no callbacks run.
    func currentBackend(properties: SessionPropertyValues) -> ModelBackend {
        resolve(properties: properties).backend ?? ModelBackend(SystemLanguageModel.default)
    }

    private func resolve(properties: SessionPropertyValues) -> ProfileResolution {
        SessionPropertyValues.$current.withValue(properties) {
            var resolution = ProfileResolution()
            switch source {
            case .profile(let profile):
                resolution.add(profile.value)
            case .instructions(let backend, let instructions):
                resolution.backend = backend
                resolution.instructions.add(instructions.value)
            }
            return resolution
        }
    }

    /// Runs the deactivation callbacks of parts that are gone and the
    /// activation callbacks of parts that are new, each in its own task
    /// (they are `@isolated(any)`: they run where they were written).
    private func runLifecycles(_ now: [String: ProfileResolution.Lifecycle]) {
        let before = active.withLock { active in
            defer { active = now }
            return active
        }
        for (path, lifecycle) in before where now[path] == nil {
            for callback in lifecycle.deactivate {
                Task { await callback.value() }
            }
        }
        for (path, lifecycle) in now where before[path] == nil {
            for callback in lifecycle.activate {
                Task { await callback.value() }
            }
        }
    }
}

extension LanguageModelSession {
    /// Creates a session whose model, instructions, tools, options and hooks
    /// come from `profile`, evaluated again before every request.
    public convenience init(profile: some DynamicProfile, history: some Collection<Transcript.Entry> = [Transcript.Entry]()) {
        self.init(
            setup: .dynamic(DynamicSetup(.profile(Unchecked(profile)))),
            transcript: Transcript(entries: history),
            errorFamily: .current
        )
    }

    /// Creates a session on `model` whose instructions and tools come from
    /// `dynamicInstructions`, evaluated again before every request.
    public convenience init(
        model: some LanguageModel = SystemLanguageModel.default,
        dynamicInstructions: some DynamicInstructions,
        history: some Collection<Transcript.Entry> = [Transcript.Entry]()
    ) {
        let properties = SessionPropertyValues()
        properties.rootDynamicInstructions = dynamicInstructions
        self.init(
            setup: .dynamic(DynamicSetup(.instructions(ModelBackend(model), Unchecked(dynamicInstructions)))),
            transcript: Transcript(entries: history),
            errorFamily: .current,
            properties: properties
        )
    }
}
