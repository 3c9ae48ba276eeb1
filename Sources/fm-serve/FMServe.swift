import ArgumentParser
import Foundation
import FoundationModels
import FoundationModelsServer
import FoundationModelsTiers
import Logging

/// `fm serve` (fm runs this program, which it finds beside itself): an
/// OpenAI-compatible server over the in-process model. A program of its own
/// so that fm, and the tour that builds it, do not compile the HTTP server.
@main
struct FMServe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fm serve",
        abstract: "Serve the model over an OpenAI-compatible HTTP API (Chat Completions, Responses).",
        discussion: """
            POST /v1/chat/completions (stream, tools and tool_choice, response_format json_schema / \
            json_object, max_tokens, temperature, top_p, seed, stop), POST /v1/responses (stateless: input, instructions, \
            text.format, function tools, streaming), GET /v1/models, GET /health, GET /metrics (Prometheus). Every response \
            carries an x-request-id, which the access log names; --trace writes each request's spans (queue wait, prefill, \
            decode) as JSON lines. Binds 127.0.0.1 unless --host \
            says otherwise (or a Unix domain socket: --socket PATH); browsers on other origins are refused unless \
            --cors-origin allows them. The API key comes from --api-key or FM_SERVE_API_KEY; without one, no key is asked for. \
            With --server, the requests are answered by another OpenAI-compatible server's model (its own \
            structured output and tools), behind this server's key, limits and errors; with --fallback-local as \
            well, that server is the private tier of the tier router and the in-process model answers while it \
            cannot (down, overloaded, rate-limited). Several models: --model NAME=PATH (repeatable), --adapter NAME=FILE \
            (an adapter served as a model of its own over the first model; NAME@BASE=FILE over another), --alias ALIAS=NAME; \
            each model's own ,context-size=N ,parallel=N ,max-queue=N ,schema-budget=N ,tools-budget=N after its path.
            """
    )

    @Option(help: "The address to listen on (default: 127.0.0.1).")
    var host: String?

    @Option(help: "The port to listen on (0: any free port, printed when listening; default: 8080).")
    var port: Int?

    @Option(
        help: ArgumentHelp(
            "Listen on a Unix domain socket instead of TCP (its file's permissions say who may connect; the API key still applies).",
            valueName: "path"
        ))
    var socket: String?

    @Option(
        name: .customLong("model"),
        help: ArgumentHelp(
            "A GGUF model file (default: FOUNDATION_MODELS_MODEL, else the installed default). Repeat it as NAME=PATH to serve several, each under its name (the first answers requests that name none); add ,context-size=N ,parallel=N ,max-queue=N ,schema-budget=N ,tools-budget=N for that model's own.",
            valueName: "[name=]path"
        ))
    var models: [String] = []

    /// The one-model command line's file.
    var modelPath: String? { models.first }

    @Option(name: .customLong("model-name"), help: "The model's name in the API (default: the file's name without .gguf, or --server-model).")
    var modelName: String?

    @Option(
        name: .customLong("adapter"),
        help: ArgumentHelp(
            "A LoRA adapter (GGUF) for the model, applied to every answer; or NAME=FILE, served as a model of its own over the first model (NAME@BASE=FILE: over model BASE), with the same ,context-size= ,parallel= ,max-queue= options.",
            valueName: "[name=]file"
        ))
    var adapters: [String] = []

    /// The one-model command line's adapter.
    var adapterPath: String? { adapters.first }

    @Option(
        name: .customLong("alias"),
        help: ArgumentHelp(
            "Another name clients may ask for, standing for a served model (for clients that hard-code one); repeatable.", valueName: "alias=name"))
    var aliases: [String] = []

    @Option(
        help: ArgumentHelp(
            "Serve an OpenAI-compatible server's model instead of a local file (its API root, such as http://127.0.0.1:8081/v1; https:// unless on this machine).",
            valueName: "url"
        ))
    var server: String?

    @Flag(
        name: .customLong("fallback-local"),
        help: "With --server: answer from the in-process model (--model, --adapter, --parallel…) while that server cannot serve.")
    var fallbackLocal = false

    @Option(name: .customLong("server-model"), help: "With --server: the model name that server knows.")
    var serverModel = "default"

    @Option(
        name: .customLong("server-api-key-env"),
        help: ArgumentHelp("With --server: the environment variable holding that server's API key.", valueName: "name"))
    var serverAPIKeyEnv: String?

    @Option(name: .customLong("api-key"), help: "The key clients must send as 'Authorization: Bearer KEY' (default: FM_SERVE_API_KEY).")
    var apiKey: String?

    @Option(help: "Requests answered at once: the model's parallel sequences.")
    var parallel: Int?

    @Option(name: .customLong("max-queue"), help: "Requests that may wait for a sequence; beyond them: 429 with Retry-After.")
    var maxQueue: Int?

    @Option(name: .customLong("context-size"), help: "Tokens each sequence holds, prompt and answer.")
    var contextSize: Int?

    @Option(
        name: .customLong("schema-budget"),
        help:
            "Tokens a request's schema (response_format) may take in the prompt; longer ones are described shorter (default 1024, FOUNDATION_MODELS_SCHEMA_BUDGET)."
    )
    var schemaBudget: Int?

    @Option(
        name: .customLong("tools-budget"),
        help:
            "Tokens a request's tool list may take in the prompt; names and one-line descriptions always (default 3072, FOUNDATION_MODELS_TOOLS_BUDGET)."
    )
    var toolsBudget: Int?

    @Option(name: .customLong("max-tokens"), help: "A cap on every answer's tokens.")
    var maxTokens: Int?

    @Option(name: .customLong("max-body-bytes"), help: "The largest request body accepted.")
    var maxBodyBytes = 1 << 20

    @Option(
        name: .customLong("idle-timeout"),
        help:
            "Seconds a connection may send nothing before it is closed: slow clients, and kept-alive connections between requests (keep it above clients' pool expiry: httpx, the openai client's, reuses idle connections for 5 s)."
    )
    var idleTimeout = 30

    @Option(name: .customLong("shutdown-timeout"), help: "Seconds answers in progress may take to finish after SIGTERM; then they are cancelled.")
    var shutdownTimeout = 10

    @Option(
        name: .customLong("cors-origin"),
        help: ArgumentHelp(
            "A browser origin allowed to call the API (CORS), such as https://app.example.com; repeat it for more, or '*' for any. Default: none.",
            valueName: "origin"
        ))
    var corsOrigins: [String] = []

    @Option(name: .customLong("log-format"), help: "The access log's format on standard error: text, or json (one object a line).")
    var logFormat: LogFormat = .text

    enum LogFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Flag(
        help:
            "Trace each request: its span and the engine's under it (queue wait, prefill, decode) as JSON lines on standard error (message 'span': name, trace_id, span_id, parent_id, start, duration_ms, attributes); a traceparent header continues the caller's trace."
    )
    var trace = false

    func validate() throws {
        let named: ModelArguments
        do {
            named = try ModelArguments(models: models, adapters: adapters, aliases: aliases, modelName: modelName)
        } catch {
            throw ValidationError(error.description)
        }
        if named.isNamed, server != nil {
            throw ValidationError("--server serves one model: several --model NAME=PATH or a named --adapter do not apply")
        }
        if corsOrigins.contains("*"), corsOrigins.count > 1 {
            throw ValidationError("--cors-origin '*' allows every origin: give it alone, or list the origins")
        }
        for origin in corsOrigins where origin != "*" {
            guard let url = URL(string: origin), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil,
                url.path.isEmpty, url.query == nil, !origin.hasSuffix("/")
            else {
                throw ValidationError("--cors-origin '\(origin)' is not an origin: scheme://host[:port], such as https://app.example.com")
            }
        }
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535") }
        if socket != nil, host != nil || port != nil { throw ValidationError("--socket listens on a file: --host and --port do not apply") }
        if let socket, socket.isEmpty { throw ValidationError("--socket needs a path") }
        if let parallel, parallel < 1 { throw ValidationError("--parallel must be at least 1") }
        if let maxQueue, maxQueue < 0 { throw ValidationError("--max-queue must be 0 or more") }
        if let contextSize, contextSize < 64 { throw ValidationError("--context-size must be at least 64") }
        if let schemaBudget, schemaBudget < 64 { throw ValidationError("--schema-budget must be at least 64") }
        if let toolsBudget, toolsBudget < 256 { throw ValidationError("--tools-budget must be at least 256") }
        if let maxTokens, maxTokens < 1 { throw ValidationError("--max-tokens must be at least 1") }
        guard maxBodyBytes >= 1024 else { throw ValidationError("--max-body-bytes must be at least 1024") }
        guard idleTimeout >= 1 else { throw ValidationError("--idle-timeout must be at least 1") }
        guard shutdownTimeout >= 0 else { throw ValidationError("--shutdown-timeout must be 0 or more") }
        let localOnly = [parallel, maxQueue, contextSize, schemaBudget, toolsBudget].contains { $0 != nil }
        if server != nil, !fallbackLocal, modelPath != nil || adapterPath != nil || localOnly {
            throw ValidationError(
                "--server serves another server's model: --model, --adapter, --parallel, --max-queue, --context-size, --schema-budget and --tools-budget do not apply (without --fallback-local)"
            )
        }
        if fallbackLocal, server == nil { throw ValidationError("--fallback-local needs --server: the server it falls back from") }
    }

    func run() async throws {
        // Before any request: the tracer is the process's, set once.
        if trace { SpanLogTracer.bootstrap() }
        let arguments = try ModelArguments(models: models, adapters: adapters, aliases: aliases, modelName: modelName)
        if arguments.isNamed { return try await runNamed(arguments) }
        let model: any LanguageModel
        let name: String
        let contextSize: Int?
        var capacity: (parallel: Int, queue: Int)?
        var unavailability: @Sendable () -> String? = { nil }
        var occupancy: @Sendable () -> EngineOccupancy? = { nil }
        if let server, fallbackLocal {
            // The server as the private tier: its errors (down, overloaded,
            // out of quota) walk down to the in-process model.
            guard let url = URL(string: server) else { throw ValidationError("--server is not a URL: \(server)") }
            let apiKey = serverAPIKeyEnv.flatMap { ProcessInfo.processInfo.environment[$0] }
            let upstream: PrivateCloudComputeLanguageModel
            do {
                upstream = try PrivateCloudComputeLanguageModel(url: url, model: serverModel, apiKey: apiKey)
            } catch {
                throw ValidationError("--server: \(error)")
            }
            let local = try await localModel()
            model = TieredLanguageModel(onDevice: local, privateCloud: upstream, policy: .cloudFree)
            name = modelName ?? serverModel
            contextSize = nil
        } else if let server {
            guard let url = URL(string: server) else { throw ValidationError("--server is not a URL: \(server)") }
            do {
                model = try OpenAICompatibleLanguageModel(baseURL: url, model: serverModel, apiKeyEnvironmentVariable: serverAPIKeyEnv)
            } catch {
                throw ValidationError("--server: \(error)")
            }
            name = modelName ?? serverModel
            contextSize = nil
        } else {
            let local = try await localModel()
            model = local
            name = modelName ?? local.configuration.modelFile.deletingPathExtension().lastPathComponent
            contextSize = local.contextSize
            capacity = (local.configuration.parallelSequences, local.configuration.maximumQueuedRequests)
            unavailability = { if case .available = local.availability { nil } else { "\(local.availability)" } }
            occupancy = { local.occupancy }
        }
        do {
            try arguments.checkAliases(against: [name])
        } catch {
            throw ValidationError(error.description)
        }
        let isGateway = server != nil && !fallbackLocal
        var server = configuration(modelName: name)
        server.aliases = arguments.aliases
        server.contextSize = contextSize
        server.isGateway = isGateway
        server.unavailability = unavailability
        server.parallelSequences = capacity?.parallel
        server.maximumQueue = capacity?.queue
        server.occupancy = occupancy
        let logger = logger()
        try await ChatCompletionsServer(model: model, configuration: server, logger: logger).run { port in
            announce(port: port, models: "model \(name)")
        }
    }

    /// Several models from one process (`--model NAME=PATH`, named
    /// adapters), each under its own name, with its own context,
    /// sequences and queue (``ModelArguments/load(parallelSequences:maximumQueue:contextSize:)``).
    func runNamed(_ arguments: ModelArguments) async throws {
        let served = try await arguments.load(
            parallelSequences: parallel, maximumQueue: maxQueue, contextSize: contextSize, schemaBudget: schemaBudget, toolsBudget: toolsBudget)
        for model in served {
            if let reason = model.unavailability() {
                FileHandle.standardError.write(Data("fm serve: \(model.name) is unavailable, served as such: \(reason)\n".utf8))
            }
        }
        do {
            try arguments.checkAliases(against: served.map(\.name))
        } catch {
            throw ValidationError(error.description)
        }
        var server = configuration(modelName: served[0].name)
        server.aliases = arguments.aliases
        let names = served.map(\.name).joined(separator: ", ")
        try await ChatCompletionsServer(models: served, configuration: server, logger: logger()).run { port in
            announce(port: port, models: "models \(names)")
        }
    }

    /// What every model shares: where it listens, the key, the limits, CORS.
    func configuration(modelName: String) -> ChatCompletionsServer.Configuration {
        var server = ChatCompletionsServer.Configuration(modelName: modelName)
        server.host = host ?? "127.0.0.1"
        server.port = port ?? 8080
        server.socketPath = socket
        server.apiKey = apiKey ?? ProcessInfo.processInfo.environment["FM_SERVE_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        server.maximumTokens = maxTokens
        server.maximumBodyBytes = maxBodyBytes
        server.tracing = trace
        server.idleTimeout = .seconds(idleTimeout)
        server.shutdownTimeout = .seconds(shutdownTimeout)
        if corsOrigins == ["*"] {
            server.cors = .anyOrigin
        } else if !corsOrigins.isEmpty {
            server.cors = .origins(corsOrigins)
        }
        return server
    }

    func logger() -> Logger {
        switch logFormat {
        case .text: Logger(label: "fm.serve")
        case .json: Logger(label: "fm.serve") { JSONLogHandler(label: $0) }
        }
    }

    /// The line a script waits for, written straight to the file
    /// descriptor: it must get it now, not when a buffer fills.
    func announce(port: Int, models: String) {
        let place = socket.map { "unix:\($0) (/v1)" } ?? "http://\(host ?? "127.0.0.1"):\(port)/v1"
        FileHandle.standardOutput.write(Data("fm serve: listening on \(place) (\(models))\n".utf8))
    }

    /// The in-process model on `--model` (else as `fm respond` finds it),
    /// with `--adapter`, its weights loaded before the first client waits
    /// for them. Exits with status 3, saying why, when it is unavailable.
    func localModel() async throws -> SystemLanguageModel {
        var configuration = SystemLanguageModel.Configuration.default
        if let modelPath { configuration.modelPath = modelPath }
        if let parallel { configuration.parallelSequences = parallel }
        if let maxQueue { configuration.maximumQueuedRequests = maxQueue }
        if let contextSize { configuration.contextSize = contextSize }
        if let schemaBudget { configuration.schemaPromptTokenBudget = schemaBudget }
        if let toolsBudget { configuration.toolsPromptTokenBudget = toolsBudget }
        var model = SystemLanguageModel(configuration: configuration)
        guard case .available = model.availability else {
            FileHandle.standardError.write(Data("fm serve: the model is unavailable (\(model.availability)): \(configuration.modelPath)\n".utf8))
            throw ExitCode(3)
        }
        if let adapterPath {
            let adapter = try SystemLanguageModel.Adapter(fileURL: URL(fileURLWithPath: adapterPath))
            // A mismatch with the model's header is said before any weights load.
            try await adapter.compile(for: configuration)
            model = SystemLanguageModel(adapter: adapter, configuration: configuration)
        }
        _ = try await model.tokenCount(for: "")
        return model
    }
}
