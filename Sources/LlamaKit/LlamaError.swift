/// Every failure LlamaKit reports. Nothing in LlamaKit traps on bad input:
/// a missing or corrupt file, a full context or an aborted decode all end
/// up here.
package enum LlamaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No file at the path (or it is not a regular file).
    case fileNotFound(path: String)
    /// The file exists but is not a GGUF model: wrong magic, unsupported
    /// version, too small, or metadata that does not parse.
    case notAGGUFFile(path: String, reason: String)
    /// The file looks like GGUF but llama.cpp could not load it (unsupported
    /// architecture, truncated tensor data, out of memory, ...).
    case modelLoadFailed(path: String)
    /// `llama_init_from_model` failed.
    case contextCreationFailed(reason: String)
    /// A parameter is out of range (described in the message).
    case invalidArgument(String)
    /// Tokenization produced an error (for example a text too long for Int32 counts).
    case tokenizationFailed(String)
    /// A token id outside `0..<vocabularySize`.
    case invalidToken(Int32)
    /// The tokens to decode do not fit: `requested` positions are needed,
    /// `available` remain of the context's `capacity`.
    case contextWindowExceeded(requested: Int, available: Int, capacity: Int)
    /// llama.cpp found no room in its KV cache for the batch (code 1).
    case kvCacheFull
    /// The decode was stopped by the context's abort flag. The context is
    /// rolled back to where it was before the call.
    case aborted
    /// `llama_decode` failed with this code; the context is rolled back.
    case decodeFailed(code: Int32)
    /// Logits were requested but the last decode produced none.
    case noLogits
    /// The model has no chat template, or llama.cpp does not support it.
    case chatTemplateUnavailable(String)
    /// A mask that allows no token at all was given to the sampler.
    case noAllowedTokens
    /// The llama.cpp library loaded at run time is not the C API LlamaKit
    /// was written for (``LlamaBackend/compatibilityProblem``).
    case incompatibleLibrary(String)
    /// The file is not a LoRA adapter in GGUF form (described in `reason`).
    case notAnAdapter(path: String, reason: String)
    /// The adapter was made for another model: `reason` names what differs
    /// (architecture, a tensor the model lacks, a tensor's shape).
    case adapterMismatch(path: String, reason: String)
    /// llama.cpp refused the adapter after the checks passed.
    case adapterLoadFailed(path: String)

    package var description: String {
        switch self {
        case .fileNotFound(let path):
            return "model file not found: \(path)"
        case .notAGGUFFile(let path, let reason):
            return "not a GGUF model file: \(path) (\(reason))"
        case .modelLoadFailed(let path):
            return "llama.cpp could not load the model at \(path) (unsupported architecture, truncated or corrupt tensor data, or not enough memory)"
        case .contextCreationFailed(let reason):
            return "could not create a llama.cpp context: \(reason)"
        case .invalidArgument(let message):
            return "invalid argument: \(message)"
        case .tokenizationFailed(let message):
            return "tokenization failed: \(message)"
        case .invalidToken(let token):
            return "invalid token id \(token)"
        case .contextWindowExceeded(let requested, let available, let capacity):
            return "context window exceeded: \(requested) tokens requested, \(available) of \(capacity) available"
        case .kvCacheFull:
            return "no room left in the KV cache for the batch"
        case .aborted:
            return "decoding was aborted"
        case .decodeFailed(let code):
            return "llama_decode failed with code \(code)"
        case .noLogits:
            return "no logits available: decode tokens with logits first"
        case .chatTemplateUnavailable(let message):
            return "chat template unavailable: \(message)"
        case .noAllowedTokens:
            return "the token mask allows no token"
        case .incompatibleLibrary(let problem):
            return problem
        case .notAnAdapter(let path, let reason):
            return "not a LoRA adapter: \(path) (\(reason))"
        case .adapterMismatch(let path, let reason):
            return "the adapter \(path) does not fit the model: \(reason)"
        case .adapterLoadFailed(let path):
            return "llama.cpp could not apply the adapter \(path) to the model"
        }
    }
}

extension LlamaError {
    /// The error for a nonzero result of `llama_decode` (llama.h): 1 no
    /// room in the KV cache, 2 aborted, anything else a failure.
    static func decodeFailure(_ result: Int32) -> LlamaError {
        switch result {
        case 1: .kvCacheFull
        case 2: .aborted
        default: .decodeFailed(code: result)
        }
    }
}
