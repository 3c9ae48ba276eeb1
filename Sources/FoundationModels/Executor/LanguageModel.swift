#if canImport(UniformTypeIdentifiers)
import UniformTypeIdentifiers
#endif

/// A model a ``LanguageModelSession`` can talk to: what it can do, and the
/// configuration its executor is built from.
///
/// This is Apple's pluggable-model contract (27): third-party provider
/// packages conform their model types to it, and the session engine drives
/// any of them the same way. Keep conforming types light; the work happens in
/// the ``Executor``.
public protocol LanguageModel: Sendable {
    /// The executor that answers requests for this model.
    associatedtype Executor: LanguageModelExecutor where Self == Executor.Model

    /// What the model supports; the session refuses requests that need more.
    var capabilities: LanguageModelCapabilities { get }

    /// The configuration the executor is created from. Sessions share one
    /// executor per distinct configuration.
    var executorConfiguration: Executor.Configuration { get }

    #if DataAttachments
    /// Whether the model reads data attachments of `type` (Apple 27.2).
    /// The session refuses, before the executor is called, a request whose
    /// transcript holds a data attachment of another type. Asynchronous and
    /// throwing, as Apple declares it, so a model can ask its server.
    nonisolated(nonsending) func supportsDataAttachmentType(_ type: UTType) async throws -> Bool

    /// Whether the model takes data entries of `type` (Apple 27.2): in the
    /// transcript it is given, and from its executor's `.data` events. The
    /// session refuses others with `LanguageModelError.unsupportedTranscriptContent`.
    nonisolated(nonsending) func supportsDataEntryType(_ type: UTType) async throws -> Bool
    #endif
}

/// The set of features a model supports.
///
/// The session checks it before calling an executor, so an executor never
/// receives a request it declared it cannot serve.
public struct LanguageModelCapabilities: Sendable, Hashable {
    /// One feature a model may support.
    public struct Capability: Sendable, Hashable, CustomStringConvertible {
        package let rawValue: String

        package init(rawValue: String) { self.rawValue = rawValue }

        /// The model enforces a response schema strictly (constrained decoding).
        public static let guidedGeneration = Capability(rawValue: "guidedGeneration")
        /// The model can call tools.
        public static let toolCalling = Capability(rawValue: "toolCalling")
        /// The model can produce reasoning before its answer.
        public static let reasoning = Capability(rawValue: "reasoning")
        /// The model accepts images.
        public static let vision = Capability(rawValue: "vision")

        public var description: String { rawValue }
    }

    private var storage: Set<Capability>

    /// Creates a capability set.
    public init(capabilities: [Capability]) {
        self.storage = Set(capabilities)
    }

    /// Creates a capability set.
    public init(_ capabilities: [Capability]) {
        self.init(capabilities: capabilities)
    }

    /// Whether the model supports `capability`.
    public func contains(_ capability: Capability) -> Bool {
        storage.contains(capability)
    }
}
