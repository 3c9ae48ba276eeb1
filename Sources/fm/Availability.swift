import ArgumentParser
import FoundationModels

extension FM {
    /// `fm availability`: whether the system model can be used here, and why not.
    struct Availability: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print whether the on-device model is available, and why not.")

        @OptionGroup var model: ModelOptions

        func run() throws {
            let model = model.model
            switch model.availability {
            case .available:
                print("available: \(model.configuration.modelPath) (context \(model.contextSize) tokens)")
            case .unavailable(let reason):
                print("unavailable: \(Self.explain(reason))")
                print("model path: \(model.configuration.modelPath)")
                throw ExitCode(1)
            }
        }

        static func explain(_ reason: SystemLanguageModel.Availability.UnavailableReason) -> String {
            switch reason {
            case .deviceNotEligible: "deviceNotEligible (llama.cpp cannot compute on this machine)"
            case .appleIntelligenceNotEnabled: "appleIntelligenceNotEnabled (FOUNDATION_MODELS_DISABLED is set)"
            case .modelNotReady: "modelNotReady (no valid GGUF file; run `make setup` or set FOUNDATION_MODELS_MODEL)"
            }
        }
    }
}
