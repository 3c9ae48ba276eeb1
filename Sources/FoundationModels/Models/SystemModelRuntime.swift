import Foundation
#if LlamaCpp
import LlamaKit
#endif
import Synchronization
#if LlamaCpp
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#endif

/// The facts about the system model that need no loaded weights —
/// availability, languages, context size — read from the configuration and
/// the GGUF file's header, and cached per model file.
///
/// Built without the `LlamaCpp` trait the package has no in-process model:
/// the system model is then unavailable (`deviceNotEligible`), saying why,
/// and everything else — server models, the router, the kit — is unchanged.
enum SystemModelRuntime {
    /// Cheap: a header check, no model load.
    static func availability(_ configuration: SystemLanguageModel.Configuration) -> SystemLanguageModel.Availability {
        if configuration.isDisabled { return .unavailable(.appleIntelligenceNotEnabled) }
        #if LlamaCpp
        guard LlamaBackend.isSupported else { return .unavailable(.deviceNotEligible) }
        guard isModelFile(configuration.modelPath) else { return .unavailable(.modelNotReady) }
        return .available
        #else
        return .unavailable(.deviceNotEligible)
        #endif
    }

    /// Frees the engine of `configuration` (``SystemLanguageModel/unload()``).
    static func unload(_ configuration: SystemLanguageModel.Configuration) {
        #if LlamaCpp
        OnDeviceEngine.release(for: configuration)
        #endif
    }

    #if LlamaCpp
    /// Files whose GGUF header was checked. Every request checks
    /// availability; reading the header through Foundation each time cost
    /// about 0.14 ms of a request's 1.1 ms outside `llama_decode` (the 2-core
    /// machine), where asking the file system whether the file is still the
    /// one checked costs a few microseconds.
    private static let checkedFiles = PerFileVersion<Void>()
    /// What each file's header says (name, languages, training length).
    private static let metadataCache = PerFileVersion<FileFacts>()

    /// A file as the file system describes it: replaced, rewritten or
    /// touched, it is another.
    private struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int
        var modifiedNanoseconds: Int

        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            #if canImport(Darwin)
            modified = Int(status.st_mtimespec.tv_sec)
            modifiedNanoseconds = Int(status.st_mtimespec.tv_nsec)
            #else
            modified = Int(status.st_mtim.tv_sec)
            modifiedNanoseconds = Int(status.st_mtim.tv_nsec)
            #endif
        }
    }

    /// Values read from files, each kept with its file as it was when read,
    /// so a file replaced or rewritten at the same path is read again; a
    /// read that fails is not kept.
    private final class PerFileVersion<Value: Sendable>: Sendable {
        private let entries = Mutex<[String: (file: FileIdentity, value: Value)]>([:])

        /// `path`'s value: the kept one while the file is unchanged, else
        /// `read(path)`; nil when the file is missing or `read` gives nil.
        func value(at path: String, read: (String) -> Value?) -> Value? {
            guard let identity = FileIdentity(path: path) else { return nil }
            if let entry = entries.withLock({ $0[path] }), entry.file == identity { return entry.value }
            guard let value = read(path) else { return nil }
            entries.withLock { $0[path] = (identity, value) }
            return value
        }
    }

    /// Whether `path` is a GGUF file llama.cpp can read (its header), checked
    /// again only when the file changed.
    private static func isModelFile(_ path: String) -> Bool {
        checkedFiles.value(at: path) { (try? GGUFFile.validate(path: $0)).map { _ in () } } != nil
    }
    #endif

    private struct FileFacts: Sendable {
        var languages: Set<Locale.Language>
        var trainedContextLength: Int?
        /// Elements of K and V a token adds to the cache: layers × KV heads
        /// × (key and value lengths), where the header says.
        var cacheElementsPerToken: Int?
        /// `general.name`, when the file has one.
        var name: String?
    }

    private static func facts(for path: String) -> FileFacts? {
        #if LlamaCpp
        metadataCache.value(at: path, read: readFacts)
        #else
        nil
        #endif
    }

    #if LlamaCpp
    private static func readFacts(_ path: String) -> FileFacts? {
        guard let metadata = try? GGUFFile.metadata(path: path) else { return nil }
        var languages = Set<Locale.Language>()
        if case .array(let values)? = metadata["general.languages"] {
            for value in values {
                if let code = value.stringValue { languages.insert(Locale.Language(identifier: code)) }
            }
        }
        if languages.isEmpty {
            // Models that don't declare languages (SmolLM2 among them) are
            // English models.
            languages.insert(Locale.Language(identifier: "en"))
        }
        let architecture = metadata["general.architecture"]?.stringValue
        let trained = architecture.flatMap { metadata["\($0).context_length"]?.intValue }
        var cacheElements: Int?
        if let architecture, let layers = metadata["\(architecture).block_count"]?.intValue,
           let heads = metadata["\(architecture).attention.head_count"]?.intValue, heads > 0,
           let width = metadata["\(architecture).embedding_length"]?.intValue {
            let keyLength = metadata["\(architecture).attention.key_length"]?.intValue ?? width / heads
            let valueLength = metadata["\(architecture).attention.value_length"]?.intValue ?? width / heads
            let kvHeads = metadata["\(architecture).attention.head_count_kv"]?.intValue ?? heads
            cacheElements = layers * kvHeads * (keyLength + valueLength)
        }
        return FileFacts(
            languages: languages, trainedContextLength: trained, cacheElementsPerToken: cacheElements, name: metadata["general.name"]?.stringValue
        )
    }
    #endif

    /// The model the configuration runs: named by its GGUF file's
    /// `general.name`, else the file's name.
    static func variant(_ configuration: SystemLanguageModel.Configuration) -> SystemLanguageModel.Variant {
        let path = configuration.modelPath
        let name = facts(for: path)?.name ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return SystemLanguageModel.Variant(identifier: "gguf:" + path, displayName: name)
    }

    static func supportedLanguages(_ configuration: SystemLanguageModel.Configuration) -> Set<Locale.Language> {
        facts(for: configuration.modelPath)?.languages ?? []
    }

    /// The tokens each sequence holds: the configured size, never above
    /// what the model was trained for; unconfigured, what it was trained for
    /// as far as an eighth of the machine's memory holds every sequence's
    /// KV cache (4,096 at least, where it was trained for as many).
    static func contextSize(_ configuration: SystemLanguageModel.Configuration) -> Int {
        let facts = facts(for: configuration.modelPath)
        let trained = facts?.trainedContextLength.flatMap { $0 > 0 ? $0 : nil }
        if let configured = configuration.contextSize { return trained.map { min(configured, $0) } ?? configured }
        guard let trained else { return 4096 }
        let floor = min(trained, 4096)
        guard let elements = facts?.cacheElementsPerToken, elements > 0 else { return floor }
        let bytesPerToken = Double(elements) * configuration.kvCacheType.bytesPerElement * Double(configuration.parallelSequences)
        let fits = Int(Double(ProcessInfo.processInfo.physicalMemory) / 8 / bytesPerToken) / 256 * 256
        return max(floor, min(trained, fits))
    }

    static func tokenCount(of entry: Transcript.Entry, _ configuration: SystemLanguageModel.Configuration) async throws -> Int {
        try checkAvailable(configuration)
        #if LlamaCpp
        return try await OnDeviceExecutor(configuration: configuration).tokenCount(of: entry)
        #else
        return 0  // unreachable: never available without the trait
        #endif
    }

    static func tokenCount(of schema: GenerationSchema, _ configuration: SystemLanguageModel.Configuration) async throws -> Int {
        try checkAvailable(configuration)
        #if LlamaCpp
        return try await OnDeviceExecutor(configuration: configuration).tokenCount(of: schema.jsonSchema.jsonString)
        #else
        return 0  // unreachable: never available without the trait
        #endif
    }

    /// Throws `assetsUnavailable`, explaining why, unless the model is available.
    static func checkAvailable(_ configuration: SystemLanguageModel.Configuration) throws {
        if let error = unavailabilityError(configuration) { throw error }
    }

    /// `assetsUnavailable`, explaining why, or `nil` when the model is available.
    static func unavailabilityError(_ configuration: SystemLanguageModel.Configuration) -> SystemLanguageModel.Error? {
        guard case .unavailable(let reason) = availability(configuration) else { return nil }
        return .assetsUnavailable(.init(
            debugDescription: "The on-device model is unavailable (\(reason)): \(explanation(reason, configuration))"
        ))
    }
}

extension SystemLanguageModel: AvailabilityReporting {
    package var unavailabilityError: (any Swift.Error)? {
        SystemModelRuntime.unavailabilityError(configuration)
    }
}

extension SystemLanguageModel.Executor: ReleasableExecutor {
    /// Drops the engine for this configuration: its weights and contexts are
    /// freed once the requests in flight finish.
    package func release() {
        SystemModelRuntime.unload(configuration.engine)
    }
}

extension SystemLanguageModel: LanguageModel {
    /// The system model's executor: the in-process llama.cpp engine.
    public struct Executor: LanguageModelExecutor {
        /// What distinguishes one system-model executor from another: the
        /// engine configuration (model file, context size, threads, pool).
        public struct Configuration: Hashable, Sendable {
            let engine: SystemLanguageModel.Configuration
            let useCase: String
        }

        public typealias Model = SystemLanguageModel

        let configuration: Configuration

        public init(configuration: Configuration) {
            self.configuration = configuration
        }

        public func prewarm(model: SystemLanguageModel, transcript: Transcript) {
            #if LlamaCpp
            OnDeviceExecutor(configuration: configuration.engine).prewarm(transcript: transcript)
            #endif
        }

        public func respond(
            to request: LanguageModelExecutorGenerationRequest,
            model: SystemLanguageModel,
            streamingInto channel: LanguageModelExecutorGenerationChannel
        ) async throws {
            // The session checked availability before calling (its
            // preflight): the file is not read again here. A caller that
            // did not, on a model that is not there, gets the same
            // explanation from the engine's load.
            #if LlamaCpp
            if model.configuration.isDisabled { try SystemModelRuntime.checkAvailable(model.configuration) }
            try await OnDeviceExecutor(configuration: configuration.engine).respond(to: request, streamingInto: channel)
            #else
            try SystemModelRuntime.checkAvailable(model.configuration)
            #endif
        }
    }

    /// The in-process model enforces response schemas token by token
    /// (guided generation), and tool calls the same way: every call names a
    /// declared tool with arguments that follow its schema.
    public var capabilities: LanguageModelCapabilities {
        LanguageModelCapabilities([.guidedGeneration, .toolCalling])
    }

    public var executorConfiguration: Executor.Configuration {
        Executor.Configuration(engine: configuration, useCase: useCase.name)
    }
}

extension SystemModelRuntime {
    static func explanation(_ reason: SystemLanguageModel.Availability.UnavailableReason, _ configuration: SystemLanguageModel.Configuration) -> String {
        switch reason {
        case .deviceNotEligible:
            #if LlamaCpp
            if let problem = LlamaBackend.compatibilityProblem { return problem + "." }
            return "llama.cpp has no usable compute backend on this machine."
            #else
            return "this build of swift-foundation-models has no in-process model (its LlamaCpp trait is off); use a server model, or enable the trait."
            #endif
        case .appleIntelligenceNotEnabled:
            return "the model is switched off (FOUNDATION_MODELS_DISABLED is set)."
        case .modelNotReady:
            return "no valid GGUF model at \(configuration.modelPath). Install the default model with scripts/setup.sh "
                + "(`make setup` in this repository; in a package that depends on it, "
                + "`bash .build/checkouts/swift-foundation-models/scripts/setup.sh`), "
                + "or name a GGUF file: FOUNDATION_MODELS_MODEL or SystemLanguageModel.Configuration(modelFile:)."
        }
    }
}

/// What the in-process model can compute on here, for `fm availability`
/// and the benchmarks' reports: llama.cpp's devices, as it found them.
package struct ComputeDevice: Sendable, Hashable {
    /// The backend's name for it (`CPU`, `CUDA0`, `Vulkan0`).
    package var name: String
    /// What the driver calls it.
    package var description: String
    package var isGPU: Bool
    /// Bytes free and in all, as the backend reports them (0: unknown).
    package var freeMemory: UInt64
    package var totalMemory: UInt64

    /// The devices of the llama.cpp library this process loaded; empty
    /// where there is none (the LlamaCpp trait off, another C API).
    package static var all: [ComputeDevice] {
        #if LlamaCpp
        LlamaBackend.devices.map {
            ComputeDevice(name: $0.name, description: $0.description, isGPU: $0.isGPU, freeMemory: $0.freeMemory, totalMemory: $0.totalMemory)
        }
        #else
        []
        #endif
    }

    /// One line: name, description, memory.
    package var summary: String {
        var line = name
        if !description.isEmpty && description != name { line += " (\(description))" }
        if totalMemory > 0 { line += ", \(freeMemory >> 20) MiB free of \(totalMemory >> 20) MiB" }
        return line
    }
}
