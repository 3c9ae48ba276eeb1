import Foundation
import ArgumentParser
import FoundationModels
import TerminalSupport

/// The model options shared by the subcommands: `--model PATH`,
/// `--context-size N`, `--adapter FILE`.
struct ModelOptions: ParsableArguments {
    @Option(name: .customLong("model"), help: "A GGUF model file (default: FOUNDATION_MODELS_MODEL, else the installed default).")
    var path: String?

    @Option(name: .customLong("context-size"), help: "Tokens the model's context holds, prompt and answer (default: FOUNDATION_MODELS_CONTEXT_SIZE, else what the model was trained for, as memory allows).")
    var contextSize: Int?

    @Option(name: .customLong("adapter"), help: ArgumentHelp("A LoRA adapter (GGUF) for the model, applied as it runs.", valueName: "file"))
    var adapterPath: String?

    func validate() throws {
        if let contextSize, contextSize < 64 { throw ValidationError("--context-size must be at least 64") }
    }

    /// The system model, on `--model`, `--context-size` and `--adapter` when given.
    ///
    /// - Throws: the adapter's `AssetError` when `--adapter` is not a LoRA adapter.
    var model: SystemLanguageModel {
        get throws {
            guard path != nil || contextSize != nil || adapterPath != nil else { return .default }
            var configuration = SystemLanguageModel.Configuration.default
            if let path { configuration.modelPath = path }
            if let contextSize { configuration.contextSize = contextSize }
            if let adapterPath {
                let adapter = try SystemLanguageModel.Adapter(fileURL: URL(fileURLWithPath: adapterPath))
                return SystemLanguageModel(adapter: adapter, configuration: configuration)
            }
            return SystemLanguageModel(configuration: configuration)
        }
    }

    /// The model, its weights loaded, with progress on standard error when
    /// a person is watching it (a terminal): loading takes seconds, and a
    /// silent first answer looks like a hang. Elsewhere the weights load
    /// with the first request, as they would anyway.
    ///
    /// - Throws: the availability's user-facing message when the model
    ///   cannot be used; the loading error when the file does not load.
    func loadedModel() async throws -> SystemLanguageModel {
        let model = try model
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
    @Flag(help: "Always pick the most likely token (deterministic).")
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
