// How apps gate their AI features on the model's availability.

import FoundationModels

enum AIFeatureState: Equatable {
    case ready
    case unsupportedDevice
    case turnOnAppleIntelligence
    case downloading
    case unknown
}

func aiFeatureState(for model: SystemLanguageModel = SystemLanguageModel.default) -> AIFeatureState {
    switch model.availability {
    case .available:
        return .ready
    case .unavailable(.deviceNotEligible):
        return .unsupportedDevice
    case .unavailable(.appleIntelligenceNotEnabled):
        return .turnOnAppleIntelligence
    case .unavailable(.modelNotReady):
        return .downloading
    @unknown default:
        return .unknown
    }
}

/// The shorter form apps use when they only need a yes/no and a reason.
func unavailableReasonText(_ model: SystemLanguageModel = .default) -> String? {
    guard case .unavailable(let reason) = model.availability else { return nil }
    switch reason {
    case .deviceNotEligible: return "This device can't run Apple Intelligence."
    case .appleIntelligenceNotEnabled: return "Turn on Apple Intelligence in Settings."
    case .modelNotReady: return "The model is still downloading."
    @unknown default: return "The model is unavailable."
    }
}
