import Foundation

extension SystemLanguageModel {
    /// A specialisation of the system model trained for one task, loaded from
    /// a file.
    ///
    /// Apple's adapters are tied to Apple's model; here an adapter is a file
    /// the in-process engine may apply. Creating one checks the file exists.
    public struct Adapter: Sendable {
        /// The adapter's file.
        let fileURL: URL

        /// Values the adapter's creator stored in it.
        public var creatorDefinedMetadata: [String: Any] { [:] }

        /// Loads an adapter from a file.
        public init(fileURL: URL) throws {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: fileURL.path, isDirectory: &isDirectory) else {
                throw AssetError.invalidAsset(.init(debugDescription: "No adapter file at \(fileURL.path)."))
            }
            self.fileURL = fileURL
        }

        /// Loads an installed adapter by name. No adapters are installed by
        /// name on this platform.
        public init(name: String) throws {
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
                throw AssetError.invalidAdapterName(.init(debugDescription: "\"\(name)\" is not a valid adapter name."))
            }
            throw AssetError.compatibleAdapterNotFound(.init(debugDescription: "No installed adapter named \"\(name)\" is compatible with this model."))
        }

        /// Prepares the adapter for use.
        public func compile() async throws {}

        /// The identifiers of installed adapters compatible with the model.
        public static func compatibleAdapterIdentifiers(name: String) -> [String] { [] }

        /// Deletes adapters no longer compatible with the model.
        public static func removeObsoleteAdapters() throws {}

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
