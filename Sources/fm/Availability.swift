import ArgumentParser
import Foundation
import FoundationModels
import FoundationModelsKit
import TerminalSupport

extension FM {
    /// `fm availability`: whether the system model can be used here, and why not.
    struct Availability: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print whether the on-device model is available, and why not.")

        @OptionGroup var model: ModelOptions

        func run() throws {
            let model = try model.model
            let out = TerminalStream.output
            switch model.availability {
            case .available:
                print("\(out.styled("available", .green)): \(model.configuration.modelPath) (context \(model.contextSize) tokens)")
            case .unavailable(let reason):
                print("\(out.styled("unavailable", .red)): \(Self.explain(reason))")
                print("model path: \(model.configuration.modelPath)")
                if let message = UserFacingMessage(model.availability) {
                    print("an app tells its user: \(message)")
                }
                throw ExitCode(1)
            }
        }

        static func explain(_ reason: SystemLanguageModel.Availability.UnavailableReason) -> String {
            switch reason {
            case .deviceNotEligible: "deviceNotEligible (no in-process model here: llama.cpp cannot compute on this machine, its library has another C API, or the LlamaCpp trait is off)"
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
