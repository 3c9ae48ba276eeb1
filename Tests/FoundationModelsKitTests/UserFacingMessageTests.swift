import FoundationModels
import FoundationModelsKit
import Testing

@Suite("UserFacingMessage")
struct UserFacingMessageTests {
    @Test func availability() {
        #expect(UserFacingMessage(SystemLanguageModel.Availability.available) == nil)
        #expect(UserFacingMessage(.unavailable(.deviceNotEligible))?.action == .hideFeature)
        #expect(UserFacingMessage(.unavailable(.appleIntelligenceNotEnabled))?.action == .hideFeature)
        #expect(UserFacingMessage(.unavailable(.modelNotReady))?.action == .retry)
    }

    @Test func errorsOfBothFamilies() {
        let context = LanguageModelSession.GenerationError.Context(debugDescription: "test")
        let overflow = LanguageModelError.contextSizeExceeded(.init(contextSize: 10, tokenCount: 20, debugDescription: "full"))
        #expect(UserFacingMessage(overflow) == .conversationTooLong)
        #expect(UserFacingMessage(LanguageModelSession.GenerationError.exceededContextWindowSize(context)) == .conversationTooLong)
        #expect(UserFacingMessage(LanguageModelSession.GenerationError.guardrailViolation(context)).action == .rephrase)
        #expect(UserFacingMessage(LanguageModelError.rateLimited(.init(resetDate: nil, debugDescription: "busy"))).action == .retry)
        #expect(UserFacingMessage(CancellationError()).action == .none)
        #expect(UserFacingMessage(LanguageModelSession.GenerationError.decodingFailure(context)).title == "No usable answer")
        struct Unknown: Error {}
        #expect(UserFacingMessage(Unknown()).title == "Something went wrong")
    }
}
