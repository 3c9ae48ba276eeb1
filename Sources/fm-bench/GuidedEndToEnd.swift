import Foundation
import FoundationModels
import FoundationModelsEval
import LlamaKit

/// Typed answers on the real model, three ways, same prompts and options
/// (greedy, at most `maximumTokens` tokens):
/// - ours: `LanguageModelSession.respond(to:generating:options:)`;
/// - llama.cpp's grammar: `llama-server`'s `/completion` with `json_schema`
///   (`json_schema_to_grammar` and the grammar sampler), given the very
///   prompt text our session renders (same chat template, same schema
///   description in the user turn);
/// - free text: the tokens our JSON takes in the model's tokenizer (the
///   steps unconstrained generation of the same JSON needs), and one
///   unconstrained answer to the same prompt.
///
/// Model steps are forward passes after the prompt: ours from the engine's
/// statistics; llama.cpp decodes every token it samples but the last
/// (`predicted_n` counts the end-of-generation token), so `predicted_n - 1`;
/// free text of N tokens needs N (the last one's pass yields the end token).
struct GuidedEndToEnd {
    var runs = 4
    var maximumTokens = 256

    /// One answer.
    struct Sample {
        var wall: Double
        var steps: Int
        var generated: Int
        var forced = 0
        var closedEarly = false
        var problems: [String]
        var json: String
        var promptTokens = 0
        var cachedTokens = 0
        /// llama.cpp's own prompt plus generation time, seconds.
        var serverTime = 0.0
        var isValid: Bool { problems.isEmpty }
    }

    struct Row {
        var schema: String
        /// The first answer (prompt not cached; our schema compiled), then
        /// `runs` answers with the prompt cached.
        var ours: [Sample] = []
        var grammar: [Sample] = []
        /// Tokens of each of our warm answers' JSON in the model's tokenizer.
        var freeTextOfSameJSON: [Int] = []
        var unconstrained: Sample?
        /// llama.cpp generating exactly our first valid measured answer
        /// (a grammar whose only sentence is that JSON), and that answer.
        var sameText: Sample?
        var sameTextOurs: Sample?

        var oursWarm: ArraySlice<Sample> { ours.dropFirst() }
        var grammarWarm: ArraySlice<Sample> { grammar.dropFirst() }
    }

    struct Result {
        var rows: [Row]
        var serverCommand: String
        var serverError: String?
        /// CPU seconds this process used while llama.cpp answered (should
        /// be nearly zero: nothing of ours may compete with it).
        var ownCPUDuringServer: Double
        var seconds: Double
    }

    func run(cases: [GuidedCase], serverBinary: String?, modelPath: String, threads: Int, log: @Sendable (String) -> Void) async throws -> Result {
        let start = Measure.clock.now
        let engine = OnDeviceEngine.shared(for: .default)
        let loaded = try await engine.loaded()
        let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: maximumTokens)
        func statistics() -> OnDeviceEngine.Statistics { engine.statistics.withLock { $0 } }
        func tokens(_ text: String) -> Int {
            (try? loaded.vocabulary.tokenize(text, addSpecial: false, parseSpecial: false).count) ?? 0
        }

        // The server runs throughout, idle while ours generates, so the
        // contestants take turns schema by schema and a change in the
        // machine's load hits both alike.
        log("starting llama-server")
        let (server, startError) = await LlamaServer.startForBenchmark(
            binary: serverBinary, model: modelPath, threads: threads, contextSize: loaded.contextSize)
        var serverError = startError
        defer { server?.stop() }

        var rows: [Row] = []
        var ownCPUDuringServer = 0.0
        for item in cases {
            guard let conversation = item.conversation else { continue }
            // The prompt exactly as our session renders it (the same text
            // goes to llama-server), and its user turn (the unconstrained
            // answer's prompt).
            let rendered = try await SystemLanguageModel.default.renderedInput(
                for: EvalRunner.typedTranscript(
                    instructions: conversation.instructions, prompt: conversation.prompt, schema: item.schema
                ))
            let userText = EvalRunner.turns(of: rendered).prompt
            log("guided end to end: \(item.name), ours")
            var row = Row(schema: item.name)
            for _ in 0...runs {
                let session = LanguageModelSession(instructions: conversation.instructions)
                let before = statistics()
                let started = Measure.clock.now
                var sample: Sample
                do {
                    let answer = try await conversation.respond(session, options)
                    sample = Sample(
                        wall: 0, steps: 0, generated: 0, problems: conversation.problems(answer.json), json: answer.json,
                        promptTokens: answer.inputTokens, cachedTokens: answer.cachedTokens)
                } catch {
                    sample = Sample(wall: 0, steps: 0, generated: 0, problems: ["\(error)"], json: "")
                }
                sample.wall = (Measure.clock.now - started).inSeconds
                let after = statistics()
                sample.steps = after.modelSteps - before.modelSteps
                sample.generated = after.generatedTokens - before.generatedTokens
                sample.forced = after.forcedTokens - before.forcedTokens
                sample.closedEarly = after.closedEarly > before.closedEarly
                row.ours.append(sample)
            }
            row.freeTextOfSameJSON = row.oursWarm.filter(\.isValid).map { tokens($0.json) }

            // Unconstrained: the same user text (prompt and schema
            // description), no schema enforced; its prompt is cached by now.
            log("guided end to end: \(item.name), unconstrained")
            do {
                let session = LanguageModelSession(instructions: conversation.instructions)
                let before = statistics()
                let started = Measure.clock.now
                let response = try await session.respond(to: userText, options: options)
                let after = statistics()
                row.unconstrained = Sample(
                    wall: (Measure.clock.now - started).inSeconds,
                    steps: after.modelSteps - before.modelSteps,
                    generated: response.usage.output.totalTokenCount,
                    problems: Self.freeTextProblems(response.content, conversation.problems),
                    json: response.content,
                    promptTokens: response.usage.input.totalTokenCount,
                    cachedTokens: response.usage.input.cachedTokenCount
                )
            } catch {
                row.unconstrained = Sample(wall: 0, steps: 0, generated: 0, problems: ["\(error)"], json: "")
            }

            if let server, serverError == nil {
                log("guided end to end: \(item.name), llama.cpp grammar")
                do {
                    let prompt = rendered.text
                    for _ in 0...runs {
                        let cpuBefore = Self.processCPUSeconds()
                        let completion = try await server.complete(
                            prompt: prompt, constraint: .jsonSchema(item.schema.jsonSchema.jsonString), maximumTokens: maximumTokens)
                        ownCPUDuringServer += Self.processCPUSeconds() - cpuBefore
                        var problems = conversation.problems(completion.content)
                        if completion.stopType != "eos" { problems.append("stopped by \(completion.stopType)") }
                        row.grammar.append(
                            Sample(
                                wall: completion.wall,
                                steps: max(0, completion.predicted - 1),
                                generated: completion.predicted,
                                problems: problems,
                                json: completion.content,
                                promptTokens: completion.promptEvaluated + completion.promptCached,
                                cachedTokens: completion.promptCached,
                                serverTime: (completion.promptMilliseconds + completion.predictedMilliseconds) / 1000
                            ))
                    }
                    // The same text as ours: llama.cpp's grammar reduced to
                    // our answer (one request; the prompt is cached).
                    if let ours = row.oursWarm.first(where: \.isValid) {
                        let grammar = LlamaServer.literalGrammar(ours.json)
                        let cpuBefore = Self.processCPUSeconds()
                        let completion = try await server.complete(prompt: prompt, constraint: .grammar(grammar), maximumTokens: maximumTokens)
                        ownCPUDuringServer += Self.processCPUSeconds() - cpuBefore
                        row.sameText = Sample(
                            wall: completion.wall,
                            steps: max(0, completion.predicted - 1),
                            generated: completion.predicted,
                            problems: completion.content == ours.json ? [] : ["wrote \(completion.content.prefix(80))"],
                            json: completion.content,
                            promptTokens: completion.promptEvaluated + completion.promptCached,
                            cachedTokens: completion.promptCached,
                            serverTime: (completion.promptMilliseconds + completion.predictedMilliseconds) / 1000
                        )
                        row.sameTextOurs = ours
                    }
                } catch {
                    serverError = "\(item.name): \(error)"
                }
            }
            rows.append(row)
        }
        return Result(
            rows: rows,
            serverCommand: server?.command ?? "",
            serverError: serverError,
            ownCPUDuringServer: ownCPUDuringServer,
            seconds: (Measure.clock.now - start).inSeconds
        )
    }

    /// User plus system CPU time of this process so far.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// What keeps free text from being the answer: no JSON object in it,
    /// JSON that does not parse (often cut off by the token limit), or
    /// JSON of the wrong shape. Read as `fm eval` reads it: the first
    /// complete JSON object in the text.
    static func freeTextProblems(_ text: String, _ problems: (String) -> [String]) -> [String] {
        guard text.contains("{") else { return ["no JSON object"] }
        guard let object = LenientJSON.firstObject(in: text) else { return ["malformed or unfinished JSON"] }
        return problems(object.json).map { "JSON, but \($0)" }
    }
}
