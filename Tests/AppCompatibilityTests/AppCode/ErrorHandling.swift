// How apps turn generation failures into something to show the user.

import Foundation
import FoundationModels

enum GenerationFailure: Equatable {
    case refused(explanation: String?)
    case contextTooLong
    case unsafeContent
    case modelUnavailable
    case unsupportedLanguage
    case unsupportedGuide
    case badOutput
    case busy
    case rateLimited
    case toolFailed(toolName: String)
    case other(String)
}

/// Rethrows `error` inside a do/catch with one clause per case, the way app
/// code catches the error of `respond` directly.
func classify(_ error: any Error) async -> GenerationFailure {
    do {
        throw error
    } catch LanguageModelSession.GenerationError.refusal(let refusal, _) {
        let why = try? await refusal.explanation
        return .refused(explanation: why?.content)
    } catch LanguageModelSession.GenerationError.exceededContextWindowSize {
        return .contextTooLong
    } catch LanguageModelSession.GenerationError.guardrailViolation {
        return .unsafeContent
    } catch LanguageModelSession.GenerationError.assetsUnavailable {
        return .modelUnavailable
    } catch LanguageModelSession.GenerationError.unsupportedLanguageOrLocale {
        return .unsupportedLanguage
    } catch LanguageModelSession.GenerationError.unsupportedGuide {
        return .unsupportedGuide
    } catch LanguageModelSession.GenerationError.decodingFailure {
        return .badOutput
    } catch LanguageModelSession.GenerationError.concurrentRequests {
        return .busy
    } catch LanguageModelSession.GenerationError.rateLimited {
        return .rateLimited
    } catch let error as LanguageModelSession.ToolCallError {
        return .toolFailed(toolName: error.tool.name)
    } catch {
        return .other(error.localizedDescription)
    }
}

/// The other common shape: bind the error and switch over it.
func alertMessage(for error: LanguageModelSession.GenerationError) -> String {
    switch error {
    case .exceededContextWindowSize(let context):
        return "Conversation too long. \(context.debugDescription)"
    case .guardrailViolation:
        return "That request can't be completed."
    case .refusal(_, let context):
        return "The model declined. \(context.debugDescription)"
    default:
        return error.localizedDescription
    }
}
