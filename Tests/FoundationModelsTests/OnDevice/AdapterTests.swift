import Foundation
import LlamaKit
import TestSupport
import Testing

@testable import FoundationModels

/// LoRA adapters the tests make for the model under test, with
/// scripts/make-test-lora.py and the gguf package of the pinned llama.cpp
/// source (setup's cache): small random A and B matrices for the attention
/// query and value weights of every block, and two that must be refused.
enum TestAdapters {
    struct Files: Sendable {
        /// Fits the model; its changes are large enough to change a greedy answer.
        let good: URL
        /// `lora_b` of the first block one row too long.
        let wrongShape: URL
        /// Made for another architecture.
        let wrongArchitecture: URL
    }

    static let files: Result<Files, any Error> = Result {
        let base = SystemLanguageModel.Configuration.default.modelPath
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fm-adapters-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func make(_ name: String, _ arguments: [String]) throws -> URL {
            let out = folder.appendingPathComponent(name)
            try run(["--base", base, "--out", out.path] + arguments)
            return out
        }
        return Files(
            good: try make("good.gguf", ["--scale-init", "0.05", "--meta", "adapter.creator=tests", "--name", "tone"]),
            wrongShape: try make("shape.gguf", ["--mismatch", "shape"]),
            wrongArchitecture: try make("arch.gguf", ["--mismatch", "arch"])
        )
    }

    static func require(sourceLocation: SourceLocation = #_sourceLocation) throws -> Files {
        try OnDevice.requireModel(sourceLocation: sourceLocation)
        return try files.get()
    }

    struct ScriptFailed: Error, CustomStringConvertible { var description: String }

    /// The pinned llama.cpp source's gguf-py, next to the install prefix of
    /// the llama.cpp the package links (not any build in the cache: a
    /// GPU build made with `--llama-only` keeps no source).
    static var ggufPy: String {
        URL(fileURLWithPath: TestMachine.llamaPrefix ?? "/nonexistent/prefix")
            .deletingLastPathComponent().appendingPathComponent("src/gguf-py").path
    }

    /// The interpreter of scripts/gguf_env.sh's environment (gguf-py's
    /// numpy and PyYAML, pinned, made once under the cache).
    static let python: Result<String, any Error> = Result { try TestMachine.python(environment: "gguf_env.sh") }

    static func run(_ arguments: [String]) throws {
        let script = TestMachine.packageRoot.appendingPathComponent("scripts/make-test-lora.py").path
        let ran = try TestMachine.run([try python.get(), script, "--gguf-py", ggufPy] + arguments)
        guard ran.status == 0 else {
            throw ScriptFailed(description: "make-test-lora.py \(arguments.joined(separator: " ")) failed: \(ran.standardOutput)")
        }
    }
}

extension OnDeviceTests {
    /// `SystemLanguageModel.Adapter`: LoRA adapters in GGUF form, checked
    /// against the model, applied as it runs.
    @Suite("Adapters")
    struct AdapterTests {
        /// The model's next-token logits for `prompt`, in a context applying `adapters`.
        func logits(_ model: LlamaModel, _ prompt: String, adapters: [(adapter: LlamaAdapter, scale: Float)]) throws -> [Float] {
            let context = try LlamaBatchContext(
                model: model, parameters: .init(contextLength: 128, batchSize: 128, threads: 2), sequences: 1, adapters: adapters)
            let tokens = try model.vocabulary.tokenize(prompt, addSpecial: true, parseSpecial: false)
            let rows = try context.decode([.init(sequence: 0, position: 0, tokens: tokens[...], computesLogits: true)])
            return Array(try context.logits(row: try #require(rows.first ?? nil)))
        }

        @Test func anAdapterChangesTheLogitsAndScaleZeroIsTheBaseModel() throws {
            let files = try TestAdapters.require()
            let model = try LlamaModel(path: SystemLanguageModel.Configuration.default.modelPath)
            let adapter = try LlamaAdapter(path: files.good.path, model: model)
            let prompt = "Once upon a time, there was a"
            let base = try logits(model, prompt, adapters: [])
            let adapted = try logits(model, prompt, adapters: [(adapter, 1)])
            let off = try logits(model, prompt, adapters: [(adapter, 0)])
            let change = zip(base, adapted).map { abs($0 - $1) }.max() ?? 0
            #expect(change > 0.05, "the adapter moved no logit by more than \(change)")
            #expect(zip(base, off).allSatisfy { $0 == $1 }, "scale 0 must be the base model")
            // An adapter loaded for another model is refused by the context.
            let other = try LlamaModel(path: SystemLanguageModel.Configuration.default.modelPath)
            #expect(throws: LlamaError.self) {
                _ = try LlamaBatchContext(model: other, parameters: .init(contextLength: 64, threads: 1), sequences: 1, adapters: [(adapter, 1)])
            }
        }

        @Test func theFileIsCheckedAndItsMetadataRead() async throws {
            let files = try TestAdapters.require()
            let adapter = try SystemLanguageModel.Adapter(fileURL: files.good)
            #expect(adapter.creatorDefinedMetadata["adapter.creator"] as? String == "tests")
            #expect(adapter.creatorDefinedMetadata["general.name"] as? String == "tone")
            #expect(adapter.creatorDefinedMetadata["adapter.lora.alpha"] as? Double == 8)
            try await adapter.compile()

            func assetError(_ body: () async throws -> Void) async -> SystemLanguageModel.Adapter.AssetError? {
                do { try await body(); return nil } catch let error as SystemLanguageModel.Adapter.AssetError { return error } catch { return nil }
            }
            // Not an adapter: a model file, or no file at all.
            let model = URL(fileURLWithPath: SystemLanguageModel.Configuration.default.modelPath)
            guard case .invalidAsset(let notAdapter)? = await assetError({ _ = try SystemLanguageModel.Adapter(fileURL: model) }) else {
                Issue.record("a model file was taken for an adapter"); return
            }
            #expect(notAdapter.debugDescription.contains("not a LoRA adapter"))
            guard
                case .invalidAsset? = await assetError({ _ = try SystemLanguageModel.Adapter(fileURL: URL(fileURLWithPath: "/nonexistent/a.gguf")) })
            else {
                Issue.record("a missing file was accepted"); return
            }
            // Made for another model: refused by compile(), naming what differs.
            let shape = try SystemLanguageModel.Adapter(fileURL: files.wrongShape)
            guard case .compatibleAdapterNotFound(let wrongShape)? = await assetError({ try await shape.compile() }) else {
                Issue.record("an adapter of another shape compiled"); return
            }
            #expect(wrongShape.debugDescription.contains("blk.0.attn_q.weight"))
            let architecture = try SystemLanguageModel.Adapter(fileURL: files.wrongArchitecture)
            guard case .compatibleAdapterNotFound(let wrongArchitecture)? = await assetError({ try await architecture.compile() }) else {
                Issue.record("an adapter of another architecture compiled"); return
            }
            #expect(wrongArchitecture.debugDescription.contains("architecture"))
            // A request on a mismatched adapter fails with the reason, and the next one on the base model answers.
            let session = LanguageModelSession(model: SystemLanguageModel(adapter: architecture, configuration: .default))
            await #expect(throws: (any Error).self) { try await session.respond(to: "Hi", options: OnDevice.greedy) }
            #expect(session.transcript.isEmpty)
        }

        @Test func installedAdaptersAreFoundByNameInTheirFolder() throws {
            let files = try TestAdapters.require()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fm-installed-adapters-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            try FileManager.default.copyItem(at: files.good, to: folder.appendingPathComponent("tone.gguf"))
            try FileManager.default.copyItem(at: files.good, to: folder.appendingPathComponent("tone-2.gguf"))
            try FileManager.default.copyItem(at: files.wrongArchitecture, to: folder.appendingPathComponent("tone-old.gguf"))
            let previous = ProcessInfo.processInfo.environment["FOUNDATION_MODELS_ADAPTERS"]
            setenv("FOUNDATION_MODELS_ADAPTERS", folder.path, 1)
            defer { if let previous { setenv("FOUNDATION_MODELS_ADAPTERS", previous, 1) } else { unsetenv("FOUNDATION_MODELS_ADAPTERS") } }

            #expect(SystemLanguageModel.Configuration.installedAdaptersDirectory.path == folder.path)
            let tone = try SystemLanguageModel.Adapter(name: "tone")
            #expect(tone.creatorDefinedMetadata["adapter.creator"] as? String == "tests")
            #expect(SystemLanguageModel.Adapter.compatibleAdapterIdentifiers(name: "tone") == ["tone", "tone-2"])
            #expect(throws: SystemLanguageModel.Adapter.AssetError.self) { try SystemLanguageModel.Adapter(name: "../tone") }
            #expect(throws: SystemLanguageModel.Adapter.AssetError.self) { try SystemLanguageModel.Adapter(name: "missing") }
            try SystemLanguageModel.Adapter.removeObsoleteAdapters()
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            #expect(left == ["tone-2.gguf", "tone.gguf"])
        }

        @Test func baseAndAdaptedModelsAnswerSideBySide() async throws {
            let files = try TestAdapters.require()
            let adapter = try SystemLanguageModel.Adapter(fileURL: files.good)
            var off = adapter
            off.scale = 0
            // The base and the unapplied adapter on engines of their own,
            // both fresh: an engine holding another test's cached prefix
            // decodes the rest of a prompt in a batch of another shape, and
            // the last bits of llama.cpp's arithmetic can then differ.
            var fresh = SystemLanguageModel.Configuration.default
            fresh.parallelSequences = 3
            let base = SystemLanguageModel(configuration: fresh)
            let adapted = SystemLanguageModel(adapter: adapter, configuration: .default)
            let unapplied = SystemLanguageModel(adapter: off, configuration: fresh)
            let prompt = "Once upon a time, there was a"
            // At once, in one process: each in its own context.
            async let a = LanguageModelSession(model: base).respond(to: prompt, options: OnDevice.greedy)
            async let b = LanguageModelSession(model: adapted).respond(to: prompt, options: OnDevice.greedy)
            let (baseAnswer, adaptedAnswer) = try await (a.content, b.content)
            let unappliedAnswer = try await LanguageModelSession(model: unapplied).respond(to: prompt, options: OnDevice.greedy).content
            #expect(adaptedAnswer != baseAnswer)
            #expect(unappliedAnswer == baseAnswer)

            // Guided generation with the adapter stays valid.
            let verdict = try await LanguageModelSession(model: adapted).respond(
                to: "Is the sky blue?", generating: AdapterVerdict.self, options: OnDevice.greedy
            ).content
            #expect(["yes", "no"].contains(verdict.answer))
            base.unload()
            adapted.unload()
            unapplied.unload()
        }
    }
}

@Generable struct AdapterVerdict {
    @Guide(description: "yes or no", .anyOf(["yes", "no"])) var answer: String
}
