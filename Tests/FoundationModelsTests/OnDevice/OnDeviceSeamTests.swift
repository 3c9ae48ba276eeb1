import Foundation
import Testing
@testable import FoundationModels

extension OnDeviceTests {
    /// Local models side by side, and giving their resources back.
    @Suite("Local models behind the seam")
    struct Seam {
        @Test func twoLocalModelsShareOneDecodeThread() async throws {
            try OnDevice.requireModel()
            let small = OnDevice.model(contexts: 1, contextSize: 512)
            let large = OnDevice.model(contexts: 1, contextSize: 1024)
            let first = OnDeviceEngine.shared(for: small.configuration)
            let second = OnDeviceEngine.shared(for: large.configuration)
            #expect(first !== second)
            let loadedFirst = try await first.loaded()
            let loadedSecond = try await second.loaded()
            let slotA = try await loadedFirst.pool.acquire(for: [])
            let slotB = try await loadedSecond.pool.acquire(for: [])
            #expect(slotA.scheduler !== slotB.scheduler)
            #expect(slotA.scheduler.thread === slotB.scheduler.thread)
            #expect(slotA.scheduler.thread === DecodeThread.shared)
            loadedFirst.pool.release(slotA)
            loadedSecond.pool.release(slotB)

            // Both answer at once, taking turns on the CPU.
            async let a = LanguageModelSession(model: small).respond(to: "Say yes.", options: OnDevice.greedy)
            async let b = LanguageModelSession(model: large).respond(to: "Say no.", options: OnDevice.greedy)
            let (answerA, answerB) = try await (a, b)
            #expect(!answerA.content.isEmpty)
            #expect(!answerB.content.isEmpty)
            OnDeviceEngine.release(first)
            OnDeviceEngine.release(second)
        }

        @Test func emptyingTheExecutorCacheReleasesTheEngine() async throws {
            try OnDevice.requireModel()
            let model = OnDevice.model(contexts: 1, contextSize: 768)
            let session = LanguageModelSession(model: model)
            try await session.respond(to: "Hello", options: OnDevice.greedy)
            let engine = OnDeviceEngine.shared(for: model.configuration)
            let loaded = try await engine.loaded()
            #expect(ExecutorCache.shared.count > 0)

            ExecutorCache.shared.removeAll()
            let fresh = OnDeviceEngine.shared(for: model.configuration)
            #expect(fresh !== engine, "the released engine is no longer handed out")
            // The session keeps working: its next request loads again.
            try await session.respond(to: "Hello again", options: OnDevice.greedy)
            #expect(try await fresh.loaded() !== loaded)
            OnDeviceEngine.release(fresh)
        }
    }
}
