#if LlamaCpp
import LlamaKit

/// The one place where the engine's own failures (`LlamaError`, a LlamaKit
/// type callers cannot import) become errors of the seam's family, so that
/// nothing the executor throws is a type a caller cannot name.
///
/// - cancellation (`aborted`) is `CancellationError`;
/// - a full context or KV cache is `LanguageModelError.contextSizeExceeded`;
/// - a guided generation no token can continue is
///   `GeneratedContent.ParsingError` (the value cannot be finished);
/// - everything else — a model without a chat template, a context llama.cpp
///   cannot create, a failed decode, a parameter llama.cpp refuses — means
///   the model cannot serve the request: `SystemLanguageModel.Error.assetsUnavailable`,
///   with llama.cpp's reason in the description.
enum EngineErrors {
    /// `body`, with every `LlamaError` it throws mapped into the seam's family.
    static func mapping<Result>(contextSize: @autoclosure () -> Int?, _ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as LlamaError {
            throw surfaced(error, contextSize: contextSize())
        }
    }

    /// The error a caller sees for `error`, raised by a model whose contexts
    /// hold `contextSize` tokens (when known).
    static func surfaced(_ error: LlamaError, contextSize: Int?) -> any Error {
        switch error {
        case .aborted:
            return CancellationError()
        case .contextWindowExceeded(let requested, _, let capacity):
            return LanguageModelError.contextSizeExceeded(
                .init(
                    contextSize: capacity,
                    tokenCount: requested,
                    debugDescription: "The conversation and response need \(requested) tokens, more than the context size of \(capacity)"
                ))
        case .kvCacheFull:
            let size = contextSize ?? 0
            return LanguageModelError.contextSizeExceeded(
                .init(
                    contextSize: size,
                    tokenCount: size + 1,
                    debugDescription: "The model's KV cache has no room left for the conversation (context size \(size))"
                ))
        case .noAllowedTokens:
            return GeneratedContent.ParsingError(
                rawContent: "",
                debugDescription: "Guided generation reached a point no token of the model's vocabulary can continue; the value cannot be finished."
            )
        case .fileNotFound, .notAGGUFFile, .modelLoadFailed, .contextCreationFailed, .invalidArgument,
            .tokenizationFailed, .invalidToken, .decodeFailed, .noLogits, .chatTemplateUnavailable,
            .incompatibleLibrary,
            .notAnAdapter, .adapterMismatch, .adapterLoadFailed:
            return SystemLanguageModel.Error.assetsUnavailable(
                .init(
                    debugDescription: "The on-device model cannot serve the request: \(error.description)."
                ))
        }
    }
}
#endif
