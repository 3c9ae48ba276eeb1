import Foundation
import TestSupport
import Testing

@testable import FoundationModels

extension OnDeviceTests {
    /// `SystemLanguageModel.default` answering for real: the installed
    /// SmolLM2-135M-Instruct through llama.cpp.
    @Suite("On-device generation")
    struct Generation {
        @Test func answersAPrompt() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession(instructions: "You are a helpful assistant. Answer briefly.")
            let response = try await session.respond(to: "What is the capital of France?", options: OnDevice.greedy)
            #expect(!response.content.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
            #expect(response.usage.output.totalTokenCount > 0)
            #expect(response.usage.output.totalTokenCount <= 24)
            #expect(session.transcript.count == 3)
        }

        @Test func streamsGrowingSnapshots() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession()
            let stream = session.streamResponse(to: "Name three colors.", options: OnDevice.greedy)
            var snapshots: [String] = []
            for try await snapshot in stream {
                snapshots.append(snapshot.content)
            }
            #expect(snapshots.count >= 3)
            for (earlier, later) in zip(snapshots, snapshots.dropFirst()) {
                #expect(later.hasPrefix(earlier), "snapshot \(later.debugDescription) does not extend \(earlier.debugDescription)")
            }
            let response = try await stream.collect()
            #expect(response.content == snapshots.last)
        }

        @Test func greedyIsDeterministic() async throws {
            try OnDevice.requireModel()
            let first = try await LanguageModelSession().respond(to: "Write one sentence about the sea.", options: OnDevice.greedy)
            let second = try await LanguageModelSession().respond(to: "Write one sentence about the sea.", options: OnDevice.greedy)
            #expect(first.content == second.content)
            #expect(!first.content.isEmpty)
        }

        /// Both ways of evaluating a prompt's last token keep a repeated
        /// greedy request's answer whether its prompt was cached or not: in
        /// a step of its own (the CPU's way), the repeat decodes just that
        /// token; in one pass with the rest (with every layer on a GPU), the
        /// repeat evaluates the first request's pass again, whole. A
        /// conversation's next turn still reuses everything before it.
        @Test(arguments: [true, false])
        func aRepeatedPromptGivesTheSameAnswer(promptEndsAlone: Bool) async throws {
            try OnDevice.requireModel()
            var configuration = OnDevice.configuration(contexts: 1, contextSize: 1024)
            configuration.promptEndsAlone = promptEndsAlone
            let model = SystemLanguageModel(configuration: configuration)
            let engine = OnDeviceEngine.shared(for: configuration)
            defer { OnDeviceEngine.release(engine) }
            let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 24)
            let prompt = "Write one sentence about the sea."
            let first = try await LanguageModelSession(model: model).respond(to: prompt, options: options)
            let again = try await LanguageModelSession(model: model).respond(to: prompt, options: options)
            #expect(again.content == first.content)
            #expect(!first.content.isEmpty)
            let prompted = first.usage.input.totalTokenCount
            #expect(again.usage.input.totalTokenCount == prompted)
            #expect(first.usage.input.cachedTokenCount == 0, "a new engine's first prompt is not cached")
            #expect(again.usage.input.cachedTokenCount == (promptEndsAlone ? prompted - 1 : 0))

            let session = LanguageModelSession(model: model)
            let turn = try await session.respond(to: prompt, options: options)
            let next = try await session.respond(to: "And one about the sky.", options: options)
            #expect(turn.content == first.content)
            #expect(next.usage.input.cachedTokenCount >= prompted, "the second turn evaluated the first turn's prompt again")
        }

        @Test func theSameSeedGivesTheSameText() async throws {
            try OnDevice.requireModel()
            let options = GenerationOptions(samplingMode: .random(top: 40, seed: 1234), temperature: 1.2, maximumResponseTokens: 24)
            let first = try await LanguageModelSession().respond(to: "Invent a name for a cat.", options: options)
            let second = try await LanguageModelSession().respond(to: "Invent a name for a cat.", options: options)
            #expect(first.content == second.content)
            let nucleus = GenerationOptions(samplingMode: .random(probabilityThreshold: 0.9, seed: 99), maximumResponseTokens: 16)
            let third = try await LanguageModelSession().respond(to: "Invent a name for a dog.", options: nucleus)
            let fourth = try await LanguageModelSession().respond(to: "Invent a name for a dog.", options: nucleus)
            #expect(third.content == fourth.content)
        }

        @Test(arguments: [1, 5, 17])
        func theTokenLimitHolds(limit: Int) async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession()
            let response = try await session.respond(
                to: "Tell me a long story about a dragon.",
                options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: limit)
            )
            #expect(response.usage.output.totalTokenCount <= limit)
            // A story does not end in a handful of tokens: the limit is what stopped it.
            #expect(response.usage.output.totalTokenCount == limit)
            // Re-tokenized, the text is about as long (the template's own tokens subtracted).
            let counted = try await SystemLanguageModel.default.tokenCount(for: Prompt(response.content))
            let overhead = try await SystemLanguageModel.default.tokenCount(for: Prompt(""))
            #expect(counted - overhead <= limit + 1)
        }

        /// The second turn's prompt is the first turn plus the new one, and
        /// the first turn's evaluated tokens are reused. Whether the model
        /// then recalls the fact is a judgement of its answers: the default
        /// model's quality suite asks that (a 135M model's recall turns on
        /// rounding differences between cached and fresh evaluation).
        @Test func theNextTurnSeesTheConversation() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession(instructions: "You are a helpful assistant.")
            let first = try await session.respond(to: "My favourite fruit is mango. Reply with OK.", options: OnDevice.greedy)
            let second = try await session.respond(to: "What is my favourite fruit?", options: OnDevice.greedy)
            #expect(second.usage.input.cachedTokenCount >= first.usage.input.totalTokenCount)
            #expect(second.usage.input.totalTokenCount > first.usage.input.totalTokenCount + first.usage.output.totalTokenCount)
            #expect(session.transcript.count == 5)
        }

        @Test func textIsNeverBrokenMidCharacter() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession()
            var seen: [String] = []
            for try await snapshot in session.streamResponse(
                to: "Repeat exactly: café, naïve, 東京, 😀🎉",
                options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 40)
            ) {
                seen.append(snapshot.content)
            }
            #expect(!seen.isEmpty)
            for text in seen {
                #expect(!text.contains("\u{FFFD}"), "broken character in \(text.debugDescription)")
            }
        }
    }
}
