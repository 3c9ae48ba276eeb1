/// The input: one athlete's logged week.
public struct TrainingWeek: Sendable, Equatable {
    public struct Session: Sendable, Equatable {
        public var day: Weekday
        public var kind: String
        public var kilometres: Double
        public var minutes: Int
        /// How it felt, in the athlete's words.
        public var note: String

        public init(day: Weekday, kind: String, kilometres: Double, minutes: Int, note: String) {
            self.day = day
            self.kind = kind
            self.kilometres = kilometres
            self.minutes = minutes
            self.note = note
        }

        /// The log's line for the session.
        var logLine: String {
            "- \(day.rawValue.capitalized): \(kind), \(Self.format(kilometres)) km in \(minutes) min (\(note))"
        }

        static func format(_ kilometres: Double) -> String {
            kilometres == kilometres.rounded() ? String(Int(kilometres)) : String(format: "%.1f", kilometres)
        }
    }

    public var athlete: String
    public var goal: String
    /// The week's first day, as the athlete sees it ("3 November").
    public var week: String
    public var sessions: [Session]

    public init(athlete: String, goal: String, week: String, sessions: [Session]) {
        self.athlete = athlete
        self.goal = goal
        self.week = week
        self.sessions = sessions
    }

    public var totalKilometres: Double { sessions.reduce(0) { $0 + $1.kilometres } }

    /// The values the prompt templates' placeholders are filled with.
    public var templateValues: [String: String] {
        [
            "athlete": athlete,
            "goal": goal,
            "week": week,
            "sessions": sessions.map(\.logLine).joined(separator: "\n"),
            "totalKm": Session.format(totalKilometres),
            "sessionCount": String(sessions.count),
        ]
    }
}

extension TrainingWeek {
    /// A sample week: a runner four weeks out from a half marathon.
    public static let sample = TrainingWeek(
        athlete: "Maya",
        goal: "a half marathon in four weeks",
        week: "3 November",
        sessions: [
            Session(day: .monday, kind: "easy run", kilometres: 6, minutes: 36, note: "felt fresh"),
            Session(day: .wednesday, kind: "intervals 5 x 800 m", kilometres: 8, minutes: 42, note: "last two were slow"),
            Session(day: .friday, kind: "easy run", kilometres: 5, minutes: 31, note: "tight calves"),
            Session(day: .sunday, kind: "long run", kilometres: 16, minutes: 98, note: "strong until 14 km"),
        ]
    )
}
