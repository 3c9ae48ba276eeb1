import CoachingReport
import Foundation
import FoundationModelsEval

// Linked into CoachingReport's Demo and Tests folders.

extension CoachingItem {
    /// The example's week as the eval's item, so that `CoachingTask`'s
    /// scorers (a reason cites the log, the plan, the parts) judge a report
    /// on it as `make eval` judges the corpus's weeks.
    ///
    /// Made through the item's `Codable` form (the corpus file's): its
    /// memberwise initializer is internal to FoundationModelsEval.
    init(_ week: TrainingWeek, id: String = "sample") throws {
        let sessions: [[String: Any]] = week.sessions.map {
            ["day": $0.day.rawValue, "kind": $0.kind, "kilometres": $0.kilometres, "minutes": $0.minutes, "note": $0.note]
        }
        let fields: [String: Any] = ["id": id, "athlete": week.athlete, "goal": week.goal, "week": week.week, "sessions": sessions]
        self = try JSONDecoder().decode(Self.self, from: JSONSerialization.data(withJSONObject: fields))
    }
}
