import Foundation
import ArgumentParser
import FoundationModels
import FoundationModelsEval

extension FM {
    /// `fm eval`: the eval loop — golden corpora of the apps' tasks, answered
    /// guided (with no budget, with the example's own options, and with
    /// twice the tokens the unbudgeted answer took), in free
    /// text and through llama.cpp's JSON-schema grammar, and scored field by
    /// field (`make eval` writes EVAL.md).
    struct Eval: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Score typed answers on golden corpora of the apps' tasks.",
            discussion: "fm eval CORPUS... runs corpora (receipts, receipts-guide-examples, receipts-documented, tickets, flashcards, crates, coaching, json-object, receipts-photo-light, receipts-photo-heavy, or all: those answered from text, but for the documented receipts); fm eval report turns runs' JSON into EVAL.md; fm eval generate rewrites the corpora from their seeds.",
            subcommands: [Run.self, Report.self, Generate.self],
            defaultSubcommand: Run.self
        )
    }
}

extension FM.Eval {
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Answer and score a corpus (the default subcommand).")

        @Argument(help: "One or more of receipts, receipts-guide-examples, receipts-documented, tickets, flashcards, crates, coaching, json-object, receipts-photo-light, receipts-photo-heavy; or all (every corpus answered from text, but for the documented receipts).")
        var corpora: [String]

        @OptionGroup var model: ModelOptions

        @Option(name: .customLong("mode"), parsing: .upToNextOption, help: "Modes to run: guided, budgeted (guided with the example's own options, compared with guided), doubled (guided with twice the tokens the guided answer took, compared with it byte for byte; needs guided), free, grammar, pipeline (default: all six; budgeted and pipeline only where the corpus is an example's and it has one).")
        var modes: [EvalMode] = EvalMode.allCases

        @Option(help: "Answer only the first N items of each corpus.")
        var limit: Int?

        @Option(help: "Write the run, every answer scored, to this JSON file (the input of fm eval report).")
        var json: String?

        @Option(help: "Also write the markdown report of this run to this file.")
        var report: String?

        @Option(help: "What the report calls this run (default: the model file's name).")
        var label: String?

        @Option(name: .customLong("time-limit"), help: "Seconds an answer may take before it counts as timed out.")
        var timeLimit: Double = 20

        @Option(name: .customLong("corpora"), help: "The folder of the corpus files (default: eval/corpora).")
        var corporaFolder: String?

        @Option(name: .customLong("llama-server"), help: "llama-server for the grammar mode (default: LLAMA_SERVER).")
        var llamaServer: String?

        func validate() throws {
            if corpora.isEmpty { throw ValidationError("name a corpus: one of \(Corpus.allCases.map(\.rawValue).joined(separator: ", ")), or all") }
            for corpus in corpora where corpus != "all" && Corpus(rawValue: corpus) == nil {
                throw ValidationError("unknown corpus \(corpus): choose one of \(Corpus.allCases.map(\.rawValue).joined(separator: ", ")), all")
            }
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
            if !(timeLimit > 0) { throw ValidationError("--time-limit must be more than 0") }
            if modes.isEmpty { throw ValidationError("--mode needs at least one of \(EvalMode.allCases.map(\.rawValue).joined(separator: ", "))") }
            // The doubled mode's budget is the guided answer's tokens twice over.
            if modes.contains(.doubled), !modes.contains(.guided) { throw ValidationError("--mode doubled takes its budget from the guided answer: add guided") }
        }

        func run() async throws {
            let system = try model.model
            let path = system.configuration.modelPath
            var runner = EvalRunner(model: system, label: label ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
            runner.modes = modes
            runner.limit = limit
            runner.timeLimit = timeLimit
            runner.serverBinary = llamaServer ?? ProcessInfo.processInfo.environment["LLAMA_SERVER"]
            if let corporaFolder { runner.corporaDirectory = URL(fileURLWithPath: corporaFolder) }
            runner.command = (["fm"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
            runner.log = { message in FileHandle.standardError.write(Data("fm eval: \(message)\n".utf8)) }
            var selected: [Corpus] = []
            for name in corpora {
                for corpus in name == "all" ? Corpus.text : [Corpus(rawValue: name)!] where !selected.contains(corpus) {
                    selected.append(corpus)
                }
            }
            let result: EvalRun
            do {
                result = try await runner.run(selected)
            } catch {
                throw Failure.exit(error)
            }
            if let json {
                try result.encoded().write(to: URL(fileURLWithPath: json), options: .atomic)
            }
            let markdown = EvalReport(runs: [result], command: runner.command).markdown()
            if let report {
                try markdown.write(toFile: report, atomically: true, encoding: .utf8)
            }
            print(markdown)
        }
    }

    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write the report (EVAL.md) of runs saved with --json, side by side.")

        @Argument(help: "JSON files written by fm eval --json.")
        var runs: [String]

        @Option(help: "Write the report here instead of standard output.")
        var output: String?

        @Option(help: "How the runs were made, for the report.")
        var command = "make eval"

        func validate() throws {
            if runs.isEmpty { throw ValidationError("give at least one JSON file written by fm eval --json") }
        }

        func run() throws {
            let decoded = try runs.map { path in
                do {
                    return try EvalRun.decode(Data(contentsOf: URL(fileURLWithPath: path)))
                } catch {
                    throw ValidationError("\(path) is not a run written by fm eval --json: \(error)")
                }
            }
            let markdown = EvalReport(runs: decoded, command: command).markdown()
            if let output {
                try markdown.write(toFile: output, atomically: true, encoding: .utf8)
                FileHandle.standardError.write(Data("wrote \(output)\n".utf8))
            } else {
                print(markdown, terminator: "")
            }
        }
    }

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write the corpora from their seeds (eval/corpora/*.json).")

        @Option(help: "The folder to write (default: eval/corpora, or eval/heldout with --held-out).")
        var output: String?

        @Flag(help: "Write the held-out sample: the same generators from other seeds.")
        var heldOut = false

        func run() throws {
            let directory = output.map { URL(fileURLWithPath: $0) } ?? (heldOut ? CorpusFiles.heldOutDirectory : CorpusFiles.defaultDirectory)
            try CorpusFiles.writeAll(to: directory, heldOut: heldOut)
            FileHandle.standardError.write(Data("wrote \(Corpus.files.map(\.fileName).joined(separator: ", ")) in \(directory.path)\n".utf8))
        }
    }
}

extension EvalMode: ExpressibleByArgument {}
