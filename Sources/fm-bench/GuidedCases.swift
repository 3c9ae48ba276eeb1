import Foundation
import FoundationModels
import FoundationModelsEval
import VinylCollection

/// One schema of the guided-generation suite, with the conversation it is
/// generated in: the examples' own types, instructions and prompts (through
/// the eval's tasks, so the bench measures what the examples ship), then
/// the shapes no example's type has.
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

    /// An eval task's answer type, asked for as the example asks: its
    /// instructions, and its prompt for the corpus's first item.
    static func task<Task: EvalTask>(_ task: Task.Type, guides: @escaping @Sendable (Task.Answer) -> [String] = { _ in [] }) -> GuidedCase {
        let item = Task.generate(seed: Task.seed)[0]
        return typed(Task.Answer.self, instructions: Task.instructions, prompt: Task.prompt(for: item), guides: guides)
    }

    /// A schema measured without the model (a tool's arguments).
    static func schemaOnly(_ name: String, _ schema: GenerationSchema) -> GuidedCase {
        GuidedCase(name: name, schema: schema, conversation: nil)
    }

    /// The examples' types with their conversations, the shapes, then a
    /// tool's arguments (schema only).
    static let all: [GuidedCase] = {
        let collection = RecordCollection.sample
        let stats = CollectionStats(collection)
        var cases = [
            task(ReceiptTask.self),
            task(TicketTask.self),
            task(FlashcardTask.self) { deck in
                count(deck.cards, 3...3, "cards")
                    + deck.cards.flatMap { card in
                        card.question.wholeMatch(of: /(What|Where|When|Who|Which|How|Why)[^?\n]{3,100}\?/) == nil ? ["question \(card.question)"] : []
                    }
            },
            task(CrateTask.self) { count($0.tags, 3...5, "tags") },
            typed(
                AlbumInsight.self, instructions: VinylPrompts.albumInsightInstructions,
                prompt: VinylPrompts.albumInsight(collection.albums[0], in: stats)
            ) { count($0.moods, 2...3, "moods") },
            typed(ListeningSession.self, instructions: "You plan listening sessions.", prompt: "Plan a relaxed jazz evening.") { session in
                (session.catalogNumber.wholeMatch(of: /[A-Z]{2}[0-9]{4}/) == nil ? ["catalogNumber \(session.catalogNumber)"] : [])
                    + within(session.speed, 0.5...2.0, "speed") + count(session.tracks, 3...3, "tracks")
            },
            typed(TrackReaction.self, instructions: "You react to songs.", prompt: "The song was great, I want to hear it again."),
        ]
        if let tool = try? SearchCollectionTool(collection: collection) {
            cases.append(schemaOnly("SearchCollectionTool.Arguments", tool.parameters))
        }
        return cases
    }()

    private static func within<T: Comparable>(_ value: T, _ range: ClosedRange<T>, _ name: String) -> [String] {
        range.contains(value) ? [] : ["\(name) \(value) outside \(range)"]
    }

    private static func count<C: Collection>(_ items: C, _ range: ClosedRange<Int>, _ name: String) -> [String] {
        range.contains(items.count) ? [] : ["\(name) has \(items.count) elements, outside \(range)"]
    }
}
