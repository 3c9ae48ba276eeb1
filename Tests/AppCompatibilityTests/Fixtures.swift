// Sample values of every app type, as a model might produce them.

import FoundationModels

enum Fixtures {
    static let insight = AlbumAIInsight(
        summary: "A modal jazz landmark recorded in two sessions. It became the best-selling jazz record of all time.",
        collectorNotes: "Early six-eye Columbia pressings have the sides of the first LP mislabeled.",
        listenNext: "John Coltrane - Blue Train"
    )

    static let crate = CrateAIInsight(
        title: "Late Night Blue",
        moodTags: ["mellow", "smoky", "introspective", "warm"],
        narrative: "Quiet records for the last hour of the night."
    )

    static let recommendation = AlbumRecommendation(
        releaseId: 1_234_567,
        connectionType: "era",
        basedOn: ["Kind of Blue", "Blue Train"],
        reason: "Another 1959 session with the same rhythm section."
    )

    static let cardSet = DraftCardSet(cards: [
        DraftCard(question: "What is a B-side?", answer: "The secondary track on the reverse of a single."),
        DraftCard(question: "What does RPM stand for?", answer: "Revolutions per minute."),
        DraftCard(question: "Why \"180 gram\"?", answer: "Heavier vinyl, marketed as audiophile quality. \u{1F3B5}"),
    ])

    static let ticket = TicketSummary(headline: "App crashes when importing a CSV", urgency: 4, tags: ["import", "crash", "ios"])

    static let fullReceipt = ParsedFuelReceiptSchema(volume: 42.17, totalCost: 71.5, stationName: "Shell Main St", isFullTank: true)
    static let sparseReceipt = ParsedFuelReceiptSchema(volume: nil, totalCost: 60, stationName: nil, isFullTank: false)
    static let emptyReceipt = ParsedFuelReceiptSchema(volume: nil, totalCost: nil, stationName: nil, isFullTank: nil)

    static let summary = AISummary(
        overview: "You listened to more jazz than usual and finished two books.",
        recommendations: [
            Recommendation(title: "Catalog the new crate", rationale: "Twelve records are still untagged.", priority: 1),
            Recommendation(title: "Clean the stylus", rationale: "It has been 40 hours of play.", priority: 2),
        ]
    )

    static var plan: StudyPlan { StudyPlan(focus: "Pressing terminology", minutesPerSession: 20, sessions: ["Mon", "Wed", "Fri"]) }

    static let arguments = FindAlbumTool.Arguments(artist: "Miles Davis", decade: 1950, limit: 3)
    static let argumentsWithoutDecade = FindAlbumTool.Arguments(artist: "Joni Mitchell", decade: nil, limit: 1)
}
