import Foundation

#if LlamaCpp
import LlamaKit
#endif

extension SystemLanguageModel {
    /// A specialisation of the system model trained for one task: a LoRA
    /// adapter in GGUF form, applied to the model's weights as it runs.
    ///
    /// Apple's adapters are trained for Apple's model; here an adapter is
    /// trained for the GGUF model the system model runs (convert a PEFT
    /// LoRA with llama.cpp's `convert_lora_to_gguf.py`, README "Adapters").
    /// `SystemLanguageModel(adapter:)` answers with it applied; sessions of
    /// the base model and of adapted models run side by side in one
    /// process, each in its own context (an adapter changes every token's
    /// activations, so their KV caches cannot be shared; the weights are
    /// memory-mapped once).
    ///
    /// Creating one checks the file is a LoRA adapter; ``compile()`` checks
    /// it fits the model (architecture, every tensor's shape) from the two
    /// files' headers, without loading weights.
    public struct Adapter: Sendable {
        /// The adapter's file.
        let fileURL: URL
        /// How strongly it is applied (1: as trained; 0: not at all).
        /// Not in Apple's API: for tests and measurements.
        package var scale: Float = 1
        /// The file's scalar metadata, read when the adapter was created.
        private let metadata: [String: MetadataValue]

        /// A metadata value, kept `Sendable` until it is handed out as `Any`.
        enum MetadataValue: Sendable {
            case string(String), integer(Int), number(Double), bool(Bool)

            var value: Any {
                switch self {
                case .string(let value): value
                case .integer(let value): value
                case .number(let value): value
                case .bool(let value): value
                }
            }
        }

        /// What the adapter's creator stored in it: the GGUF file's scalar
        /// metadata (`general.name`, `adapter.lora.alpha`, keys of the
        /// creator's own) as `String`, `Int`, `Double` or `Bool`.
        public var creatorDefinedMetadata: [String: Any] {
            metadata.mapValues(\.value)
        }

        /// Loads the adapter in `fileURL`.
        ///
        /// - Throws: ``AssetError/invalidAsset(_:)`` when there is no file,
        ///   or it is not a LoRA adapter in GGUF form.
        public init(fileURL: URL) throws {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: fileURL.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw AssetError.invalidAsset(.init(debugDescription: "No adapter file at \(fileURL.path)."))
            }
            #if LlamaCpp
            let values: [String: GGUFFile.Value]
            do {
                values = try GGUFFile.metadata(path: fileURL.path, maximumArrayLength: 0)
            } catch {
                throw AssetError.invalidAsset(.init(debugDescription: "\(fileURL.path) is not a GGUF file: \(error)"))
            }
            if let problem = LoRACompatibility.adapterProblem(metadata: values) {
                throw AssetError.invalidAsset(.init(debugDescription: "\(fileURL.path) is not a LoRA adapter: \(problem)."))
            }
            var metadata: [String: MetadataValue] = [:]
            for (key, value) in values {
                switch value {
                case .string(let text): metadata[key] = .string(text)
                case .int(let number): metadata[key] = .integer(Int(number))
                case .uint(let number): metadata[key] = .integer(Int(clamping: number))
                case .float(let number): metadata[key] = .number(number)
                case .bool(let flag): metadata[key] = .bool(flag)
                default: continue
                }
            }
            self.fileURL = fileURL
            self.metadata = metadata
            #else
            throw AssetError.invalidAsset(.init(debugDescription: "This build has no in-process model to adapt (the LlamaCpp trait is off)."))
            #endif
        }

        /// Loads the installed adapter `name`: the file `name.gguf` in
        /// ``SystemLanguageModel/Configuration/installedAdaptersDirectory``.
        ///
        /// - Throws: ``AssetError/invalidAdapterName(_:)`` for a name that is
        ///   not letters, digits, `_` and `-`;
        ///   ``AssetError/compatibleAdapterNotFound(_:)`` when no such file is installed.
        public init(name: String) throws {
            guard Self.isValidName(name) else {
                throw AssetError.invalidAdapterName(
                    .init(debugDescription: "\"\(name)\" is not a valid adapter name (letters, digits, '_' and '-')."))
            }
            let file = Configuration.installedAdaptersDirectory.appendingPathComponent("\(name).gguf")
            guard FileManager.default.fileExists(atPath: file.path) else {
                throw AssetError.compatibleAdapterNotFound(
                    .init(
                        debugDescription:
                            "No adapter named \"\(name)\" is installed (looked for \(file.path); FOUNDATION_MODELS_ADAPTERS names the folder)."
                    ))
            }
            try self.init(fileURL: file)
        }

        static func isValidName(_ name: String) -> Bool {
            !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
        }

        /// Checks that the adapter fits the system model: made for its
        /// architecture, with every tensor's shape matching the model's.
        ///
        /// - Throws: ``AssetError/compatibleAdapterNotFound(_:)`` naming what
        ///   differs; ``AssetError/invalidAsset(_:)`` when a file cannot be read.
        public func compile() async throws {
            try await compile(for: .default)
        }

        /// ``compile()`` against the model `configuration` runs.
        package func compile(for configuration: Configuration) async throws {
            let adapterPath = fileURL.path
            let modelPath = configuration.modelPath
            // Reading the model's header (its vocabulary included) is file
            // work: off the cooperative pool.
            try await Task.detached(priority: .userInitiated) {
                try Self.check(adapterPath: adapterPath, modelPath: modelPath)
            }.value
        }

        /// Throws the asset error that says why the adapter at `adapterPath`
        /// does not fit the model at `modelPath`.
        static func check(adapterPath: String, modelPath: String) throws {
            #if LlamaCpp
            do {
                try LoRACompatibility.check(adapterPath: adapterPath, modelPath: modelPath)
            } catch LlamaError.adapterMismatch(_, let reason) {
                throw AssetError.compatibleAdapterNotFound(
                    .init(debugDescription: "The adapter \(adapterPath) does not fit the model \(modelPath): \(reason)."))
            } catch {
                throw AssetError.invalidAsset(.init(debugDescription: "\(error)"))
            }
            #else
            throw AssetError.invalidAsset(.init(debugDescription: "This build has no in-process model to adapt (the LlamaCpp trait is off)."))
            #endif
        }

        /// The names of the installed adapters that fit the system model
        /// and are `name` or a version of it (`name-2`, `name_v3`).
        public static func compatibleAdapterIdentifiers(name: String) -> [String] {
            let modelPath = Configuration.default.modelPath
            return installedAdapters().filter { identifier, file in
                (identifier == name || identifier.hasPrefix(name + "-") || identifier.hasPrefix(name + "_"))
                    && (try? check(adapterPath: file.path, modelPath: modelPath)) != nil
            }.map(\.identifier).sorted()
        }

        /// Deletes the installed adapters that no longer fit the system model
        /// (made for another architecture or other tensor shapes, or not
        /// adapters at all). Only `.gguf` files in the adapters folder are touched.
        public static func removeObsoleteAdapters() throws {
            let modelPath = Configuration.default.modelPath
            guard FileManager.default.fileExists(atPath: modelPath) else { return }  // nothing to judge them by
            for (_, file) in installedAdapters() where (try? check(adapterPath: file.path, modelPath: modelPath)) == nil {
                try FileManager.default.removeItem(at: file)
            }
        }

        /// The `.gguf` files in the adapters folder, by name.
        static func installedAdapters() -> [(identifier: String, file: URL)] {
            let folder = Configuration.installedAdaptersDirectory
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.filter { $0.hasSuffix(".gguf") }.map { name in
                (String(name.dropLast(5)), folder.appendingPathComponent(name))
            }
        }

        /// Why an adapter could not be loaded.
        public enum AssetError: Swift.Error, LocalizedError {
            /// What went wrong, for developers.
            public struct Context: Sendable {
                public let debugDescription: String
                public init(debugDescription: String) { self.debugDescription = debugDescription }
            }

            case invalidAsset(Context)
            case invalidAdapterName(Context)
            case compatibleAdapterNotFound(Context)

            public var errorDescription: String? {
                switch self {
                case .invalidAsset(let c): "The adapter file is invalid. \(c.debugDescription)"
                case .invalidAdapterName(let c): "The adapter name is invalid. \(c.debugDescription)"
                case .compatibleAdapterNotFound(let c): "No compatible adapter was found. \(c.debugDescription)"
                }
            }

            public var recoverySuggestion: String? {
                switch self {
                case .invalidAsset: "Check that the file is an adapter for this model and is readable."
                case .invalidAdapterName: "Use an adapter name made of letters, digits, '_' and '-'."
                case .compatibleAdapterNotFound: "Install an adapter built for this model, or load one from a file with init(fileURL:)."
                }
            }
        }
    }
}
