// Shapes from a flash-card app: cards drafted by the model, streamed as they
// are written.

import FoundationModels

@Generable
struct DraftCard: Equatable {
    @Guide(description: "The question on the front of the card")
    let question: String

    @Guide(description: "The answer on the back of the card, one or two sentences")
    let answer: String
}

@Generable
struct DraftCardSet {
    let cards: [DraftCard]
}

extension DraftCardSet: Equatable {}

/// A generated value the app keeps on the main actor and never shares:
/// deliberately not `Sendable`, like many view-model payloads.
@Generable(description: "A plan for studying a deck")
struct StudyPlan: Equatable {
    @Guide(description: "What to focus on first")
    var focus: String

    @Guide(description: "Minutes per session", .range(5...60))
    var minutesPerSession: Int

    var sessions: [String]
}

@available(*, unavailable, message: "StudyPlan stays on the main actor")
extension StudyPlan: Sendable {}
