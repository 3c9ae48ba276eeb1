import Foundation
import FoundationModels
import FoundationModelsKit

/// The coaching feature: a week's log in, a ``CoachingReport`` out, whole or
/// streamed as it is written.
///
/// The wording comes from ``PromptTemplates`` (by default the bundled
/// `coaching.yaml`) and is filled from the week when a report is asked
/// for, so a template that names a value the week does not provide fails
/// before the model is called.
public struct WeeklyCoach: Sendable {
    public let templates: PromptTemplates
    let model: SystemLanguageModel
    let options: GenerationOptions

    /// - Parameters:
    ///   - templates: the instructions and the `report` prompt.
    ///   - options: greedy by default (the same week gets the same report),
    ///     with room for the whole report.
    public init(
        templates: PromptTemplates,
        model: SystemLanguageModel = .default,
        options: GenerationOptions = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 400)
    ) {
        self.templates = templates
        self.model = model
        self.options = options
    }

    /// The coach with the bundled templates.
    public init(model: SystemLanguageModel = .default) throws(PromptTemplateError) {
        try self.init(templates: Self.bundledTemplates(), model: model)
    }

    /// The templates shipped with the example (`coaching.yaml`).
    public static func bundledTemplates() throws(PromptTemplateError) -> PromptTemplates {
        guard let url = Bundle.module.url(forResource: "coaching", withExtension: "yaml") else {
            throw .invalidFile("coaching.yaml is missing from the example's resources")
        }
        return try PromptTemplates(contentsOf: url)
    }

    /// What to show instead of the feature, or `nil` when the model can be used.
    public var unavailableMessage: UserFacingMessage? { UserFacingMessage(model.availability) }

    /// The instructions and the prompt for `week`.
    public func prompts(for week: TrainingWeek) throws(PromptTemplateError) -> (instructions: String, prompt: String) {
        let values = week.templateValues
        return (try templates.instructions.filled(values), try templates.prompt("report").filled(values))
    }

    /// The report as it is generated: each element a
    /// `CoachingReport.PartiallyGenerated` snapshot, the last one whole.
    /// - Throws: ``PromptTemplateError`` before anything is generated.
    public func streamReport(for week: TrainingWeek) throws(PromptTemplateError) -> LanguageModelSession.ResponseStream<CoachingReport> {
        let (instructions, prompt) = try prompts(for: week)
        let session = LanguageModelSession(model: model, instructions: instructions)
        return session.streamResponse(to: prompt, generating: CoachingReport.self, options: options)
    }

    /// The finished report.
    public func report(for week: TrainingWeek) async throws -> CoachingReport {
        let (instructions, prompt) = try prompts(for: week)
        let session = LanguageModelSession(model: model, instructions: instructions)
        return try await session.respond(to: prompt, generating: CoachingReport.self, options: options).content
    }
}
