import Foundation
import Synchronization

#if canImport(UniformTypeIdentifiers)
import UniformTypeIdentifiers
#endif

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
    package let supportsDataAttachmentType: @Sendable (UTType) async throws -> Bool
    /// Whether the model takes data entries of a content type.
    package let supportsDataEntryType: @Sendable (UTType) async throws -> Bool
    #endif
    /// Throws when the model cannot be used at all. Checked before
    /// capabilities: an app on a machine without the model must see why
    /// (the system model's `assetsUnavailable`), whatever it asked for.
    package let preflight: @Sendable () throws -> Void
    private let makeRespond:
        @Sendable () throws -> @Sendable (LanguageModelExecutorGenerationRequest, LanguageModelExecutorGenerationChannel) async throws -> Void
    private let makePrewarm: @Sendable () throws -> @Sendable (Transcript) -> Void

    package init<Model: LanguageModel>(_ model: Model) {
        self.capabilities = model.capabilities
        #if DataAttachments
        self.supportsDataAttachmentType = { try await model.supportsDataAttachmentType($0) }
        self.supportsDataEntryType = { try await model.supportsDataEntryType($0) }
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
    /// the model does not declare, or its transcript holds content the
    /// model does not read (images without vision; data attachments and
    /// data entries of types the model does not list).
    package func checkCapabilities(for request: LanguageModelExecutorGenerationRequest) async throws {
        try preflight()
        if let schema = request.schema, !capabilities.contains(.guidedGeneration) {
            throw LanguageModelError.unsupportedCapability(
                .init(
                    capability: .guidedGeneration,
                    debugDescription: "The model cannot enforce a response schema (\(schema.name)); it does not declare guided generation."
                ))
        }
        if !request.enabledToolDefinitions.isEmpty, !capabilities.contains(.toolCalling) {
            throw LanguageModelError.unsupportedCapability(
                .init(
                    capability: .toolCalling,
                    debugDescription: "The session has tools but the model does not declare tool calling."
                ))
        }
        var unreadable: [Transcript.Entry] = []
        for entry in request.transcript.entries {
            if try await reads(entry) == false { unreadable.append(entry) }
        }
        if !unreadable.isEmpty {
            throw LanguageModelError.unsupportedTranscriptContent(
                .init(
                    unsupportedContent: unreadable,
                    debugDescription:
                        "\(unreadable.count) transcript \(unreadable.count == 1 ? "entry holds" : "entries hold") content the model cannot read "
                        + "(images need the vision capability; data attachments and data entries need a content type the model supports)."
                ))
        }
    }

    /// Whether the model reads everything in `entry`.
    private func reads(_ entry: Transcript.Entry) async throws -> Bool {
        #if DataAttachments
        if case .data(let data) = entry {
            return try await supportsDataEntryType(data.contentType)
        }
        #endif
        for case .attachment(let attachment) in entry.segments {
            switch attachment.content {
            case .image:
                if !capabilities.contains(.vision) { return false }
            #if DataAttachments
            case .data(let data):
                if try await supportsDataAttachmentType(data.contentType) == false { return false }
            #endif
            }
        }
        return true
    }

    #if DataAttachments
    /// Refuses a data entry an executor sends whose content type the model
    /// does not list (Apple 27.2: checked before the entry is appended).
    package func checkDataEntryEvent(_ event: LanguageModelExecutorGenerationChannel.Event) async throws {
        guard case .data(let data) = event.kind, case .update(let update) = data.action.storage else { return }
        if try await supportsDataEntryType(update.contentType) { return }
        let entry = Transcript.DataEntry(
            id: data.entryID ?? UUID().uuidString, contentType: update.contentType, content: update.content, metadata: update.metadata)
        throw LanguageModelError.unsupportedTranscriptContent(
            .init(
                unsupportedContent: [.data(entry)],
                debugDescription:
                    "The executor sent a data entry of type \(update.contentType.identifier), which the model does not list in supportsDataEntryType."
            ))
    }
    #endif

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
