import Foundation
import Testing

@testable import FoundationModels

@Suite struct TranscriptTests {
    @Test func isARandomAccessCollectionOfEntries() throws {
        let transcript = try everyKindTranscript()
        #expect(transcript.count == 6)
        #expect(transcript.map(\.id) == ["instructions-1", "prompt-1", "calls-1", "call-1", "reasoning-1", "response-1"])
        #expect(transcript[transcript.index(before: transcript.endIndex)].id == "response-1")
        #expect(Transcript().isEmpty)
        #expect(Transcript(entries: []).isEmpty)
    }

    @Test func canBeEditedLikeAnArray() throws {
        var transcript = try everyKindTranscript()
        transcript.removeLast(2)
        #expect(transcript.count == 4)
        transcript.append(.response(Transcript.Response(id: "r2", assetIDs: [], segments: [])))
        transcript[0] = .prompt(Transcript.Prompt(id: "p0", segments: []))
        #expect(transcript.map(\.id) == ["p0", "prompt-1", "calls-1", "call-1", "r2"])
    }

    @Test func idsDefaultToFreshUUIDs() {
        let first = Transcript.Response(assetIDs: [], segments: [])
        let second = Transcript.Response(assetIDs: [], segments: [])
        #expect(first.id != second.id)
        #expect(UUID(uuidString: first.id) != nil)
        #expect(UUID(uuidString: Transcript.TextSegment(content: "x").id) != nil)
        #expect(UUID(uuidString: Transcript.ToolCalls([]).id) != nil)
        #expect(UUID(uuidString: Transcript.Prompt(segments: []).id) != nil)
        #expect(UUID(uuidString: Transcript.Instructions(segments: [], toolDefinitions: []).id) != nil)
    }

    @Test func toolDefinitionComesFromTheTool() throws {
        let definition = Transcript.ToolDefinition(tool: WeatherTool())
        #expect(definition.name == "getWeather")
        #expect(definition.description == "Looks up the weather in a city.")
        let schema = try jsonObject(definition.parameters)
        #expect((schema["properties"] as? [String: Any])?.keys.sorted() == ["city", "days"])
        #expect(
            definition
                == Transcript.ToolDefinition(name: "getWeather", description: "Looks up the weather in a city.", parameters: WeatherTool().parameters)
        )
        #expect(definition != Transcript.ToolDefinition(name: "getWeather", description: "other", parameters: WeatherTool().parameters))
    }

    @Test func responseFormatNames() {
        #expect(Transcript.ResponseFormat(type: PromptCity.self).name == "PromptCity")
        #expect(Transcript.ResponseFormat(schema: PromptCity.generationSchema).name == "PromptCity")
        guard case .schema(let schema) = Transcript.ResponseFormat(type: PromptCity.self).kind else {
            Issue.record("expected a schema kind")
            return
        }
        #expect(schema.name == "PromptCity")
    }

    @Test func toolCallsAreACollection() throws {
        guard case .toolCalls(let calls) = try everyKindTranscript()[2] else {
            Issue.record("expected tool calls")
            return
        }
        #expect(calls.count == 2)
        #expect(calls.map(\.toolName) == ["getWeather", "getWeather"])
        #expect(try calls[0].arguments.value(String.self, forProperty: "city") == "Paris")
    }

    @Test func descriptionsAreReadable() throws {
        let transcript = try everyKindTranscript()
        #expect(transcript[0].description.contains("You are a weather assistant."))
        #expect(transcript[0].description.contains("getWeather"))
        #expect(transcript[1].description.contains("Weather in Paris and this city?"))
        #expect(transcript[1].description.contains("PromptCity"))
        #expect(transcript[2].description.contains(#"getWeather({"city":"Paris","days":2})"#))
        #expect(transcript[3].description == "Tool output (getWeather): Sunny, 24°C")
        #expect(transcript[4].description.contains("Both cities are in France."))
        #expect(transcript[5].description.hasPrefix("Response: It is sunny."))
        #expect(
            Transcript.Segment.attachment(.init(content: .image(.init(imageURL: URL(string: "file:///a.png")!)), label: "pic")).description
                == "[pic: image file:///a.png]")
        #expect(transcript.description.components(separatedBy: "\n").count >= 6)
    }

    @Test func packageTextOfEntries() throws {
        let transcript = try everyKindTranscript()
        #expect(transcript[3].text == "Sunny, 24°C")
        #expect(transcript[5].segments.count == 2)
        #expect(transcript[5].text.hasPrefix("It is sunny.\n{"))
        #expect(transcript[2].segments.isEmpty)
    }

    @Test func structuredSegmentSchemaNameAliasesSource() {
        var segment = Transcript.StructuredSegment(schemaName: "A", content: GeneratedContent("x"))
        #expect(segment.source == "A")
        segment.schemaName = "B"
        #expect(segment.source == "B")
    }

    @Test func newerInitializersCarryMetadata() throws {
        let prompt = Transcript.Prompt(metadata: ["origin": "widget"], segments: [], contextOptions: ContextOptions(includeSchemaInPrompt: false))
        #expect(prompt.metadata["origin"] == GeneratedContent("widget"))
        #expect(prompt.contextOptions.includeSchemaInPrompt == false)
        let response = Transcript.Response(metadata: ["tokens": 12], segments: [])
        #expect(response.metadata["tokens"] == GeneratedContent(12))
        let call = Transcript.ToolCall(id: "c", metadata: ["n": 1], toolName: "t", arguments: GeneratedContent(properties: [:]))
        #expect(call.metadata["n"] == GeneratedContent(1))
    }
}
