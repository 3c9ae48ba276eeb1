import Foundation
import FoundationModels

/// One schema of the guided-generation suite, with the conversation the
/// acceptance tests (Tests/AppCompatibilityTests/GuidedAcceptanceTests.swift)
/// generate it in.
struct GuidedCase: Sendable {
    var name: String
    var schema: GenerationSchema
    /// Nil for schemas measured without the model (tool arguments).
    var conversation: Conversation?

    struct Conversation: Sendable {
        var instructions: String
        var prompt: String
        /// One typed answer through `LanguageModelSession.respond(to:generating:options:)`.
        var respond: @Sendable (LanguageModelSession, GenerationOptions) async throws -> Answer
        /// What is wrong with a JSON text as an answer: it must parse, be
        /// complete, decode into the type and keep to its guides. Empty
        /// when it is a valid answer.
        var problems: @Sendable (String) -> [String]
    }

    /// A typed answer as the session returned it.
    struct Answer: Sendable {
        var json: String
        var inputTokens: Int
        var cachedTokens: Int
    }

    static func typed<Value: Generable>(
        _ type: Value.Type,
        instructions: String,
        prompt: String,
        guides: @escaping @Sendable (Value) -> [String] = { _ in [] }
    ) -> GuidedCase {
        let conversation = Conversation(
            instructions: instructions,
            prompt: prompt,
            respond: { session, options in
                let response = try await session.respond(to: prompt, generating: type, options: options)
                return Answer(
                    json: response.rawContent.jsonString,
                    inputTokens: response.usage.input.totalTokenCount,
                    cachedTokens: response.usage.input.cachedTokenCount
                )
            },
            problems: { json in
                do {
                    let content = try GeneratedContent(json: json)
                    guard content.isComplete else { return ["incomplete JSON"] }
                    return guides(try Value(content))
                } catch {
                    return ["\(error)"]
                }
            }
        )
        return GuidedCase(name: "\(type)", schema: type.generationSchema, conversation: conversation)
    }

    static func schemaOnly<Value: Generable>(_ type: Value.Type) -> GuidedCase {
        GuidedCase(name: "\(type)", schema: type.generationSchema, conversation: nil)
    }

    /// The acceptance types with their conversations, then the tool
    /// arguments (schemas only).
    static let all: [GuidedCase] = [
        typed(TicketSummary.self, instructions: "You triage support tickets.", prompt: "My printer shows error 42 and will not print invoices before the deadline.") {
            within($0.urgency, 1...5, "urgency") + count($0.tags, 2...4, "tags")
        },
        typed(ParsedFuelReceiptSchema.self, instructions: "You read fuel receipts.", prompt: "SHELL Main St. 42.1 L unleaded, total 71.45 EUR, pump 4."),
        typed(AISummary.self, instructions: "You coach people on their week.", prompt: "I slept badly, skipped the gym twice, and finished the report on time.") { summary in
            count(summary.recommendations, 0...3, "recommendations") + summary.recommendations.flatMap { within($0.priority, 1...3, "priority") }
        },
        typed(AlbumAIInsight.self, instructions: "You write about vinyl records.", prompt: "Kind of Blue by Miles Davis, 1959 Columbia pressing."),
        typed(CrateAIInsight.self, instructions: "You write about vinyl records.", prompt: "A crate with Blue Train, A Love Supreme and Head Hunters.") {
            count($0.moodTags, 3...5, "moodTags")
        },
        typed(AlbumRecommendation.self, instructions: "You recommend albums from the user's collection.", prompt: "I am listening to Blue Train. Collection: 1001 Giant Steps, 1002 Head Hunters, 1003 Moanin'.") {
            let connections = ["artist", "genre", "era", "label", "style"]
            return (connections.contains($0.connectionType) ? [] : ["connectionType \($0.connectionType)"]) + count($0.basedOn, 1...3, "basedOn")
        },
        typed(DraftCardSet.self, instructions: "You write flash cards.", prompt: "Make cards about the planets of the solar system."),
        typed(StudyPlan.self, instructions: "You plan study sessions.", prompt: "Plan how to study a deck of 40 Spanish verbs.") {
            within($0.minutesPerSession, 5...60, "minutesPerSession")
        },
        typed(ListeningSession.self, instructions: "You plan listening sessions.", prompt: "Plan a relaxed jazz evening.") { session in
            (session.catalogNumber.wholeMatch(of: /[A-Z]{2}[0-9]{4}/) == nil ? ["catalogNumber \(session.catalogNumber)"] : [])
                + within(session.speed, 0.5...2.0, "speed") + count(session.tracks, 3...3, "tracks")
        },
        typed(TrackReaction.self, instructions: "You react to songs.", prompt: "The song was great, I want to hear it again."),
        schemaOnly(FindAlbumArguments.self),
        schemaOnly(PriceLookupArguments.self),
    ]

    private static func within<T: Comparable>(_ value: T, _ range: ClosedRange<T>, _ name: String) -> [String] {
        range.contains(value) ? [] : ["\(name) \(value) outside \(range)"]
    }

    private static func count<C: Collection>(_ items: C, _ range: ClosedRange<Int>, _ name: String) -> [String] {
        range.contains(items.count) ? [] : ["\(name) has \(items.count) elements, outside \(range)"]
    }
}
