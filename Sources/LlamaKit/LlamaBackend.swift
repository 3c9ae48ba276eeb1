import CLlama
import Logging

/// Process-wide llama.cpp setup: `llama_backend_init` runs exactly once, and
/// llama.cpp's log output goes to swift-log instead of stderr.
public enum LlamaBackend {
    /// The logger that receives llama.cpp's messages (label `llama.cpp`).
    /// llama.cpp's info/debug chatter is logged at `.trace`, its warnings at
    /// `.warning` and its errors at `.error`.
    static let logger = Logger(label: "llama.cpp")

    /// Swift runs a global's initializer exactly once, under a lock
    /// (`swift_once`), so concurrent first callers all wait for one
    /// `llama_backend_init` and none runs it twice.
    private static let initialized: Bool = {
        llama_log_set(llamaLogCallback, nil)
        llama_backend_init()
        return true
    }()

    /// Initializes llama.cpp once per process; cheap after the first call.
    /// Every LlamaKit entry point that touches llama.cpp calls this.
    public static func initialize() {
        _ = initialized
    }

    /// llama.cpp's version string and build (`b11434` for the pinned build).
    public static var version: String {
        initialize()
        return String(cString: llama_version())
    }

    /// Whether llama.cpp found a device to compute on (at least the CPU
    /// backend). `false` means models cannot run in this process at all.
    public static var isSupported: Bool {
        initialize()
        return ggml_backend_dev_count() > 0
    }

    /// llama.cpp's description of the CPU features it uses (AVX2, ...).
    public static var systemInfo: String {
        initialize()
        return String(cString: llama_print_system_info())
    }
}

/// Forwards a llama.cpp log line to swift-log. A plain C function: it captures
/// nothing, and `Logger` is a Sendable value, so calling it from llama.cpp's
/// threads is safe.
private func llamaLogCallback(level: ggml_log_level, text: UnsafePointer<CChar>?, userData: UnsafeMutableRawPointer?) {
    guard let text else { return }
    var message = String(cString: text)
    while message.last == "\n" { message.removeLast() }
    if message.isEmpty { return }
    if LlamaBackend.isRoutine(message) {
        LlamaBackend.logger.debug("\(message)")
        return
    }
    switch level {
    case GGML_LOG_LEVEL_ERROR:
        LlamaBackend.logger.error("\(message)")
    case GGML_LOG_LEVEL_WARN:
        LlamaBackend.logger.warning("\(message)")
    default:
        LlamaBackend.logger.trace("\(message)")
    }
}

extension LlamaBackend {
    /// Whether a warning or error llama.cpp logs is part of normal
    /// operation, so it goes to debug level instead of in front of users:
    /// - a cancelled decode: llama.cpp reports the abort we asked for as a
    ///   failure three times — the graph computation
    ///   (`ggml_backend_sched_graph_compute_async failed with error 1`), the
    ///   context (`failed to compute graph, compute status: 1`), 1 being
    ///   `GGML_STATUS_ABORTED` both times, and `llama_decode`, which then
    ///   returns 2 (`failed to decode, ret = 2`) — and warns that it drops
    ///   the aborted batch's positions (`removing memory module entries`),
    ///   which the contexts cut back themselves; they throw
    ///   `LlamaError.aborted` for it. Other statuses (a real failure) stay
    ///   errors;
    /// - a token llama.cpp re-types while loading a vocabulary
    ///   ("control-looking token … its type will be overridden"), printed
    ///   on every load of common models (Qwen2.5 among them) and already
    ///   handled by llama.cpp.
    static func isRoutine(_ message: String) -> Bool {
        message.hasSuffix("failed to compute graph, compute status: 1")
            || message.contains("removing memory module entries for seq_id")
            || message.hasSuffix("ggml_backend_sched_graph_compute_async failed with error 1")
            || message.hasSuffix("failed to decode, ret = 2")
            || message.contains("control-looking token")
    }
}
