import Foundation
import Observation

/// The on-device model: the model every session uses unless told otherwise.
///
/// On Apple's platforms this is Apple's model. Here it is the in-process
/// model this package runs; `availability` says whether it can be used and,
/// if not, why — exactly the cases an app already handles.
public final class SystemLanguageModel: Observable, Sendable {
    /// The model for general use.
    public static let `default` = SystemLanguageModel()

    /// What the model is specialised for.
    public let useCase: UseCase
    /// The safety guardrails applied to its input and output.
    public let guardrails: Guardrails
    /// The adapter specialising the model, if any.
    let adapter: Adapter?
    /// How the model runs: ``Configuration/default`` for Apple's
    /// initializers (switched off by `FOUNDATION_MODELS_DISABLED`), the
    /// app's own for ``init(configuration:useCase:guardrails:)``.
    public let configuration: Configuration

    /// The system model running the GGUF file and settings of
    /// `configuration` (not in Apple's API, where the system model is
    /// fixed). Sessions on models with equal configurations share one engine.
    public convenience init(configuration: Configuration, useCase: UseCase = .general, guardrails: Guardrails = .default) {
        var configuration = configuration
        configuration.isDisabled = false
        self.init(running: configuration, useCase: useCase, guardrails: guardrails)
    }

    /// A model on `configuration` as given: switched off when it says so
    /// (what Apple's initializers do with ``Configuration/default``).
    package init(running configuration: Configuration, useCase: UseCase = .general, guardrails: Guardrails = .default, adapter: Adapter? = nil) {
        self.useCase = useCase
        self.guardrails = guardrails
        self.adapter = adapter
        var configuration = configuration
        if let adapter {
            configuration.adapter = Configuration.AppliedAdapter(path: adapter.fileURL.path, scale: adapter.scale)
        }
        self.configuration = configuration
    }

    /// The system model running a local model of your choosing, with its own
    /// engine settings; every setting left `nil` comes from
    /// ``Configuration/default``.
    ///
    /// - Parameters:
    ///   - modelFile: A GGUF file.
    ///   - contextSize: Tokens per context (capped at the model's training
    ///     length); nil: what the model was trained for, as memory allows.
    ///   - threads: CPU threads for decoding.
    ///   - contexts: Conversations served at once (``Configuration/parallelSequences``).
    public convenience init(
        modelFile: URL,
        contextSize: Int? = nil,
        threads: Int? = nil,
        contexts: Int? = nil,
        useCase: UseCase = .general,
        guardrails: Guardrails = .default
    ) {
        var configuration = Configuration(modelFile: modelFile)
        if let contextSize { configuration.contextSize = contextSize }
        if let threads { configuration.threads = threads }
        if let contexts { configuration.parallelSequences = contexts }
        self.init(configuration: configuration, useCase: useCase, guardrails: guardrails)
    }

    /// Creates a model for a use case.
    public convenience init(useCase: UseCase = .general, guardrails: Guardrails = .default) {
        self.init(running: .default, useCase: useCase, guardrails: guardrails)
    }

    /// Creates a model specialised by an adapter: the default model with
    /// `adapter` applied.
    public convenience init(adapter: Adapter, guardrails: Guardrails = .default) {
        self.init(running: .default, guardrails: guardrails, adapter: adapter)
    }

    /// The model `configuration` runs, with `adapter` applied (not in
    /// Apple's API, where the system model is fixed).
    public convenience init(adapter: Adapter, configuration: Configuration, guardrails: Guardrails = .default) {
        var configuration = configuration
        configuration.isDisabled = false
        self.init(running: configuration, guardrails: guardrails, adapter: adapter)
    }

    /// Frees the model's weights and KV caches (shared by every model with
    /// the same configuration) once the requests in flight finish. Sessions
    /// keep working: the next request loads the model again, with an empty
    /// cache.
    ///
    /// For a server that keeps several models and must give memory back,
    /// or an app that goes idle. Not in Apple's API.
    public func unload() {
        SystemModelRuntime.unload(configuration)
    }

    /// Whether the model can be used here, and why not if it cannot.
    public var availability: Availability {
        SystemModelRuntime.availability(configuration)
    }

    /// Whether ``availability`` is `.available`.
    public var isAvailable: Bool {
        availability == .available
    }

    /// The languages the model supports.
    public var supportedLanguages: Set<Locale.Language> {
        SystemModelRuntime.supportedLanguages(configuration)
    }

    /// Whether the model supports `locale`'s language (the current locale by default).
    public func supportsLocale(_ locale: Locale = Locale.current) -> Bool {
        let languages = supportedLanguages
        guard let code = locale.language.languageCode else { return false }
        return languages.contains { $0.languageCode == code }
    }

    /// The number of tokens the model's context holds (prompt and response together).
    public var contextSize: Int {
        SystemModelRuntime.contextSize(configuration)
    }

    /// Which model this is: here, the GGUF model the configuration runs.
    public var variant: Variant {
        SystemModelRuntime.variant(configuration)
    }
}

extension SystemLanguageModel {
    /// A model the system model can be.
    ///
    /// Apple's variants name its own models (``core3``, ``coreAdvanced3``),
    /// so an app can tell which one it got. Here the system model runs a
    /// GGUF file, and its ``SystemLanguageModel/variant`` names that model:
    /// the file's `general.name` (else its file name) as ``displayName``;
    /// two variants are equal when they are the same file. It is never one
    /// of Apple's.
    public struct Variant: Sendable, Hashable {
        /// What stands apart one variant from another.
        let identifier: String
        /// The model's name, for people.
        public let displayName: String

        init(identifier: String, displayName: String) {
            self.identifier = identifier
            self.displayName = displayName
        }

        /// Apple's third-generation on-device model.
        public static var core3: Variant { Variant(identifier: "apple.core3", displayName: "Core 3") }
        /// Apple's larger third-generation model.
        public static var coreAdvanced3: Variant { Variant(identifier: "apple.coreAdvanced3", displayName: "Core Advanced 3") }
    }
}

extension SystemLanguageModel {
    /// Whether the model can be used, and why not.
    @frozen
    public enum Availability: Equatable, Sendable {
        /// Why the model cannot be used.
        public enum UnavailableReason: Equatable, Sendable {
            /// This machine cannot run the model.
            case deviceNotEligible
            /// The model is switched off by configuration.
            case appleIntelligenceNotEnabled
            /// The model's weights are missing or not loadable.
            case modelNotReady
        }

        case available
        case unavailable(UnavailableReason)
    }

    /// A specialisation of the model for a kind of task.
    public struct UseCase: Sendable, Equatable {
        let name: String
        /// General-purpose prompting.
        public static let general = UseCase(name: "general")
        /// Tagging content: extracting topics, entities, emotions.
        public static let contentTagging = UseCase(name: "contentTagging")
    }

    /// The guardrails applied to the model's input and output.
    public struct Guardrails: Sendable {
        let name: String
        /// The default guardrails.
        public static let `default` = Guardrails(name: "default")
        /// Guardrails that let the model transform potentially unsafe text it is given.
        public static let permissiveContentTransformations = Guardrails(name: "permissiveContentTransformations")
    }
}
