import Foundation
import LlamaKit
import Testing

@testable import FoundationModels

/// `LlamaError` is LlamaKit's, a module callers cannot import: every case
/// becomes an error of the seam's family before it leaves the executor, and
/// a session made with a 26 initializer turns that into its
/// `GenerationError` counterpart. (The paths a request can reach on the real
/// model are in "On-device failures".)
@Suite("Engine errors")
struct EngineErrorsTests {
    static let everyCase: [LlamaError] = [
        .fileNotFound(path: "/x.gguf"),
        .notAGGUFFile(path: "/x.gguf", reason: "no magic"),
        .modelLoadFailed(path: "/x.gguf"),
        .contextCreationFailed(reason: "out of memory"),
        .invalidArgument("top-p 0 must be in (0, 1]"),
        .tokenizationFailed("too long"),
        .invalidToken(-3),
        .contextWindowExceeded(requested: 5000, available: 96, capacity: 4096),
        .kvCacheFull,
        .aborted,
        .decodeFailed(code: -3),
        .noLogits,
        .chatTemplateUnavailable("the model has no tokenizer.chat_template"),
        .incompatibleLibrary("llama 0.7.0 is not the C API this build was written for"),
        .notAnAdapter(path: "/x.gguf", reason: "general.type is model"),
        .adapterMismatch(path: "/x.gguf", reason: "made for the gemma3 architecture"),
        .adapterLoadFailed(path: "/x.gguf"),
        .noAllowedTokens,
    ]

    @Test(arguments: everyCase)
    func everyCaseBecomesAnErrorOfTheSeamsFamily(_ llama: LlamaError) {
        let error = EngineErrors.surfaced(llama, contextSize: 4096)
        #expect(!(error is LlamaError))
        switch llama {
        case .aborted:
            #expect(error is CancellationError)
        case .contextWindowExceeded:
            guard case LanguageModelError.contextSizeExceeded(let info) = error else {
                Issue.record("\(error)"); return
            }
            #expect(info.contextSize == 4096 && info.tokenCount == 5000)
        case .kvCacheFull:
            guard case LanguageModelError.contextSizeExceeded(let info) = error else {
                Issue.record("\(error)"); return
            }
            #expect(info.contextSize == 4096 && info.tokenCount > 4096)
        case .noAllowedTokens:
            #expect(error is GeneratedContent.ParsingError)
        default:
            guard case SystemLanguageModel.Error.assetsUnavailable(let info) = error else {
                Issue.record("\(error)"); return
            }
            // llama.cpp's reason is kept.
            #expect(info.debugDescription.contains(llama.description), "\(info.debugDescription)")
        }
        // Every one but cancellation has a 26 counterpart, so 26-era code
        // catching GenerationError sees it.
        if llama != .aborted {
            #expect(LanguageModelSession.generationError(for: error, entries: []) != nil, "\(llama)")
        }
    }

    @Test func mappingPassesOtherErrorsThrough() async throws {
        struct Other: Error {}
        await #expect(throws: Other.self) {
            try await EngineErrors.mapping(contextSize: 16) { throw Other() }
        }
        await #expect(throws: CancellationError.self) {
            try await EngineErrors.mapping(contextSize: 16) { throw LlamaError.aborted }
        }
        let value = try await EngineErrors.mapping(contextSize: 16) { 7 }
        #expect(value == 7)
    }
}
