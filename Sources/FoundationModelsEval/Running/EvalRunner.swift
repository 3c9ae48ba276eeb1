import Foundation
import FoundationModels
import LlamaKit

/// Answers corpora on one model in the chosen modes, one item at a time
/// (the modes of an item back to back, so a change in the machine's load
/// hits them alike), and scores every answer.
///
/// Options are an app's: greedy, no `maximumResponseTokens` (but for
/// ``EvalMode/budgeted`` and the pipeline, which send the example's own,
/// and ``EvalMode/doubled``, which sends twice what the guided answer took).
/// Each answer runs under a time limit; one that does not finish counts as
/// a failure.
package struct EvalRunner {
    package var model: SystemLanguageModel
    /// What the report calls this run.
    package var label: String
    package var modes: [EvalMode] = EvalMode.allCases
    package var timeLimit: Double = 20
    /// `llama-server`, for ``EvalMode/grammar``.
    package var serverBinary: String?
    /// Answer only the first `limit` items of each corpus.
    package var limit: Int?
    package var corporaDirectory: URL = CorpusFiles.defaultDirectory
    /// The command line, for the report.
    package var command: String = ""
    package var log: @Sendable (String) -> Void = { _ in }

    package init(model: SystemLanguageModel, label: String) {
        self.model = model
        self.label = label
    }

    package func run(_ corpora: [Corpus]) async throws -> EvalRun {
        let clock = ContinuousClock()
        let start = clock.now
        guard model.isAvailable else {
            throw CorpusError(
                "the model at \(model.configuration.modelPath) is not available (\(model.availability)); run make setup or pass --model")
        }
        // Every corpus file is read before the first answer, so a bad file
        // fails the run at once.
        for corpus in corpora { _ = try loadItems(corpus.taskType) }
        log("loading \(model.configuration.modelPath)")
        let loaded = try await OnDeviceEngine.shared(for: model.configuration).loaded()

        var server: ServerSupervisor?
        var serverNote: String?
        if modes.contains(.grammar) {
            if let serverBinary {
                log("starting llama-server")
                let supervisor = ServerSupervisor(
                    binary: serverBinary, model: model.configuration.modelPath,
                    threads: model.configuration.threads, contextSize: loaded.contextSize)
                do {
                    try await supervisor.start()
                    server = supervisor
                } catch {
                    supervisor.stop()
                    serverNote = "llama-server did not start: \(error)"
                }
            } else {
                serverNote = "LLAMA_SERVER is not set (run through make eval, or pass --llama-server PATH)"
            }
        }
        defer { server?.stop() }

        var results: [CorpusRun] = []
        for corpus in corpora {
            results += try await evaluate(corpus.taskType, server: server, serverNote: serverNote, contextSize: loaded.contextSize)
        }
        return EvalRun(
            label: label,
            model: describeModel(contextSize: loaded.contextSize),
            machine: MachineDescription.current,
            date: ISO8601DateFormatter().string(from: Date()),
            command: command,
            timeLimitSeconds: timeLimit,
            settings: EvalRun.settings(from: ProcessInfo.processInfo.environment),
            llamaServer: server?.command,
            results: results,
            seconds: (clock.now - start).inSeconds
        )
    }

    private func loadItems<T: EvalTask>(_ task: T.Type) throws -> [T.Item] {
        let items = try CorpusFiles.load(task, from: corporaDirectory)
        return limit.map { Array(items.prefix($0)) } ?? items
    }

    private func evaluate<T: EvalTask>(_ task: T.Type, server: ServerSupervisor?, serverNote: String?, contextSize: Int) async throws -> [CorpusRun] {
        let items = try await T.prepare(loadItems(task), log: log)
        let exampleOptions = T.exampleOptions(model: model)
        var answers: [EvalMode: [AnswerRecord]] = [:]
        var seconds: [EvalMode: Double] = [:]
        var notes: [EvalMode: String] = [:]
        if let serverNote { notes[.grammar] = serverNote }
        if modes.contains(.budgeted), let exampleOptions {
            notes[.budgeted] =
                "the example's options: \(Self.describe(exampleOptions))"
                + (modes.contains(.guided) ? "" : "; no guided run to compare with, so no prefix check")
        }
        if modes.contains(.doubled) {
            notes[.doubled] =
                modes.contains(.guided)
                ? "greedy, `maximumResponseTokens` twice the guided answer's output tokens"
                : "no guided run to take the budget from (run it with --mode guided doubled)"
        }
        // Items the doubled mode could not ask: their guided answer gave no
        // token count to double.
        var undoubled: [String] = []
        // The unbudgeted answer first: the budgeted and doubled ones are compared with it.
        let ordered = modes.filter { $0 == .guided } + modes.filter { $0 != .guided }
        for item in items {
            let prompt = T.prompt(for: item)
            let instructions = T.instructions(for: item)
            let typed = Self.typedTranscript(instructions: instructions, prompt: prompt, schema: T.answerSchema(for: item))
            let rendered = modes.contains(.free) || modes.contains(.grammar) ? try await model.renderedInput(for: typed) : nil
            var unbudgeted: GeneratedContent?
            var unbudgetedAnswer: Produced?
            for mode in ordered {
                var produced: Produced
                var comparison: BudgetComparison?
                switch mode {
                case .guided:
                    produced = await guided(
                        task, item: item, instructions: instructions, prompt: prompt, options: GenerationOptions(samplingMode: .greedy))
                    unbudgeted = produced.status == .answered ? produced.content : nil
                    unbudgetedAnswer = produced.status == .answered ? produced : nil
                case .budgeted:
                    guard let exampleOptions else { continue }
                    produced = await guided(task, item: item, instructions: instructions, prompt: prompt, options: exampleOptions)
                case .doubled:
                    guard modes.contains(.guided) else { continue }
                    guard let reference = unbudgetedAnswer, reference.outputTokens > 0 else {
                        undoubled.append(item.id)
                        continue
                    }
                    let budget = 2 * reference.outputTokens
                    produced = await guided(
                        task, item: item, instructions: instructions, prompt: prompt,
                        options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: budget))
                    comparison = Self.compare(produced, with: reference, budget: budget)
                case .pipeline:
                    guard T.hasPipeline else { continue }
                    produced = await pipeline(task, item: item)
                case .free:
                    guard let rendered else { continue }
                    let (instructions, user) = Self.turns(of: rendered)
                    let plain = Self.plainTranscript(instructions: instructions, prompt: user)
                    if notes[.free] == nil, let replayed = try? await model.renderedInput(for: plain), replayed.text != rendered.text {
                        notes[.free] =
                            "the free-text prompt differs from the typed one (the rendering put something outside the system and user turns)"
                    }
                    produced = await free(instructions: instructions, prompt: user, contextSize: contextSize, multiple: T.timeLimitMultiple)
                case .grammar:
                    guard let server, let rendered else { continue }
                    produced = await grammar(
                        server, prompt: rendered.text, schema: T.answerSchema(for: item), timeLimit: timeLimit * T.timeLimitMultiple)
                }
                var record = Self.score(
                    task, item: item, prompt: prompt, produced, unbudgeted: mode == .budgeted || mode == .doubled ? unbudgeted : nil)
                record.comparison = comparison
                answers[mode, default: []].append(record)
                seconds[mode, default: 0] += record.seconds
                log("\(T.corpus.rawValue) \(item.id) \(mode.rawValue): \(Self.summary(record))")
            }
        }
        if !undoubled.isEmpty, let note = notes[.doubled] {
            notes[.doubled] = note + "; not asked for \(undoubled.joined(separator: ", ")): no guided answer to take the budget from"
        }
        return modes.filter { ($0 != .pipeline || T.hasPipeline) && ($0 != .budgeted || exampleOptions != nil) }.map { mode in
            CorpusRun(
                corpus: T.corpus, mode: mode, fields: T.fields, informational: T.informational.sorted(),
                answers: answers[mode] ?? [], seconds: seconds[mode] ?? 0, note: notes[mode])
        }
    }

    // MARK: The modes

    /// What a mode produced, before scoring.
    struct Produced {
        var status: AnswerRecord.Status = .answered
        var problem: String?
        var output = ""
        var content: GeneratedContent?
        var truncated = false
        var seconds = 0.0
        var promptTokens = 0
        var cachedPromptTokens = 0
        var outputTokens = 0
        var requests: Int?
    }

    private struct SessionAnswer: Sendable {
        var text: String
        var content: GeneratedContent?
        var usage: LanguageModelSession.Usage
    }

    /// `respond(to:generating:)` as the example asks (or `respond(to:schema:)`
    /// for a task's own schema), with `options`.
    private func guided<T: EvalTask>(_ task: T.Type, item: T.Item, instructions: String, prompt: String, options: GenerationOptions) async -> Produced
    {
        let engine = OnDeviceEngine.shared(for: model.configuration)
        let tools: [any Tool]
        do {
            tools = try T.tools(for: item)
        } catch {
            return Produced(status: .failed, problem: "the example's tools: \(error)")
        }
        let session = LanguageModelSession(model: model, tools: tools, instructions: instructions)
        var options = options
        if let mode = T.toolCallingMode { options.toolCallingMode = mode }
        let before = engine.statistics.withLock { $0 }
        let schema = T.customSchema(for: item)
        var produced = await run(timeLimit: timeLimit * T.timeLimitMultiple) {
            if let schema {
                let response = try await session.respond(to: prompt, schema: schema, options: options)
                return SessionAnswer(text: response.rawContent.jsonString, content: response.rawContent, usage: response.usage)
            }
            let response = try await session.respond(to: prompt, generating: T.Answer.self, options: options)
            return SessionAnswer(text: response.rawContent.jsonString, content: response.rawContent, usage: response.usage)
        }
        produced.truncated = engine.statistics.withLock { $0.closedEarly } > before.closedEarly
        return produced
    }

    /// The example's feature, under the same time limit. Its answer is
    /// scored like the others (through its generated content); the feature
    /// does not report token counts.
    private func pipeline<T: EvalTask>(_ task: T.Type, item: T.Item) async -> Produced {
        let model = model
        return await timed(timeLimit * T.timeLimitMultiple, { try await T.pipeline(for: item, model: model) }) { answer, produced in
            produced.output = answer.output
            produced.content = answer.answer.generatedContent
            produced.requests = answer.requests
        }
    }

    private func free(instructions: String, prompt: String, contextSize: Int, multiple: Double) async -> Produced {
        let session = LanguageModelSession(model: model, instructions: instructions)
        var produced = await run(timeLimit: timeLimit * multiple) {
            let response = try await session.respond(to: prompt, options: GenerationOptions(samplingMode: .greedy))
            return SessionAnswer(text: response.content, content: nil, usage: response.usage)
        }
        guard produced.status == .answered else { return produced }
        produced.truncated = produced.promptTokens + produced.outputTokens >= contextSize
        if let object = LenientJSON.firstObject(in: produced.output) {
            produced.content = object.content
        } else {
            produced.status = .invalid
            produced.problem = produced.output.contains("{") ? "malformed or unfinished JSON" : "no JSON object"
        }
        return produced
    }

    /// Runs one session request under the time limit.
    private func run(timeLimit: Double, _ body: sending @escaping () async throws -> SessionAnswer) async -> Produced {
        await timed(timeLimit, body) { answer, produced in
            produced.output = answer.text
            produced.content = answer.content
            produced.promptTokens = answer.usage.input.totalTokenCount
            produced.cachedPromptTokens = answer.usage.input.cachedTokenCount
            produced.outputTokens = answer.usage.output.totalTokenCount
        }
    }

    /// Runs `body` under the time limit and times it: `fill` records its
    /// answer; running out of time or throwing is recorded instead.
    private func timed<Answer: Sendable>(
        _ timeLimit: Double,
        _ body: sending @escaping () async throws -> Answer,
        fill: (Answer, inout Produced) -> Void
    ) async -> Produced {
        let clock = ContinuousClock()
        let start = clock.now
        var produced = Produced()
        do {
            fill(try await withTimeLimit(timeLimit, body), &produced)
        } catch let error as TimeLimitExceeded {
            produced.status = .timedOut
            produced.problem = error.description
        } catch {
            produced.status = .failed
            produced.problem = "\(error)"
        }
        produced.seconds = (clock.now - start).inSeconds
        return produced
    }

    private func grammar(_ server: ServerSupervisor, prompt: String, schema: GenerationSchema, timeLimit: Double) async -> Produced {
        var produced = Produced()
        do {
            let completion = try await server.complete(prompt: prompt, schema: schema.jsonSchema.jsonString, timeLimit: timeLimit)
            produced.output = completion.content
            produced.seconds = completion.wall
            produced.promptTokens = completion.promptEvaluated + completion.promptCached
            produced.cachedPromptTokens = completion.promptCached
            produced.outputTokens = completion.predicted
            produced.truncated = completion.stopType == "limit"
            do {
                let content = try GeneratedContent(json: completion.content)
                if content.isComplete {
                    produced.content = content
                } else {
                    produced.status = .invalid
                    produced.problem = "unfinished JSON (stopped by \(completion.stopType))"
                }
            } catch {
                produced.status = .invalid
                produced.problem = "malformed JSON: \(error)"
            }
        } catch let error as LlamaServerError where error.isTimeout {
            produced.status = .timedOut
            produced.problem = TimeLimitExceeded(seconds: timeLimit).description
            produced.seconds = timeLimit
        } catch {
            produced.status = .failed
            produced.problem = "\(error)"
        }
        return produced
    }

    // MARK: Scoring

    /// `unbudgeted`: the same item's guided answer, for the budgeted mode's
    /// prefix check.
    static func score<T: EvalTask>(_ task: T.Type, item: T.Item, prompt: String, _ produced: Produced, unbudgeted: GeneratedContent? = nil)
        -> AnswerRecord
    {
        var record = AnswerRecord(
            id: item.id, status: produced.status, problem: produced.problem, output: produced.output,
            fields: T.fields.map { FieldScore($0, false, "no answer", counts: !T.informational.contains($0)) },
            emptied: [], truncated: produced.truncated, seconds: produced.seconds,
            promptTokens: produced.promptTokens, cachedPromptTokens: produced.cachedPromptTokens,
            outputTokens: produced.outputTokens, groups: T.groups(of: item), requests: produced.requests
        )
        guard produced.status == .answered, let content = produced.content else { return record }
        do {
            let answer = try T.Answer(content)
            record.fields = T.score(answer, for: item).map { score in
                var score = score
                score.counts = !T.informational.contains(score.field)
                return score
            }
            record.emptied = Scoring.emptiedFields(in: content)
            let schema = T.answerSchema(for: item)
            record.cut = CutShort.cuts(in: content, schema: schema, input: T.instructions(for: item) + "\n" + prompt, unbudgeted: unbudgeted)
            record.freeStrings = CutShort.freeStrings(in: content, schema: schema).count
            if !T.descriptionExamples.isEmpty {
                record.copied = Scoring.copiedExamples(T.descriptionExamples, in: content, input: prompt)
            }
        } catch {
            record.status = .invalid
            record.problem = "does not decode as \(T.Answer.self): \(error)"
        }
        return record
    }

    /// The doubled answer `produced` against the unbudgeted guided answer
    /// `reference`: an answer the budgeted request did not give (it threw,
    /// ran out of time) differs as a whole.
    static func compare(_ produced: Produced, with reference: Produced, budget: Int) -> BudgetComparison {
        let difference =
            produced.status == .answered
            ? SameAnswer.firstDifference(unbudgeted: reference.output, budgeted: produced.output)
            : OutputDifference(path: "(answer)", unbudgeted: reference.output, budgeted: nil)
        return BudgetComparison(maximumResponseTokens: budget, unbudgetedTokens: reference.outputTokens, difference: difference)
    }

    static func summary(_ record: AnswerRecord) -> String {
        let time = String(format: "%.1f s", record.seconds)
        // The doubled mode's question comes first: is it the guided answer?
        let compared =
            record.comparison.map { comparison in
                (comparison.difference.map { "differs from guided at \($0.path)" } ?? "identical to guided")
                    + " (\(comparison.maximumResponseTokens) tokens); "
            } ?? ""
        guard record.status == .answered else { return compared + "\(record.status.rawValue) (\(record.problem ?? "")) \(time)" }
        if record.allRight { return compared + "all right, \(time)" }
        var misses = record.fields.filter { $0.counts && !$0.right }.map { "\($0.field): \($0.detail)" }
        if !record.emptied.isEmpty { misses.append("emptied \(record.emptied)") }
        if record.truncated { misses.append("truncated") }
        if let cut = record.cut, !cut.isEmpty { misses.append("cut short: " + cut.map(\.path).joined(separator: ", ")) }
        return compared + misses.joined(separator: "; ") + ", \(time)"
    }

    // MARK: Prompts

    /// The transcript a new session with `instructions` sends for a typed
    /// request (`respond(to:generating:)`, schema described in the prompt).
    package static func typedTranscript(instructions: String, prompt: String, schema: GenerationSchema) -> Transcript {
        Transcript(entries: [
            .instructions(Transcript.Instructions(segments: [.text(.init(content: instructions))], toolDefinitions: [])),
            .prompt(Transcript.Prompt(segments: [.text(.init(content: prompt))], responseFormat: Transcript.ResponseFormat(schema: schema))),
        ])
    }

    /// The transcript of a plain-text request.
    package static func plainTranscript(instructions: String, prompt: String) -> Transcript {
        Transcript(entries: [
            .instructions(Transcript.Instructions(segments: [.text(.init(content: instructions))], toolDefinitions: [])),
            .prompt(Transcript.Prompt(segments: [.text(.init(content: prompt))])),
        ])
    }

    /// The system and user text of a rendered typed request: what a free-text
    /// request sends to ask for the same answer in words.
    package static func turns(of rendered: SystemLanguageModel.RenderedInput) -> (instructions: String, prompt: String) {
        (
            rendered.messages.first { $0.role == "system" }?.content ?? "",
            rendered.messages.last { $0.role == "user" }?.content ?? ""
        )
    }

    /// Options as the report names them: `greedy, 120 tokens`.
    static func describe(_ options: GenerationOptions) -> String {
        var parts: [String] = []
        switch options.samplingMode?.kind {
        case .greedy: parts.append("greedy")
        case .randomTopK(let k, _): parts.append("top \(k)")
        case .randomProbabilityThreshold(let p, _): parts.append("top-p \(Scoring.number(p))")
        case nil: break
        }
        if let temperature = options.temperature { parts.append("temperature \(Scoring.number(temperature))") }
        parts.append(options.maximumResponseTokens.map { "\($0) tokens" } ?? "no token limit")
        return parts.joined(separator: ", ")
    }

    private func describeModel(contextSize: Int) -> ModelDescription {
        let path = model.configuration.modelPath
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
        let name = (try? GGUFFile.metadata(path: path, maximumArrayLength: 0))?["general.name"]?.stringValue ?? ""
        return ModelDescription(
            path: path, fileName: URL(fileURLWithPath: path).lastPathComponent, bytes: bytes ?? 0,
            name: name, contextSize: contextSize, threads: model.configuration.threads)
    }
}

/// The llama-server the grammar mode talks to, restarted after an answer
/// that ran out of time (it may still be generating that answer, which
/// would take the cores from the next one).
final class ServerSupervisor {
    let binary: String
    let model: String
    let threads: Int
    let contextSize: Int
    private var server: LlamaServer?

    init(binary: String, model: String, threads: Int, contextSize: Int) {
        self.binary = binary
        self.model = model
        self.threads = threads
        self.contextSize = contextSize
    }

    var command: String? { server?.command }

    func start() async throws {
        server = try await LlamaServer.start(binary: binary, model: model, threads: threads, contextSize: contextSize)
    }

    func stop() {
        server?.stop()
        server = nil
    }

    func complete(prompt: String, schema: String, timeLimit: Double) async throws -> LlamaServer.Completion {
        if server == nil { try await start() }
        guard let server else { throw LlamaServerError("llama-server is not running") }
        do {
            return try await server.complete(prompt: prompt, constraint: .jsonSchema(schema), maximumTokens: nil, timeout: timeLimit)
        } catch let error as LlamaServerError where error.isTimeout {
            stop()
            try? await start()
            throw error
        }
    }
}
