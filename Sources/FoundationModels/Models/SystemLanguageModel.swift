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
    /// The engine configuration; `nil` reads the environment each time (see
    /// ``OnDeviceConfiguration``).
    private let configurationOverride: OnDeviceConfiguration?

    /// The engine configuration this model runs with.
    package var configuration: OnDeviceConfiguration {
        configurationOverride ?? .current
    }

    /// A system model on an explicit engine configuration: another GGUF file,
    /// context size, thread count or pool size.
    package init(configuration: OnDeviceConfiguration, useCase: UseCase = .general, guardrails: Guardrails = .default) {
        self.useCase = useCase
        self.guardrails = guardrails
        self.adapter = nil
        self.configurationOverride = configuration
    }

    /// The system model running a local model of your choosing, with its own
    /// engine settings (not in Apple's API, where the system model is fixed).
    ///
    /// Every setting left `nil` comes from the process environment (the
    /// `FOUNDATION_MODELS_*` variables) or its default. Models with equal
    /// settings share one engine (one copy of the weights); every local
    /// model in the process takes turns on the CPU.
    ///
    /// - Parameters:
    ///   - modelFile: A GGUF file.
    ///   - contextSize: Tokens per context (capped at the model's training length).
    ///   - threads: CPU threads for decoding.
    ///   - contexts: KV caches kept, i.e. conversations served at once.
    public convenience init(
        modelFile: URL,
        contextSize: Int? = nil,
        threads: Int? = nil,
        contexts: Int? = nil,
        useCase: UseCase = .general,
        guardrails: Guardrails = .default
    ) {
        var configuration = OnDeviceConfiguration.current
        configuration.modelPath = modelFile.path
        if let contextSize { configuration.contextSize = max(16, contextSize) }
        if let threads { configuration.threads = max(1, threads) }
        if let contexts { configuration.contexts = max(1, contexts) }
        self.init(configuration: configuration, useCase: useCase, guardrails: guardrails)
    }

    /// Creates a model for a use case.
    public init(useCase: UseCase = .general, guardrails: Guardrails = .default) {
        self.useCase = useCase
        self.guardrails = guardrails
        self.adapter = nil
        self.configurationOverride = nil
    }

    /// Creates a model specialised by an adapter.
    public init(adapter: Adapter, guardrails: Guardrails = .default) {
        self.useCase = .general
        self.guardrails = guardrails
        self.adapter = adapter
        self.configurationOverride = nil
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
