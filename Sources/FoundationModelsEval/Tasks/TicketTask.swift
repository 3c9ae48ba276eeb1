import FoundationModels
import TicketTriage

/// Support tickets, triaged as the ticket example triages them
/// (``TicketTriager``'s instructions and prompt, its ``Triage``): a queue
/// and a priority a support lead would accept, a short summary.
package enum TicketTask: EvalTask {
    package static let corpus = Corpus.tickets

    package static var instructions: String { TicketTriager.instructions }

    /// The ticket as a help desk receives it: subject line, then the body.
    package static func prompt(for item: TicketItem) -> String {
        TicketTriager.prompt(ticket: item.text)
    }

    package static let fields = ["queue", "priority", "summary"]

    /// The summary's guide asks for at most this many words: a target the
    /// engine lets a sentence pass to finish (``WordLimit``).
    package static let summaryWordLimit = 15

    package static func score(_ answer: Triage, for item: TicketItem) -> [FieldScore] {
        let expected = item.expected
        let summary = WordLimit.check(answer.summary, limit: summaryWordLimit)
        return [
            FieldScore(
                "queue", expected.queues.contains(answer.queue.rawValue),
                "expected \(expected.queues.joined(separator: " or ")), got \(answer.queue.rawValue)"),
            FieldScore(
                "priority", expected.priorities.contains(answer.priority.rawValue),
                "expected \(expected.priorities.joined(separator: " or ")), got \(answer.priority.rawValue)"),
            FieldScore("summary", summary.kept, "\(summary.detail): \(Scoring.quote(answer.summary))"),
        ]
    }

    package static func groups(of item: TicketItem) -> [String] { [item.category] + item.expected.queues.prefix(1) }

    package static let seed = TicketCorpus.seed
    package static func generate(seed: UInt64) -> [TicketItem] { TicketCorpus.generate(seed: seed) }

    // MARK: The example's feature

    package static let hasPipeline = true

    /// ``TicketTriager``'s options (greedy, 80 tokens).
    package static func exampleOptions(model: SystemLanguageModel) -> GenerationOptions? {
        ExampleOptions.of(TicketTriager(privateCloud: nil, onDevice: model))
    }

    /// ``TicketTriager/triage(_:)`` with no private cloud: the on-device
    /// tier, with the feature's own options (greedy, 80 tokens).
    package static func pipeline(for item: TicketItem, model: SystemLanguageModel) async throws -> PipelineAnswer<Triage> {
        let routed = try await TicketTriager(privateCloud: nil, onDevice: model).triage(item.text)
        let triage = routed.content
        return PipelineAnswer(
            answer: triage,
            output: "queue \(triage.queue.rawValue), priority \(triage.priority.rawValue), summary \(Scoring.quote(triage.summary)) (\(routed.tier))",
            requests: 1
        )
    }
}

extension TicketItem {
    /// The ticket as the help desk receives it.
    package var text: String { "Subject: \(subject)\n\n\(body)" }
}
