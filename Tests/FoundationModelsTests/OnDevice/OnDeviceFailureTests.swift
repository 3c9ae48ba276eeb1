import Foundation
import Testing
@testable import FoundationModels

extension OnDeviceTests {
    /// Bad input, limits, cancellation and contention on the real model.
    @Suite("On-device failures")
    struct Failures {
        @Test func overflowThrowsBeforeDecodingWithTheCounts() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession(instructions: "Summarize.")
            let longPrompt = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 600)
            let started = ContinuousClock.now
            await #expect {
                try await session.respond(to: longPrompt)
            } throws: { error in
                guard case LanguageModelSession.GenerationError.exceededContextWindowSize(let context) = error else { return false }
                return context.debugDescription.contains("4096") && (error as? LocalizedError)?.errorDescription?.isEmpty == false
            }
            // Refused before decoding: nothing close to 6,000 tokens of prefill happened.
            #expect(ContinuousClock.now - started < .seconds(5))
            #expect(session.transcript.count == 1)

            await #expect {
                try await session.respond(to: "Hi", options: GenerationOptions(maximumResponseTokens: 5000))
            } throws: { error in
                guard case LanguageModelSession.GenerationError.exceededContextWindowSize = error else { return false }
                return true
            }
        }

        @Test func cancellationStopsPromptlyAndLeavesTheTranscript() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession(instructions: "You write long stories.")
            let before = session.transcript
            let task = Task {
                var count = 0
                for try await _ in session.streamResponse(
                    to: "Write a very long story about a lighthouse keeper.",
                    options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 2000)
                ) {
                    count += 1
                }
                return count
            }
            // Let it generate for a moment, then cancel.
            try await Task.sleep(for: .milliseconds(400))
            let cancelledAt = ContinuousClock.now
            task.cancel()
            _ = await task.result
            #expect(ContinuousClock.now - cancelledAt < .milliseconds(500))
            // The session frees up and the transcript is untouched.
            let deadline = ContinuousClock.now + .seconds(2)
            while session.isResponding, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(!session.isResponding)
            #expect(session.transcript == before)
            // And the model still works afterwards.
            let after = try await session.respond(to: "Say hi.", options: OnDevice.greedy)
            #expect(!after.content.isEmpty)
        }

        @Test func aSecondRequestDuringTheFirstThrowsConcurrentRequests() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession()
            async let first = session.respond(to: "Count from one to twenty.", options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 60))
            while !session.isResponding { await Task.yield() }
            await #expect {
                try await session.respond(to: "Hello")
            } throws: { error in
                guard case LanguageModelSession.GenerationError.concurrentRequests = error else { return false }
                return true
            }
            _ = try await first
            #expect(session.transcript.count == 2)
        }

        @Test func aMissingModelFileIsModelNotReady() async throws {
            let model = OnDevice.model(path: "/nonexistent/model.gguf")
            #expect(model.availability == .unavailable(.modelNotReady))
            let session = LanguageModelSession(model: model)
            await #expect {
                try await session.respond(to: "Hi")
            } throws: { error in
                guard case LanguageModelSession.GenerationError.assetsUnavailable(let context) = error else { return false }
                return context.debugDescription.contains("/nonexistent/model.gguf")
            }
            #expect(session.transcript.isEmpty)
        }

        @Test func aFileOfRandomBytesIsModelNotReady() async throws {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("random-\(UUID().uuidString).gguf")
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<65_536).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            try Data(bytes).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let model = OnDevice.model(path: url.path)
            #expect(model.availability == .unavailable(.modelNotReady))
            await #expect {
                try await LanguageModelSession(model: model).respond(to: "Hi")
            } throws: { error in
                guard case LanguageModelSession.GenerationError.assetsUnavailable = error else { return false }
                return (error as? LocalizedError)?.errorDescription?.isEmpty == false
            }
            // A GGUF header followed by garbage passes the cheap check but fails to load: still a clear error.
            var truncated = Data("GGUF".utf8)
            truncated.append(contentsOf: [3, 0, 0, 0] + [UInt8](repeating: 0xFF, count: 64))
            try truncated.write(to: url)
            await #expect(throws: LanguageModelSession.GenerationError.self) {
                try await LanguageModelSession(model: OnDevice.model(path: url.path)).respond(to: "Hi")
            }
        }

        @Test func requestsBeyondTheQueueAreRateLimited() async throws {
            try OnDevice.requireModel()
            let model = OnDevice.model(contexts: 1, maximumQueuedRequests: 0)
            let busy = LanguageModelSession(model: model)
            let other = LanguageModelSession(model: model)
            // Hold the only context: wait for the first token of a long answer.
            let stream = busy.streamResponse(to: "Count to fifty.", options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 120))
            var iterator = stream.makeAsyncIterator()
            _ = try await iterator.next()
            await #expect {
                try await other.respond(to: "Hello")
            } throws: { error in
                guard case LanguageModelSession.GenerationError.rateLimited = error else { return false }
                return true
            }
            #expect(other.transcript.isEmpty)
            while try await iterator.next() != nil {}
            #expect(busy.transcript.count == 2)
        }

        @Test func queuedRequestsOnDifferentSessionsAreAllServed() async throws {
            try OnDevice.requireModel()
            let model = OnDevice.model(contexts: 1, maximumQueuedRequests: 8)
            let sessions = (0..<4).map { _ in LanguageModelSession(model: model) }
            let answers = try await withThrowingTaskGroup(of: String.self) { group in
                for (index, session) in sessions.enumerated() {
                    group.addTask {
                        try await session.respond(to: "Say the number \(index).", options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 8)).content
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == 4)
            #expect(sessions.allSatisfy { $0.transcript.count == 2 })
        }

        @Test func switchedOffByConfiguration() {
            var configuration = OnDeviceConfiguration.current
            configuration.isDisabled = true
            #expect(SystemLanguageModel(configuration: configuration).availability == .unavailable(.appleIntelligenceNotEnabled))
        }
    }
}
