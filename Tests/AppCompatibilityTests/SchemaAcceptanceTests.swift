// The JSON Schema each app type's `generationSchema` encodes to.

import Foundation
import FoundationModels
import Testing

@Suite("JSON Schema of app types")
struct SchemaAcceptanceTests {
    @Test("AlbumAIInsight: titled, described, three described strings in order")
    func albumInsight() throws {
        let json = try SchemaJSON.document(of: AlbumAIInsight.self)
        #expect(json.string("title") == "AlbumAIInsight")
        #expect(json.string("description") == "AI-generated insights about a vinyl album")
        SchemaJSON.expectObject(json, order: ["summary", "collectorNotes", "listenNext"], required: ["summary", "collectorNotes", "listenNext"])
        for name in ["summary", "collectorNotes", "listenNext"] {
            let property = try #require(json.property(name))
            #expect(property.string("type") == "string")
            #expect(property.string("description")?.isEmpty == false)
        }
        #expect(json.property("listenNext")?.string("description") == "One album with a similar feel, written as 'Artist - Title'")
        #expect(json.object("$defs") == nil)
    }

    @Test("CrateAIInsight: moodTags is an array of strings with minItems 3, maxItems 5")
    func crateInsight() throws {
        let json = try SchemaJSON.document(of: CrateAIInsight.self)
        SchemaJSON.expectObject(json, order: ["title", "moodTags", "narrative"], required: ["title", "moodTags", "narrative"])
        let tags = try #require(json.property("moodTags"))
        #expect(tags.string("type") == "array")
        #expect(tags.object("items")?.string("type") == "string")
        #expect(tags.number("minItems") == 3)
        #expect(tags.number("maxItems") == 5)
        #expect(tags.string("description") == "Mood tags that describe the crate")
    }

    @Test("AlbumRecommendation: integer id, enum connection type, 1...3 basedOn, computed id left out")
    func albumRecommendation() throws {
        let json = try SchemaJSON.document(of: AlbumRecommendation.self)
        SchemaJSON.expectObject(
            json,
            order: ["releaseId", "connectionType", "basedOn", "reason"],
            required: ["releaseId", "connectionType", "basedOn", "reason"]
        )
        #expect(json.property("id") == nil)
        #expect(json.property("releaseId")?.string("type") == "integer")
        let connection = try #require(json.property("connectionType"))
        #expect(connection.string("type") == "string")
        #expect(connection.strings("enum") == ["artist", "genre", "era", "label", "style"])
        let basedOn = try #require(json.property("basedOn"))
        #expect(basedOn.string("type") == "array")
        #expect(basedOn.number("minItems") == 1)
        #expect(basedOn.number("maxItems") == 3)
        // The computed `id` still satisfies Identifiable.
        let recommendation = AlbumRecommendation(releaseId: 249504, connectionType: "label", basedOn: ["Blue Train"], reason: "Same label.")
        #expect(recommendation.id == "249504")
    }

    @Test("DraftCardSet: cards reference the DraftCard definition in $defs")
    func draftCards() throws {
        let json = try SchemaJSON.document(of: DraftCardSet.self)
        #expect(json.string("title") == "DraftCardSet")
        #expect(json.string("description") == nil)
        SchemaJSON.expectObject(json, order: ["cards"], required: ["cards"])
        let cards = try #require(json.property("cards"))
        #expect(cards.string("type") == "array")
        #expect(cards.object("items")?.string("$ref") == "#/$defs/DraftCard")
        #expect(cards.number("minItems") == nil)

        let card = try #require(json.definition("DraftCard"))
        SchemaJSON.expectObject(card, order: ["question", "answer"], required: ["question", "answer"])
        #expect(card.property("question")?.string("description") == "The question on the front of the card")
        #expect(card.property("answer")?.string("type") == "string")

        // DraftCard on its own is a document, not a reference.
        let alone = try SchemaJSON.document(of: DraftCard.self)
        SchemaJSON.expectObject(alone, order: ["question", "answer"], required: ["question", "answer"])
        #expect(alone.object("$defs") == nil)
    }

    @Test("TicketSummary: urgency is an integer from 1 to 5; tags 2 to 4")
    func ticketSummary() throws {
        let json = try SchemaJSON.document(of: TicketSummary.self)
        SchemaJSON.expectObject(json, order: ["headline", "urgency", "tags"], required: ["headline", "urgency", "tags"])
        let urgency = try #require(json.property("urgency"))
        #expect(urgency.string("type") == "integer")
        #expect(urgency.number("minimum") == 1)
        #expect(urgency.number("maximum") == 5)
        #expect(urgency.string("description") == "Urgency from 1 (low) to 5")
        let tags = try #require(json.property("tags"))
        #expect(tags.number("minItems") == 2)
        #expect(tags.number("maxItems") == 4)
        #expect(tags.object("items")?.string("type") == "string")
    }

    @Test("ParsedFuelReceiptSchema: four optional properties, none required")
    func fuelReceipt() throws {
        let json = try SchemaJSON.document(of: ParsedFuelReceiptSchema.self)
        SchemaJSON.expectObject(json, order: ["volume", "totalCost", "stationName", "isFullTank"], required: [])
        #expect(json.property("volume")?.string("type") == "number")
        #expect(json.property("totalCost")?.string("type") == "number")
        #expect(json.property("stationName")?.string("type") == "string")
        #expect(json.property("isFullTank")?.string("type") == "boolean")
        #expect(json.property("isFullTank")?.string("description") == "Whether the tank was filled up completely")
    }

    @Test("AISummary: an array of Recommendation by $ref, with the definition's guides")
    func aiSummary() throws {
        let json = try SchemaJSON.document(of: AISummary.self)
        #expect(json.string("description") == "A summary of the user's week")
        SchemaJSON.expectObject(json, order: ["overview", "recommendations"], required: ["overview", "recommendations"])
        let list = try #require(json.property("recommendations"))
        #expect(list.string("type") == "array")
        #expect(list.object("items")?.string("$ref") == "#/$defs/Recommendation")
        #expect(list.number("maxItems") == 3)
        #expect(list.number("minItems") == nil)

        let recommendation = try #require(json.definition("Recommendation"))
        #expect(recommendation.string("description") == "A suggestion for the coming week")
        SchemaJSON.expectObject(recommendation, order: ["title", "rationale", "priority"], required: ["title", "rationale", "priority"])
        #expect(recommendation.property("priority")?.number("minimum") == 1)
        #expect(recommendation.property("priority")?.number("maximum") == 3)
        #expect(json.object("$defs")?.keys == ["Recommendation"])
    }

    @Test("a tool's parameters are its Arguments' schema; the optional decade is not required")
    func toolParameters() throws {
        let tool = FindAlbumTool.sample
        #expect(tool.name == "findAlbum")
        #expect(tool.includesSchemaInInstructions)
        let json = try SchemaJSON.document(tool.parameters)
        #expect(json.string("title") == "Arguments")
        SchemaJSON.expectObject(json, order: ["artist", "decade", "limit"], required: ["artist", "limit"])
        #expect(json.property("decade")?.number("minimum") == 1900)
        #expect(json.property("decade")?.number("maximum") == 2030)
        #expect(json.property("limit")?.number("maximum") == 10)
        #expect(try SchemaJSON.data(tool.parameters) == SchemaJSON.data(FindAlbumTool.Arguments.generationSchema))

        // The default name is the type's name.
        #expect(PriceLookupTool().name == "PriceLookupTool")
        let definition = Transcript.ToolDefinition(tool: tool)
        #expect(definition.name == "findAlbum")
        #expect(definition.description == tool.description)
    }

    @Test("a non-Sendable type's schema is built like any other")
    func studyPlan() throws {
        let json = try SchemaJSON.document(of: StudyPlan.self)
        SchemaJSON.expectObject(json, order: ["focus", "minutesPerSession", "sessions"], required: ["focus", "minutesPerSession", "sessions"])
        #expect(json.property("minutesPerSession")?.number("minimum") == 5)
        #expect(json.property("sessions")?.object("items")?.string("type") == "string")
    }

    @Test("an array of app types: items reference the element's definition")
    func arrayOfRecommendations() throws {
        let json = try SchemaJSON.document(of: [AlbumRecommendation].self)
        #expect(json.string("type") == "array")
        #expect(json.object("items")?.string("$ref") == "#/$defs/AlbumRecommendation")
        let definition = try #require(json.definition("AlbumRecommendation"))
        #expect(definition.property("connectionType")?.strings("enum")?.count == 5)
    }
}
