import Foundation
import FoundationModels

/// How an answer is produced; every mode sends the same instructions and
/// prompt to the same model.
package enum EvalMode: String, Codable, CaseIterable, Sendable {
    /// `LanguageModelSession.respond(to:generating:)`: our guided generation.
    case guided
    /// The guided request again, with the options the example's feature
    /// sends (``EvalTask/exampleOptions(model:)``: its
    /// `maximumResponseTokens` and sampling) instead of none: compared item
    /// by item with ``guided``, it shows what the example's budget cuts
    /// (``CutString/Kind/prefix``). Only for tasks of an example.
    case budgeted
    /// The guided request again (greedy, like ``guided``) with
    /// `maximumResponseTokens` twice the output tokens the item's ``guided``
    /// answer took, its output compared byte for byte with that answer's
    /// (``BudgetComparison``). String pacing promises to step in only where
    /// an answer would not fit, so every answer here should be identical;
    /// one that is not shows where pacing changed an answer that had room.
    case doubled
    /// `respond(to:)` with the same user text (the prompt and the schema's
    /// description), the first JSON object of the answer decoded.
    case free
    /// llama.cpp's server given the same rendered prompt and the type's JSON
    /// Schema as `json_schema` (its grammar sampler).
    case grammar
    /// The example's whole feature as an app calls it (``EvalTask/pipeline(for:model:)``):
    /// its own options, checks, re-prompts and deterministic readers.
    /// Only for tasks that have one.
    case pipeline

    package var title: String {
        switch self {
        case .guided: "guided (ours)"
        case .budgeted: "guided, the example's options"
        case .doubled: "guided, twice the tokens"
        case .free: "free text, parsed"
        case .grammar: "llama.cpp JSON-schema grammar"
        case .pipeline: "the example's pipeline"
        }
    }
}

/// One answer, scored.
package struct AnswerRecord: Codable, Sendable {
    package enum Status: String, Codable, Sendable {
        /// Decoded into the type and scored.
        case answered
        /// No value of the type: no JSON object, malformed JSON, or JSON
        /// that does not decode.
        case invalid
        /// Not finished within the time limit (a failure).
        case timedOut = "timed-out"
        /// The request threw.
        case failed
    }

    package var id: String
    package var status: Status
    package var problem: String?
    /// The text the mode produced (JSON, or the free text).
    package var output: String
    package var fields: [FieldScore]
    /// Strings left empty (`cards[1].answer`).
    package var emptied: [String]
    /// Cut short by the token budget: guided generation closed the value
    /// early to fit, free text ran to the end of the context, llama.cpp
    /// stopped at its limit.
    package var truncated: Bool
    package var seconds: Double
    package var promptTokens: Int
    package var cachedPromptTokens: Int
    package var outputTokens: Int
    /// The item's labels for breakdowns (a receipt's features).
    package var groups: [String]
    /// Values the answer copied from its type's guide descriptions
    /// (`stationBrand: "CHEVRON"`), for tasks whose descriptions give
    /// examples; `nil` for the others.
    package var copied: [String]?
    /// Model requests the answer took, when more than one was possible
    /// (the pipeline's re-prompt).
    package var requests: Int?
    /// The free strings left unfinished (``CutShort``): cut mid-word,
    /// mid-sentence, or a prefix of the unbudgeted answer's. `nil` in runs
    /// made before the check (read as none).
    package var cut: [CutString]?
    /// In ``EvalMode/doubled``: the budget sent and whether the answer is
    /// the unbudgeted guided one; `nil` in the other modes.
    package var comparison: BudgetComparison?
    /// How many free strings the answer has under the schema it was asked
    /// with (which a task may build from the item: the recommendations'
    /// titles are choices); `nil` in runs made before (the report counts
    /// them under the corpus's answer type).
    package var freeStrings: Int? = nil

    /// The cut strings of `kind`.
    package func cut(_ kind: CutString.Kind) -> [CutString] {
        (cut ?? []).filter { $0.kinds.contains(kind) }
    }

    /// A valid answer with every counted field right, nothing emptied and
    /// nothing cut short (by the budget's record, or a string that is).
    package var allRight: Bool {
        status == .answered && fields.filter(\.counts).allSatisfy(\.right) && emptied.isEmpty && !truncated && (cut ?? []).isEmpty
    }

    package var isValid: Bool { status == .answered }
}

/// One corpus answered in one mode.
package struct CorpusRun: Codable, Sendable {
    package var corpus: Corpus
    package var mode: EvalMode
    package var fields: [String]
    package var informational: [String]
    package var answers: [AnswerRecord]
    package var seconds: Double
    /// Why the mode could not run, or what to keep in mind reading it.
    package var note: String?
}

/// The model a run used.
package struct ModelDescription: Codable, Sendable {
    package var path: String
    package var fileName: String
    package var bytes: Int
    /// The GGUF file's `general.name`.
    package var name: String
    package var contextSize: Int
    package var threads: Int
}

/// Everything one `fm eval` invocation measured: the input of the report.
package struct EvalRun: Codable, Sendable {
    /// What the report calls this run (the model, or a variant's name).
    package var label: String
    package var model: ModelDescription
    package var machine: String
    package var date: String
    package var command: String
    package var timeLimitSeconds: Double
    /// The engine's switches the run was made with (`FOUNDATION_MODELS_*`
    /// variables other than model paths, e.g. `STRING_PACING=0`): what
    /// tells variants of one model apart.
    package var settings: [String: String]
    package var llamaServer: String?
    package var results: [CorpusRun]
    package var seconds: Double
    /// The source revision the `fm` that made the run was built from
    /// (`make eval` passes git's, with `-modified` for uncommitted
    /// changes), so a report that puts runs of several sessions together
    /// says which code answered; nil where it was not given.
    package var revision: String?

    package func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    package static func decode(_ data: Data) throws -> EvalRun {
        try JSONDecoder().decode(EvalRun.self, from: data)
    }
}

extension EvalRun {
    /// The `FOUNDATION_MODELS_*` variables of `environment` that change how
    /// the engine generates (model paths left out), prefix dropped.
    package static func settings(from environment: [String: String]) -> [String: String] {
        let prefix = "FOUNDATION_MODELS_"
        var settings: [String: String] = [:]
        for (key, value) in environment where key.hasPrefix(prefix) && !key.hasSuffix("MODEL") {
            settings[String(key.dropFirst(prefix.count))] = value
        }
        return settings
    }
}

/// The machine, as reports name it.
package enum MachineDescription {
    package static var current: String {
        let cpuInfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let cpu =
            cpuInfo.split(separator: "\n")
            .first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        let memory = ProcessInfo.processInfo.physicalMemory / (1 << 30)
        // The GPUs llama.cpp computes on, where it has any: a figure from a
        // GPU run names the card.
        let gpus = ComputeDevice.all.filter(\.isGPU).map { $0.description.isEmpty ? $0.name : $0.description }
        let gpuText = gpus.isEmpty ? "" : ", " + gpus.joined(separator: ", ") + " (llama.cpp offload)"
        return "\(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(memory) GiB\(gpuText), Linux"
    }
}
