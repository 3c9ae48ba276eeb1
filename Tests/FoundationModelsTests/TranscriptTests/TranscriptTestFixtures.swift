import Foundation

@testable import FoundationModels

/// A tool for transcript tests: its definition is what matters.
struct WeatherTool: Tool {
    let name = "getWeather"
    let description = "Looks up the weather in a city."

    var parameters: GenerationSchema {
        GenerationSchema(
            type: GeneratedContent.self, description: "Weather query",
            properties: [
                GenerationSchema.Property(name: "city", description: "The city", type: String.self),
                GenerationSchema.Property(name: "days", type: Int?.self),
            ])
    }

    func call(arguments: GeneratedContent) async throws -> String {
        "Sunny in \(try arguments.value(String.self, forProperty: "city"))"
    }
}

/// A transcript holding every kind of entry and segment, with fixed ids.
func everyKindTranscript() throws -> Transcript {
    let weather = WeatherTool()
    let instructions = Transcript.Instructions(
        id: "instructions-1",
        segments: [.text(.init(id: "i-text", content: "You are a weather assistant."))],
        toolDefinitions: [Transcript.ToolDefinition(tool: weather)]
    )
    let prompt = Transcript.Prompt(
        id: "prompt-1",
        segments: [
            .text(.init(id: "p-text", content: "Weather in Paris and this city?")),
            .structure(.init(id: "p-struct", source: "PromptCity", content: PromptCity(name: "Lyon", population: 520_000).generatedContent)),
            .attachment(.init(id: "p-image", content: .image(.init(imageURL: URL(string: "file:///tmp/sky.png")!)), label: "sky")),
        ],
        options: GenerationOptions(samplingMode: .random(top: 40, seed: 7), temperature: 0.5, maximumResponseTokens: 200, toolCallingMode: .required),
        responseFormat: Transcript.ResponseFormat(type: PromptCity.self)
    )
    let calls = Transcript.ToolCalls(
        id: "calls-1",
        [
            Transcript.ToolCall(id: "call-1", toolName: "getWeather", arguments: try GeneratedContent(json: #"{"city":"Paris","days":2}"#)),
            Transcript.ToolCall(id: "call-2", toolName: "getWeather", arguments: try GeneratedContent(json: #"{"city":"Lyon"}"#)),
        ])
    let output = Transcript.ToolOutput(id: "call-1", toolName: "getWeather", segments: [.text(.init(id: "o-text", content: "Sunny, 24°C"))])
    let reasoning = Transcript.Reasoning(
        id: "reasoning-1",
        metadata: ["effort": "high"],
        segments: [.text(.init(id: "r-text", content: "Both cities are in France."))],
        signature: Data([1, 2, 3, 250])
    )
    let response = Transcript.Response(
        id: "response-1",
        assetIDs: ["base-model"],
        segments: [
            .text(.init(id: "a-text", content: "It is sunny.")),
            .structure(.init(id: "a-struct", source: "PromptCity", content: PromptCity(name: "Paris", population: 2_100_000).generatedContent)),
        ]
    )
    return Transcript(entries: [
        .instructions(instructions), .prompt(prompt), .toolCalls(calls),
        .toolOutput(output), .reasoning(reasoning), .response(response),
    ])
}

/// Encodes a value and reads it back as a JSON object.
func jsonObject(_ value: some Encodable) throws -> [String: Any] {
    let data = try JSONEncoder().encode(value)
    return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
}

/// The coding path of a decoding error, as strings and integers.
func codingPathDescription(_ error: any Error) -> String {
    let path: [any CodingKey]
    switch error as? DecodingError {
    case .dataCorrupted(let context): path = context.codingPath
    case .keyNotFound(let key, let context): path = context.codingPath + [key]
    case .typeMismatch(_, let context): path = context.codingPath
    case .valueNotFound(_, let context): path = context.codingPath
    default: return "not a DecodingError: \(error)"
    }
    return path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
}
