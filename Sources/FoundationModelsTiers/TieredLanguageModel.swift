import FoundationModels
import Synchronization

/// The tiers as one `LanguageModel`: each request is answered by the
/// furthest tier a fixed ``TierPolicy`` allows that can serve it, by
/// ``ModelRouter``'s rules.
///
/// Exists for code that takes a model rather than a router: a
/// `LanguageModelSession` (tools, streaming, typed answers and transcript
/// as with any model), and `fm serve --fallback-local`, which answers from
/// its upstream server while that server can serve and from the in-process
/// model when it cannot.
///
/// The rules are ``ModelRouter``'s, per request (each tool round of a turn
/// is routed afresh), with one more: a tier that fails after it has sent
/// any output does not hand over — what the session has already streamed
/// cannot be taken back — so its error ends the request. A tier that lacks
/// a capability the request needs (guided generation, tool calling, images)
/// is passed over.
public struct TieredLanguageModel: LanguageModel {
    public typealias Executor = TieredExecutor

    /// The policy every request is routed by.
    public let policy: TierPolicy
    let tiers: [ModelTier: ModelBackend]

    /// - Parameters:
    ///   - onDevice: the on-device model (`SystemLanguageModel.default` by default).
    ///   - privateCloud: the private server's model, or `nil` for none.
    ///   - frontier: a frontier model, or `nil` for none.
    ///   - policy: the ceiling and whether a request walks down from it.
    public init(
        onDevice: (any LanguageModel)? = SystemLanguageModel.default,
        privateCloud: (any LanguageModel)? = nil,
        frontier: (any LanguageModel)? = nil,
        policy: TierPolicy
    ) {
        var tiers: [ModelTier: ModelBackend] = [:]
        tiers[.onDevice] = onDevice.map { ModelBackend($0) }
        tiers[.privateCloud] = privateCloud.map { ModelBackend($0) }
        tiers[.frontier] = frontier.map { ModelBackend($0) }
        self.tiers = tiers
        self.policy = policy
    }

    /// What any tier the policy allows can do (the executor passes over a
    /// tier that cannot do what a request needs).
    public var capabilities: LanguageModelCapabilities {
        let all: [LanguageModelCapabilities.Capability] = [.guidedGeneration, .toolCalling, .reasoning, .vision]
        let reachable = policy.ladder.compactMap { tiers[$0] }
        return LanguageModelCapabilities(all.filter { capability in reachable.contains { $0.capabilities.contains(capability) } })
    }

    /// Every tiered model shares the one stateless executor: the tiers'
    /// own executors (shared through the framework's cache) do the work.
    public var executorConfiguration: TieredExecutor.Configuration { TieredExecutor.Configuration() }
}

/// Routes each request of a ``TieredLanguageModel`` to a tier's executor.
public struct TieredExecutor: LanguageModelExecutor {
    /// No state: the model carries its tiers.
    public struct Configuration: Hashable, Sendable {}

    public init(configuration: Configuration) {}

    public func prewarm(model: TieredLanguageModel, transcript: Transcript) {
        guard let first = model.policy.ladder.lazy.compactMap({ model.tiers[$0] }).first else { return }
        first.prewarm(transcript: transcript)
    }

    public func respond(
        to request: LanguageModelExecutorGenerationRequest,
        model: TieredLanguageModel,
        streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
        // The ladder holds only the ceiling when the policy does not degrade.
        var lastError: (any Error)?
        for tier in model.policy.ladder {
            guard let backend = model.tiers[tier] else { continue }
            do {
                try await backend.checkCapabilities(for: request)
            } catch LanguageModelError.unsupportedCapability(let context) {
                lastError = LanguageModelError.unsupportedCapability(context)
                continue
            } catch LanguageModelError.unsupportedTranscriptContent(let context) {
                lastError = LanguageModelError.unsupportedTranscriptContent(context)
                continue
            } catch {
                guard ModelRouter.walksDown(error) else { throw error }
                lastError = error
                continue
            }
            do {
                try await Self.relay(request, to: backend, into: channel)
                return
            } catch {
                guard !error.sentOutput, ModelRouter.walksDown(error.error) else { throw error.error }
                lastError = error.error
            }
        }
        throw lastError ?? TierRoutingError.noModel(policy: model.policy)
    }

    /// A tier's error, and whether the tier had sent anything before it.
    private struct TierFailure: Error {
        var error: any Error
        var sentOutput: Bool
    }

    /// Runs `request` on `backend`, passing its events on to `channel`.
    private static func relay(
        _ request: LanguageModelExecutorGenerationRequest,
        to backend: ModelBackend,
        into channel: LanguageModelExecutorGenerationChannel
    ) async throws(TierFailure) {
        let tierChannel = LanguageModelExecutorGenerationChannel()
        let sent = Atomic<Bool>(false)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { tierChannel.finish() }
                    try await backend.respond(to: request, streamingInto: tierChannel)
                }
                for try await event in tierChannel {
                    sent.store(true, ordering: .relaxed)
                    await channel.send(event)
                }
                try await group.waitForAll()
            }
        } catch {
            throw TierFailure(error: error, sentOutput: sent.load(ordering: .relaxed))
        }
    }
}
