import Foundation
import ArgumentParser
import FoundationModels
import FoundationModelsTiers
import TerminalSupport

extension FM {
    /// `fm respond "PROMPT"`: one answer from the on-device model.
    struct Respond: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Answer a prompt with the on-device model.")

        @Argument(help: "The prompt (omitted or -: read from standard input).")
        var prompt: String?

        @Option(help: "Instructions for the session.")
        var instructions: String?

        @Flag(help: "Print the answer as it is generated.")
        var stream = false

        @OptionGroup var generation: GenerationArguments

        @Option(help: ArgumentHelp(
            "A JSON Schema file: the answer is JSON that follows it, enforced token by token.",
            valueName: "file.json"
        ))
        var schema: String?

        @Option(help: ArgumentHelp(
            "An example's @Generable type: the answer is that type's JSON (fm schema --list names them).",
            valueName: "TYPE"
        ))
        var type: String?

        @Flag(name: .customLong("no-schema-in-prompt"), help: "With --schema or --type: enforce the schema without describing it in the prompt.")
        var noSchemaInPrompt = false

        @OptionGroup var model: ModelOptions

        @Option(help: ArgumentHelp(
            "Answer from an OpenAI-compatible server instead (its API root, such as http://127.0.0.1:8080/v1; https:// unless on this machine).",
            valueName: "url"
        ))
        var server: String?

        @Option(name: .customLong("server-model"), help: "With --server: the model name the server knows.")
        var serverModel = "default"

        @Option(name: .customLong("api-key-env"), help: ArgumentHelp("With --server: the environment variable holding the API key.", valueName: "name"))
        var apiKeyEnv = "OPENAI_API_KEY"

        @Option(help: ArgumentHelp(
            "Route by tier policy: local (on device only), cloudFree (the private server, else on device), premium. The private server is --server, else FOUNDATION_MODELS_PCC_URL.",
            valueName: "local|cloudFree|premium"
        ))
        var policy: PolicyName?

        enum PolicyName: String, ExpressibleByArgument, CaseIterable {
            case local, cloudFree, premium
            var policy: TierPolicy {
                switch self {
                case .local: .local
                case .cloudFree: .cloudFree
                case .premium: .premium
                }
            }
        }

        func validate() throws {
            if policy != nil, schema != nil || type != nil { throw ValidationError("--policy answers in text; it cannot be combined with --schema or --type") }
            if schema != nil, type != nil { throw ValidationError("choose one of --schema and --type") }
            if let type, ExampleTypes.named(type) == nil { throw ValidationError(ExampleTypes.unknown(type)) }
        }

        /// The `--server` model, or `nil` without one.
        func serverLanguageModel() throws -> OpenAICompatibleLanguageModel? {
            guard let server else { return nil }
            guard let url = URL(string: server) else { throw ValidationError("--server is not a URL: \(server)") }
            do {
                return try OpenAICompatibleLanguageModel(baseURL: url, model: serverModel, apiKeyEnvironmentVariable: apiKeyEnv)
            } catch {
                throw ValidationError("--server: \(error)")
            }
        }

        /// `--policy`: the router over the on-device model and the private
        /// server; the serving tier and the skipped ones go to stderr.
        func runRouted(_ prompt: String, policy: TierPolicy) async throws {
            let privateCloud: any LanguageModel = try serverLanguageModel() ?? PrivateCloudComputeLanguageModel()
            let router = ModelRouter(onDevice: try model.model, privateCloud: privateCloud)
            if stream {
                var printed = ""
                var tier: ModelTier?
                for try await snapshot in router.streamResponse(to: prompt, instructions: instructions, policy: policy, options: options) {
                    if snapshot.tier != tier {
                        if tier != nil { TerminalStream.output.line() }
                        tier = snapshot.tier
                        printed = ""
                    }
                    if snapshot.isFinal {
                        for skip in snapshot.skipped { TerminalStream.error.line("skipped \(skip)") }
                        TerminalStream.error.line("served by: \(snapshot.tier)")
                    } else if snapshot.content.hasPrefix(printed) {
                        TerminalStream.output.write(String(snapshot.content.dropFirst(printed.count)))
                        printed = snapshot.content
                    }
                }
                TerminalStream.output.line()
            } else {
                let response = try await router.respond(to: prompt, instructions: instructions, policy: policy, options: options)
                for skip in response.skipped { TerminalStream.error.line("skipped \(skip)") }
                TerminalStream.error.line("served by: \(response.tier)")
                print(response.content)
            }
        }

        var options: GenerationOptions { generation.options }

        /// The schema from `--schema`, with a message naming the file when it
        /// cannot be read or uses a keyword guided generation does not support.
        static func loadSchema(_ path: String) throws -> GenerationSchema {
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
            let prompt = try StandardInput.argument(self.prompt, name: "prompt")
            do {
                // Before any model loads: the values no model can honor fail
                // as the API fails them.
                try generation.options.validate()
                if let policy {
                    try await runRouted(prompt, policy: policy.policy)
                    return
                }
                let session: LanguageModelSession
                if let server = try serverLanguageModel() {
                    session = LanguageModelSession(model: server, instructions: instructions)
                } else {
                    session = LanguageModelSession(model: try await model.loadedModel(), instructions: instructions)
                }
                let schema = try self.schema.map(Self.loadSchema) ?? type.flatMap(ExampleTypes.named)?.generationSchema
                if let schema {
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
                            TerminalStream.output.write(String(text.dropFirst(printed.count)))
                        }
                        printed = text
                    }
                    TerminalStream.output.line()
                } else {
                    print(try await session.respond(to: prompt, options: options).content)
                }
            } catch {
                throw Failure.exit(error)
            }
        }
    }
}
