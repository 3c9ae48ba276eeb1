import ArgumentParser
import FoundationModels

extension FM {
    /// `fm availability`: whether the system model can be used here, and why not.
    struct Availability: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print whether the on-device model is available, and why not.")

        func run() throws {
            switch SystemLanguageModel.default.availability {
            case .available:
                print("available")
            case .unavailable(let reason):
                print("unavailable: \(Self.explain(reason))")
                throw ExitCode(1)
            }
        }

        static func explain(_ reason: SystemLanguageModel.Availability.UnavailableReason) -> String {
            switch reason {
            case .deviceNotEligible: "deviceNotEligible (this machine cannot run the model)"
            case .appleIntelligenceNotEnabled: "appleIntelligenceNotEnabled (the model is switched off by configuration)"
            case .modelNotReady: "modelNotReady (the model's weights are missing or cannot be loaded)"
            }
        }
    }
}
