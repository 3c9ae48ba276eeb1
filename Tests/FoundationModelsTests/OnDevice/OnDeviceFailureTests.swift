import Foundation
import TestSupport
import Testing

@testable import FoundationModels

extension OnDeviceTests {
    /// Bad input, limits, cancellation and contention on the real model.
    @Suite("On-device failures")
    struct Failures {
        @Test func overflowThrowsBeforeDecodingWithTheCounts() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession(instructions: "Summarize.")
            let context = SystemLanguageModel.default.contextSize
            // About 10 tokens a sentence: half as many again as the context holds.
            let longPrompt = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: context * 3 / 20)
            let started = ContinuousClock.now
            await #expect {
                try await session.respond(to: longPrompt)
            } throws: { error in
                guard case LanguageModelSession.GenerationError.exceededContextWindowSize(let info) = error else { return false }
                return info.debugDescription.contains("\(context)") && (error as? LocalizedError)?.errorDescription?.isEmpty == false
            }
            // Refused before decoding: no prefill of the whole context happened.
            #expect(ContinuousClock.now - started < .seconds(5))
            #expect(session.transcript.count == 1)

            await #expect {
                try await session.respond(to: "Hi", options: GenerationOptions(maximumResponseTokens: context + 1000))
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
                    options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 2000)
                ) {
                    count += 1
                }
                return count
            }
            // Let it generate for a moment, then cancel.
            try await Task.sleep(for: .milliseconds(400))
            let cancelledAt = ContinuousClock.now
            task.cancel()
            // The stream says it was cancelled (an end without the response
            // would look complete), once the session is free again.
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(ContinuousClock.now - cancelledAt < .milliseconds(500))
            #expect(!session.isResponding)
            #expect(session.transcript == before)
            // And the model still works afterwards.
            let after = try await session.respond(to: "Say hi.", options: OnDevice.greedy)
            #expect(!after.content.isEmpty)
        }

        @Test func aSecondRequestDuringTheFirstThrowsConcurrentRequests() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession()
            async let first = session.respond(
                to: "Count from one to twenty.", options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 60))
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

        /// Availability reads a file's header once, and again whenever the
        /// file is replaced or rewritten.
        @Test func aModelFileIsCheckedAgainWhenItChanges() throws {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("changing-\(UUID().uuidString).gguf")
            defer { try? FileManager.default.removeItem(at: url) }
            var header = Data("GGUF".utf8)
            header.append(contentsOf: [3, 0, 0, 0] + [UInt8](repeating: 0, count: 16))
            try header.write(to: url)
            let model = OnDevice.model(path: url.path)
            #expect(model.availability == .available)
            #expect(model.availability == .available)
            try Data([UInt8](repeating: 0x42, count: 100)).write(to: url)
            #expect(model.availability == .unavailable(.modelNotReady))
            try header.write(to: url)
            #expect(model.availability == .available)
            try FileManager.default.removeItem(at: url)
            #expect(model.availability == .unavailable(.modelNotReady))
        }

        /// What the model says of itself (name, languages, context) comes
        /// from its file's header, read again when the file at the same path
        /// is replaced: a cache keyed by the path alone kept the first
        /// file's.
        @Test func aReplacedModelFilesHeaderIsReadAgain() throws {
            // A GGUF v3 header with no tensors and three metadata entries.
            func header(name: String, language: String, contextLength: UInt32) -> Data {
                var data = Data("GGUF".utf8)
                func append<Integer: FixedWidthInteger>(_ value: Integer) {
                    withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
                }
                func append(_ text: String) {
                    append(UInt64(text.utf8.count))
                    data.append(contentsOf: Array(text.utf8))
                }
                append(UInt32(3))
                append(UInt64(0))
                append(UInt64(4))
                append("general.architecture"); append(UInt32(8)); append("llama")
                append("general.name"); append(UInt32(8)); append(name)
                append("general.languages"); append(UInt32(9)); append(UInt32(8)); append(UInt64(1)); append(language)
                append("llama.context_length"); append(UInt32(4)); append(contextLength)
                return data
            }
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("replaced-\(UUID().uuidString).gguf")
            defer { try? FileManager.default.removeItem(at: url) }
            try header(name: "first", language: "fr", contextLength: 1024).write(to: url)
            let model = OnDevice.model(path: url.path)
            #expect(model.variant.displayName == "first")
            #expect(model.supportedLanguages == [Locale.Language(identifier: "fr")])
            #expect(model.contextSize == 1024)
            try header(name: "second model", language: "de", contextLength: 2048).write(to: url)
            #expect(model.variant.displayName == "second model")
            #expect(model.supportedLanguages == [Locale.Language(identifier: "de")])
            #expect(model.contextSize == 2048)
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
            let stream = busy.streamResponse(to: "Count to fifty.", options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 120))
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
                        try await session.respond(
                            to: "Say the number \(index).", options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 8)
                        ).content
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == 4)
            #expect(sessions.allSatisfy { $0.transcript.count == 2 })
        }

        /// Options a session would refuse reach the executor when it is
        /// called directly (as a provider's tests or a router may): it
        /// refuses them the same way, before decoding, instead of letting
        /// llama.cpp's sampler fail with a LlamaKit error.
        @Test func theExecutorRefusesOptionsNoModelCanHonor() async throws {
            try OnDevice.requireModel()
            let model = SystemLanguageModel.default
            let executor = SystemLanguageModel.Executor(configuration: model.executorConfiguration)
            for (options, option) in [
                (GenerationOptions(samplingMode: .random(probabilityThreshold: 0)), "samplingMode"),
                (GenerationOptions(samplingMode: .random(top: 0)), "samplingMode"),
                (GenerationOptions(temperature: -1), "temperature"),
                (GenerationOptions(maximumResponseTokens: 0), "maximumResponseTokens"),
            ] {
                let request = LanguageModelExecutorGenerationRequest(
                    id: UUID(),
                    transcript: Transcript(entries: [.prompt(Transcript.Prompt(segments: [.text(.init(content: "Hi"))]))]),
                    enabledTools: [],
                    generationOptions: options,
                    contextOptions: ContextOptions(),
                    metadata: [:]
                )
                let channel = LanguageModelExecutorGenerationChannel()
                await #expect {
                    try await executor.respond(to: request, model: model, streamingInto: channel)
                } throws: { error in
                    (error as? InvalidGenerationOptions)?.option == option
                }
            }
        }

        /// A model file without a chat template (a base model) loads, but
        /// cannot render a conversation: requests and token counts fail with
        /// the seam's `assetsUnavailable` naming the reason, never with
        /// LlamaKit's own error type.
        @Test func aModelWithoutAChatTemplateFailsWithTheSeamsError() async throws {
            try OnDevice.requireModel()
            let small = TestMachine.smallModel
            let source = FileManager.default.fileExists(atPath: small) ? small : TestMachine.systemModel
            var bytes = try Data(contentsOf: URL(fileURLWithPath: source))
            // Rename the metadata key (same length, so every offset holds):
            // llama.cpp ignores keys it does not know.
            let key = Data("tokenizer.chat_template".utf8)
            let found = try #require(bytes.range(of: key, in: 0..<min(bytes.count, 32 << 20)))
            bytes[found.upperBound - 1] = UInt8(ascii: "X")
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("no-template-\(UUID().uuidString).gguf")
            try bytes.write(to: url)
            bytes = Data()
            defer { try? FileManager.default.removeItem(at: url) }
            let model = SystemLanguageModel(modelFile: url, contextSize: 512, contexts: 1)
            defer { OnDeviceEngine.release(OnDeviceEngine.shared(for: model.configuration)) }
            #expect(model.availability == .available)

            func namesTheTemplate(_ info: String) -> Bool { info.contains("chat template") || info.contains("chat_template") }
            await #expect {
                try await LanguageModelSession(model: model).respond(to: "Hi", options: OnDevice.greedy)
            } throws: { error in
                guard case LanguageModelSession.GenerationError.assetsUnavailable(let info) = error else { return false }
                return namesTheTemplate(info.debugDescription)
            }
            // The executor itself throws the 27 family.
            let request = LanguageModelExecutorGenerationRequest(
                id: UUID(),
                transcript: Transcript(entries: [.prompt(Transcript.Prompt(segments: [.text(.init(content: "Hi"))]))]),
                enabledTools: [],
                generationOptions: OnDevice.greedy,
                contextOptions: ContextOptions(),
                metadata: [:]
            )
            await #expect {
                try await SystemLanguageModel.Executor(configuration: model.executorConfiguration)
                    .respond(to: request, model: model, streamingInto: LanguageModelExecutorGenerationChannel())
            } throws: { error in
                guard case SystemLanguageModel.Error.assetsUnavailable(let info) = error else { return false }
                return namesTheTemplate(info.debugDescription)
            }
            await #expect {
                try await model.tokenCount(for: Instructions { "Count me." })
            } throws: { error in
                guard case SystemLanguageModel.Error.assetsUnavailable(let info) = error else { return false }
                return namesTheTemplate(info.debugDescription)
            }
        }

        @Test func switchedOffByTheEnvironmentOnlyWhereAppleWouldBe() {
            // FOUNDATION_MODELS_DISABLED switches off the model Apple's
            // initializers make; a model the app configured stays on.
            let environment = ["FOUNDATION_MODELS_DISABLED": "1", "FOUNDATION_MODELS_MODEL": SystemLanguageModel.Configuration.default.modelPath]
            let configuration = SystemLanguageModel.Configuration(environment: environment)
            #expect(configuration.isDisabled)
            #expect(SystemLanguageModel(running: configuration).availability == .unavailable(.appleIntelligenceNotEnabled))
            #expect(SystemLanguageModel(configuration: configuration).availability == .available)
        }
    }
}
