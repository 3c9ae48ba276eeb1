import Foundation
import InMemoryTracing
import TestSupport
import Testing
import Tracing

@testable import FoundationModels

extension OnDeviceTests {
    /// The engine's tracing spans (``EngineSpans``): each request's queue
    /// wait, prefill and decode under the caller's span. The tracer is the
    /// test's own (`withTracer`, a task-local), so tests never share one
    /// and nothing is bootstrapped for the process.
    @Suite("The engine's tracing spans")
    struct Spans {
        @Test func aRequestIsAQueueWaitAPrefillAndADecodeUnderTheCallersSpan() async throws {
            try OnDevice.requireModel()
            let model = OnDevice.model(contexts: 1, contextSize: 768)
            let session = LanguageModelSession(model: model)
            let tracer = InMemoryTracer()
            try await withTracer(tracer) {
                try await withSpan("first turn") { _ in _ = try await session.respond(to: "Say hello.", options: OnDevice.greedy) }
                try await withSpan("second turn") { _ in _ = try await session.respond(to: "Say it again.", options: OnDevice.greedy) }
            }
            let finished = tracer.finishedSpans
            var prompts: [Int] = []
            for turn in ["first turn", "second turn"] {
                let parent = try #require(finished.first { $0.operationName == turn })
                let phases = finished.filter { $0.parentSpanID == parent.spanID }
                    .sorted { $0.startInstant.nanosecondsSinceEpoch < $1.startInstant.nanosecondsSinceEpoch }
                #expect(phases.map(\.operationName) == ["queue wait", "prefill", "decode"], "\(turn)")
                #expect(phases.allSatisfy { $0.traceID == parent.traceID && $0.errors.isEmpty })
                // One after the other.
                for (earlier, later) in zip(phases, phases.dropFirst()) {
                    #expect(earlier.endInstant.nanosecondsSinceEpoch <= later.startInstant.nanosecondsSinceEpoch)
                }
                guard phases.count == 3 else { continue }
                let (wait, prefill, decode) = (phases[0], phases[1], phases[2])
                #expect(Self.integer(wait, "foundation_models.sequence") == 0)
                let prompt = try #require(Self.integer(prefill, "foundation_models.prompt_tokens"))
                let cached = try #require(Self.integer(prefill, "foundation_models.cached_tokens"))
                #expect(Self.integer(prefill, "foundation_models.evaluated_tokens") == prompt - cached)
                prompts.append(cached)
                let generated = try #require(Self.integer(decode, "foundation_models.generated_tokens"))
                #expect((1...24).contains(generated))
                #expect(Self.integer(decode, "foundation_models.maximum_tokens") == 24)
                #expect(Self.integer(decode, "foundation_models.model_steps") != nil)
            }
            // The second turn found the first's conversation in the cache.
            #expect(prompts.count == 2 && prompts[1] > prompts[0], "cached tokens per turn: \(prompts)")
            #expect(tracer.activeSpans.isEmpty)
        }

        /// A request turned away by a full queue: its queue wait records
        /// the error, and no prefill or decode follows.
        @Test func aRejectedRequestsQueueWaitRecordsTheError() async throws {
            try OnDevice.requireModel()
            let model = OnDevice.model(contexts: 1, maximumQueuedRequests: 0, contextSize: 640)
            let engine = OnDeviceEngine.shared(for: model.configuration)
            let loaded = try await engine.loaded()
            let held = try await loaded.pool.acquire(for: [])
            defer { loaded.pool.release(held) }
            let tracer = InMemoryTracer()
            await withTracer(tracer) {
                await withSpan("refused") { _ in
                    await #expect {
                        try await LanguageModelSession(model: model).respond(to: "Hello", options: OnDevice.greedy)
                    } throws: { error in
                        guard case LanguageModelSession.GenerationError.rateLimited = error else { return false }
                        return true
                    }
                }
            }
            let names = tracer.finishedSpans.map(\.operationName)
            #expect(names.sorted() == ["queue wait", "refused"])
            let wait = try #require(tracer.finishedSpans.first { $0.operationName == "queue wait" })
            #expect(wait.errors.count == 1 && wait.status?.code == .error)
        }

        /// Without a tracer (none bootstrapped, none scoped), the engine
        /// makes no spans at all.
        @Test func noTracerNoSpans() {
            #expect(EngineSpans(promptTokens: 10, maximumTokens: 10) == nil)
            #expect(withTracer(InMemoryTracer()) { EngineSpans(promptTokens: 10, maximumTokens: 10) } != nil)
        }

        static func integer(_ span: FinishedInMemorySpan, _ key: String) -> Int? {
            if case .int64(let value) = span.attributes.get(key) { Int(value) } else { nil }
        }
    }
}
