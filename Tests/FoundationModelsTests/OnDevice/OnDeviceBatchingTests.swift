import Foundation
import LlamaKit
import Testing
@testable import FoundationModels

extension OnDeviceTests {
    /// Concurrent sessions on one model share its forward passes
    /// (``DecodeScheduler``).
    @Suite("Sessions at once share steps")
    struct Batching {
        static let prompts = [
            "Name three colors.", "Count from one to five.", "Describe the sea in one sentence.", "Say hello in French.",
        ]

        /// Four sessions at once answer in steps that carry more than one of
        /// them; one at a time, each step carries one.
        @Test func concurrentSessionsShareSteps() async throws {
            try OnDevice.requireModel()
            let model = OnDevice.model(contexts: 4, contextSize: 1024)
            let engine = OnDeviceEngine.shared(for: model.configuration)
            defer { OnDeviceEngine.release(engine) }
            let scheduler = try await engine.loaded().scheduler
            let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 32)

            var alone: [String] = []
            let beforeAlone = scheduler.statistics
            for prompt in Self.prompts {
                alone.append(try await LanguageModelSession(model: model).respond(to: prompt, options: options).content)
            }
            let afterAlone = scheduler.statistics
            // One at a time: every step carries one pass.
            #expect(afterAlone.passes - beforeAlone.passes == afterAlone.steps - beforeAlone.steps)

            let together = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for (index, prompt) in Self.prompts.enumerated() {
                    group.addTask {
                        (index, try await LanguageModelSession(model: model).respond(to: prompt, options: options).content)
                    }
                }
                var answers = Array(repeating: "", count: Self.prompts.count)
                for try await (index, answer) in group { answers[index] = answer }
                return answers
            }
            let after = scheduler.statistics
            let steps = after.steps - afterAlone.steps
            let passes = after.passes - afterAlone.passes
            #expect(steps > 0)
            #expect(Double(passes) / Double(steps) >= 2.0, "\(passes) passes in \(steps) steps")
            // Each session gets an answer to its own prompt: four prompts,
            // four different answers (a row read for the wrong sequence would
            // repeat one). Not compared with the answers alone: llama.cpp
            // multiplies a batch of prompts by other kernels than one prompt,
            // and greedy answers can part where the logits differ (LlamaKit's
            // tests compare batched steps with steps alone).
            #expect(together.allSatisfy { !$0.isEmpty })
            #expect(Set(together).count == Self.prompts.count, "\(together)")
            #expect(Set(alone).count == Self.prompts.count)
        }

        /// A cancelled session leaves its step; the others finish, and the
        /// model answers afterwards.
        @Test func cancellingOneLeavesTheOthersRunning() async throws {
            try OnDevice.requireModel()
            let model = OnDevice.model(contexts: 3, contextSize: 1024)
            let engine = OnDeviceEngine.shared(for: model.configuration)
            defer { OnDeviceEngine.release(engine) }
            let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 48)
            let cancelled = Task {
                let stream = LanguageModelSession(model: model).streamResponse(to: "Tell a long story about a fox.", options: options)
                for try await _ in stream {}
            }
            async let first = LanguageModelSession(model: model).respond(to: Self.prompts[0], options: options)
            async let second = LanguageModelSession(model: model).respond(to: Self.prompts[1], options: options)
            try await Task.sleep(for: .milliseconds(300))
            cancelled.cancel()
            let result = await cancelled.result
            #expect(throws: CancellationError.self) { try result.get() }
            let (a, b) = try await (first, second)
            #expect(!a.content.isEmpty)
            #expect(!b.content.isEmpty)
            let again = try await LanguageModelSession(model: model).respond(to: Self.prompts[3], options: options)
            #expect(!again.content.isEmpty)
        }
    }
}
