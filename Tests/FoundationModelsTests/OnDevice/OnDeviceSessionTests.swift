import Foundation
import TestSupport
import Testing

@testable import FoundationModels

extension OnDeviceTests {
    /// Sharing, prewarming, token counting and metadata on the real model.
    @Suite("On-device sessions")
    struct Sessions {
        @Test func creatingASessionIsCheap() throws {
            try OnDevice.requireModel()
            let clock = ContinuousClock()
            let elapsed = clock.measure {
                for _ in 0..<1000 { _ = LanguageModelSession(instructions: "Be brief.") }
            }
            // A thousand sessions cost far less than one model load.
            #expect(elapsed < .seconds(1))
        }

        @Test func prewarmEvaluatesTheInstructions() async throws {
            try OnDevice.requireModel()
            let instructions = "You are a librarian. " + String(repeating: "Recommend books carefully. ", count: 30)
            let session = LanguageModelSession(instructions: instructions)
            let instructionTokens = try await SystemLanguageModel.default.tokenCount(for: Instructions(instructions))
            let pool = try await OnDeviceEngine.shared(for: .default).loaded().pool
            let before = pool.idleCachedTokenCounts
            let started = ContinuousClock.now
            session.prewarm(promptPrefix: Prompt("Recommend"))
            #expect(ContinuousClock.now - started < .milliseconds(50), "prewarm returns at once")
            // The evaluation happens in the background: wait until a context
            // holds it (earlier tests may have left long prompts in the
            // contexts, so wait for the counts to change, not just for one
            // long enough).
            let deadline = ContinuousClock.now + .seconds(60)
            func prewarmed() -> Bool {
                let now = pool.idleCachedTokenCounts
                return now.count >= before.count && now.sorted() != before.sorted() && now.contains { $0 >= instructionTokens }
            }
            while !prewarmed(), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            let response = try await session.respond(to: "Recommend a book about the sea.", options: OnDevice.greedy)
            #expect(response.usage.input.cachedTokenCount >= instructionTokens)
        }

        @Test func tokenCountsAreExact() async throws {
            try OnDevice.requireModel()
            let model = SystemLanguageModel.default
            let short = try await model.tokenCount(for: Prompt("Hello"))
            let long = try await model.tokenCount(for: Prompt("Hello there, how are you doing today?"))
            #expect(short > 0)
            #expect(long > short)
            // Apple's overload takes any PromptRepresentable: a String as is.
            let text = "Hello there, how are you doing today?"
            #expect(try await model.tokenCount(for: text) == long)
            let session = LanguageModelSession(instructions: "Answer briefly.")
            let response = try await session.respond(to: "Hello there, how are you doing today?", options: OnDevice.greedy)
            // The whole input is the entries' tokens plus the template's opening of the assistant turn.
            let entries = try await model.tokenCount(for: Array(session.transcript.prefix(2)))
            let input = response.usage.input.totalTokenCount
            #expect(input > entries)
            #expect(input - entries <= 4)
            // Tool definitions are rendered into the system turn: a tool costs tokens.
            let noTools = try await model.tokenCount(for: [any Tool]())
            let oneTool = try await model.tokenCount(for: [CountedWeatherTool()])
            #expect(oneTool > noTools + 10)
            let schemaTokens = try await model.tokenCount(for: CountedWeatherTool.Arguments.generationSchema)
            #expect(schemaTokens > 5)
        }

        @Test func metadataOfTheDefaultModel() throws {
            try OnDevice.requireModel()
            let model = SystemLanguageModel.default
            // Unconfigured: what the model was trained for (SmolLM2 and the
            // Qwen2.5 models: 8,192 and 32,768), memory allowing.
            let configured = OnDevice.model(contextSize: 1024)
            #expect(model.configuration.contextSize == nil)
            #expect([8192, 32768].contains(model.contextSize), "\(model.contextSize)")
            #expect(configured.contextSize == 1024)
            #expect(model.supportsLocale(Locale(identifier: "en_US")))
            #expect(model.isAvailable)
        }
    }
}

/// A tool whose definition is only counted, never called.
struct CountedWeatherTool: Tool {
    let description = "Reports the weather in a city."
    @Generable struct Arguments {
        @Guide(description: "The city") var city: String
    }
    func call(arguments: Arguments) async throws -> String { "sunny" }
}
