import ArgumentParser
import Foundation
import FoundationModels

extension FM {
    /// `fm tokens`: what a prompt, instructions and a schema cost in the
    /// model's context, counted by the model's own tokenizer and chat
    /// template (`SystemLanguageModel.tokenCount(for:)`).
    struct Tokens: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Count the tokens a prompt, instructions or a schema take in the model's context.")

        @Argument(help: "The prompt (- reads standard input).")
        var prompt: String?

        @Option(help: "Instructions.")
        var instructions: String?

        @Option(help: ArgumentHelp("A JSON Schema file (repeatable).", valueName: "file.json"))
        var schema: [String] = []

        @Option(help: ArgumentHelp("An example's @Generable type (fm schema --list names them).", valueName: "TYPE"))
        var type: String?

        @Flag(name: .customLong("show-description"), help: "With --schema or --type: also print the schema's description as the prompt sends it.")
        var showDescription = false

        @OptionGroup var model: ModelOptions

        func validate() throws {
            if prompt == nil, instructions == nil, schema.isEmpty, type == nil {
                throw ValidationError("give a prompt, --instructions, --schema or --type to count")
            }
            if !schema.isEmpty, type != nil { throw ValidationError("choose one of --schema and --type") }
            if let type, ExampleTypes.named(type) == nil { throw ValidationError(ExampleTypes.unknown(type)) }
        }

        func run() async throws {
            var rows: [(String, Int)] = []
            var notes: [String: String] = [:]
            var descriptions: [String] = []
            do {
                let model = try await self.model.loadedModel()
                if let instructions {
                    rows.append(("instructions", try await model.tokenCount(for: Instructions(instructions))))
                }
                if prompt != nil {
                    rows.append(("prompt", try await model.tokenCount(for: try StandardInput.argument(prompt, name: "prompt"))))
                }
                // A schema twice: its JSON Schema text (what Apple's
                // tokenCount(for:) counts), and the description a request
                // that includes it in the prompt sends, with how it was shortened.
                var schemas: [(String, GenerationSchema)] = []
                var unreadable: [String] = []
                for path in schema {
                    // One unreadable file among several is reported, not fatal.
                    do { schemas.append((path, try Respond.loadSchema(path))) } catch  where schema.count > 1 {
                        unreadable.append("\(path): \(error)")
                    }
                }
                if let type, let generable = ExampleTypes.named(type) { schemas.append((type, generable.generationSchema)) }
                for (name, schema) in schemas {
                    rows.append(("schema \(name)", try await model.tokenCount(for: schema)))
                    let sent = try await model.schemaPromptReport(for: schema)
                    rows.append(("  \(name) in the prompt", sent.tokens))
                    let budget = sent.budget.map { ", budget \($0)" } ?? ""
                    notes["  \(name) in the prompt"] = sent.detail.map { "\($0.rawValue) (whole: \(sent.wholeTokens)\(budget))" } ?? "whole\(budget)"
                    if showDescription { descriptions.append(sent.text) }
                }
                let width = rows.map(\.0.count).max() ?? 0
                for (name, count) in rows {
                    print(name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + String(count) + (notes[name].map { "  " + $0 } ?? ""))
                }
                // The total is what a request pays: a schema's description, not its JSON.
                let paid = rows.filter { !$0.0.hasPrefix("schema ") }
                if paid.count > 1 {
                    print("total".padding(toLength: width + 2, withPad: " ", startingAt: 0) + String(paid.map(\.1).reduce(0, +)))
                }
                print("context".padding(toLength: width + 2, withPad: " ", startingAt: 0) + String(model.contextSize))
                for line in unreadable { print("unreadable " + line) }
                for description in descriptions { print("\n" + description) }
            } catch let error as ValidationError {
                throw error
            } catch {
                throw Failure.exit(error)
            }
        }
    }
}
