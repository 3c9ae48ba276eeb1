import Foundation
import LlamaKit
import TestSupport
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

        /// Steps decoded on the requests' own threads (as on a GPU), with
        /// each token's text handed on while the next step runs: the same
        /// greedy answers as through the decode thread, streamed whole and
        /// in order, shared steps, and a cancelled request leaves the others
        /// running.
        @Test func decodingOnTheRequestsThreadsGivesTheSameAnswers() async throws {
            try OnDevice.requireModel()
            var configuration = OnDevice.configuration(contexts: 3, contextSize: 1024)
            let reference = SystemLanguageModel(configuration: configuration)
            configuration.decodesOnRequestThreads = true
            let model = SystemLanguageModel(configuration: configuration)
            let engine = OnDeviceEngine.shared(for: configuration)
            let referenceEngine = OnDeviceEngine.shared(for: reference.configuration)
            defer {
                OnDeviceEngine.release(engine)
                OnDeviceEngine.release(referenceEngine)
            }
            #expect(try await engine.loaded().scheduler.thread == nil)
            #expect(try await referenceEngine.loaded().scheduler.thread != nil)
            let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 24)
            for prompt in Self.prompts.prefix(2) {
                let expected = try await LanguageModelSession(model: reference).respond(to: prompt, options: options).content
                #expect(try await LanguageModelSession(model: model).respond(to: prompt, options: options).content == expected)
                #expect(try await Self.streamedAnswer(model, to: prompt, options: options) == expected)
            }
            let scheduler = try await engine.loaded().scheduler
            let before = scheduler.statistics
            try await Self.cancelOneOfThree(model, options: options, prompts: Array(Self.prompts[2...3]))
            let after = scheduler.statistics
            #expect(after.passes - before.passes > after.steps - before.steps, "no step was shared")
        }

        /// A cancelled session leaves its step; the others finish, and the
        /// model answers afterwards.
        @Test func cancellingOneLeavesTheOthersRunning() async throws {
            try OnDevice.requireModel()
            let model = OnDevice.model(contexts: 3, contextSize: 1024)
            let engine = OnDeviceEngine.shared(for: model.configuration)
            defer { OnDeviceEngine.release(engine) }
            let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 48)
            try await Self.cancelOneOfThree(model, options: options, prompts: Array(Self.prompts[0...1]))
            let again = try await LanguageModelSession(model: model).respond(to: Self.prompts[3], options: options)
            #expect(!again.content.isEmpty)
        }

        /// The final text of a streamed answer in a new session, after
        /// checking that each snapshot extends the one before.
        static func streamedAnswer(
            _ model: SystemLanguageModel, to prompt: String, options: GenerationOptions,
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws -> String {
            var streamed: [String] = []
            for try await snapshot in LanguageModelSession(model: model).streamResponse(to: prompt, options: options) {
                streamed.append(snapshot.content)
            }
            #expect(zip(streamed, streamed.dropFirst()).allSatisfy { $1.hasPrefix($0) }, sourceLocation: sourceLocation)
            return streamed.last ?? ""
        }

        /// Three sessions at once, the one telling a long story cancelled
        /// after 300 ms: it ends with `CancellationError`, the two others
        /// answer `prompts`.
        static func cancelOneOfThree(_ model: SystemLanguageModel, options: GenerationOptions, prompts: [String]) async throws {
            let cancelled = Task {
                let long = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 200)
                for try await _ in LanguageModelSession(model: model).streamResponse(to: "Tell a long story about a fox.", options: long) {}
            }
            async let first = LanguageModelSession(model: model).respond(to: prompts[0], options: options)
            async let second = LanguageModelSession(model: model).respond(to: prompts[1], options: options)
            try await Task.sleep(for: .milliseconds(300))
            cancelled.cancel()
            let result = await cancelled.result
            #expect(throws: CancellationError.self) { try result.get() }
            let (a, b) = try await (first, second)
            #expect(!a.content.isEmpty)
            #expect(!b.content.isEmpty)
        }
    }
}
