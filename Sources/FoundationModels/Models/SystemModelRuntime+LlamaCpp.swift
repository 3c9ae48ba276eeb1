#if LlamaCpp
import Foundation
import LlamaKit
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The system model with the `LlamaCpp` trait: llama.cpp in process. The
// build without the trait declares the same members in
// SystemModelRuntime+NoLlamaCpp.swift.

extension SystemModelRuntime {
    /// Whether llama.cpp can run here and the configured file is a GGUF
    /// model it can read; the configuration's switch is checked before.
    static func engineAvailability(_ configuration: SystemLanguageModel.Configuration) -> SystemLanguageModel.Availability {
        guard LlamaBackend.isSupported else { return .unavailable(.deviceNotEligible) }
        guard isModelFile(configuration.modelPath) else { return .unavailable(.modelNotReady) }
        return .available
    }

    /// Frees the engine of `configuration` (``SystemLanguageModel/unload()``).
    static func unload(_ configuration: SystemLanguageModel.Configuration) {
        OnDeviceEngine.release(for: configuration)
    }

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

    /// What the GGUF header at `path` says, read again only when the file
    /// changed; nil when it cannot be read.
    static func facts(for path: String) -> FileFacts? {
        metadataCache.value(at: path, read: readFacts)
    }

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
            let width = metadata["\(architecture).embedding_length"]?.intValue
        {
            let keyLength = metadata["\(architecture).attention.key_length"]?.intValue ?? width / heads
            let valueLength = metadata["\(architecture).attention.value_length"]?.intValue ?? width / heads
            let kvHeads = metadata["\(architecture).attention.head_count_kv"]?.intValue ?? heads
            cacheElements = layers * kvHeads * (keyLength + valueLength)
        }
        return FileFacts(
            languages: languages, trainedContextLength: trained, cacheElementsPerToken: cacheElements, name: metadata["general.name"]?.stringValue
        )
    }

    /// The tokens `entry` takes, by the model's tokenizer and template
    /// (availability already checked).
    static func engineTokenCount(of entry: Transcript.Entry, _ configuration: SystemLanguageModel.Configuration) async throws -> Int {
        try await OnDeviceExecutor(configuration: configuration).tokenCount(of: entry)
    }

    /// The tokens `schema`'s JSON Schema takes (availability already checked).
    static func engineTokenCount(of schema: GenerationSchema, _ configuration: SystemLanguageModel.Configuration) async throws -> Int {
        try await OnDeviceExecutor(configuration: configuration).tokenCount(of: schema.jsonSchema.jsonString)
    }

    /// ``SystemLanguageModel/Executor``'s `prewarm`.
    static func prewarm(_ engine: SystemLanguageModel.Configuration, transcript: Transcript) {
        OnDeviceExecutor(configuration: engine).prewarm(transcript: transcript)
    }

    /// ``SystemLanguageModel/Executor``'s `respond`: one request on the
    /// engine of `engine`.
    static func respond(
        to request: LanguageModelExecutorGenerationRequest,
        model: SystemLanguageModel,
        engine: SystemLanguageModel.Configuration,
        streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
        // The session checked availability before calling (its
        // preflight): the file is not read again here. A caller that
        // did not, on a model that is not there, gets the same
        // explanation from the engine's load.
        if model.configuration.isDisabled { try checkAvailable(model.configuration) }
        try await OnDeviceExecutor(configuration: engine).respond(to: request, streamingInto: channel)
    }

    /// Why there is no device: the loaded library's, or the backend's.
    static var deviceNotEligibleExplanation: String {
        if let problem = LlamaBackend.compatibilityProblem { return problem + "." }
        return "llama.cpp has no usable compute backend on this machine."
    }
}

extension ComputeDevice {
    /// The devices of the llama.cpp library this process loaded; empty
    /// where there is none (another C API).
    package static var all: [ComputeDevice] {
        LlamaBackend.devices.map {
            ComputeDevice(name: $0.name, description: $0.description, isGPU: $0.isGPU, freeMemory: $0.freeMemory, totalMemory: $0.totalMemory)
        }
    }
}
#endif
