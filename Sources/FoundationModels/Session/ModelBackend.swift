import Foundation
#if canImport(UniformTypeIdentifiers)
import UniformTypeIdentifiers
#endif
import Synchronization

/// A model with its executor, with the model's concrete types erased so the
/// session can hold any ``LanguageModel``.
///
/// This is the one seam every model plugs into — the system model, Private
/// Cloud Compute, provider packages: the session sees capabilities, whether
/// the model is available (``AvailabilityReporting``), and an executor that
/// throws the 27 error family. It never asks which model it is.
///
/// The executor is created lazily on first use and shared through
/// ``ExecutorCache``: every session on an equal configuration talks to the
/// same executor.
package struct ModelBackend: Sendable {
    package let capabilities: LanguageModelCapabilities
    #if DataAttachments
    /// Whether the model reads data attachments of a content type.
    package let supportsDataAttachmentType: @Sendable (UTType) -> Bool
    #endif
    /// Throws when the model cannot be used at all. Checked before
    /// capabilities: an app on a machine without the model must see why
    /// (the system model's `assetsUnavailable`), whatever it asked for.
    package let preflight: @Sendable () throws -> Void
    private let makeRespond: @Sendable () throws -> @Sendable (LanguageModelExecutorGenerationRequest, LanguageModelExecutorGenerationChannel) async throws -> Void
    private let makePrewarm: @Sendable () throws -> @Sendable (Transcript) -> Void

    package init<Model: LanguageModel>(_ model: Model) {
        self.capabilities = model.capabilities
        #if DataAttachments
        self.supportsDataAttachmentType = { model.supportsDataAttachmentType($0) }
        #endif
        if let reporting = model as? any AvailabilityReporting {
            self.preflight = {
                if let error = reporting.unavailabilityError { throw error }
            }
        } else {
            self.preflight = {}
        }
        let configuration = model.executorConfiguration
        self.makeRespond = {
            let executor: Model.Executor = try ExecutorCache.shared.executor(for: configuration)
            return { request, channel in
                try await executor.respond(to: request, model: model, streamingInto: channel)
            }
        }
        self.makePrewarm = {
            let executor: Model.Executor = try ExecutorCache.shared.executor(for: configuration)
            return { transcript in executor.prewarm(model: model, transcript: transcript) }
        }
    }

    /// Refuses, before the executor is called, a request the model cannot
    /// serve: the model is unavailable, or the request needs a capability
    /// the model does not declare.
    package func checkCapabilities(for request: LanguageModelExecutorGenerationRequest) throws {
        try preflight()
        if let schema = request.schema, !capabilities.contains(.guidedGeneration) {
            throw LanguageModelError.unsupportedCapability(.init(
                capability: .guidedGeneration,
                debugDescription: "The model cannot enforce a response schema (\(schema.name)); it does not declare guided generation."
            ))
        }
        if !request.enabledToolDefinitions.isEmpty, !capabilities.contains(.toolCalling) {
            throw LanguageModelError.unsupportedCapability(.init(
                capability: .toolCalling,
                debugDescription: "The session has tools but the model does not declare tool calling."
            ))
        }
        let unreadable = request.transcript.entries.filter { entry in
            entry.segments.contains { segment in
                guard case .attachment(let attachment) = segment else { return false }
                switch attachment.content {
                case .image: return !capabilities.contains(.vision)
                #if DataAttachments
                case .data(let data): return !supportsDataAttachmentType(data.contentType)
                #endif
                }
            }
        }
        if !unreadable.isEmpty {
            throw LanguageModelError.unsupportedTranscriptContent(.init(
                unsupportedContent: unreadable,
                debugDescription: "\(unreadable.count) transcript \(unreadable.count == 1 ? "entry holds" : "entries hold") attachments the model cannot read (images need the vision capability; data needs a content type the model supports)."
            ))
        }
    }

    /// Runs one generation. An executor that cannot be created fails the
    /// request with the error its initializer threw.
    package func respond(
        to request: LanguageModelExecutorGenerationRequest,
        streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
        try await makeRespond()(request, channel)
    }

    /// Asks the executor to prepare for `transcript`; failures are left for
    /// the next `respond` to report.
    package func prewarm(transcript: Transcript) {
        guard let prewarm = try? makePrewarm() else { return }
        prewarm(transcript)
    }
}

/// The process-wide cache of executors, one per (executor type, configuration).
///
/// Apple's contract says sessions cache one executor per configuration; doing
/// it process-wide is what makes "one model load per process, shared by every
/// session" hold for in-process models.
package final class ExecutorCache: Sendable {
    package static let shared = ExecutorCache()

    private struct Key: Hashable, Sendable {
        let executorType: ObjectIdentifier
        let configuration: any Hashable & Sendable

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.executorType == rhs.executorType && AnyHashable(lhs.configuration) == AnyHashable(rhs.configuration)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(executorType)
            hasher.combine(AnyHashable(configuration))
        }
    }

    // Keys wrap `Configuration: Hashable & Sendable` values; the values are
    // executors, `Sendable` by protocol. Creating an executor must be cheap
    // (executors load weights lazily), so holding the lock while creating one
    // only serialises the creation of the same kind of object.
    private let executors = Mutex<[Key: any Sendable]>([:])

    /// Empties the cache: every executor is dropped, and those holding
    /// resources (``ReleasableExecutor``) give them back. Sessions keep
    /// working; their next request creates its executor again.
    package func removeAll() {
        let removed = executors.withLock { executors in
            defer { executors.removeAll() }
            return Array(executors.values)
        }
        for executor in removed {
            (executor as? any ReleasableExecutor)?.release()
        }
    }

    /// How many executors the cache holds.
    package var count: Int { executors.withLock { $0.count } }

    package func executor<Executor: LanguageModelExecutor>(for configuration: Executor.Configuration) throws -> Executor {
        let key = Key(executorType: ObjectIdentifier(Executor.self), configuration: configuration)
        return try executors.withLock { executors in
            if let existing = executors[key] as? Executor {
                return existing
            }
            let created = try Executor(configuration: configuration)
            executors[key] = created
            return created
        }
    }
}
