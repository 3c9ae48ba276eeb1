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

        @Option(help: ArgumentHelp("A JSON Schema file.", valueName: "file.json"))
        var schema: String?

        @Option(help: ArgumentHelp("An example's @Generable type (fm schema --list names them).", valueName: "TYPE"))
        var type: String?

        @OptionGroup var model: ModelOptions

        func validate() throws {
            if prompt == nil, instructions == nil, schema == nil, type == nil {
                throw ValidationError("give a prompt, --instructions, --schema or --type to count")
            }
            if schema != nil, type != nil { throw ValidationError("choose one of --schema and --type") }
            if let type, ExampleTypes.named(type) == nil { throw ValidationError(ExampleTypes.unknown(type)) }
        }

        func run() async throws {
            var rows: [(String, Int)] = []
            do {
                let model = try await self.model.loadedModel()
                if let instructions {
                    rows.append(("instructions", try await model.tokenCount(for: Instructions(instructions))))
                }
                if prompt != nil {
                    rows.append(("prompt", try await model.tokenCount(for: try StandardInput.argument(prompt, name: "prompt"))))
                }
                if let path = schema {
                    rows.append(("schema \(path)", try await model.tokenCount(for: try Respond.loadSchema(path))))
                }
                if let type, let generable = ExampleTypes.named(type) {
                    rows.append(("schema \(type)", try await model.tokenCount(for: generable.generationSchema)))
                }
                let width = rows.map(\.0.count).max() ?? 0
                for (name, count) in rows {
                    print(name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + String(count))
                }
                if rows.count > 1 {
                    print("total".padding(toLength: width + 2, withPad: " ", startingAt: 0) + String(rows.map(\.1).reduce(0, +)))
                }
                print("context".padding(toLength: width + 2, withPad: " ", startingAt: 0) + String(model.contextSize))
            } catch let error as ValidationError {
                throw error
            } catch {
                throw Failure.exit(error)
            }
        }
    }
}
