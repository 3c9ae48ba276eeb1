import ArgumentParser
import Foundation
import FoundationModels
import FoundationModelsKit
import TerminalSupport

extension FM {
    /// `fm available` (Apple's name; `fm availability` is this package's):
    /// whether the system model can be used here, and why not. Exits 1 when
    /// it cannot.
    struct Availability: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "available",
            abstract: "Print whether the on-device model is available, and why not (exit status 1 when not).",
            aliases: ["availability"]
        )

        @OptionGroup var model: ModelOptions

        func run() throws {
            let model = try model.model
            let out = TerminalStream.output
            switch model.availability {
            case .available:
                print("\(out.styled("available", .green)): \(model.configuration.modelPath) (context \(model.contextSize) tokens)")
                Self.printDevices(model.configuration)
            case .unavailable(let reason):
                print("\(out.styled("unavailable", .red)): \(Self.explain(reason))")
                print("model path: \(model.configuration.modelPath)")
                if let message = UserFacingMessage(model.availability) {
                    print("an app tells its user: \(message)")
                }
                throw ExitCode(1)
            }
        }

        /// Where the model computes: llama.cpp's devices and the offload
        /// the configuration asks for.
        static func printDevices(_ configuration: SystemLanguageModel.Configuration) {
            let devices = ComputeDevice.all
            let gpus = devices.filter(\.isGPU)
            for device in devices { print("device: \(device.summary)") }
            let layers = configuration.gpuLayers.map { "\($0) layers" } ?? "every layer"
            if gpus.isEmpty {
                print("offload: none (this llama.cpp build computes on the CPU; `make setup GPU=cuda` or `GPU=vulkan` builds a GPU backend)")
            } else {
                let place =
                    configuration.mainGPU.map { "GPU \($0) (\(gpus.indices.contains($0) ? gpus[$0].name : "not found"))" }
                    ?? "split across \(gpus.count) GPU\(gpus.count == 1 ? "" : "s")"
                print(
                    "offload: \(layers) to \(place); flash attention \(configuration.flashAttention.rawValue), KV cache \(configuration.kvCacheType.rawValue)"
                )
            }
        }

        static func explain(_ reason: SystemLanguageModel.Availability.UnavailableReason) -> String {
            switch reason {
            case .deviceNotEligible:
                "deviceNotEligible (no in-process model here: llama.cpp cannot compute on this machine, its library has another C API, or the LlamaCpp trait is off)"
            case .appleIntelligenceNotEnabled: "appleIntelligenceNotEnabled (FOUNDATION_MODELS_DISABLED is set)"
            case .modelNotReady: "modelNotReady (no valid GGUF file; run `make setup` or set FOUNDATION_MODELS_MODEL)"
            }
        }

        /// The model cannot be used: the reason, for developers, and the path.
        struct Unavailable: LocalizedError {
            var reason: SystemLanguageModel.Availability.UnavailableReason
            var modelPath: String
            var errorDescription: String? { "the model is unavailable: \(Availability.explain(reason))" }
            var recoverySuggestion: String? { "model path: \(modelPath)" }
        }
    }
}
