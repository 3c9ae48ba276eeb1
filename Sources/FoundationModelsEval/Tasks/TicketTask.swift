import FoundationModels

/// A help desk's triage of an incoming ticket.
@Generable(description: "A support ticket triaged for the support team")
package struct TicketTriage: Sendable {
    @Guide(description: "The customer's problem in one line")
    package var headline: String

    @Guide(description: "Urgency from 1 (can wait) to 5 (critical)", .range(1...5))
    package var urgency: Int

    @Guide(description: "Tags that route the ticket", .count(1...3), .element(.anyOf(TicketCorpus.tags)))
    package var tags: [String]
}

/// Support tickets: urgency within the expected range, the right routing
/// tags, a one-line headline.
package enum TicketTask: EvalTask {
    package static let corpus = Corpus.tickets

    package static let instructions = """
        You triage support tickets for a software company.
        Urgency: 1 = a question or an idea; 2 = a minor problem with a workaround; 3 = something broken for one \
        customer; 4 = many customers affected, or a deadline at risk; 5 = an outage, lost data or a security incident.
        Tags: billing (payments, refunds, invoices); login (signing in, passwords, two-factor codes); account (account \
        settings); outage (the service is down); performance (slow but working); bug (something broken); \
        feature-request (an idea for something new); data-loss (data deleted or missing); security (breaches, leaked \
        keys, unknown sign-ins); mobile (the iPhone or Android app); integration (Slack, Zapier, API connections); \
        documentation (where to find how to do something).
        """

    package static func prompt(for item: TicketItem) -> String {
        "Subject: \(item.subject)\n\n\(item.body)"
    }

    package static let fields = ["urgency", "tags", "headline"]

    package static func score(_ answer: TicketTriage, for item: TicketItem) -> [FieldScore] {
        let expected = item.expected
        let range = expected.minimumUrgency...expected.maximumUrgency
        let tags = answer.tags.map { $0.lowercased() }
        let missing = expected.requiredTags.filter { !tags.contains($0) }
        let outside = tags.filter { !expected.acceptableTags.contains($0) }
        let tagsRight = missing.isEmpty && outside.isEmpty && (1...3).contains(tags.count)
        var tagDetail = "got \(answer.tags)"
        if !missing.isEmpty { tagDetail += ", missing \(missing)" }
        if !outside.isEmpty { tagDetail += ", not acceptable \(outside)" }
        let headlineWords = Scoring.wordCount(answer.headline)
        return [
            FieldScore("urgency", range.contains(answer.urgency), "expected \(range.lowerBound)–\(range.upperBound), got \(answer.urgency)"),
            FieldScore("tags", tagsRight, tagDetail),
            FieldScore("headline", (1...20).contains(headlineWords), "\(headlineWords) words: \(Scoring.quote(answer.headline))"),
        ]
    }

    package static func groups(of item: TicketItem) -> [String] { [item.category] }

    package static let seed = TicketCorpus.seed
    package static func generate(seed: UInt64) -> [TicketItem] { TicketCorpus.generate(seed: seed) }
}
