// Shapes from help-desk, expense and journaling apps.

import FoundationModels

@Generable(description: "A support ticket triaged by the model")
struct TicketSummary: Sendable {
    @Guide(description: "The customer's problem in one line")
    var headline: String

    @Guide(description: "Urgency from 1 (low) to 5", .range(1...5))
    var urgency: Int

    @Guide(description: "Tags used to route the ticket", .minimumCount(2), .maximumCount(4))
    var tags: [String]
}

extension TicketSummary: Equatable {}

/// Fields read from a photo of a fuel receipt; any of them may be missing.
@Generable(description: "Values read from a fuel receipt")
struct ParsedFuelReceiptSchema: Equatable {
    @Guide(description: "Litres or gallons dispensed")
    var volume: Double?

    @Guide(description: "Total amount paid")
    var totalCost: Double?

    @Guide(description: "Name of the fuel station")
    var stationName: String?

    @Guide(description: "Whether the tank was filled up completely")
    var isFullTank: Bool?
}

@Generable(description: "A suggestion for the coming week")
struct Recommendation: Equatable, Sendable {
    @Guide(description: "A short imperative title")
    var title: String

    @Guide(description: "Why this would help")
    var rationale: String

    @Guide(description: "Priority, 1 is highest", .range(1...3))
    var priority: Int
}

@Generable(description: "A summary of the user's week")
struct AISummary: Equatable, Sendable {
    @Guide(description: "Two or three sentences about the week")
    var overview: String

    @Guide(description: "Concrete suggestions", .maximumCount(3))
    var recommendations: [Recommendation]
}
