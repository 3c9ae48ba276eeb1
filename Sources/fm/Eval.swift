import ArgumentParser
import Foundation
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
            discussion:
                "fm eval CORPUS... runs corpora (receipts, receipts-guide-examples, receipts-documented, tickets, flashcards, crates, albums, recommendations, coaching, json-object, receipts-photo-light, receipts-photo-heavy, or all: those answered from text, but for the documented receipts); fm eval tools runs the tool-use corpus, in process or through an OpenAI-compatible server such as fm serve; fm eval report turns runs' JSON into EVAL.md; fm eval generate rewrites the corpora from their seeds.",
            subcommands: [Run.self, Tools.self, Report.self, Generate.self],
            defaultSubcommand: Run.self
        )
    }
}

extension FM.Eval {
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Answer and score a corpus (the default subcommand).")

        @Argument(
            help:
                "One or more of receipts, receipts-guide-examples, receipts-documented, tickets, flashcards, crates, albums, recommendations, coaching, json-object, receipts-photo-light, receipts-photo-heavy; or all (every corpus answered from text, but for the documented receipts)."
        )
        var corpora: [String]

        @OptionGroup var model: ModelOptions

        @Option(
            name: .customLong("mode"), parsing: .upToNextOption,
            help:
                "Modes to run: guided, budgeted (guided with the example's own options, compared with guided), doubled (guided with twice the tokens the guided answer took, compared with it byte for byte; needs guided), free, grammar, pipeline (default: all six; budgeted and pipeline only where the corpus is an example's and it has one)."
        )
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

        @Option(help: "The source revision fm was built from, recorded in the run and shown in the report (make eval passes git's).")
        var revision: String?

        func validate() throws {
            if corpora.isEmpty { throw ValidationError("name a corpus: one of \(Corpus.allCases.map(\.rawValue).joined(separator: ", ")), or all") }
            for corpus in corpora where corpus != "all" && Corpus(rawValue: corpus) == nil {
                throw ValidationError("unknown corpus \(corpus): choose one of \(Corpus.allCases.map(\.rawValue).joined(separator: ", ")), all")
            }
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
            if !(timeLimit > 0) { throw ValidationError("--time-limit must be more than 0") }
            if modes.isEmpty { throw ValidationError("--mode needs at least one of \(EvalMode.allCases.map(\.rawValue).joined(separator: ", "))") }
            // The doubled mode's budget is the guided answer's tokens twice over.
            if modes.contains(.doubled), !modes.contains(.guided) {
                throw ValidationError("--mode doubled takes its budget from the guided answer: add guided")
            }
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
            var result: EvalRun
            do {
                result = try await runner.run(selected)
            } catch {
                throw Failure.exit(error)
            }
            result.revision = revision
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

    /// `fm eval tools`: the tool-use corpus (eval/corpora/tools.json) on
    /// the model in process, or with `--server` through an OpenAI-compatible
    /// server (`fm serve`): the same items, the same scoring, so the two
    /// paths can be set side by side in EVAL.md.
    struct Tools: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Answer and score the tool-use corpus (calls, and answers from their results).")

        @OptionGroup var model: ModelOptions

        @Option(help: "An OpenAI-compatible server's API root (http://127.0.0.1:8080/v1, fm serve's): run through it instead of in process.")
        var server: String?

        @Option(name: .customLong("server-model"), help: "The model name sent to --server (fm serve's: GET /v1/models lists it).")
        var serverModel: String?

        @Option(
            name: .customLong("server-mode"),
            help: "What the report calls the path through --server (default: fm serve; llama-server --jinja for the reference run).")
        var serverMode: String?

        @Option(help: "Answer only the first N items.")
        var limit: Int?

        @Option(help: "Write the run to this JSON file (an input of fm eval report).")
        var json: String?

        @Option(help: "What the report calls this run (default: the model file's name).")
        var label: String?

        @Option(name: .customLong("time-limit"), help: "Seconds an item (all its turns) may take before it counts as timed out.")
        var timeLimit: Double = 60

        @Option(help: "The source revision fm was built from, recorded in the run and shown in the report (make eval passes git's).")
        var revision: String?

        @Option(name: .customLong("corpora"), help: "The folder of the corpus files (default: eval/corpora).")
        var corporaFolder: String?

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
            if !(timeLimit > 0) { throw ValidationError("--time-limit must be more than 0") }
            if (serverModel == nil) != (server == nil) {
                throw ValidationError("--server and --server-model go together: the server's API root and the model name it serves")
            }
            if serverMode != nil, server == nil { throw ValidationError("--server-mode names the path through --server; give --server too") }
        }

        func run() async throws {
            let directory = corporaFolder.map { URL(fileURLWithPath: $0) } ?? CorpusFiles.defaultDirectory
            let items: [ToolsItem]
            do {
                items = try ToolsCorpus.load(from: directory)
            } catch {
                throw Failure.exit(error)
            }
            let run: ToolsRun
            if let server, let name = serverModel {
                let remote: OpenAICompatibleLanguageModel
                do {
                    remote = try ToolsEval.serverModel(baseURL: server, model: name)
                } catch {
                    throw ValidationError(error.description)
                }
                run = await ToolsEval.run(
                    items: items, model: remote,
                    options: ToolsOptions(
                        label: label ?? name, mode: serverMode ?? ToolsEval.serverMode, timeLimit: timeLimit, limit: limit, revision: revision))
            } else {
                let system = try model.model
                let name = URL(fileURLWithPath: system.configuration.modelPath).deletingPathExtension().lastPathComponent
                run = await ToolsEval.run(
                    items: items, model: system,
                    options: ToolsOptions(
                        label: label ?? name, mode: ToolsEval.libraryMode, timeLimit: timeLimit, limit: limit, revision: revision))
            }
            if let json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                try encoder.encode(run).write(to: URL(fileURLWithPath: json), options: .atomic)
            }
            print(ToolsReport.markdown([run]), terminator: "")
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
            var decoded: [EvalRun] = []
            var toolRuns: [ToolsRun] = []
            for path in runs {
                let data: Data
                do {
                    data = try Data(contentsOf: URL(fileURLWithPath: path))
                } catch {
                    throw ValidationError("cannot read \(path): \(error)")
                }
                if let run = try? EvalRun.decode(data) {
                    decoded.append(run)
                } else if let run = try? JSONDecoder().decode(ToolsRun.self, from: data) {
                    toolRuns.append(run)
                } else {
                    throw ValidationError("\(path) is not a run written by fm eval --json or fm eval tools --json")
                }
            }
            var markdown = decoded.isEmpty ? "" : EvalReport(runs: decoded, command: command).markdown()
            if !toolRuns.isEmpty { markdown += (markdown.isEmpty ? "" : "\n") + ToolsReport.markdown(toolRuns) }
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
            try ToolsCorpus.write(to: directory, heldOut: heldOut)
            FileHandle.standardError.write(
                Data("wrote \((Corpus.files.map(\.fileName) + ["tools.json"]).joined(separator: ", ")) in \(directory.path)\n".utf8))
        }
    }
}

extension EvalMode: ExpressibleByArgument {}
