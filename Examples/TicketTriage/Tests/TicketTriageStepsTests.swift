import FoundationModels
import FoundationModelsTiers
import Testing

@testable import TicketTriage

/// The features' wiring without a model: declared policies and the tool's answers.
struct TicketTriageStepsTests {
    @Test func bothFeaturesAreDeclaredCloudFree() async throws {
        let triager = TicketTriager(privateCloud: nil)
        #expect(try await triager.router.policy(for: TicketTriager.feature) == .cloudFree)
        let chat = CoachChat(privateCloud: nil)
        #expect(try await chat.router.policy(for: CoachChat.feature) == .cloudFree)
        #expect(await chat.router.declaredPolicies().map(\.feature) == [CoachChat.feature])
    }

    @Test func theTrainingLogToolListsRunsOfAKindWithPace() async throws {
        let tool = TrainingLogTool(log: LoggedSession.sampleWeek)
        #expect(tool.lookUp(kind: "long") == "- Sunday: long run, 16 km in 98 min (6:08 per km)\nTotal: 16 km.")
        #expect(tool.lookUp(kind: "all").hasSuffix("Total: 35 km."))
        #expect(tool.lookUp(kind: "all").split(separator: "\n").count == 5)
        #expect(TrainingLogTool(log: []).lookUp(kind: "easy") == "No easy runs this week.")
        #expect(LoggedSession(day: "Monday", kind: .easy, kilometres: 5, minutes: 25).pace == "5:00")
    }
}
