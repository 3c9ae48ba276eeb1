import Foundation
import ArgumentParser
import FoundationModels
import FoundationModelsTiers

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
            if greedy, temperature != nil || topK != nil || topP != nil || seed != nil {
                throw ValidationError("--greedy cannot be combined with --temperature, --top-k, --top-p or --seed")
            }
            if topK != nil, topP != nil {
                throw ValidationError("choose one of --top-k and --top-p")
            }
            // The values themselves (--temperature, --top-k, --top-p,
            // --max-tokens) are checked where the API checks them: the
            // session fails the request before the model runs, and the
            // error ends the command through Failure.
            if policy != nil, schema != nil { throw ValidationError("--policy answers in text; it cannot be combined with --schema") }
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
        func runRouted(_ policy: TierPolicy) async throws {
            let privateCloud: any LanguageModel = try serverLanguageModel() ?? PrivateCloudComputeLanguageModel()
            let router = ModelRouter(onDevice: model.model, privateCloud: privateCloud)
            if stream {
                var printed = ""
                var tier: ModelTier?
                for try await snapshot in router.streamResponse(to: prompt, instructions: instructions, policy: policy, options: options) {
                    if snapshot.tier != tier {
                        if tier != nil { print() }
                        tier = snapshot.tier
                        printed = ""
                    }
                    if snapshot.isFinal {
                        for skip in snapshot.skipped { FileHandle.standardError.write(Data("skipped \(skip)\n".utf8)) }
                        FileHandle.standardError.write(Data("served by: \(snapshot.tier)\n".utf8))
                    } else if snapshot.content.hasPrefix(printed) {
                        FileHandle.standardOutput.write(Data(snapshot.content.dropFirst(printed.count).utf8))
                        printed = snapshot.content
                    }
                }
                print()
            } else {
                let response = try await router.respond(to: prompt, instructions: instructions, policy: policy, options: options)
                for skip in response.skipped { FileHandle.standardError.write(Data("skipped \(skip)\n".utf8)) }
                FileHandle.standardError.write(Data("served by: \(response.tier)\n".utf8))
                print(response.content)
            }
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
            let session: LanguageModelSession
            if let server = try serverLanguageModel(), policy == nil {
                session = LanguageModelSession(model: server, instructions: instructions)
            } else {
                session = LanguageModelSession(model: model.model, instructions: instructions)
            }
            do {
                if let policy {
                    try await runRouted(policy.policy)
                    return
                }
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
