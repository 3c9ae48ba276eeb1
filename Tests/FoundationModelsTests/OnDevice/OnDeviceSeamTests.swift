import Foundation
import TestSupport
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

        /// Two public configurations (other files, other settings) in one
        /// process, and a model's weights given back and loaded again.
        @Test func configuredModelsCoexistAndUnloadGivesTheMemoryBack() async throws {
            try OnDevice.requireModel()
            let environment = ProcessInfo.processInfo.environment
            let largerPath =
                environment["FOUNDATION_MODELS_FAST_MODEL"]
                ?? SystemLanguageModel.Configuration.installedFastModelFile.path
            try #require(FileManager.default.fileExists(atPath: largerPath), "needs the fast model (make setup): \(largerPath)")

            var smallConfiguration = SystemLanguageModel.Configuration(modelFile: SystemLanguageModel.default.configuration.modelFile)
            smallConfiguration.contextSize = 640
            smallConfiguration.parallelSequences = 1
            var largerConfiguration = SystemLanguageModel.Configuration(modelFile: URL(fileURLWithPath: largerPath))
            largerConfiguration.contextSize = 1536
            largerConfiguration.threads = 1
            let small = SystemLanguageModel(configuration: smallConfiguration)
            let larger = SystemLanguageModel(configuration: largerConfiguration)
            #expect(small.contextSize == 640)
            #expect(larger.contextSize == 1536)
            #expect(small.configuration != larger.configuration)

            let smallSession = LanguageModelSession(model: small)
            let largerSession = LanguageModelSession(model: larger)
            let first = try await smallSession.respond(to: "Say yes.", options: OnDevice.greedy)
            let second = try await largerSession.respond(to: "Name a colour.", options: OnDevice.greedy)
            #expect(!first.content.isEmpty)
            #expect(!second.content.isEmpty)

            // Unloading the larger model frees its weights and caches
            // (hundreds of MB resident after an answer); the small one is untouched.
            let loaded = residentBytes()
            larger.unload()
            var afterUnload = residentBytes()
            for _ in 0..<50 where loaded - afterUnload < 150 << 20 {
                try await Task.sleep(for: .milliseconds(100))
                afterUnload = residentBytes()
            }
            #expect(loaded - afterUnload >= 150 << 20, "resident \(loaded >> 20) MiB before unload, \(afterUnload >> 20) MiB after")

            // The session keeps working: its next request loads the model again.
            let again = try await largerSession.respond(to: "Name another colour.", options: OnDevice.greedy)
            #expect(!again.content.isEmpty)
            #expect(residentBytes() > afterUnload + (100 << 20), "the weights are resident again")
            larger.unload()
            small.unload()
        }

        /// This process's resident memory (Linux: /proc/self/statm).
        func residentBytes() -> Int {
            guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
            let fields = statm.split(separator: " ")
            return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
        }
    }
}
