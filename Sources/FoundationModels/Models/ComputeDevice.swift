/// What the in-process model can compute on here, for `fm availability`
/// and the benchmarks' reports: llama.cpp's devices, as it found them
/// (``all``, declared per build: SystemModelRuntime+LlamaCpp.swift and
/// SystemModelRuntime+NoLlamaCpp.swift).
package struct ComputeDevice: Sendable, Hashable {
    /// The backend's name for it (`CPU`, `CUDA0`, `Vulkan0`).
    package var name: String
    /// What the driver calls it.
    package var description: String
    package var isGPU: Bool
    /// Bytes free and in all, as the backend reports them (0: unknown).
    package var freeMemory: UInt64
    package var totalMemory: UInt64

    /// One line: name, description, memory.
    package var summary: String {
        var line = name
        if !description.isEmpty && description != name { line += " (\(description))" }
        if totalMemory > 0 { line += ", \(freeMemory >> 20) MiB free of \(totalMemory >> 20) MiB" }
        return line
    }
}
