import FoundationModels

/// Answers each request from the furthest tier its policy allows, walking
/// down to nearer tiers when one cannot serve.
///
/// Exists so an app picks a model per feature by declared policy instead of
/// by code: the summary that may use the user's own server says
/// `.cloudFree`, the note that must never leave the device says `.local`,
/// and ``declaredPolicies()`` lists every feature's policy so what may leave
/// the machine can be audited in one place.
///
/// The rules, exactly:
/// - the policy's ceiling is tried first;
/// - a tier that cannot serve — `rateLimited`, `assetsUnavailable`, or
///   Private Cloud Compute's network, service and quota errors — hands the
///   request to the next nearer tier when the policy `degrades`, and ends it
///   otherwise;
/// - `exceededContextWindowSize` (`contextSizeExceeded`) never walks down:
///   a nearer tier has less room, not more;
/// - `guardrailViolation` and `refusal` propagate: what one tier declined is
///   never put to another;
/// - every other error (a decoding failure, a tool that threw,
///   cancellation) propagates as well.
///
/// Each request gets a fresh session per tier tried, with the router's
/// tools; the response says which tier served it and why the tiers above
/// it were skipped.
public actor ModelRouter {
    private let models: [ModelTier: any LanguageModel]
    private let tools: [any Tool]
    private var features: [String: TierPolicy]

    /// - Parameters:
    ///   - onDevice: the on-device model (`SystemLanguageModel.default` by default).
    ///   - privateCloud: the private server's model (typically a
    ///     `PrivateCloudComputeLanguageModel`), or `nil` for none.
    ///   - frontier: a frontier model (`AnthropicLanguageModel`,
    ///     `OpenAICompatibleLanguageModel`), or `nil` for none.
    ///   - tools: the tools every session may call.
    ///   - features: each feature's declared policy.
    public init(
        onDevice: (any LanguageModel)? = SystemLanguageModel.default,
        privateCloud: (any LanguageModel)? = nil,
        frontier: (any LanguageModel)? = nil,
        tools: [any Tool] = [],
        features: [String: TierPolicy] = [:]
    ) {
        var models: [ModelTier: any LanguageModel] = [:]
        models[.onDevice] = onDevice
        models[.privateCloud] = privateCloud
        models[.frontier] = frontier
        self.models = models
        self.tools = tools
        self.features = features
    }

    // MARK: Policies

    /// Declares (or changes) a feature's policy.
    public func declare(_ feature: String, policy: TierPolicy) {
        features[feature] = policy
    }

    /// Every feature's declared policy, by name: the one place that says
    /// which features may send prompts off the machine, and to which tiers.
    public func declaredPolicies() -> [FeaturePolicy] {
        features.map { FeaturePolicy(feature: $0.key, policy: $0.value) }.sorted { $0.feature < $1.feature }
    }

    /// The declared policy of `feature`.
    /// - Throws: ``TierRoutingError/undeclaredFeature(_:)``.
    public func policy(for feature: String) throws(TierRoutingError) -> TierPolicy {
        guard let policy = features[feature] else { throw .undeclaredFeature(feature) }
        return policy
    }

    // MARK: Responding

    /// A value of `type`, from the furthest tier `policy` allows that can serve.
    public func respond<Content: Generable & Sendable>(
        to prompt: String,
        as type: Content.Type = Content.self,
        instructions: String? = nil,
        policy: TierPolicy,
        options: GenerationOptions = GenerationOptions()
    ) async throws -> RoutedResponse<Content> {
        try await route(policy) { _, model in
            let session = LanguageModelSession(model: model, tools: self.tools, instructions: instructions)
            let response = try await session.respond(to: prompt, generating: type, options: options)
            return (response.content, response.transcriptEntries, response.usage)
        }
    }

    /// Text, from the furthest tier `policy` allows that can serve.
    public func respond(
        to prompt: String,
        instructions: String? = nil,
        policy: TierPolicy,
        options: GenerationOptions = GenerationOptions()
    ) async throws -> RoutedResponse<String> {
        try await route(policy) { _, model in
            let session = LanguageModelSession(model: model, tools: self.tools, instructions: instructions)
            let response = try await session.respond(to: prompt, options: options)
            return (response.content, response.transcriptEntries, response.usage)
        }
    }

    /// A value of `type` under `feature`'s declared policy.
    public func respond<Content: Generable & Sendable>(
        to prompt: String,
        as type: Content.Type = Content.self,
        instructions: String? = nil,
        feature: String,
        options: GenerationOptions = GenerationOptions()
    ) async throws -> RoutedResponse<Content> {
        try await respond(to: prompt, as: type, instructions: instructions, policy: policy(for: feature), options: options)
    }

    /// Text as it is generated, from the furthest tier `policy` allows that
    /// can serve. A tier that fails in a way that walks down — before or
    /// while it streams — hands over to the next: each snapshot names the
    /// tier it came from, so a consumer sees the switch and starts over.
    public nonisolated func streamResponse(
        to prompt: String,
        instructions: String? = nil,
        policy: TierPolicy,
        options: GenerationOptions = GenerationOptions()
    ) -> AsyncThrowingStream<RoutedSnapshot, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let final = try await self.route(policy) { tier, model in
                        let session = LanguageModelSession(model: model, tools: self.tools, instructions: instructions)
                        var last = ""
                        var entries: ArraySlice<Transcript.Entry> = []
                        var usage = LanguageModelSession.Usage()
                        for try await snapshot in session.streamResponse(to: prompt, options: options) {
                            last = snapshot.content
                            entries = snapshot.transcriptEntries
                            usage = snapshot.usage
                            continuation.yield(RoutedSnapshot(content: last, tier: tier, isFinal: false))
                        }
                        return (last, entries, usage)
                    }
                    continuation.yield(RoutedSnapshot(content: final.content, tier: final.tier, isFinal: true, skipped: final.skipped))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Walks `policy`'s ladder: each configured tier in turn until one
    /// answers or fails in a way that does not walk down.
    private func route<Content: Sendable>(
        _ policy: TierPolicy,
        _ attempt: @Sendable (ModelTier, any LanguageModel) async throws -> (Content, ArraySlice<Transcript.Entry>, LanguageModelSession.Usage)
    ) async throws -> RoutedResponse<Content> {
        var skipped: [TierSkip] = []
        var lastError: (any Error)?
        for tier in policy.ladder {
            guard let model = models[tier] else {
                skipped.append(TierSkip(tier: tier, reason: .notConfigured))
                continue
            }
            do {
                let (content, entries, usage) = try await attempt(tier, model)
                return RoutedResponse(content: content, tier: tier, skipped: skipped, transcriptEntries: entries, usage: usage)
            } catch {
                guard Self.walksDown(error) else { throw error }
                skipped.append(TierSkip(tier: tier, reason: .cannotServe(error)))
                lastError = error
            }
        }
        if let lastError { throw lastError }
        throw TierRoutingError.noModel(policy: policy)
    }

    /// Whether `error` means "this tier cannot serve now" (walk down) rather
    /// than an answer about the request itself (propagate).
    public static func walksDown(_ error: any Error) -> Bool {
        switch error {
        case LanguageModelError.rateLimited: true
        case SystemLanguageModel.Error.assetsUnavailable: true
        case is PrivateCloudComputeLanguageModel.Error: true
        // Sessions made with 26 initializers surface the deprecated family.
        case LanguageModelSession.GenerationError.rateLimited, LanguageModelSession.GenerationError.assetsUnavailable: true
        default: false
        }
    }
}

/// An answer and where it came from.
public struct RoutedResponse<Content: Sendable>: Sendable {
    /// The answer.
    public var content: Content
    /// The tier that served it.
    public var tier: ModelTier
    /// The tiers above it that were tried or passed over, furthest first, and why.
    public var skipped: [TierSkip]
    /// The serving session's entries for this request.
    public var transcriptEntries: ArraySlice<Transcript.Entry>
    /// Its token counts.
    public var usage: LanguageModelSession.Usage
}

/// A streamed answer so far, and the tier producing it.
public struct RoutedSnapshot: Sendable {
    /// The text so far (a tier that takes over starts again from nothing).
    public var content: String
    /// The tier producing it.
    public var tier: ModelTier
    /// Whether this is the finished answer (the last element of the stream).
    public var isFinal: Bool
    /// With the final snapshot: the tiers that were skipped, and why.
    public var skipped: [TierSkip] = []
}

/// A tier the router did not answer from.
public struct TierSkip: Sendable, CustomStringConvertible {
    public enum Reason: Sendable {
        /// The router has no model for the tier.
        case notConfigured
        /// The tier's model could not serve: the error it failed with.
        case cannotServe(any Error)
    }

    public var tier: ModelTier
    public var reason: Reason

    public var description: String {
        switch reason {
        case .notConfigured: "\(tier): no model configured"
        case .cannotServe(let error): "\(tier): \(error)"
        }
    }
}

/// A request the router cannot place.
public enum TierRoutingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The feature has no declared policy.
    case undeclaredFeature(String)
    /// No tier the policy allows has a model.
    case noModel(policy: TierPolicy)

    public var description: String {
        switch self {
        case .undeclaredFeature(let name): "the feature \"\(name)\" has no declared tier policy (ModelRouter.declare)"
        case .noModel(let policy): "no model is configured for any tier the policy \(policy) allows"
        }
    }
}
