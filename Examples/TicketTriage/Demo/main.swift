import FoundationModels
import FoundationModelsEval
import FoundationModelsKit
import FoundationModelsTiers
import TerminalSupport
import TicketTriage

// Two .cloudFree features through the tier router: tickets triaged, and a
// coach chat whose answers come from a tool the app serves. The private
// cloud is the OpenAI-compatible server FOUNDATION_MODELS_PCC_URL and
// FOUNDATION_MODELS_PCC_MODEL name (llama-server, for one); when it is down
// or not configured the on-device model answers. Each answer names its tier,
// and is marked complete or cut short by the eval's rule (CutShort).

func tier(_ response: RoutedResponse<some Sendable>) -> String {
    "[\(response.tier)]" + response.skipped.map { " (skipped \($0))" }.joined()
}

await ExampleProgram.run {
    let privateCloud = PrivateCloudComputeLanguageModel()
    ExampleProgram.heading("Ticket triage through the tier router (private cloud: \(privateCloud.isAvailable ? "configured" : "not configured"))")
    if let message = UserFacingMessage(SystemLanguageModel.default.availability) { throw message }

    let triager = TicketTriager(privateCloud: privateCloud)
    for policy in await triager.router.declaredPolicies() {
        ExampleProgram.note("declared: \(policy.feature) → \(policy.policy)")
    }
    let tickets = [
        "I was charged twice for my annual subscription this morning. Please refund one of them.",
        "The app crashes every time I open the settings screen since the last update.",
    ]
    for ticket in tickets {
        let triage = try await ExampleProgram.step(
            "triage \"\(ticket.prefix(40))…\"", show: { "\($0.content.generatedContent.jsonString) \(tier($0))" }
        ) {
            try await triager.triage(ticket)
        }
        var verdict = Verdict(triage.content, input: TicketTriager.instructions + "\n" + TicketTriager.prompt(ticket: ticket))
        let summary = WordLimit.check(triage.content.summary, limit: TicketTask.summaryWordLimit)
        if !summary.kept {
            verdict.wrong.append("summary: \(summary.detail)")
        }
        verdict.print()
    }

    let chat = CoachChat(
        privateCloud: privateCloud,
        onToolCall: { kind in
            ExampleProgram.note("tool call: trainingLog(kind: \"\(kind)\")")
        })
    let question = "How long was my long run this week, and at what pace?"
    let answer = try await ExampleProgram.step("coach chat \"\(question)\"", show: { "\($0.content.answer) \(tier($0))" }) {
        try await chat.ask(question)
    }
    // What the model read: the question and the log the tool lists.
    let log = LoggedSession.sampleWeek.map { "\($0.day) \($0.kind.rawValue) \($0.kilometres) km \($0.minutes) min \($0.pace)" }
    Verdict(answer.content, input: ([question] + log).joined(separator: "\n")).print()
}
