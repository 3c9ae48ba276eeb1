import ArgumentParser
import Foundation
import FoundationModels
import FoundationModelsTiers
import TerminalSupport

extension FM {
    /// `fm respond "PROMPT"`: one answer from the on-device model.
    struct Respond: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Answer a prompt with the on-device model.")

        @Argument(help: "The prompt (- reads it from standard input, as does leaving it out with no --text or --image).")
        var prompt: String?

        @Option(name: [.customShort("i"), .long], help: "Instructions for the session.")
        var instructions: String?

        @Option(
            help: ArgumentHelp(
                "A JSON Schema, as a file or as JSON text (what fm schema object prints): the answer is JSON that follows it, enforced token by token.",
                valueName: "file.json|json"
            ))
        var schema: String?

        @Option(name: .customLong("text"), help: ArgumentHelp("Text to add to the prompt, after it (repeatable).", valueName: "text"))
        var texts: [String] = []

        @Option(
            name: .customLong("image"),
            help: ArgumentHelp(
                """
                An image for the prompt (repeatable). The model has no vision: the image's text, read by OCR (Tesseract), goes into \
                the prompt instead, as stderr says.
                """,
                valueName: "file"))
        var images: [String] = []

        @Option(
            name: .customLong("label"), help: ArgumentHelp("A name for the --image in the same position (default: its file name).", valueName: "name")
        )
        var labels: [String] = []

        @Option(
            name: .customLong("tool"),
            help: ArgumentHelp(
                "A built-in tool the model may call (repeatable): ocr (Tesseract reads an image's text), barcode (zbar reads its codes).",
                valueName: "ocr|barcode"))
        var tools: [BuiltInTool] = []

        @Option(
            help: ArgumentHelp(
                "Continue the conversation saved in this transcript (JSON, as --save-transcript and fm chat write it).", valueName: "file.json"))
        var resume: String?

        @Option(
            name: .customLong("save-transcript"),
            help: ArgumentHelp("After answering, save the conversation's transcript to this file.", valueName: "file.json"))
        var saveTranscript: String?

        @Flag(
            inversion: .prefixedNo,
            help: """
                Print the answer as it is generated (the default; --no-stream prints it once whole). With --schema or --type the \
                default prints the final JSON once; --stream prints each partial JSON value on a line of its own.
                """)
        var stream: Bool?

        @Flag(
            name: [.customShort("v"), .long], help: "Also print, on standard error, the model, its settings, the prompt's tokens and the time taken.")
        var verbose = false

        @OptionGroup var generation: GenerationArguments

        @Option(
            help: ArgumentHelp(
                "An example's @Generable type: the answer is that type's JSON (fm schema --list names them).",
                valueName: "TYPE"
            ))
        var type: String?

        @Flag(name: .customLong("no-schema-in-prompt"), help: "With --schema or --type: enforce the schema without describing it in the prompt.")
        var noSchemaInPrompt = false

        @OptionGroup var model: ModelOptions

        @OptionGroup var system: SystemModelArguments

        @Option(
            help: ArgumentHelp(
                "Answer from an OpenAI-compatible server instead (its API root, such as http://127.0.0.1:8080/v1; https:// unless on this machine).",
                valueName: "url"
            ))
        var server: String?

        @Option(name: .customLong("server-model"), help: "With --server: the model name the server knows.")
        var serverModel = "default"

        @Option(
            name: .customLong("api-key-env"), help: ArgumentHelp("With --server: the environment variable holding the API key.", valueName: "name"))
        var apiKeyEnv = "OPENAI_API_KEY"

        @Option(
            help: ArgumentHelp(
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
            if policy != nil, schema != nil || type != nil {
                throw ValidationError("--policy answers in text; it cannot be combined with --schema or --type")
            }
            if policy != nil, !tools.isEmpty || resume != nil || saveTranscript != nil {
                throw ValidationError("--policy routes one prompt; it cannot be combined with --tool, --resume or --save-transcript")
            }
            if server != nil, !system.isDefault {
                throw ValidationError("--use-case and --guardrails choose the system model's; --server answers from another model")
            }
            try ImageText.validate(images: images, labels: labels)
            _ = try BuiltInTool.make(tools)
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
            let router = ModelRouter(onDevice: try model.model(system), privateCloud: privateCloud)
            if stream ?? true {
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
        /// JSON text in place of a path is read as the schema itself, so
        /// `--schema "$(fm schema object …)"` works as Apple's nested
        /// `--schema` does.
        static func loadSchema(_ path: String) throws -> GenerationSchema {
            let data: Data
            if path.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("{") {
                data = Data(path.utf8)
            } else {
                do {
                    data = try Data(contentsOf: URL(fileURLWithPath: path))
                } catch {
                    throw ValidationError("cannot read the schema file \(path): \(error.localizedDescription)")
                }
            }
            let path = path.hasPrefix("{") ? "the schema" : path
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

        /// The prompt: the argument, then each `--text`, then each `--image`'s
        /// text; standard input when none of them is given.
        func composedPrompt() async throws -> String {
            var parts: [String] = []
            if prompt == "-" || prompt == nil && texts.isEmpty && images.isEmpty {
                parts.append(try StandardInput.argument(nil, name: "prompt"))
            } else if let prompt {
                parts.append(prompt)
            }
            parts += texts
            parts += try await ImageText.segments(images: images, labels: labels)
            return parts.joined(separator: "\n\n")
        }

        func run() async throws {
            let prompt = try await composedPrompt()
            let tools = try BuiltInTool.make(self.tools)
            do {
                // Before any model loads: the values no model can honor fail
                // as the API fails them.
                try generation.options.validate()
                if let policy {
                    try await runRouted(prompt, policy: policy.policy)
                    return
                }
                let resumed = try resume.map { try TranscriptFile.load($0) }
                if resumed != nil, instructions != nil { notice("--instructions ignored: the resumed conversation keeps its own") }
                let session: LanguageModelSession
                if let server = try serverLanguageModel() {
                    if verbose { notice("model: \(server.modelName) at \(server.baseURL.absoluteString)") }
                    session =
                        resumed.map { LanguageModelSession(model: server, tools: tools, transcript: $0) }
                        ?? LanguageModelSession(model: server, tools: tools, instructions: instructions)
                } else {
                    let model = try await model.loadedModel(system)
                    if verbose {
                        notice(
                            "model: \(model.configuration.modelPath) (context \(model.contextSize) tokens; "
                                + "use case \(system.useCase.rawValue), guardrails \(system.guardrails.rawValue))")
                        notice("prompt: \(try await model.tokenCount(for: prompt)) tokens")
                    }
                    session =
                        resumed.map { LanguageModelSession(model: model, tools: tools, transcript: $0) }
                        ?? LanguageModelSession(model: model, tools: tools, instructions: instructions)
                }
                if verbose, !tools.isEmpty { notice("tools: \(tools.map(\.name).joined(separator: ", "))") }
                let stopwatch = Stopwatch()
                let entriesBefore = session.transcript.count
                try await answer(prompt, in: session)
                if verbose {
                    for entry in session.transcript.dropFirst(entriesBefore) {
                        if case .toolCalls(let calls) = entry { for call in calls { notice("tool call: \(call)") } }
                    }
                    notice("answered in \(stopwatch.formatted)")
                }
                if let saveTranscript { try TranscriptFile.save(session.transcript, to: saveTranscript) }
            } catch {
                throw Failure.exit(error)
            }
        }

        /// Remarks beside the answer: standard error, dimmed on a terminal.
        func notice(_ text: String) {
            let stream = TerminalStream.error
            stream.line(stream.styled(text, .dim))
        }

        func answer(_ prompt: String, in session: LanguageModelSession) async throws {
            let schema = try self.schema.map(Self.loadSchema) ?? type.flatMap(ExampleTypes.named)?.generationSchema
            if let schema {
                if stream == true {
                    let responses = session.streamResponse(to: prompt, schema: schema, includeSchemaInPrompt: !noSchemaInPrompt, options: options)
                    for try await snapshot in responses {
                        print(snapshot.rawContent.jsonString)
                    }
                } else {
                    let response = try await session.respond(to: prompt, schema: schema, includeSchemaInPrompt: !noSchemaInPrompt, options: options)
                    print(response.content.jsonString)
                }
            } else if stream ?? true {
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
        }
    }
}

/// A conversation's transcript as a JSON file: Apple's `Transcript`
/// Codable shape, so `fm respond --save-transcript`, `--resume` and
/// `fm chat` read each other's files.
enum TranscriptFile {
    static func load(_ path: String) throws -> Transcript {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("cannot read the transcript \(path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(Transcript.self, from: data)
        } catch {
            throw ValidationError("\(path) is not a transcript (fm respond --save-transcript and fm chat write them): \(error)")
        }
    }

    static func save(_ transcript: Transcript, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted]
        do {
            try encoder.encode(transcript).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ValidationError("cannot save the transcript to \(path): \(error.localizedDescription)")
        }
    }
}
