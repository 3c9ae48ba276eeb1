import Foundation
import Synchronization
import TestSupport
import Testing

@testable import FoundationModels

extension SessionPropertyValues {
    @SessionPropertyEntry var destination: String = "Lisbon"
    @SessionPropertyEntry var wantsMetro: Bool = false
    @SessionPropertyEntry var visits: Int = 0
    @SessionPropertyEntry var nickname: String?
}

/// A tool that reads and writes a session property.
struct MetroTool: Tool {
    let name = "metro"
    let description = "Finds metro lines."
    @SessionProperty(\.visits) var visits

    @Generable struct Arguments { var station: String }

    func call(arguments: Arguments) async throws -> String {
        visits += 1
        return "Line \(arguments.station.count)"
    }
}

struct TripInstructions: DynamicInstructions {
    @SessionProperty(\.destination) var destination
    @SessionProperty(\.wantsMetro) var wantsMetro

    var body: some DynamicInstructions {
        Instructions { "You plan trips to \(destination)." }
        if wantsMetro {
            MetroTool()
        }
    }
}

/// Records what a profile's hooks saw.
final class HookLog: Sendable {
    let events = Mutex<[String]>([])
    func record(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.withLock { $0 } }
}

struct Planner: LanguageModelSession.DynamicProfile {
    let model: ScriptedModel
    let log: HookLog
    @SessionProperty(\.destination) var destination

    var body: some DynamicProfile {
        if destination == "Tokyo" {
            Profile { TripInstructions() }
                .model(model)
                .temperature(0.9)
                .onActivate { log.record("tokyo on") }
                .onDeactivate { log.record("tokyo off") }
        } else {
            Profile { TripInstructions() }
                .model(model)
                .temperature(0.1)
                .maximumResponseTokens(64)
                .reasoningLevel(.light)
                .onPrompt { prompt in log.record("prompt \(prompt.segments.count)") }
                .onResponse { response in log.record("response \(response.segments.count)") }
                .onToolCall { call in log.record("call \(call.toolName)") }
                .onToolOutput { call, output in log.record("output \(call.id)=\(output.id)") }
        }
    }
}

@Suite("Dynamic instructions, profiles and session properties")
struct DynamicProfileTests {
    static func instructionsText(_ request: LanguageModelExecutorGenerationRequest) -> String {
        guard case .instructions(let instructions) = request.transcript.first else { return "" }
        return instructions.segments.renderedText
    }

    @Test func dynamicInstructionsFollowSessionProperties() async throws {
        let model = ScriptedModel([[.text("one")], [.text("two")]])
        let session = LanguageModelSession(model: model, dynamicInstructions: TripInstructions())
        try await session.respond(to: "Plan a day")
        session.properties.destination = "Porto"
        session.properties.wantsMetro = true
        try await session.respond(to: "And tomorrow?")

        let requests = model.script.requests
        #expect(Self.instructionsText(requests[0]) == "You plan trips to Lisbon.")
        #expect(requests[0].enabledToolDefinitions.isEmpty)
        #expect(Self.instructionsText(requests[1]) == "You plan trips to Porto.")
        #expect(requests[1].enabledToolDefinitions.map(\.name) == ["metro"])
        // The transcript's instructions entry is the latest evaluation, once.
        guard case .instructions(let instructions) = session.transcript.first else {
            Issue.record("the transcript starts with the instructions"); return
        }
        #expect(instructions.segments.renderedText == "You plan trips to Porto.")
        #expect(session.transcript.filter { if case .instructions = $0 { true } else { false } }.count == 1)
        #expect(session.transcript.count == 5)
        #expect(session.properties.history.count == 2)
        #expect(session.properties.rootDynamicInstructions is TripInstructions)
    }

    @Test func toolsReadAndWriteTheSessionsProperties() async throws {
        let model = ScriptedModel([
            [.toolCall(id: "c1", name: "metro", arguments: #"{"station":"Baixa"}"#)],
            [.text("Take line 5.")],
        ])
        let session = LanguageModelSession(model: model, dynamicInstructions: TripInstructions())
        session.properties.wantsMetro = true
        try await session.respond(to: "How do I get around?")
        #expect(session.properties.visits == 1)
        // Outside any session the property is a separate, default value.
        #expect(MetroTool().visits == 0)
        #expect(session.properties.nickname == nil)
    }

    @Test func profileModifiersShapeTheRequestAndARequestsOwnOptionsWin() async throws {
        let model = ScriptedModel([[.text("a")], [.text("b")]])
        let session = LanguageModelSession(profile: Planner(model: model, log: HookLog()))
        try await session.respond(to: "x")
        try await session.respond(to: "y", options: GenerationOptions(temperature: 0.5))
        let requests = model.script.requests
        #expect(requests[0].generationOptions.temperature == 0.1)
        #expect(requests[0].generationOptions.maximumResponseTokens == 64)
        #expect(requests[0].contextOptions.reasoningLevel == .light)
        #expect(requests[1].generationOptions.temperature == 0.5)
        #expect(requests[1].generationOptions.maximumResponseTokens == 64)
    }

    @Test func hooksSeeThePromptToolCallsOutputsAndResponse() async throws {
        let model = ScriptedModel([
            [.toolCall(id: "c7", name: "metro", arguments: #"{"station":"Rossio"}"#)],
            [.text("Done.")],
        ])
        let log = HookLog()
        let session = LanguageModelSession(profile: Planner(model: model, log: log))
        session.properties.wantsMetro = true
        try await session.respond(to: "Route?")
        #expect(log.all == ["prompt 1", "call metro", "output c7=c7", "response 1"])
    }

    @Test func aThrowingHookFailsTheRequestAndLeavesTheTranscript() async throws {
        struct Refused: Error {}
        struct Guarded: LanguageModelSession.DynamicProfile {
            let model: ScriptedModel
            var body: some DynamicProfile {
                Profile { Instructions { "Guarded" } }
                    .model(model)
                    .onPrompt { throw Refused() }
            }
        }
        let model = ScriptedModel([[.text("never")]])
        let session = LanguageModelSession(profile: Guarded(model: model))
        await #expect(throws: Refused.self) { try await session.respond(to: "x") }
        #expect(session.transcript.isEmpty)
        #expect(model.script.requests.isEmpty)
    }

    @Test func activationCallbacksRunWhenAConditionSwitches() async throws {
        let model = ScriptedModel([[.text("a")], [.text("b")], [.text("c")]])
        let log = HookLog()
        let session = LanguageModelSession(profile: Planner(model: model, log: log))
        session.properties.destination = "Tokyo"
        try await session.respond(to: "1")
        try await waitUntil { log.all.contains("tokyo on") }
        session.properties.destination = "Kyoto"
        try await session.respond(to: "2")
        try await waitUntil { log.all.contains("tokyo off") }
        #expect(model.script.requests[0].generationOptions.temperature == 0.9)
        #expect(model.script.requests[1].generationOptions.temperature == 0.1)
    }

    @Test func historyTransformChangesWhatTheModelSeesNotTheTranscript() async throws {
        struct LastTurnOnly: LanguageModelSession.DynamicProfile {
            let model: ScriptedModel
            var body: some DynamicProfile {
                Profile { Instructions { "Short memory." } }
                    .model(model)
                    .historyTransform { Array($0.suffix(2)) }
            }
        }
        let model = ScriptedModel([[.text("a")], [.text("b")], [.text("c")]])
        let session = LanguageModelSession(profile: LastTurnOnly(model: model))
        for prompt in ["1", "2", "3"] { try await session.respond(to: prompt) }
        // instructions + the last turn of the history + the new prompt
        #expect(model.script.requests[2].transcript.count == 4)
        #expect(session.transcript.count == 7)
    }

    @Test func preserveTranscriptKeepsWhatAFailedRequestAdded() async throws {
        struct Boom: Error {}
        let model = ScriptedModel([[.text("ok")], [.fail(Boom())]])
        let session = LanguageModelSession(model: model)
        try await session.respond(to: "first")
        session.transcriptErrorHandlingPolicy = .preserveTranscript
        await #expect(throws: Boom.self) { try await session.respond(to: "second") }
        #expect(session.transcript.count == 3)
        guard case .prompt(let prompt) = session.transcript.last else { Issue.record("the failed prompt stays"); return }
        #expect(prompt.segments.renderedText == "second")
    }

    @Test func settingTheTranscriptDuringARequestFailsThatRequest() async throws {
        let model = ScriptedModel([[.delay(.milliseconds(200)), .text("late")]])
        let session = LanguageModelSession(model: model)
        let request = Task { try await session.respond(to: "slow") }
        while !session.isResponding { await Task.yield() }
        let replacement = Transcript(entries: [.prompt(Transcript.Prompt(segments: [.text(.init(content: "edited"))]))])
        session.transcript = replacement
        await #expect(throws: LanguageModelSession.Error.transcriptMutationWhileResponding) { try await request.value }
        #expect(session.transcript == replacement)
        #expect(session.transcript.history.count == 1)
    }

    @Test func attachmentsAModelCannotReadAreRefusedBeforeTheExecutor() async throws {
        let model = ScriptedModel([[.text("a photo")]])
        let session = LanguageModelSession(model: model)
        let photo = Attachment(imageURL: URL(fileURLWithPath: "/tmp/photo.png")).label("photo")
        await #expect {
            try await session.respond {
                "What is in this picture?"; photo
            }
        } throws: { error in
            guard case LanguageModelError.unsupportedTranscriptContent(let info) = error else { return false }
            return info.unsupportedContent.count == 1
        }
        #expect(model.script.requests.isEmpty)

        let vision = ScriptedModel([[.text("a cat")]], capabilities: LanguageModelCapabilities(capabilities: [.vision]))
        let seeing = LanguageModelSession(model: vision)
        try await seeing.respond {
            "What is in this picture?"; photo
        }
        let reference = ImageReference(attachmentLabel: "photo")
        #expect(reference.resolved(in: seeing.transcript)?.url?.path == "/tmp/photo.png")
        #expect(ImageReference(attachmentLabel: "other").resolved(in: seeing.transcript) == nil)
        #expect(try ImageReference(reference.generatedContent) == reference)
    }

    @Test func onReasoningSeesEachReasoningEntryBeforeItIsAdded() async throws {
        struct Thinker: LanguageModelSession.DynamicProfile {
            let model: any LanguageModel
            let log: HookLog
            var body: some DynamicProfile {
                Profile { Instructions { "Think first." } }
                    .model(model)
                    .onReasoning { reasoning in log.record("reasoning \(reasoning.segments.renderedText)") }
                    .onReasoning { log.record("reasoned") }
            }
        }
        let log = HookLog()
        let model = ScriptedModel([[.reasoning("Two and two "), .reasoning("make four."), .text("4")]])
        // A profile chosen at run time: type-erased, with its model as an existential.
        let session = LanguageModelSession(profile: LanguageModelSession.AnyDynamicProfile(Thinker(model: model, log: log)))
        let response = try await session.respond(to: "2+2?")
        #expect(response.content == "4")
        #expect(log.all == ["reasoned", "reasoning Two and two make four."])
        #expect(session.transcript.contains { if case .reasoning = $0 { true } else { false } })
    }

    @Test func aFailingReasoningHookFailsTheRequestAndLeavesTheTranscript() async throws {
        struct Refuse: Error {}
        let model = ScriptedModel([[.reasoning("Hmm."), .text("4")]])
        let profile = LanguageModelSession.Profile { Instructions { "Think first." } }.model(model).onReasoning { throw Refuse() }
        let session = LanguageModelSession(profile: profile)
        await #expect(throws: Refuse.self) { try await session.respond(to: "2+2?") }
        #expect(session.transcript.isEmpty)
    }

    @Test func historyViewEditsTheConversationAndKeepsTheInstructions() {
        let instructions = Transcript.Entry.instructions(Transcript.Instructions(segments: [.text(.init(content: "Be brief."))], toolDefinitions: []))
        let prompt = Transcript.Entry.prompt(Transcript.Prompt(segments: [.text(.init(content: "Hi"))]))
        let answer = Transcript.Entry.response(Transcript.Response(segments: [.text(.init(content: "Hello"))]))
        var transcript = Transcript(entries: [instructions, prompt, answer])
        var history = transcript.history
        #expect(history.count == 2)
        // Indices are the transcript's: the view's first entry is entry 1.
        #expect(history.startIndex.distance(to: history.endIndex) == 2)
        #expect(history[history.startIndex].id == prompt.id)
        #expect(transcript[1].id == history.first?.id)
        // A slice of the view is a view with the same indices.
        let tail = history[history.index(after: history.startIndex)...]
        #expect(tail.first?.id == answer.id && tail.startIndex == history.index(after: history.startIndex))
        history.removeFirst()
        history.append(prompt)
        transcript.history = history
        #expect(transcript.map(\.id) == [instructions.id, answer.id, prompt.id])
        transcript.history = []
        #expect(transcript.map(\.id) == [instructions.id])
        var fresh: Transcript.HistoryView = [prompt]
        fresh.append(contentsOf: [answer])
        #expect(fresh.count == 2 && Array(fresh).map(\.id) == [prompt.id, answer.id])
    }

    @Test func aRefusalCarriesTheModelsExplanation() async throws {
        let refusal = LanguageModelError.Refusal(explanation: "I can't help with that.", debugDescription: "refused by the model")
        #expect(try await refusal.explanation.content == "I can't help with that.")
        var streamed: [String] = []
        for try await snapshot in refusal.explanationStream { streamed.append(snapshot.content) }
        #expect(streamed.last == "I can't help with that.")
        #expect(try await LanguageModelError.Refusal(debugDescription: "x").explanation.content == "The model declined to respond to this request.")
    }

    @Test func numbersAndGenerableValuesArePromptContent() {
        let prompt = Prompt {
            "Rooms:"; 3; "Pets:"; true; "Budget:"; 2.5
        }
        #expect(prompt.segments.count == 6)
        guard case .structure(let rooms) = prompt.segments[1] else { Issue.record("a number is a structured segment"); return }
        #expect(rooms.content.jsonString == "3")
        let instructions = Instructions { Decimal(string: "19.99")! }
        #expect(instructions.segments.count == 1)
    }

    @Test func generableNameNamesTheSchema() {
        #expect(Renamed.generationSchema.name == "trip_plan")
        #expect(Unnamed.generationSchema.name == "Unnamed")
    }

    func waitUntil(_ condition: @escaping () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            guard ContinuousClock.now < deadline else { Issue.record("timed out"); return }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

@Generable(name: "trip_plan", description: "A plan")
struct Renamed {
    var days: Int
}

@Generable
struct Unnamed {
    var days: Int
}
