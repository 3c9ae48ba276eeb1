import ArgumentParser
import FoundationModels

/// The `--model PATH` option shared by the subcommands.
struct ModelOptions: ParsableArguments {
    @Option(name: .customLong("model"), help: "A GGUF model file (default: FOUNDATION_MODELS_MODEL, else the installed default).")
    var path: String?

    /// The system model, on `--model` when given.
    var model: SystemLanguageModel {
        guard let path else { return .default }
        var configuration = OnDeviceConfiguration.current
        configuration.modelPath = path
        return SystemLanguageModel(configuration: configuration)
    }
}
