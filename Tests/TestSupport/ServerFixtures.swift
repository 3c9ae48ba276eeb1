// What the tests of a model behind a server ask of it: text, a stream, a
// typed answer and a tool call, the same whether llama-server answers
// (RemoteModelTests' LlamaServerIntegrationTests) or fm serve does
// (fm-serveTests' FMServeTests).

import FoundationModels
import Testing

/// Everything a session does, on one model: text with usage, a stream,
/// a typed answer, a tool call.
package enum ServerModelExercise {
    package static let greedy = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 48)

    package static func run(_ model: some LanguageModel) async throws {
        let session = LanguageModelSession(model: model, instructions: "You answer in one short sentence.")
        let text = try await session.respond(to: "What is the capital of France?", options: greedy)
        #expect(!text.content.isEmpty)
        #expect(text.usage.input.totalTokenCount > 5)
        #expect(text.usage.output.totalTokenCount > 0)
        #expect(session.transcript.count == 3)

        var snapshots: [String] = []
        for try await snapshot in session.streamResponse(to: "Now name a river.", options: greedy) {
            snapshots.append(snapshot.content)
        }
        #expect(snapshots.count >= 2)
        #expect(snapshots.last.map { !$0.isEmpty } == true)
        // Each snapshot extends the one before.
        #expect(zip(snapshots, snapshots.dropFirst()).allSatisfy { $1.hasPrefix($0) })

        let typed = try await LanguageModelSession(model: model).respond(
            to: "France and its capital, as JSON.", generating: Capital.self,
            options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 64)
        )
        #expect(!typed.content.country.isEmpty && !typed.content.city.isEmpty)

        // Tools go out natively; SmolLM2's template has no tools, so the
        // small model answers in prose (the call itself: LlamaServerIntegrationTests'
        // `toolCall`, on the fast model).
        let tooled = LanguageModelSession(model: model, tools: [Weather()])
        let answer = try await tooled.respond(to: "What is the weather in Paris?", options: greedy)
        #expect(!answer.content.isEmpty || tooled.transcript.contains { if case .toolOutput = $0 { true } else { false } })
    }
}

/// A country and its capital: the typed answer.
@Generable
package struct Capital: Equatable {
    @Guide(description: "The country's name")
    package var country: String
    @Guide(description: "Its capital city")
    package var city: String
}

/// A tool the server's model is made to call.
package struct Weather: Tool {
    package let name = "weather"
    package let description = "Gets the current weather in a city."

    package init() {}

    @Generable
    package struct Arguments {
        @Guide(description: "The city")
        package var city: String
    }

    package func call(arguments: Arguments) async throws -> String {
        "Sunny, 21 degrees in \(arguments.city)."
    }
}
