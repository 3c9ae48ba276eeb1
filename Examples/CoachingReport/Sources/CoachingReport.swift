import FoundationModels

/// A weekly training report, nested so a screen can fill it in part by part
/// as it streams (`CoachingReport.PartiallyGenerated`): the headline first,
/// then each observation with its reason, then next week's plan.
@Generable(description: "A coach's weekly training report")
public struct CoachingReport: Sendable, Codable, Equatable {
    @Guide(description: "One sentence summing up the week, at most 15 words")
    public var headline: String

    @Guide(description: "What went well this week", .count(2))
    public var strengths: [Observation]

    @Guide(description: "What to work on next", .count(2))
    public var focusAreas: [Observation]

    @Guide(description: "Next week's sessions", .count(3))
    public var nextWeek: [PlannedSession]
}

/// A strength or a focus area, and the reason the log gives for it.
@Generable(description: "An observation about the week's training")
public struct Observation: Sendable, Codable, Equatable {
    @Guide(description: "The observation, at most 8 words")
    public var title: String

    @Guide(description: "Why, in one sentence naming the day, session or number of the log that shows it")
    public var reason: String
}

/// One session of next week's plan.
@Generable(description: "A planned training session")
public struct PlannedSession: Sendable, Codable, Equatable {
    public var day: Weekday

    @Guide(description: "The workout, with a distance or a duration, at most 10 words")
    public var workout: String
}

@Generable
public enum Weekday: String, Sendable, Codable, Equatable, CaseIterable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday
}
