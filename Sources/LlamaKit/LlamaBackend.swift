import CLlama
import Foundation
import Logging

/// Process-wide llama.cpp setup: `llama_backend_init` runs exactly once, and
/// llama.cpp's log output goes to swift-log instead of stderr.
package enum LlamaBackend {
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
    package static func initialize() {
        _ = initialized
    }

    /// llama.cpp's version string and build (`b11434` for the pinned build).
    package static var version: String {
        initialize()
        return String(cString: llama_version())
    }

    /// Whether llama.cpp found a device to compute on (at least the CPU
    /// backend) and is the C API LlamaKit was written for. `false` means
    /// models cannot run in this process at all.
    package static var isSupported: Bool {
        guard compatibilityProblem == nil else { return false }
        initialize()
        return ggml_backend_dev_count() > 0
    }

    /// Whether llama.cpp was built with a backend that can take layers off
    /// the CPU (CUDA, Vulkan, Metal…).
    package static var supportsGPUOffload: Bool {
        guard compatibilityProblem == nil else { return false }
        initialize()
        return llama_supports_gpu_offload()
    }

    /// The llama.cpp release LlamaKit is written against (scripts/setup.sh
    /// pins it) and the library versions that release reports: `ggml_version()`
    /// and `llama_version()` of b11434.
    package static let expectedRelease = "b11434"
    static let expectedGGMLVersion = (major: 0, minor: 26)
    static let expectedLlamaVersion = (major: 0, minor: 6)

    /// Why the llama.cpp library this process loaded cannot be used, or nil
    /// when it can: LlamaKit calls llama.cpp's C API with the struct layouts
    /// and signatures of ``expectedRelease``, and another API would
    /// corrupt memory instead of failing. A library is accepted when it
    /// reports the same major and minor versions of ggml and llama (later
    /// builds of the same API); the versions are looked up by name first,
    /// so a library too old to have them is refused too. Checked once.
    package static let compatibilityProblem: String? = {
        func versionString(_ symbol: String) -> String? {
            guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol) else { return nil }
            let function = unsafeBitCast(address, to: (@convention(c) () -> UnsafePointer<CChar>?).self)
            return function().map { String(cString: $0) }
        }
        return compatibilityProblem(
            ggmlVersion: versionString("ggml_version"),
            llamaVersion: versionString("llama_version"),
            library: loadedLibraryPath("libggml-base")
        )
    }()

    /// The verdict of ``compatibilityProblem`` on the versions a library
    /// reports (nil where it has no such function), apart so it can be tested.
    static func compatibilityProblem(ggmlVersion: String?, llamaVersion: String?, library: String?) -> String? {
        func majorMinor(_ version: String) -> (Int, Int)? {
            let parts = version.split(whereSeparator: { $0 == "." || $0 == "-" }).prefix(2).compactMap { Int($0) }
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }
        let expected =
            "ggml \(expectedGGMLVersion.major).\(expectedGGMLVersion.minor).x and llama \(expectedLlamaVersion.major).\(expectedLlamaVersion.minor).x (llama.cpp \(expectedRelease))"
        let remedy = "install the pinned release with scripts/setup.sh, or point PKG_CONFIG_PATH and the library path at a build with the same C API"
        guard let ggmlVersion, let llamaVersion else {
            return "the loaded llama.cpp library is too old to report its version; this package needs \(expected): \(remedy)"
        }
        guard let ggml = majorMinor(ggmlVersion), let llama = majorMinor(llamaVersion),
            ggml.0 == expectedGGMLVersion.major, ggml.1 == expectedGGMLVersion.minor,
            llama.0 == expectedLlamaVersion.major, llama.1 == expectedLlamaVersion.minor
        else {
            return
                "the loaded llama.cpp library\(library.map { " (\($0))" } ?? "") reports ggml \(ggmlVersion) and llama \(llamaVersion); this package was built for \(expected): \(remedy)"
        }
        return nil
    }

    /// Where the dynamic linker found a library (`/proc/self/maps`), for
    /// error messages; nil where that cannot be read.
    static func loadedLibraryPath(_ name: String) -> String? {
        // Read to the end: /proc files report a size of 0, and a read by
        // size stops after the first page.
        guard let file = FileHandle(forReadingAtPath: "/proc/self/maps"),
            let maps = String(data: file.readDataToEndOfFile(), encoding: .utf8)
        else { return nil }
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = line[slash...]
            if path.split(separator: "/").last?.hasPrefix(name + ".so") == true { return String(path) }
        }
        return nil
    }

    /// Throws ``LlamaError/incompatibleLibrary(_:)`` when the loaded library
    /// is not the C API LlamaKit was written for, then initializes llama.cpp.
    package static func checkCompatible() throws(LlamaError) {
        if let compatibilityProblem { throw .incompatibleLibrary(compatibilityProblem) }
        initialize()
    }

    /// A device llama.cpp can compute on: the CPU, a GPU, an accelerator.
    package struct Device: Sendable, Hashable {
        package enum Kind: String, Sendable, Hashable {
            case cpu, gpu
            /// A GPU that shares the host's memory.
            case integratedGPU = "igpu"
            case accelerator
            case other
        }
        /// The backend's name for it (`CPU`, `CUDA0`, `Vulkan0`).
        package var name: String
        /// What the driver calls it (`NVIDIA H100 80GB HBM3`).
        package var description: String
        package var kind: Kind
        /// Memory free and in all, in bytes, as the backend reports them
        /// when asked (0 where it reports none).
        package var freeMemory: UInt64
        package var totalMemory: UInt64

        /// Whether layers can be offloaded to it.
        package var isGPU: Bool { kind == .gpu || kind == .integratedGPU }
    }

    /// The devices llama.cpp found, in its order (GPUs are numbered in
    /// this order among themselves: the main GPU's index counts GPUs only).
    package static var devices: [Device] {
        guard compatibilityProblem == nil else { return [] }
        initialize()
        return (0..<ggml_backend_dev_count()).compactMap { index in
            guard let device = ggml_backend_dev_get(index) else { return nil }
            var free = 0, total = 0
            ggml_backend_dev_memory(device, &free, &total)
            let kind: Device.Kind =
                switch ggml_backend_dev_type(device) {
                case GGML_BACKEND_DEVICE_TYPE_CPU: .cpu
                case GGML_BACKEND_DEVICE_TYPE_GPU: .gpu
                case GGML_BACKEND_DEVICE_TYPE_IGPU: .integratedGPU
                case GGML_BACKEND_DEVICE_TYPE_ACCEL: .accelerator
                default: .other
                }
            return Device(
                name: ggml_backend_dev_name(device).map { String(cString: $0) } ?? "device \(index)",
                description: ggml_backend_dev_description(device).map { String(cString: $0) } ?? "",
                kind: kind,
                freeMemory: UInt64(free),
                totalMemory: UInt64(total)
            )
        }
    }

    /// llama.cpp's description of the CPU features it uses (AVX2, ...).
    package static var systemInfo: String {
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
    ///   handled by llama.cpp;
    /// - a batch context's cache larger than the model's training length
    ///   (`n_ctx_seq (…) > n_ctx_train (…)`): its sequences share one
    ///   cache, and ``LlamaBatchContext`` keeps each within its own length,
    ///   which callers keep within the training length.
    static func isRoutine(_ message: String) -> Bool {
        message.hasSuffix("failed to compute graph, compute status: 1")
            || message.contains("removing memory module entries for seq_id")
            || message.hasSuffix("ggml_backend_sched_graph_compute_async failed with error 1")
            || message.hasSuffix("failed to decode, ret = 2")
            || message.contains("control-looking token")
            || message.contains("possible training context overflow")
    }
}
