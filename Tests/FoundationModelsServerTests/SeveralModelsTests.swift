// Several models from one fm serve (issue 58.5): each answers under its
// own name, aliases stand for one, an unknown name is a 404 listing the
// served names, /v1/models and /health describe each. In process over
// scripted models; then two real models and an adapter over one of them.

import Foundation
import FoundationModels
import Hummingbird
import HummingbirdTesting
import Logging
import TestSupport
import Testing

@testable import FoundationModelsServer

@Suite("fm serve: several models")
struct SeveralModelsTests {
    static func served(_ name: String, _ text: String, base: String? = nil, context: Int? = nil, reason: String? = nil)
        -> ChatCompletionsServer.ServedModel
    {
        var model = ChatCompletionsServer.ServedModel(name: name, model: ScriptedModel([[.text(text)], [.text(text)], [.text(text)]]))
        model.base = base
        model.contextSize = context
        model.unavailability = { reason }
        return model
    }

    static func serve<Value>(
        _ models: [ChatCompletionsServer.ServedModel], aliases: [String: String] = [:],
        _ body: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        var configuration = ChatCompletionsServer.Configuration(modelName: models[0].name)
        configuration.aliases = aliases
        let quiet = Logger(label: "fm.serve.test") { _ in SwiftLogNoOpLogHandler() }
        let server = ChatCompletionsServer(models: models, configuration: configuration, logger: quiet)
        return try await Application(router: server.router(), logger: quiet).test(.router, body)
    }

    static func ask(_ model: String?) -> String {
        #"{\#(model.map { #""model": "\#($0)", "# } ?? "")"messages": [{"role": "user", "content": "Hi"}]}"#
    }

    @Test func eachModelAnswersUnderItsOwnName() async throws {
        let models = [
            Self.served("small", "from small", context: 2048), Self.served("fast", "from fast", context: 4096),
            Self.served("tone", "from tone", base: "small", context: 2048),
        ]
        try await Self.serve(models, aliases: ["gpt-4o-mini": "fast"]) { client in
            for (asked, name, text) in [
                ("small", "small", "from small"), ("fast", "fast", "from fast"), ("tone", "tone", "from tone"),
                ("gpt-4o-mini", "fast", "from fast"), (nil, "small", "from small"),
            ] as [(String?, String, String)] {
                let response = try await client.post("/v1/chat/completions", Self.ask(asked))
                let body = try response.object()
                #expect(body["model"] as? String == name, "\(asked ?? "no model"): \(response.text)")
                let message = ((body["choices"] as? [[String: Any]])?.first?["message"] as? [String: Any])?["content"] as? String
                #expect(message == text, "\(asked ?? "no model") answered by its own model")
            }
            let responses = try await client.post("/v1/responses", #"{"model": "tone", "input": "Hi"}"#).object()
            #expect(responses["model"] as? String == "tone")

            let unknown = try await client.post("/v1/chat/completions", Self.ask("gpt-9"))
            #expect(unknown.statusCode == 404 && unknown.error?["param"] as? String == "model")
            #expect(
                unknown.error?["message"] as? String
                    == "The model 'gpt-9' does not exist; this server serves 'small', 'fast', 'tone' and 'gpt-4o-mini'.", "\(unknown.text)")

            let list = try #require(try await client.get("/v1/models").object()["data"] as? [[String: Any]])
            #expect(list.map { $0["id"] as? String } == ["small", "fast", "tone", "gpt-4o-mini"])
            #expect(list.map { $0["max_model_len"] as? Int } == [2048, 4096, 2048, 4096])
            #expect(list.map { $0["parent"] as? String } == [nil, nil, "small", "fast"], "an adapter's base; an alias's model")
        }
    }

    /// Each model's availability and reason; 200 while any can answer.
    @Test func healthReportsEachModel() async throws {
        let models = [Self.served("small", "a"), Self.served("fast", "b", reason: "the model file is gone")]
        try await Self.serve(models) { client in
            let health = try await client.get("/health")
            #expect(health.statusCode == 200)
            #expect(
                health.text
                    == #"{"status":"degraded","models":[{"id":"small","available":true},{"id":"fast","available":false,"reason":"the model file is gone"}]}"#,
                "\(health.text)")
        }
        try await Self.serve([Self.served("small", "a", reason: "gone"), Self.served("fast", "b", reason: "gone too")]) { client in
            let health = try await client.get("/health")
            let status = try health.object()["status"] as? String
            #expect(health.statusCode == 503 && status == "unavailable")
        }
    }

    /// Each served model's requests, tokens, timings, bounds and engine
    /// occupancy carry its own `model` label; an unknown name (or an
    /// alias) makes no label of its own: the label's values are the served
    /// names.
    @Test func theMetricsTellTheModelsApart() async throws {
        var small = ChatCompletionsServer.ServedModel(name: "small", model: ScriptedModel([[.text("one two three"), .usage(input: 5, output: 3)]]))
        small.parallelSequences = 2
        small.maximumQueue = 8
        small.occupancy = { EngineOccupancy(sequencesInUse: 1, sequences: 2, waiting: 3, maximumWaiting: 8, cachedTokens: 700, tokenCapacity: 4096) }
        var fast = ChatCompletionsServer.ServedModel(name: "fast", model: ScriptedModel([[.text("four"), .usage(input: 4, output: 1)]]))
        fast.parallelSequences = 1
        fast.maximumQueue = 4
        try await Self.serve([small, fast], aliases: ["gpt-4o-mini": "fast"]) { client in
            #expect(try await client.post("/v1/chat/completions", Self.ask("small")).statusCode == 200)
            #expect(try await client.post("/v1/responses", #"{"model": "gpt-4o-mini", "input": "Hi"}"#).statusCode == 200)
            #expect(try await client.post("/v1/chat/completions", Self.ask("gpt-9")).statusCode == 404)
            let metrics = try await client.get("/metrics").text
            for line in [
                #"fm_serve_requests_total{model="small",route="/v1/chat/completions",method="POST",status="200"} 1"#,
                #"fm_serve_requests_total{model="fast",route="/v1/responses",method="POST",status="200"} 1"#,
                #"fm_serve_requests_total{route="/v1/chat/completions",method="POST",status="404"} 1"#,
                #"fm_serve_time_to_first_token_seconds_count{model="small"} 1"#,
                #"fm_serve_time_to_first_token_seconds_count{model="fast"} 1"#,
                #"fm_serve_requests_waiting{model="small"} 0.0"#, #"fm_serve_requests_generating{model="fast"} 0.0"#,
                #"fm_serve_parallel_sequences{model="small"} 2.0"#, #"fm_serve_max_queue{model="small"} 8.0"#,
                #"fm_serve_parallel_sequences{model="fast"} 1.0"#, #"fm_serve_max_queue{model="fast"} 4.0"#,
                #"fm_serve_rate_limited_total{model="fast"} 0"#,
                #"fm_serve_prompt_tokens_total{model="small"} 5"#, #"fm_serve_generated_tokens_total{model="small"} 3"#,
                #"fm_serve_prompt_tokens_total{model="fast"} 4"#, #"fm_serve_generated_tokens_total{model="fast"} 1"#,
                #"fm_serve_queue_depth{model="small"} 3.0"#, #"fm_serve_sequences_in_use{model="small"} 1.0"#,
                #"fm_serve_kv_cache_tokens{model="small"} 700.0"#, #"fm_serve_kv_cache_capacity_tokens{model="small"} 4096.0"#,
            ] {
                #expect(metrics.contains(line + "\n"), "\(line) in \(metrics)")
            }
            #expect(
                !metrics.contains(#"fm_serve_queue_depth{model="fast"}"#), "an engine that says nothing (not loaded, another server) reports nothing")
            #expect(!metrics.contains("gpt-9") && !metrics.contains(#"model="gpt-4o-mini""#), "only served names are labels: \(metrics)")
        }
    }

    // MARK: The command line

    @Test func theOneModelCommandLineIsUnchanged() throws {
        let one = try ModelArguments(models: ["/m/qwen.gguf"], adapters: ["/a/tone.gguf"], aliases: ["gpt-4o=qwen"], modelName: "qwen")
        #expect(!one.isNamed && one.entries.isEmpty && one.aliases == ["gpt-4o": "qwen"])
        #expect(try !ModelArguments(models: [], adapters: [], aliases: [], modelName: nil).isNamed)
        #expect(try !ModelArguments(models: ["/m/a=b.gguf"], adapters: [], aliases: [], modelName: nil).isNamed, "a path with '=' in a folder")
    }

    /// Each model's prompt budgets reach its configuration; the command
    /// line's apply where a model sets none, and an adapter has its base's.
    @Test func eachModelsBudgetsReachItsConfiguration() async throws {
        let named = try ModelArguments(
            models: ["a=/nonexistent/a.gguf,schema-budget=300", "b=/nonexistent/b.gguf"], adapters: ["t@a=/nonexistent/t.gguf"], aliases: [],
            modelName: nil)
        let served = try await named.load(parallelSequences: nil, maximumQueue: nil, contextSize: 4096, schemaBudget: 700, toolsBudget: 2048)
        let budgets = served.map {
            ($0.model as? SystemLanguageModel).map { [$0.configuration.schemaPromptTokenBudget, $0.configuration.toolsPromptTokenBudget] }
        }
        #expect(budgets == [[300, 2048], [700, 2048], [300, 2048]], "\(budgets)")
        #expect(served.map { ($0.model as? SystemLanguageModel)?.configuration.contextSize } == [4096, 4096, 4096])
    }

    @Test func namedModelsAdaptersAndTheirOptions() throws {
        let named = try ModelArguments(
            models: ["small=/m/small.gguf,context-size=2048,parallel=2", "/m/qwen-0.5b.gguf,schema-budget=512,tools-budget=1024"],
            adapters: ["tone=/a/tone.gguf,max-queue=3", "terse@qwen-0.5b=/a/terse.gguf"],
            aliases: ["gpt-4o-mini=small"], modelName: nil
        )
        #expect(
            named.entries == [
                .init(name: "small", path: "/m/small.gguf", contextSize: 2048, parallelSequences: 2),
                .init(name: "qwen-0.5b", path: "/m/qwen-0.5b.gguf", schemaBudget: 512, toolsBudget: 1024),
                .init(name: "tone", path: "/a/tone.gguf", base: "small", maximumQueue: 3),
                .init(name: "terse", path: "/a/terse.gguf", base: "qwen-0.5b"),
            ])
        #expect(throws: Never.self) { try named.checkAliases(against: named.entries.map(\.name)) }
        #expect(throws: ModelArguments.Invalid.self) { try named.checkAliases(against: ["fast"]) }
    }

    @Test(arguments: [
        (["a=/m/a.gguf"], ["/t.gguf"], [String](), nil as String?, "name each adapter"),
        (["a=/m/a.gguf", "a=/m/b.gguf"], [], [], nil, "two models are named 'a'"),
        (["a=/m/a.gguf"], ["t@b=/t.gguf"], [], nil, "no model named 'b'"),
        (["a=/m/a.gguf"], [], [], "x", "--model-name names the one model"),
        (["a=/m/a.gguf,parallel=0"], [], [], nil, "out of range"),
        (["a=/m/a.gguf,threads=2"], [], [], nil, "unknown option 'threads'"),
        (["a=/m/a.gguf,schema-budget=10"], [], [], nil, "out of range"),
        (["a=/m/a.gguf,tools-budget=many"], [], [], nil, "is not KEY=NUMBER"),
        (["a=/m/a.gguf"], [], ["a=a"], nil, "already names a model"),
        (["a=/m/a.gguf"], [], ["nothing"], nil, "ALIAS=NAME"),
        (["/m/a.gguf"], ["/t.gguf", "/u.gguf"], [], nil, "name them"),
        (["/m/a.gguf", "/m/b.gguf"], ["/t.gguf"], [], nil, "name each adapter"),
        (["a b=/m/a.gguf"], [], [], nil, "is not a model name"),
    ])
    func aCommandLineThatCannotBeServedSaysWhy(models: [String], adapters: [String], aliases: [String], modelName: String?, says: String) {
        do {
            _ = try ModelArguments(models: models, adapters: adapters, aliases: aliases, modelName: modelName)
            Issue.record("accepted: \(models) \(adapters) \(aliases)")
        } catch {
            #expect(error.description.contains(says), "\(error.description)")
        }
    }
}

/// Two real models and an adapter over one of them, from one process,
/// each answering under its own name (the router in process: no port).
@Suite("fm serve: several models on the small and fast models", .serialized, .tags(.model), .needs(.smallModel, .fastModel))
struct SeveralRealModelsTests {
    /// A LoRA for the small model (scripts/make-test-lora.py, as the adapter tests make theirs).
    static func adapter() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fm-serve-adapters-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let out = folder.appendingPathComponent("tone.gguf")
        let ggufPy = URL(fileURLWithPath: TestMachine.llamaPrefix ?? "/nonexistent/prefix").deletingLastPathComponent().appendingPathComponent(
            "src/gguf-py"
        ).path
        let script = TestMachine.packageRoot.appendingPathComponent("scripts/make-test-lora.py").path
        let ran = try TestMachine.run([
            try TestMachine.python(environment: "gguf_env.sh"), script, "--gguf-py", ggufPy,
            "--base", TestMachine.smallModel, "--out", out.path, "--scale-init", "0.05", "--name", "tone",
        ])
        try #require(ran.status == 0, "make-test-lora.py: \(ran.standardOutput)")
        return out
    }

    @Test func twoModelsAndAnAdapterEachAnswerUnderTheirOwnName() async throws {
        let adapter = try Self.adapter()
        let arguments = try ModelArguments(
            models: ["small=\(TestMachine.smallModel),context-size=1024", "fast=\(TestMachine.fastModel),context-size=512"],
            adapters: ["tone=\(adapter.path)"], aliases: ["gpt-4o-mini=fast"], modelName: nil
        )
        let served = try await arguments.load(parallelSequences: 1, maximumQueue: 4, contextSize: nil)
        #expect(served.map(\.name) == ["small", "fast", "tone"] && served.allSatisfy { $0.unavailability() == nil })
        try await SeveralModelsTests.serve(served, aliases: arguments.aliases) { client in
            var answers: [String: String] = [:]
            for asked in ["small", "fast", "tone", "gpt-4o-mini"] {
                let response = try await client.post(
                    "/v1/chat/completions",
                    #"""
                    {"model": "\#(asked)", "messages": [{"role": "user", "content": "Name a colour."}], "max_tokens": 8, "temperature": 0}
                    """#)
                #expect(response.statusCode == 200, "\(asked): \(response.text)")
                let body = try response.object()
                #expect(body["model"] as? String == arguments.aliases[asked] ?? asked)
                answers[asked] = ((body["choices"] as? [[String: Any]])?.first?["message"] as? [String: Any])?["content"] as? String
            }
            #expect(answers.values.allSatisfy { !$0.isEmpty }, "\(answers)")
            #expect(answers["gpt-4o-mini"] == answers["fast"], "greedy: the alias is the same model")
            #expect(answers["tone"] != answers["small"], "the adapter changes the small model's greedy answer: \(answers)")
            let list = try #require(try await client.get("/v1/models").object()["data"] as? [[String: Any]])
            #expect(list.map { $0["id"] as? String } == ["small", "fast", "tone", "gpt-4o-mini"])
            #expect(list.map { $0["max_model_len"] as? Int } == [1024, 512, 1024, 512])
            #expect(list[2]["parent"] as? String == "small")
            let health = try await client.get("/health")
            let status = try health.object()["status"] as? String
            #expect(health.statusCode == 200 && status == "ok", "\(health.text)")
            // Each engine's own account, read at the scrape: all answered,
            // nothing queued, each cache holding its last conversation.
            let metrics = try await client.get("/metrics").text
            for model in ["small", "fast", "tone"] {
                for line in [#"fm_serve_queue_depth{model="\#(model)"} 0.0"#, #"fm_serve_sequences_in_use{model="\#(model)"} 0.0"#] {
                    #expect(metrics.contains(line + "\n"), "\(line) in \(metrics)")
                }
                let cached = metrics.split(separator: "\n").first { $0.hasPrefix(#"fm_serve_kv_cache_tokens{model="\#(model)"}"#) }
                #expect(cached.flatMap { Double($0.split(separator: " ").last ?? "") }.map { $0 > 0 } == true, "\(model): \(cached ?? "none")")
            }
            #expect(metrics.contains(#"fm_serve_kv_cache_capacity_tokens{model="fast"} 512.0"#), "\(metrics)")
        }
    }
}
