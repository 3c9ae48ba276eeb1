import Foundation
import FoundationModels

/// Guided generation's part of `make bench`: the constraint engine alone on
/// two vocabularies, then typed answers end to end against llama.cpp's
/// grammar and against free text.
struct GuidedBenchmarks {
    struct Report {
        var masks: [MaskBenchmark.Result] = []
        var maskErrors: [String] = []
        var endToEnd: GuidedEndToEnd.Result?
        var endToEndError: String?
        var walksPerSchema = 0
        var walkBudget = 0
        var compileSamples = 0
        var runs = 0
        var maximumTokens = 0
        var threads = 0
        var model = ""
        /// /proc/loadavg (1, 5, 15 minutes) when the guided part started and ended.
        var loadBefore = ""
        var loadAfter = ""
        var seconds = 0.0
    }

    let environment = ProcessInfo.processInfo.environment
    let threads: Int

    /// A model's name in the report: its file's name without `.gguf`.
    static func modelName(_ path: String?) -> String {
        guard let path, !path.isEmpty else { return "the model" }
        return URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    }

    func run(log: @Sendable (String) -> Void) async -> Report {
        let start = Measure.clock.now
        var report = Report()
        report.loadBefore = Self.loadAverage()
        report.threads = threads
        let cases = GuidedCase.all

        let masks = MaskBenchmark()
        report.walksPerSchema = masks.walksPerSchema
        report.walkBudget = masks.budget
        report.compileSamples = masks.compileSamples
        let vocabularies = [
            (Self.modelName(environment["FOUNDATION_MODELS_MODEL"]), environment["FOUNDATION_MODELS_MODEL"], "FOUNDATION_MODELS_MODEL"),
            ("Gemma 3 270M", environment["FOUNDATION_MODELS_BENCH_MODEL"], "FOUNDATION_MODELS_BENCH_MODEL"),
        ]
        for (name, path, variable) in vocabularies {
            guard let path, !path.isEmpty else {
                report.maskErrors.append("\(name): \(variable) is not set (run through make bench, which runs make setup-bench)")
                continue
            }
            log("guided masks: \(name)")
            do {
                report.masks.append(try masks.run(name: name, modelPath: path, cases: cases, log: log))
            } catch {
                report.maskErrors.append("\(name): \(error)")
            }
        }

        let endToEnd = GuidedEndToEnd()
        report.runs = endToEnd.runs
        report.maximumTokens = endToEnd.maximumTokens
        report.model = environment["FOUNDATION_MODELS_MODEL"] ?? ""
        do {
            report.endToEnd = try await endToEnd.run(
                cases: cases,
                serverBinary: environment["LLAMA_SERVER"],
                modelPath: report.model,
                threads: threads,
                log: log
            )
        } catch {
            report.endToEndError = "\(error)"
        }
        report.loadAfter = Self.loadAverage()
        report.seconds = (Measure.clock.now - start).inSeconds
        return report
    }

    static func loadAverage() -> String {
        Suite.loadAverages().joined(separator: ", ")
    }
}
