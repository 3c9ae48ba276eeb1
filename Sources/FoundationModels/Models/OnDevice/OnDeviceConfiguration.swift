import Foundation
import GuidedGeneration

/// Where the on-device model lives and how it runs, read from the environment.
///
/// | variable | meaning | default |
/// | --- | --- | --- |
/// | `FOUNDATION_MODELS_MODEL` | path of a GGUF file | the installed Qwen2.5-Coder-0.5B-Instruct |
/// | `FOUNDATION_MODELS_CONTEXT_SIZE` | tokens per context | 4096 (never above the model's training length) |
/// | `FOUNDATION_MODELS_THREADS` | CPU threads for decoding | all cores |
/// | `FOUNDATION_MODELS_CONTEXTS` | KV caches kept: sessions served at once, decoded together | 2 |
/// | `FOUNDATION_MODELS_MAX_QUEUE` | requests that may wait for a context | 16 |
/// | `FOUNDATION_MODELS_DISABLED` | `1` switches the model off | unset |
/// | `FOUNDATION_MODELS_REPETITION` | `off`: text that loops is not stopped (for measurements) | on |
/// | `FOUNDATION_MODELS_STRING_PACING` | `off` stops pacing the strings of typed answers (for measurements) | on |
package struct OnDeviceConfiguration: Hashable, Sendable {
    /// The installed default model's file name and checksum (see scripts/setup.sh).
    static let defaultModelFile = "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
    static let defaultModelSHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"

    package var modelPath: String
    package var contextSize: Int
    package var threads: Int
    package var contexts: Int
    package var maximumQueuedRequests: Int
    package var isDisabled: Bool
    /// Whether free text and the strings of typed answers end where they
    /// fall into a loop (``RepetitionStop``).
    package var stopsLoops = true
    /// How the free strings of typed answers are paced; nil: not at all
    /// (the budget alone decides, for measurements).
    package var stringPacing: StringPacing? = .standard

    /// The configuration the process environment describes, read once, when
    /// first needed: the environment is set before a process starts, and
    /// reading it on every session creation would cost more than the
    /// session itself.
    package static var current: OnDeviceConfiguration { fromEnvironment }

    private static let fromEnvironment: OnDeviceConfiguration = {
        let environment = ProcessInfo.processInfo.environment
        func integer(_ name: String, default value: Int, minimum: Int = 1) -> Int {
            guard let text = environment[name], let parsed = Int(text), parsed >= minimum else { return value }
            return parsed
        }
        func isOff(_ name: String) -> Bool {
            ["0", "off", "false", "no"].contains(environment[name]?.lowercased() ?? "")
        }
        var configuration = OnDeviceConfiguration(
            modelPath: environment["FOUNDATION_MODELS_MODEL"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultModelPath(environment),
            contextSize: integer("FOUNDATION_MODELS_CONTEXT_SIZE", default: 4096, minimum: 16),
            threads: integer("FOUNDATION_MODELS_THREADS", default: max(1, ProcessInfo.processInfo.activeProcessorCount)),
            contexts: integer("FOUNDATION_MODELS_CONTEXTS", default: 2),
            maximumQueuedRequests: integer("FOUNDATION_MODELS_MAX_QUEUE", default: 16, minimum: 0),
            isDisabled: ["1", "true", "yes"].contains(environment["FOUNDATION_MODELS_DISABLED"]?.lowercased() ?? "")
        )
        if isOff("FOUNDATION_MODELS_STRING_PACING") { configuration.stringPacing = nil }
        if isOff("FOUNDATION_MODELS_REPETITION") {
            configuration.stopsLoops = false
            configuration.stringPacing?.stopsLoops = false
        }
        return configuration
    }()

    /// `${XDG_CACHE_HOME:-~/.cache}/swift-foundation-models/models/<sha256>/<file>`.
    static func defaultModelPath(_ environment: [String: String]) -> String {
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return "\(cache)/swift-foundation-models/models/\(defaultModelSHA256)/\(defaultModelFile)"
    }
}
