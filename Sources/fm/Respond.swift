import Foundation
import ArgumentParser
import FoundationModels

extension FM {
    /// `fm respond "PROMPT"`: one answer from the on-device model.
    struct Respond: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Answer a prompt with the on-device model.")

        @Argument(help: "The prompt.")
        var prompt: String

        @Option(help: "Instructions for the session.")
        var instructions: String?

        @Flag(help: "Print the answer as it is generated.")
        var stream = false

        @Flag(help: "Always pick the most likely token (deterministic).")
        var greedy = false

        @Option(help: "Sampling temperature.")
        var temperature: Double?

        @Option(name: .customLong("top-k"), help: "Sample from the K most likely tokens.")
        var topK: Int?

        @Option(name: .customLong("top-p"), help: "Sample from the smallest set of tokens whose probability reaches P.")
        var topP: Double?

        @Option(help: "Random seed, for reproducible sampling.")
        var seed: UInt64?

        @Option(name: .customLong("max-tokens"), help: "The most tokens to generate.")
        var maxTokens: Int?

        @Option(help: ArgumentHelp(
            "A JSON Schema file: the answer is JSON that follows it, enforced token by token.",
            valueName: "file.json"
        ))
        var schema: String?

        @Flag(name: .customLong("no-schema-in-prompt"), help: "With --schema: enforce the schema without describing it in the prompt.")
        var noSchemaInPrompt = false

        @OptionGroup var model: ModelOptions

        func validate() throws {
            if greedy, temperature != nil || topK != nil || topP != nil || seed != nil {
                throw ValidationError("--greedy cannot be combined with --temperature, --top-k, --top-p or --seed")
            }
            if topK != nil, topP != nil {
                throw ValidationError("choose one of --top-k and --top-p")
            }
            if let maxTokens, maxTokens < 1 { throw ValidationError("--max-tokens must be at least 1") }
            if let topK, topK < 1 { throw ValidationError("--top-k must be at least 1") }
            if let topP, !(topP > 0 && topP <= 1) { throw ValidationError("--top-p must be in (0, 1]") }
            if let temperature, !(temperature >= 0) { throw ValidationError("--temperature must be 0 or more") }
        }

        var options: GenerationOptions {
            let sampling: GenerationOptions.SamplingMode?
            if greedy {
                sampling = .greedy
            } else if let topK {
                sampling = .random(top: topK, seed: seed)
            } else if let topP {
                sampling = .random(probabilityThreshold: topP, seed: seed)
            } else if let seed {
                sampling = .random(top: 40, seed: seed)
            } else {
                sampling = nil
            }
            return GenerationOptions(samplingMode: sampling, temperature: temperature, maximumResponseTokens: maxTokens)
        }

        /// The schema from `--schema`, with a message naming the file when it
        /// cannot be read or uses a keyword guided generation does not support.
        func loadSchema(_ path: String) throws -> GenerationSchema {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw ValidationError("cannot read the schema file \(path): \(error.localizedDescription)")
            }
            do {
                // The order-keeping parser, not JSONDecoder: a JSON Schema's
                // `properties` are generated in the order they are written.
                let document = try GeneratedContent(json: String(decoding: data, as: UTF8.self))
                return try GenerationSchema(jsonSchema: document)
            } catch let DecodingError.dataCorrupted(context) {
                throw ValidationError("\(path) is not a supported JSON Schema: \(context.debugDescription)")
            } catch {
                throw ValidationError("\(path) is not a supported JSON Schema: \(error)")
            }
        }

        func run() async throws {
            let session = LanguageModelSession(model: model.model, instructions: instructions)
            do {
                if let schema = try self.schema.map(loadSchema) {
                    if stream {
                        let responses = session.streamResponse(to: prompt, schema: schema, includeSchemaInPrompt: !noSchemaInPrompt, options: options)
                        for try await snapshot in responses {
                            print(snapshot.rawContent.jsonString)
                        }
                    } else {
                        let response = try await session.respond(to: prompt, schema: schema, includeSchemaInPrompt: !noSchemaInPrompt, options: options)
                        print(response.content.jsonString)
                    }
                } else if stream {
                    var printed = ""
                    for try await snapshot in session.streamResponse(to: prompt, options: options) {
                        let text = snapshot.content
                        if text.hasPrefix(printed) {
                            FileHandle.standardOutput.write(Data(text.dropFirst(printed.count).utf8))
                        }
                        printed = text
                    }
                    print()
                } else {
                    print(try await session.respond(to: prompt, options: options).content)
                }
            } catch {
                throw Failure.exit(error)
            }
        }
    }
}
