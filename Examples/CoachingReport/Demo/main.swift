import CoachingReport
import FoundationModels
import FoundationModelsEval
import FoundationModelsKit
import TerminalSupport

// A week of running turned into a coach's report, streamed: the nested
// CoachingReport fills in on the terminal as PartiallyGenerated snapshots
// arrive (the finished report elsewhere). The wording is coaching.yaml's,
// filled from the week. The finished report is marked as the eval judges
// it (CoachingTask): every string whole, the parts and the plan the type
// asks for, every reason citing the log.

/// The report as far as it is generated.
func card(_ report: CoachingReport.PartiallyGenerated) -> [String] {
    func observations(_ label: String, _ items: [Observation.PartiallyGenerated]?) -> [String] {
        (items ?? []).map { "   \(label) \($0.title ?? "")" + ($0.reason.map { " — " + $0 } ?? "") }
    }
    return ["   " + (report.headline ?? "")]
        + observations("+", report.strengths)
        + observations("→", report.focusAreas)
        + (report.nextWeek ?? []).map { "   \($0.day.map { $0.rawValue.capitalized } ?? ""): \($0.workout ?? "")" }
}

await ExampleProgram.run {
    let week = TrainingWeek.sample
    let coach = try WeeklyCoach()
    ExampleProgram.heading("Coaching report: \(week.athlete), week of \(week.week), \(week.sessions.count) sessions")
    if let message = coach.unavailableMessage { throw message }

    let stopwatch = Stopwatch()
    let view = LiveView()
    var lines: [String] = []
    var last: GeneratedContent?
    for try await snapshot in try coach.streamReport(for: week) {
        lines = card(snapshot.content)
        view.draw(lines)
        last = snapshot.rawContent
    }
    ExampleProgram.result("streamed CoachingReport", "\(view.frames) snapshots", seconds: stopwatch.seconds)
    view.finish(lines)
    if let last {
        Verdict(try CoachingReport(last), as: CoachingTask.self, for: try CoachingItem(week)).print()
    }

    // A template that names a value the input lacks fails before the model.
    let broken = try PromptTemplates(yaml: "instructions: Coach {athlete}.\nreport: Plan for {race}.")
    do {
        _ = try WeeklyCoach(templates: broken).prompts(for: week)
    } catch {
        ExampleProgram.result("a template naming {race}", "\(error)")
    }
}
