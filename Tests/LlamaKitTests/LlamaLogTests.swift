import Testing

@testable import LlamaKit

/// Which llama.cpp log lines are routine (debug level) and which reach users
/// as warnings and errors. The lines are llama.cpp b11434's own, as printed
/// (function name prefix included).
@Suite("llama.cpp log levels")
struct LlamaLogTests {
    @Test(arguments: [
        // A decode we aborted: ggml's graph status, the context, llama_decode.
        "graph_compute: ggml_backend_sched_graph_compute_async failed with error 1",
        "process_ubatch: failed to compute graph, compute status: 1",
        "decode: removing memory module entries for seq_id = 3, pos = [120, +inf)",
        "llama_decode: failed to decode, ret = 2",
        "load: control-looking token: 128247 '</s>' was not control-type; this is probably a bug in the model. its type will be overridden",
    ])
    func anAbortedDecodeAndVocabularyFixUpsAreRoutine(_ line: String) {
        #expect(LlamaBackend.isRoutine(line))
    }

    @Test(arguments: [
        // Real failures: a failed or out-of-memory computation.
        "process_ubatch: failed to compute graph, compute status: -1",
        "process_ubatch: failed to compute graph, compute status: -2",
        "graph_compute: ggml_backend_sched_graph_compute_async failed with error -1",
        "llama_decode: failed to decode, ret = -3",
        "decode: failed to find a memory slot for batch of size 512",
    ])
    func realFailuresAreNot(_ line: String) {
        #expect(!LlamaBackend.isRoutine(line))
    }
}
