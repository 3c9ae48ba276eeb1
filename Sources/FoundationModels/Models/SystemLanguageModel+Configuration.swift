import Foundation
import GuidedGeneration

extension SystemLanguageModel {
    /// Which GGUF file the in-process model runs, and how.
    ///
    /// Apple's system model is one model the OS manages; here the model is a
    /// file an operator picks and runs with settings that suit the machine:
    /// a laptop wants one conversation on a few threads, a server eight
    /// sequences decoded together. Pass one to ``init(configuration:useCase:guardrails:)``;
    /// Apple's own initializers (and ``default``) run ``Configuration/default``.
    ///
    /// Models with equal configurations share one engine (one copy of the
    /// weights, one set of KV caches); models with different ones coexist in
    /// a process, each with its own. Out-of-range numbers are raised to their
    /// minimum when set.
    ///
    /// Environment variables supply only the defaults (``default``), read
    /// once, here:
    ///
    /// | variable | property | built-in default |
    /// | --- | --- | --- |
    /// | `FOUNDATION_MODELS_MODEL` | ``modelFile`` | the installed default model (``installedDefaultModelFile``) |
    /// | `FOUNDATION_MODELS_CONTEXT_SIZE` | ``contextSize`` | nil (what the model was trained for, as memory allows) |
    /// | `FOUNDATION_MODELS_THREADS` | ``threads`` | every active core |
    /// | `FOUNDATION_MODELS_CONTEXTS` | ``parallelSequences`` | 2 |
    /// | `FOUNDATION_MODELS_MAX_QUEUE` | ``maximumQueuedRequests`` | 16 |
    /// | `FOUNDATION_MODELS_GPU_LAYERS` | ``gpuLayers`` | nil (every layer where a GPU backend is built in) |
    /// | `FOUNDATION_MODELS_MAIN_GPU` | ``mainGPU`` | nil (llama.cpp splits the layers across its GPUs) |
    /// | `FOUNDATION_MODELS_FLASH_ATTENTION` (`auto`, `on`, `off`) | ``flashAttention`` | `auto` |
    /// | `FOUNDATION_MODELS_KV_CACHE_TYPE` (`f16`, `bf16`, `f32`, `q8_0`, `q4_0`) | ``kvCacheType`` | `f16` |
    /// | `FOUNDATION_MODELS_STRING_PACING` (`off`) | ``pacesStrings`` | on |
    /// | `FOUNDATION_MODELS_REPETITION` (`off`) | ``stopsLoops`` | on |
    /// | `FOUNDATION_MODELS_SCHEMA_PROMPT` (`lines`, `typescript`, `jsonschema`) | ``schemaPromptStyle`` | `lines` |
    /// | `FOUNDATION_MODELS_SCHEMA_PLACEMENT` (`after`, `before`) | ``schemaPromptPlacement`` | `after` |
    /// | `FOUNDATION_MODELS_SCHEMA_BUDGET` | ``schemaPromptTokenBudget`` | 1,024 |
    /// | `FOUNDATION_MODELS_TOOLS_BUDGET` | ``toolsPromptTokenBudget`` | 3,072 |
    ///
    /// `FOUNDATION_MODELS_DISABLED=1` switches off the model Apple's
    /// initializers create (as turning off Apple Intelligence would); a
    /// model built from a configuration stays on. Three measurement switches
    /// have no public property: `FOUNDATION_MODELS_JSON_LAYOUT` (`compact`,
    /// `spaced`, `indented`), `FOUNDATION_MODELS_TOOL_FORMAT` (`hermes`, `array`)
    /// and `FOUNDATION_MODELS_SCHEMA_DETAIL` (`full`, `brief`, `outline`, `bounded`).
    public struct Configuration: Hashable, Sendable {
        /// The GGUF file to run.
        public var modelFile: URL
        /// Tokens each sequence holds, prompt and answer together; never
        /// more than the model was trained for (at least 16). Nil: as many
        /// as the model was trained for, as far as memory allows — every
        /// sequence's KV cache together within an eighth of the machine's
        /// memory, and never fewer than 4,096 where the model was trained
        /// for that many (``SystemLanguageModel/contextSize`` says what it
        /// comes to).
        public var contextSize: Int? { didSet { contextSize = contextSize.map { max(16, $0) } } }
        /// CPU threads for decoding (at least 1).
        public var threads: Int { didSet { threads = max(1, threads) } }
        /// Conversations served at once, their steps decoded together; each
        /// keeps its own KV cache of ``contextSize`` tokens, so a returning
        /// conversation reuses its prefix (at least 1).
        public var parallelSequences: Int { didSet { parallelSequences = max(1, parallelSequences) } }
        /// Requests that may wait for a sequence when all are busy; one more
        /// fails at once with `rateLimited` (at least 0).
        public var maximumQueuedRequests: Int { didSet { maximumQueuedRequests = max(0, maximumQueuedRequests) } }
        /// Layers offloaded to a GPU; nil: all of them when llama.cpp was
        /// built with a GPU backend, none otherwise.
        public var gpuLayers: Int? { didSet { gpuLayers = gpuLayers.map { max(0, $0) } } }
        /// The GPU that holds every offloaded layer, counting GPUs only in
        /// llama.cpp's order (`fm availability` lists them); nil: the layers
        /// are split across every GPU. A GPU that does not exist makes the
        /// model unavailable, with the reason in the load error.
        public var mainGPU: Int?
        /// Whether attention runs as one fused kernel.
        public var flashAttention = FlashAttention.automatic
        /// How the KV cache stores keys and values.
        public var kvCacheType = KVCacheType.f16
        /// Whether the free strings of typed answers are kept to a
        /// readable length (off only for measurements).
        public var pacesStrings = true
        /// Whether text that falls into a loop is stopped (off only for
        /// measurements).
        public var stopsLoops = true
        /// How a response schema is described in the prompt when a request
        /// includes it (`includeSchemaInPrompt`).
        public var schemaPromptStyle = SchemaPromptStyle.standard
        /// Whether that description goes after the prompt's text or before it.
        public var schemaPromptPlacement = SchemaPromptPlacement.standard
        /// The most tokens that description may take (at least 64, and at
        /// most half the context). A schema whose description is longer is
        /// described shorter, down to what fits whatever its size: the
        /// decoder enforces the whole schema, and on a CPU each token of
        /// the prompt costs time before the first token of the answer
        /// (about 10 ms for the default model on 2 cores). The default
        /// describes every schema of the eval's corpora as it did before.
        public var schemaPromptTokenBudget = 1024 { didSet { schemaPromptTokenBudget = max(64, schemaPromptTokenBudget) } }
        /// The most tokens the instructions' list of tools may take (at
        /// least 256, and at most half the context). Past it each tool keeps
        /// its name and the first sentence of its description, and the
        /// parameters of as many tools, in order, as fit: the decoder
        /// enforces the arguments of the tool the model calls (a call
        /// the model writes as text to a tool whose parameters it did not
        /// see is decoded again as a call). The default keeps the first
        /// request with 64 tools under 30 s for the default model on 2
        /// cores (22.6 s, where 4,096 took 31.8 s; docs/GUIDED_GENERATION.md).
        public var toolsPromptTokenBudget = 3072 { didSet { toolsPromptTokenBudget = max(256, toolsPromptTokenBudget) } }

        /// Whether steps are decoded on the requests' own threads instead of
        /// the process's decode thread; nil: where every layer is on a GPU
        /// (``DecodeScheduler/thread``). Set by tests, to run that path on a CPU.
        package var decodesOnRequestThreads: Bool?
        /// Whether a prompt's last token is evaluated in a step of its own;
        /// nil: unless every layer is on a GPU (``ContextSlot/promptEndsAlone``).
        /// Set by tests, to run either way on one machine.
        package var promptEndsAlone: Bool?
        /// Set from `FOUNDATION_MODELS_DISABLED` for Apple's initializers only.
        package var isDisabled = false
        /// How typed answers are laid out (measurements only).
        package var jsonLayout = JSONLayout.indented
        /// The tool-call format, when forced (measurements only); nil: the
        /// model's own (``ChatRendering/toolFormat(for:forced:)``).
        package var forcedToolFormat: ToolCallFormat?
        /// How much of a response schema the prompt describes, when forced
        /// (measurements only: the eval's runs at each detail); nil: by
        /// size, the whole while it is short and a shorter one past that
        /// (``GenerationSchema/promptDescription(style:budget:tokenCount:)``).
        package var forcedSchemaDetail: SchemaPromptDetail?
        /// The LoRA adapter applied to the model, set by
        /// `SystemLanguageModel(adapter:)`: an adapted model is an engine of
        /// its own.
        package var adapter: AppliedAdapter?

        /// An adapter file and how strongly it is applied.
        package struct AppliedAdapter: Hashable, Sendable {
            package var path: String
            package var scale: Float
        }

        /// A model file with every other setting at its default (``default``).
        public init(modelFile: URL) {
            self = .default
            self.modelFile = modelFile
        }

        package init(
            modelFile: URL,
            contextSize: Int?,
            threads: Int,
            parallelSequences: Int,
            maximumQueuedRequests: Int
        ) {
            self.modelFile = modelFile
            self.contextSize = contextSize.map { max(16, $0) }
            self.threads = max(1, threads)
            self.parallelSequences = max(1, parallelSequences)
            self.maximumQueuedRequests = max(0, maximumQueuedRequests)
        }

        /// The defaults: the built-in ones, overridden by the
        /// `FOUNDATION_MODELS_*` variables the process started with (read
        /// once: the environment is set before a process starts).
        public static var `default`: Configuration { fromEnvironment }

        private static let fromEnvironment = Configuration(environment: ProcessInfo.processInfo.environment)

        /// The configuration `environment` describes (``default``'s reading).
        package init(environment: [String: String]) {
            func integer(_ name: String, default value: Int, minimum: Int = 1) -> Int {
                guard let text = environment[name], let parsed = Int(text), parsed >= minimum else { return value }
                return parsed
            }
            func isOff(_ name: String) -> Bool {
                ["0", "off", "false", "no"].contains(environment[name]?.lowercased() ?? "")
            }
            let path = environment["FOUNDATION_MODELS_MODEL"].flatMap { $0.isEmpty ? nil : $0 }
            self.init(
                modelFile: URL(fileURLWithPath: path ?? Self.installedDefaultModelPath(environment)),
                contextSize: environment["FOUNDATION_MODELS_CONTEXT_SIZE"].flatMap(Int.init).flatMap { $0 >= 16 ? $0 : nil },
                threads: integer("FOUNDATION_MODELS_THREADS", default: max(1, ProcessInfo.processInfo.activeProcessorCount)),
                parallelSequences: integer("FOUNDATION_MODELS_CONTEXTS", default: 2),
                maximumQueuedRequests: integer("FOUNDATION_MODELS_MAX_QUEUE", default: 16, minimum: 0)
            )
            if let layers = environment["FOUNDATION_MODELS_GPU_LAYERS"].flatMap(Int.init), layers >= 0 { gpuLayers = layers }
            if let gpu = environment["FOUNDATION_MODELS_MAIN_GPU"].flatMap(Int.init), gpu >= 0 { mainGPU = gpu }
            if let flash = environment["FOUNDATION_MODELS_FLASH_ATTENTION"].flatMap({ FlashAttention(rawValue: $0.lowercased()) }) {
                flashAttention = flash
            }
            if let type = environment["FOUNDATION_MODELS_KV_CACHE_TYPE"].flatMap({ KVCacheType(rawValue: $0.lowercased()) }) {
                kvCacheType = type
            }
            isDisabled = ["1", "true", "yes"].contains(environment["FOUNDATION_MODELS_DISABLED"]?.lowercased() ?? "")
            pacesStrings = !isOff("FOUNDATION_MODELS_STRING_PACING")
            stopsLoops = !isOff("FOUNDATION_MODELS_REPETITION")
            if let style = environment["FOUNDATION_MODELS_SCHEMA_PROMPT"].flatMap(SchemaPromptStyle.init(rawValue:)) {
                schemaPromptStyle = style
            }
            if let budget = environment["FOUNDATION_MODELS_SCHEMA_BUDGET"].flatMap(Int.init), budget > 0 { schemaPromptTokenBudget = budget }
            if let budget = environment["FOUNDATION_MODELS_TOOLS_BUDGET"].flatMap(Int.init), budget > 0 { toolsPromptTokenBudget = budget }
            if let placement = environment["FOUNDATION_MODELS_SCHEMA_PLACEMENT"].flatMap(SchemaPromptPlacement.init(rawValue:)) {
                schemaPromptPlacement = placement
            }
            switch environment["FOUNDATION_MODELS_JSON_LAYOUT"] {
            case "compact": jsonLayout = .compact
            case "spaced": jsonLayout = .spaced
            default: jsonLayout = .indented
            }
            switch environment["FOUNDATION_MODELS_TOOL_FORMAT"] {
            case "hermes": forcedToolFormat = .hermes
            case "array": forcedToolFormat = .toolCallTags
            default: forcedToolFormat = nil
            }
            forcedSchemaDetail = environment["FOUNDATION_MODELS_SCHEMA_DETAIL"].flatMap(SchemaPromptDetail.init(rawValue:))
        }

        /// The installed default model (`scripts/setup.sh`, `make setup`):
        /// `${XDG_CACHE_HOME:-~/.cache}/swift-foundation-models/models/<sha256>/<file>`,
        /// whether or not it is there yet.
        public static var installedDefaultModelFile: URL {
            URL(fileURLWithPath: installedDefaultModelPath(ProcessInfo.processInfo.environment))
        }

        /// Where ``SystemLanguageModel/Adapter/init(name:)`` finds installed
        /// adapters (`NAME.gguf`): `FOUNDATION_MODELS_ADAPTERS`, else
        /// `${XDG_DATA_HOME:-~/.local/share}/swift-foundation-models/adapters`.
        public static var installedAdaptersDirectory: URL {
            URL(fileURLWithPath: installedAdaptersPath(ProcessInfo.processInfo.environment), isDirectory: true)
        }

        static func installedAdaptersPath(_ environment: [String: String]) -> String {
            if let folder = environment["FOUNDATION_MODELS_ADAPTERS"], !folder.isEmpty { return folder }
            let data =
                environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
                ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
            return "\(data)/swift-foundation-models/adapters"
        }

        /// The installed fast model (`make setup` installs it beside the
        /// default): Qwen2.5-Coder-0.5B-Instruct, which reads prompts 2.5 and
        /// writes 1.6 times as fast as the default on a CPU and is markedly
        /// less accurate (EVAL.md).
        /// For a feature that values latency over accuracy:
        /// `SystemLanguageModel(configuration: .init(modelFile: Configuration.installedFastModelFile))`.
        public static var installedFastModelFile: URL {
            URL(fileURLWithPath: installedModelPath(fastModel, ProcessInfo.processInfo.environment))
        }

        /// An installed model's file name and checksum (scripts/setup.sh).
        struct InstalledModel {
            var fileName: String
            var sha256: String
        }

        /// Qwen2.5-Coder-1.5B-Instruct, Q4_K_M.
        static let defaultModel = InstalledModel(
            fileName: "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            sha256: "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046")
        /// Qwen2.5-Coder-0.5B-Instruct, Q4_K_M.
        static let fastModel = InstalledModel(
            fileName: "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
            sha256: "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32")

        static func installedDefaultModelPath(_ environment: [String: String]) -> String {
            installedModelPath(defaultModel, environment)
        }

        static func installedModelPath(_ model: InstalledModel, _ environment: [String: String]) -> String {
            let cache =
                environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
                ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
            return "\(cache)/swift-foundation-models/models/\(model.sha256)/\(model.fileName)"
        }

        /// ``modelFile``'s path.
        package var modelPath: String {
            get { modelFile.path }
            set { modelFile = URL(fileURLWithPath: newValue) }
        }

        /// How the strings of typed answers are paced; nil when they are not.
        package var stringPacing: StringPacing? {
            guard pacesStrings else { return nil }
            var pacing = StringPacing.standard
            pacing.stopsLoops = stopsLoops
            return pacing
        }
    }
}

extension SystemLanguageModel.Configuration {
    /// llama.cpp's flash attention: one fused attention kernel, which uses
    /// less memory and is faster on GPUs.
    public enum FlashAttention: String, Sendable, CaseIterable {
        /// llama.cpp decides per device.
        case automatic = "auto"
        case enabled = "on"
        case disabled = "off"
    }

    /// The element type of the KV cache. A quantized cache (`q8_0`,
    /// `q4_0`) holds two to four times the tokens in the same memory, with
    /// slightly rounded attention; it needs flash attention (on or auto).
    public enum KVCacheType: String, Sendable, CaseIterable {
        case f16, bf16, f32
        case q8_0, q4_0

        /// Bytes an element takes (quantized blocks of 32 with their scale).
        var bytesPerElement: Double {
            switch self {
            case .f16, .bf16: 2
            case .f32: 4
            case .q8_0: 34.0 / 32
            case .q4_0: 18.0 / 32
            }
        }
    }

    /// How a response schema is described to the model in the prompt.
    ///
    /// The description is the model's only way to know what each field is
    /// for, and small models read some renderings far better than others;
    /// the default scored best on the eval (docs/GUIDED_GENERATION.md).
    public enum SchemaPromptStyle: String, Sendable, CaseIterable {
        /// One line per field: name, kind, guides, description.
        case fieldLines = "lines"
        /// A TypeScript type with each description as a comment above its field.
        case typeScript = "typescript"
        /// The JSON Schema document itself, compact.
        case jsonSchema = "jsonschema"

        /// The rendering every model gets unless configured otherwise.
        public static let standard = SchemaPromptStyle.fieldLines
    }

    /// Where the schema's description goes in the prompt turn.
    public enum SchemaPromptPlacement: String, Sendable, CaseIterable {
        /// After the prompt's own text.
        case after
        /// Before it.
        case before

        /// The placement every model gets unless configured otherwise.
        public static let standard = SchemaPromptPlacement.after
    }
}

/// The names the engine's code uses for the schema renderings.
package typealias SchemaPromptStyle = SystemLanguageModel.Configuration.SchemaPromptStyle
package typealias SchemaPromptPlacement = SystemLanguageModel.Configuration.SchemaPromptPlacement
