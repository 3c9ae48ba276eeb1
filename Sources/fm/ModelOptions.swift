import ArgumentParser
import Foundation
import FoundationModels
import TerminalSupport

/// The model options shared by the subcommands: `-m/--model system|PATH`,
/// `--context-size N`, `--adapter FILE`, `--schema-budget N`, `--tools-budget N`.
struct ModelOptions: ParsableArguments {
    @Option(
        name: [.customShort("m"), .customLong("model")],
        help: ArgumentHelp(
            """
            system (the default on-device model, Apple's name for it) or a GGUF model file (default: FOUNDATION_MODELS_MODEL, \
            else `fm chat --set-default-model`'s, else the installed default).
            """,
            valueName: "system|file.gguf"))
    var path: String?

    @Option(
        name: .customLong("context-size"),
        help:
            "Tokens the model's context holds, prompt and answer (default: FOUNDATION_MODELS_CONTEXT_SIZE, else what the model was trained for, as memory allows)."
    )
    var contextSize: Int?

    @Option(name: .customLong("adapter"), help: ArgumentHelp("A LoRA adapter (GGUF) for the model, applied as it runs.", valueName: "file"))
    var adapterPath: String?

    @Option(
        name: .customLong("schema-budget"),
        help:
            "Tokens a schema's description may take in the prompt; a longer one is described shorter (default: FOUNDATION_MODELS_SCHEMA_BUDGET, else 1024)."
    )
    var schemaBudget: Int?

    @Option(
        name: .customLong("tools-budget"),
        help:
            "Tokens the tool list may take in the prompt; names and one-line descriptions always (default: FOUNDATION_MODELS_TOOLS_BUDGET, else 3072)."
    )
    var toolsBudget: Int?

    func validate() throws {
        if let contextSize, contextSize < 64 { throw ValidationError("--context-size must be at least 64") }
        if let schemaBudget, schemaBudget < 64 { throw ValidationError("--schema-budget must be at least 64") }
        if let toolsBudget, toolsBudget < 256 { throw ValidationError("--tools-budget must be at least 256") }
        if let path { try Self.validateModelName(path, option: "--model") }
    }

    /// `system`, or something that reads as a file: a bare word is a model
    /// name this machine does not have (Apple's fm knows only `system`),
    /// and saying so beats "no valid GGUF file at gpt-4".
    static func validateModelName(_ name: String, option: String) throws {
        guard name != Self.system, !name.contains("/"), !name.lowercased().hasSuffix(".gguf") else { return }
        throw ValidationError("\(option) \(name): no model has that name; give system (the default on-device model) or a GGUF file's path")
    }

    /// Apple's command-line name for the on-device model.
    static let system = "system"

    /// The GGUF file to run in place of the default configuration's, or
    /// nil for the default: `--model` when it names a file; with no
    /// `--model`, the stored default (`fm chat --set-default-model`)
    /// unless FOUNDATION_MODELS_MODEL is set (the environment, as
    /// everywhere, overrides a stored setting).
    var modelFile: String? {
        get throws {
            if let path { return path == Self.system ? nil : path }
            if ProcessInfo.processInfo.environment["FOUNDATION_MODELS_MODEL"].map({ !$0.isEmpty }) == true { return nil }
            guard let stored = try Settings.load().defaultModel, stored != Self.system else { return nil }
            return stored
        }
    }

    /// The system model, on `--model`, `--context-size`, `--adapter` and the budgets when
    /// given, with `--use-case` and `--guardrails` when the command has them.
    ///
    /// - Throws: the adapter's `AssetError` when `--adapter` is not a LoRA adapter.
    func model(_ system: SystemModelArguments? = nil) throws -> SystemLanguageModel {
        let file = try modelFile
        let useCase = system?.useCase.value ?? .general, guardrails = system?.guardrails.value ?? .default
        guard file != nil || contextSize != nil || adapterPath != nil || schemaBudget != nil || toolsBudget != nil else {
            return system?.isDefault ?? true ? .default : SystemLanguageModel(useCase: useCase, guardrails: guardrails)
        }
        var configuration = SystemLanguageModel.Configuration.default
        if let file { configuration.modelPath = file }
        if let contextSize { configuration.contextSize = contextSize }
        if let schemaBudget { configuration.schemaPromptTokenBudget = schemaBudget }
        if let toolsBudget { configuration.toolsPromptTokenBudget = toolsBudget }
        if let adapterPath {
            let adapter = try SystemLanguageModel.Adapter(fileURL: URL(fileURLWithPath: adapterPath))
            return SystemLanguageModel(adapter: adapter, configuration: configuration, guardrails: guardrails)
        }
        return SystemLanguageModel(configuration: configuration, useCase: useCase, guardrails: guardrails)
    }

    var model: SystemLanguageModel {
        get throws { try model() }
    }

    /// The model, its weights loaded, with progress on standard error when
    /// a person is watching it (a terminal): loading takes seconds, and a
    /// silent first answer looks like a hang. Elsewhere the weights load
    /// with the first request, as they would anyway.
    ///
    /// - Throws: the availability's user-facing message when the model
    ///   cannot be used; the loading error when the file does not load.
    func loadedModel(_ system: SystemModelArguments? = nil) async throws -> SystemLanguageModel {
        let model = try model(system)
        if case .unavailable(let reason) = model.availability {
            throw FM.Availability.Unavailable(reason: reason, modelPath: model.configuration.modelPath)
        }
        if let adapterPath {
            // The adapter against the model's header: a mismatch is said
            // before any weights load.
            try await SystemLanguageModel.Adapter(fileURL: URL(fileURLWithPath: adapterPath)).compile(for: model.configuration)
        }
        guard TerminalStream.error.isTerminal else { return model }
        let name = model.configuration.modelPath.split(separator: "/").last.map(String.init) ?? model.configuration.modelPath
        Progress.report("loading \(name)…")
        let stopwatch = Stopwatch()
        // Counting tokens loads the weights (and only that).
        _ = try await model.tokenCount(for: "")
        Progress.report("loaded in \(stopwatch.formatted) (context \(model.contextSize) tokens)")
        return model
    }
}

/// The generation options shared by `respond` and `chat`.
struct GenerationArguments: ParsableArguments {
    @Flag(name: [.customShort("g"), .long], help: "Always pick the most likely token (deterministic).")
    var greedy = false

    @Option(help: "Sampling temperature.")
    var temperature: Double?

    @Option(name: .customLong("top-k"), help: "Sample from the K most likely tokens.")
    var topK: Int?

    @Option(name: .customLong("top-p"), help: "Sample from the smallest set of tokens whose probability reaches P.")
    var topP: Double?

    @Option(help: "Random seed, for reproducible sampling.")
    var seed: UInt64?

    @Option(name: .customLong("max-tokens"), help: "The most tokens to generate per answer.")
    var maxTokens: Int?

    func validate() throws {
        if greedy, temperature != nil || topK != nil || topP != nil || seed != nil {
            throw ValidationError("--greedy cannot be combined with --temperature, --top-k, --top-p or --seed")
        }
        if topK != nil, topP != nil {
            throw ValidationError("choose one of --top-k and --top-p")
        }
        // The values themselves (--temperature, --top-k, --top-p,
        // --max-tokens) are checked by the API's own check
        // (GenerationOptions.validate, InvalidGenerationOptions) before a
        // model loads, and the error ends the command through Failure, so
        // fm and the API say the same thing.
    }

    var options: GenerationOptions {
        let sampling: GenerationOptions.SamplingMode?
        if greedy {
            sampling = .greedy
        } else if let topK {
            sampling = .random(top: topK, seed: seed)
        } else if let topP {
            sampling = .random(probabilityThreshold: topP, seed: seed)
        } else if let seed {
            sampling = .random(top: 40, seed: seed)
        } else {
            sampling = nil
        }
        return GenerationOptions(samplingMode: sampling, temperature: temperature, maximumResponseTokens: maxTokens)
    }
}

/// Apple's system-model options of `fm respond`: the API's use case and
/// guardrails, passed to `SystemLanguageModel(useCase:guardrails:)`.
///
/// The in-process model has no adapter per use case and runs no safety
/// model, so both are recorded on the model and change no answer here (see
/// docs/COMING_FROM_APPLE.md); they are accepted so a script written for
/// Apple's fm runs, and so code reading `model.useCase` sees the choice.
struct SystemModelArguments: ParsableArguments {
    @Option(
        name: .customLong("use-case"),
        help: ArgumentHelp(
            "The system model's use case (SystemLanguageModel.UseCase; the same model answers both here).",
            valueName: "case"))
    var useCase: UseCaseName = .general

    @Option(
        help: ArgumentHelp(
            "The system model's guardrails (accepted; no safety model runs in process, so neither blocks anything).",
            valueName: "level"))
    var guardrails: GuardrailsName = .default

    var isDefault: Bool { useCase == .general && guardrails == .default }

    enum UseCaseName: String, ExpressibleByArgument, CaseIterable {
        case general
        case contentTagging = "content-tagging"

        var value: SystemLanguageModel.UseCase { self == .general ? .general : .contentTagging }
    }

    enum GuardrailsName: String, ExpressibleByArgument, CaseIterable {
        case `default`
        case permissiveContentTransformations = "permissive-content-transformations"

        var value: SystemLanguageModel.Guardrails { self == .default ? .default : .permissiveContentTransformations }
    }
}
