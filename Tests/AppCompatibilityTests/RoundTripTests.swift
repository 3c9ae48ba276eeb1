// Values and documents that must survive a trip through their wire forms.

import Foundation
import FoundationModels
import Testing

@Suite("Round trips")
struct RoundTripTests {
    // MARK: Values through GeneratedContent

    /// value → generatedContent → init(_:), and the same through JSON text.
    static func roundTrip<T: Generable & Equatable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let content = value.generatedContent
        #expect(try T(content) == value, sourceLocation: sourceLocation)
        let reparsed = try GeneratedContent(json: content.jsonString)
        #expect(reparsed.isComplete, sourceLocation: sourceLocation)
        #expect(try T(reparsed) == value, sourceLocation: sourceLocation)
        #expect(reparsed.jsonString == content.jsonString, sourceLocation: sourceLocation)
    }

    @Test("every app type: value → generatedContent → init(_:) is the same value")
    func values() throws {
        try Self.roundTrip(Fixtures.insight)
        try Self.roundTrip(Fixtures.crate)
        try Self.roundTrip(Fixtures.recommendation)
        try Self.roundTrip(Fixtures.cardSet.cards[0])
        try Self.roundTrip(Fixtures.cardSet)
        try Self.roundTrip(Fixtures.ticket)
        try Self.roundTrip(Fixtures.fullReceipt)
        try Self.roundTrip(Fixtures.sparseReceipt)
        try Self.roundTrip(Fixtures.emptyReceipt)
        try Self.roundTrip(Fixtures.summary)
        try Self.roundTrip(Fixtures.plan)
        try Self.roundTrip(Fixtures.arguments)
        try Self.roundTrip(Fixtures.argumentsWithoutDecade)
        try Self.roundTrip([Fixtures.recommendation, Fixtures.recommendation])
    }

    @Test("generated content keeps declaration order and leaves nil optionals out")
    func contentShape() throws {
        #expect(
            Fixtures.ticket.generatedContent.jsonString
                == #"{"headline":"App crashes when importing a CSV","urgency":4,"tags":["import","crash","ios"]}"#)
        #expect(Fixtures.sparseReceipt.generatedContent.jsonString == #"{"totalCost":60,"isFullTank":false}"#)
        #expect(Fixtures.emptyReceipt.generatedContent.jsonString == "{}")
        guard case .structure(_, let keys) = Fixtures.recommendation.generatedContent.kind else {
            Issue.record("a struct's content should be a structure")
            return
        }
        #expect(keys == ["releaseId", "connectionType", "basedOn", "reason"])
    }

    @Test("Codable and Generable coexist on AlbumAIInsight")
    func codableInsight() throws {
        let data = try JSONEncoder().encode(Fixtures.insight)
        let viaCodable = try JSONDecoder().decode(AlbumAIInsight.self, from: data)
        let viaGenerable = try AlbumAIInsight(GeneratedContent(json: String(decoding: data, as: UTF8.self)))
        #expect(viaCodable == Fixtures.insight)
        #expect(viaGenerable == Fixtures.insight)
        #expect(Set([Fixtures.insight, viaCodable]).count == 1)
    }

    @Test("a complete value is a valid partially generated value")
    func partiallyGenerated() throws {
        let partial = Fixtures.cardSet.asPartiallyGenerated()
        #expect(partial.cards?.count == 3)
        #expect(partial.cards?.last?.answer == Fixtures.cardSet.cards[2].answer)
        let receipt = Fixtures.sparseReceipt.asPartiallyGenerated()
        #expect(receipt.totalCost == 60)
        #expect(receipt.volume == nil)
    }

    // MARK: GeneratedContent and JSON text

    @Test(
        "GeneratedContent(json:) ↔ jsonString",
        arguments: [
            #"{"question":"What is a B-side?","answer":"The flip side"}"#,
            #"{"cards":[{"question":"Q1","answer":"A1"},{"question":"Q2","answer":"A2"}]}"#,
            #"{"urgency":5,"tags":["a","b"],"ratio":0.25,"done":true,"missing":null}"#,
            #"["x",1,-2.5,false,null,{},[]]"#,
            #""quote \" backslash \\ newline \n tab \t emoji 🎵""#,
            #"{"zeta":1,"alpha":2,"mid":3}"#,
        ])
    func jsonText(json: String) throws {
        let content = try GeneratedContent(json: json)
        #expect(content.isComplete)
        #expect(content.jsonString == json)
        #expect(try GeneratedContent(json: content.jsonString) == content)
    }

    @Test("whitespace is not part of the content")
    func whitespace() throws {
        let pretty = """
            {
              "question" : "What is a B-side?",
              "answer" : "The flip side"
            }
            """
        let content = try GeneratedContent(json: pretty)
        #expect(content.jsonString == #"{"question":"What is a B-side?","answer":"The flip side"}"#)
        #expect(try DraftCard(content) == DraftCard(question: "What is a B-side?", answer: "The flip side"))
    }

    // MARK: GenerationSchema through JSON

    static let schemas: [String: GenerationSchema] = [
        "AlbumAIInsight": AlbumAIInsight.generationSchema,
        "CrateAIInsight": CrateAIInsight.generationSchema,
        "AlbumRecommendation": AlbumRecommendation.generationSchema,
        "DraftCard": DraftCard.generationSchema,
        "DraftCardSet": DraftCardSet.generationSchema,
        "TicketSummary": TicketSummary.generationSchema,
        "ParsedFuelReceiptSchema": ParsedFuelReceiptSchema.generationSchema,
        "AISummary": AISummary.generationSchema,
        "Arguments": FindAlbumTool.Arguments.generationSchema,
        "StudyPlan": StudyPlan.generationSchema,
        "[AlbumRecommendation]": [AlbumRecommendation].generationSchema,
    ]

    @Test("GenerationSchema → JSON → GenerationSchema → identical JSON", arguments: Self.schemas.keys.sorted())
    func schema(name: String) throws {
        let schema = try #require(Self.schemas[name])
        let first = try SchemaJSON.data(schema)
        let decoded = try JSONDecoder().decode(GenerationSchema.self, from: first)
        let second = try SchemaJSON.data(decoded)
        #expect(String(decoding: second, as: UTF8.self) == String(decoding: first, as: UTF8.self))
        if !name.hasPrefix("[") {
            #expect(try JSONObject(data: first).string("title") == name)
        }
    }

    @Test("a decoded schema still drives generation: a session accepts it as a response format")
    func decodedSchemaIsUsable() throws {
        let data = try SchemaJSON.data(AISummary.generationSchema)
        let decoded = try JSONDecoder().decode(GenerationSchema.self, from: data)
        let format = Transcript.ResponseFormat(schema: decoded)
        #expect(format.name == "AISummary")
        #expect(format == Transcript.ResponseFormat(type: AISummary.self))
    }

    // MARK: Transcript through JSON

    static let sample = makeTranscript()

    static func makeTranscript() -> Transcript {
        let call = Transcript.ToolCall(id: "call-1", toolName: "findAlbum", arguments: Fixtures.arguments.generatedContent)
        return Transcript(entries: [
            .instructions(
                Transcript.Instructions(
                    segments: [.text(Transcript.TextSegment(content: "You are a record store clerk."))],
                    toolDefinitions: [Transcript.ToolDefinition(tool: FindAlbumTool.sample), Transcript.ToolDefinition(tool: PriceLookupTool())]
                )),
            .prompt(
                Transcript.Prompt(
                    segments: [.text(Transcript.TextSegment(content: "Which Miles Davis albums from the fifties do I own?"))],
                    options: GenerationOptions(sampling: .random(top: 40, seed: 7), temperature: 0.5, maximumResponseTokens: 300),
                    responseFormat: Transcript.ResponseFormat(type: AlbumAIInsight.self)
                )),
            .toolCalls(Transcript.ToolCalls([call])),
            .toolOutput(
                Transcript.ToolOutput(
                    id: call.id,
                    toolName: call.toolName,
                    segments: [.text(Transcript.TextSegment(content: "Miles Davis - Kind of Blue (1959)"))]
                )),
            .response(
                Transcript.Response(
                    assetIDs: ["base-model"],
                    segments: [
                        .text(Transcript.TextSegment(content: "Here is what I found:")),
                        .structure(Transcript.StructuredSegment(source: "AlbumAIInsight", content: Fixtures.insight.generatedContent)),
                    ]
                )),
            .prompt(
                Transcript.Prompt(
                    segments: [.structure(Transcript.StructuredSegment(source: "DraftCardSet", content: Fixtures.cardSet.generatedContent))],
                    options: GenerationOptions(sampling: .greedy),
                    responseFormat: Transcript.ResponseFormat(schema: DraftCardSet.generationSchema)
                )),
        ])
    }

    @Test("Transcript → JSON → Transcript is equal, in Apple's envelope")
    func transcript() throws {
        let transcript = Self.sample
        let data = try JSONEncoder().encode(transcript)
        let decoded = try JSONDecoder().decode(Transcript.self, from: data)
        #expect(decoded == transcript)
        #expect(decoded.count == 6)

        let json = try JSONObject(data: data)
        #expect(json.number("version") == 1)
        #expect(json.string("type") == "FoundationModels.Transcript")
        let entries = try #require(json.object("transcript")?.objects("entries"))
        #expect(entries.map { $0.string("role") } == ["instructions", "user", "response", "tool", "response", "user"])
        #expect(entries[0].objects("tools")?.count == 2)
        #expect(entries[3].string("toolName") == "findAlbum")

        // Re-encoding the decoded transcript gives the same document.
        let encoder = SchemaJSON.encoder()
        #expect(try encoder.encode(decoded) == encoder.encode(transcript))
    }

    @Test("a decoded transcript keeps the typed pieces apps read back")
    func transcriptPieces() throws {
        let data = try JSONEncoder().encode(Self.sample)
        let decoded = try JSONDecoder().decode(Transcript.self, from: data)
        guard case .instructions(let instructions) = decoded[0],
            case .prompt(let prompt) = decoded[1],
            case .toolCalls(let calls) = decoded[2],
            case .response(let response) = decoded[4]
        else {
            Issue.record("entries decoded in the wrong order: \(decoded)")
            return
        }
        #expect(instructions.toolDefinitions.map(\.name) == ["findAlbum", "PriceLookupTool"])
        #expect(prompt.responseFormat?.name == "AlbumAIInsight")
        #expect(prompt.options.temperature == 0.5)
        #expect(prompt.options.maximumResponseTokens == 300)
        #expect(prompt.options.sampling == .random(top: 40, seed: 7))
        #expect(try FindAlbumTool.Arguments(calls[0].arguments) == Fixtures.arguments)
        guard case .structure(let segment) = response.segments.last else {
            Issue.record("the structured segment was lost")
            return
        }
        #expect(try AlbumAIInsight(segment.content) == Fixtures.insight)
        #expect(response.assetIDs == ["base-model"])
    }

    @Test("a session resumed from a decoded transcript starts where it left off")
    func resume() throws {
        let data = try JSONEncoder().encode(Self.sample)
        let session = SessionRecipes.resumed(from: try JSONDecoder().decode(Transcript.self, from: data))
        #expect(session.transcript == Self.sample)
        #expect(!session.isResponding)
    }
}
