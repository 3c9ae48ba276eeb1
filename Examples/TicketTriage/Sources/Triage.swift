import FoundationModels

/// Where a support ticket goes and how soon: the triage feature's answer.
@Generable(description: "A support ticket's triage")
public struct Triage: Sendable, Codable, Equatable {
    public var queue: Queue
    public var priority: Priority

    @Guide(description: "The customer's problem in one sentence, at most 15 words")
    public var summary: String

    public init(queue: Queue, priority: Priority, summary: String) {
        self.queue = queue
        self.priority = priority
        self.summary = summary
    }
}

/// The support team's queues.
@Generable
public enum Queue: String, Sendable, Codable, Equatable, CaseIterable {
    /// Charges, refunds, invoices.
    case billing
    /// Crashes, errors, sync.
    case technical
    /// Sign-in, passwords, deleting an account.
    case account
    /// Delivery of physical orders.
    case shipping
}

@Generable
public enum Priority: String, Sendable, Codable, Equatable, CaseIterable {
    case low, normal, urgent
}
