import CoachingReport

/// One athlete's logged week, as the coaching example's `TrainingWeek`
/// holds it (which is not `Codable`: the corpus file keeps this form).
package struct CoachingItem: Codable, Sendable, Identifiable, Equatable {
    package struct Session: Codable, Sendable, Equatable {
        package var day: Weekday
        package var kind: String
        package var kilometres: Double
        package var minutes: Int
        package var note: String
    }

    package var id: String
    package var athlete: String
    package var goal: String
    package var week: String
    package var sessions: [Session]

    /// The week as the example takes it.
    package var trainingWeek: TrainingWeek {
        TrainingWeek(
            athlete: athlete, goal: goal, week: week,
            sessions: sessions.map {
                TrainingWeek.Session(day: $0.day, kind: $0.kind, kilometres: $0.kilometres, minutes: $0.minutes, note: $0.note)
            })
    }
}

/// Generates the coaching corpus: runners written for this project, each
/// week three to five sessions on different days in week order (an easy
/// run, a long run, a workout with its reps, …), distances and durations
/// at paces a runner of that goal runs, and a note in the athlete's words.
package enum CoachingCorpus {
    package static let seed: UInt64 = 0xC0AC_4
    package static let size = 8

    static let athletes = ["Maya", "Tom", "Aisha", "Lukas", "Sofia", "Kenji", "Priya", "Daniel", "Elena", "Omar", "Hannah", "Mateo"]
    static let goals = [
        "a 5 km race in three weeks", "a 10 km race in six weeks", "a half marathon in four weeks",
        "a marathon in ten weeks", "building a base after a winter break", "a trail race of 25 km in eight weeks",
    ]
    static let months = ["January", "March", "April", "May", "June", "September", "October", "November"]

    /// A session's kind and its distance range (km) and pace range (minutes per km).
    struct Kind {
        var name: String
        var kilometres: ClosedRange<Int>
        var pace: ClosedRange<Int>
    }

    static let easy = Kind(name: "easy run", kilometres: 4...9, pace: 5...7)
    static let long = Kind(name: "long run", kilometres: 12...24, pace: 5...7)
    static let workouts = [
        Kind(name: "intervals 5 x 800 m", kilometres: 7...9, pace: 4...6),
        Kind(name: "intervals 6 x 400 m", kilometres: 6...8, pace: 4...6),
        Kind(name: "tempo run", kilometres: 6...10, pace: 4...5),
        Kind(name: "hill repeats 8 x 60 s", kilometres: 6...8, pace: 5...7),
        Kind(name: "fartlek", kilometres: 6...9, pace: 5...6),
    ]
    static let recovery = Kind(name: "recovery run", kilometres: 3...6, pace: 6...7)

    static let notes = [
        "felt fresh", "legs heavy", "tight calves", "windy", "strong finish", "last two reps were slow",
        "ran with a friend", "hot and humid", "sore left knee", "easy effort", "faded after halfway", "best run in weeks",
        "slept badly", "rain the whole way",
    ]

    package static func generate(seed: UInt64 = seed) -> [CoachingItem] {
        var random = CorpusRandom(seed: seed)
        let names = random.sample(athletes, count: size)
        return names.enumerated().map { number, athlete in
            let goal = random.pick(goals)
            let week = "\(random.int(in: 1...28)) \(random.pick(months))"
            let count = random.int(in: 3...5)
            let days = random.sample(Array(Weekday.allCases.indices), count: count).sorted()
            // The long run on the last day, a workout on one day before it,
            // easy or recovery runs on the others.
            let workoutIndex = count >= 3 ? random.below(count - 1) : 0
            let sessions = days.enumerated().map { index, day -> CoachingItem.Session in
                let kind: Kind = index == count - 1 ? long : index == workoutIndex ? random.pick(workouts) : random.chance(0.3) ? recovery : easy
                var kilometres = Double(random.int(in: kind.kilometres))
                if random.chance(0.3) { kilometres += 0.5 }
                let minutes = Int((kilometres * Double(random.int(in: kind.pace)) + Double(random.int(in: 0...5))).rounded())
                return CoachingItem.Session(
                    day: Weekday.allCases[day], kind: kind.name, kilometres: kilometres, minutes: minutes, note: random.pick(notes))
            }
            return CoachingItem(id: "week-\(number + 1 < 10 ? "0" : "")\(number + 1)", athlete: athlete, goal: goal, week: week, sessions: sessions)
        }
    }
}
