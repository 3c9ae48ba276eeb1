import Foundation
import FoundationModels
import Testing

@testable import CoachingReport
@testable import FoundationModelsEval

/// The coaching corpus and its scorer (no model): weeks made from the seed
/// fill the example's templates, and a report is judged complete, shaped
/// as the type asks, and citing the log.
@Suite("Eval coaching")
struct CoachingTaskTests {
    static let item = CoachingItem(
        id: "week-test", athlete: "Maya", goal: "a half marathon in four weeks", week: "3 November",
        sessions: [
            .init(day: .monday, kind: "easy run", kilometres: 6, minutes: 36, note: "felt fresh"),
            .init(day: .wednesday, kind: "intervals 5 x 800 m", kilometres: 8, minutes: 42, note: "last two were slow"),
            .init(day: .sunday, kind: "long run", kilometres: 16, minutes: 98, note: "strong until 14 km"),
        ])

    static func report(
        headline: String = "Maya's best week yet, with a strong long run",
        reasons: [String] = [
            "The 16 km long run on Sunday stayed strong.", "Intervals on Wednesday kept their pace.",
            "The last two intervals were slow.", "Monday's easy run felt fresh; keep it easy.",
        ],
        plan: [PlannedSession] = [
            PlannedSession(day: .tuesday, workout: "8 km easy"), PlannedSession(day: .thursday, workout: "6 x 800 m"),
            PlannedSession(day: .sunday, workout: "18 km long run"),
        ]
    ) -> CoachingReport {
        let observations = reasons.map { Observation(title: "Steady work", reason: $0) }
        return CoachingReport(
            headline: headline, strengths: Array(observations.prefix(2)), focusAreas: Array(observations.dropFirst(2)), nextWeek: plan)
    }

    static func rights(_ report: CoachingReport) -> [String: Bool] {
        Dictionary(uniqueKeysWithValues: CoachingTask.score(report, for: item).map { ($0.field, $0.right) })
    }

    @Test func aWholeReportAboutTheWeekIsRight() {
        #expect(
            Self.rights(Self.report()) == ["complete": true, "parts": true, "plan": true, "citing": true, "distinct": true, "numbers": true])
    }

    /// The tour's week once came back with its two strengths listed again
    /// as the focus areas, reasons and all.
    @Test func focusAreasThatRepeatAStrengthAreWrong() {
        let repeated = Self.report(reasons: [
            "The 16 km long run on Sunday stayed strong.", "Intervals on Wednesday kept their pace.",
            "Intervals on Wednesday kept their pace. ", "Monday's easy run felt fresh; keep it easy.",
        ])
        #expect(Self.rights(repeated)["distinct"] == false)
        let detail = CoachingTask.score(repeated, for: Self.item).first { $0.field == "distinct" }?.detail ?? ""
        #expect(detail.contains("Intervals on Wednesday"), "\(detail)")
    }

    @Test func theReportsUsersSawAreNotComplete() {
        let cut = Self.report(headline: "Maya's", reasons: Array(repeating: "The", count: 4))
        let rights = Self.rights(cut)
        #expect(rights["complete"] == false && rights["citing"] == false)
        let detail = CoachingTask.score(cut, for: Self.item).first { $0.field == "complete" }?.detail ?? ""
        #expect(detail.contains("headline") && detail.contains("strengths[0].reason"), "\(detail)")
    }

    @Test func reasonsMustCiteTheLog() {
        #expect(CoachingTask.cites("Your 16 km effort was strong.", Self.item))
        #expect(CoachingTask.cites("Sunday went well.", Self.item))
        #expect(CoachingTask.cites("The long runs are getting easier.", Self.item))
        #expect(CoachingTask.cites("Both interval sessions were fast.", Self.item), "intervals, singular")
        #expect(!CoachingTask.cites("You showed great consistency.", Self.item))
        #expect(!CoachingTask.cites("Tempo runs build speed.", Self.item), "no tempo run in the log")
        var reasons = Self.report().strengths.map(\.reason) + Self.report().focusAreas.map(\.reason)
        reasons[3] = "Keep believing in yourself."
        #expect(Self.rights(Self.report(reasons: reasons))["citing"] == false)
    }

    @Test func thePlanHasThreeDaysWithADistanceOrADuration() {
        #expect(
            Self.rights(
                Self.report(plan: [
                    PlannedSession(day: .tuesday, workout: "8 km easy"), PlannedSession(day: .tuesday, workout: "40 min tempo"),
                    PlannedSession(day: .sunday, workout: "18 km"),
                ]))["plan"] == false, "a repeated day")
        #expect(
            Self.rights(
                Self.report(plan: [
                    PlannedSession(day: .tuesday, workout: "Easy run"), PlannedSession(day: .thursday, workout: "40 min tempo"),
                    PlannedSession(day: .sunday, workout: "18 km"),
                ]))["plan"] == false, "no distance or duration")
        #expect(Self.rights(Self.report(plan: [PlannedSession(day: .sunday, workout: "18 km")]))["parts"] == false)
        for workout in ["8 km easy", "45 min tempo", "6 x 800 m", "1 hour ride", "10k steady", "5 miles"] {
            #expect(CoachingTask.statesDistanceOrDuration(workout), "\(workout)")
        }
        #expect(!CoachingTask.statesDistanceOrDuration("Rest day"))
    }

    @Test func numbersTheLogDoesNotPrintAreReported() {
        let report = Self.report(headline: "Maya ran 31 km over 4 sessions")
        let numbers = CoachingTask.score(report, for: Self.item).first { $0.field == "numbers" }
        #expect(numbers?.right == false && numbers?.detail.contains("4") == true, "the week had 30 km over 3 sessions")
        #expect(CoachingTask.informational.contains("numbers"))
        #expect(Self.rights(Self.report(headline: "Maya ran 30 km over 3 sessions"))["numbers"] == true)
    }

    @Test func weeksFillTheExamplesTemplates() throws {
        let weeks = CoachingCorpus.generate()
        #expect(weeks.count == CoachingCorpus.size)
        #expect(Set(weeks.map(\.id)).count == weeks.count && Set(weeks.map(\.athlete)).count == weeks.count)
        for week in weeks {
            #expect((3...5).contains(week.sessions.count))
            let days = week.sessions.map { Weekday.allCases.firstIndex(of: $0.day)! }
            #expect(days == days.sorted() && Set(days).count == days.count, "\(week.id): sessions on different days, in order")
            #expect(week.sessions.last?.kind == "long run")
            let (instructions, prompt) = try CoachingTask.prompts(for: week)
            #expect(instructions.contains(week.athlete) && instructions.contains(week.goal) && !instructions.contains("{"))
            #expect(CoachingTask.instructions(for: week) == instructions && CoachingTask.prompt(for: week) == prompt)
            for session in week.sessions {
                #expect(prompt.contains("\(session.minutes) min") && prompt.contains(session.kind), "\(week.id): \(session)")
            }
        }
        #expect(CoachingCorpus.generate(seed: 1) != weeks && CoachingCorpus.generate() == weeks)
    }
}
