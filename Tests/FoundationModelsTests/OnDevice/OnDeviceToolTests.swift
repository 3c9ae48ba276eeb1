import Foundation
import Synchronization
import TestSupport
import Testing

@testable import FoundationModels

/// Reports a flight's status; the argument is a flight number by pattern.
final class FlightStatusTool: Tool {
    let name = "flightStatus"
    let description = "Looks up the live status of a flight by its flight number."

    @Generable
    struct Arguments: Equatable {
        @Guide(description: "The flight number: two capital letters and one to four digits", /[A-Z]{2}[0-9]{1,4}/)
        var flightNumber: String
    }

    /// Every call's arguments, in order.
    let calls = Mutex<[Arguments]>([])

    func call(arguments: Arguments) async throws -> String {
        calls.withLock { $0.append(arguments) }
        return "Flight \(arguments.flightNumber) is on time, departing from gate B7."
    }
}

/// A tool the instructions do not mention.
struct HiddenTool: Tool {
    let name = "secretLookup"
    let description = "Looks up a secret."
    var includesSchemaInInstructions: Bool { false }
    @Generable struct Arguments { var key: String }
    func call(arguments: Arguments) async throws -> String { "the secret of \(arguments.key)" }
}

/// A tool whose arguments have a guide no automaton can enforce.
struct BackreferenceTool: Tool {
    let name = "echo"
    let description = "Echoes a doubled letter."
    typealias Arguments = GuidedBackreference
    func call(arguments: GuidedBackreference) async throws -> String { arguments.doubled }
}

/// A tool that always fails.
struct BrokenBookingTool: Tool {
    let name = "bookSeat"
    let description = "Books a seat on a flight."
    struct BookingSystemDown: Error {}

    @Generable
    struct Arguments {
        var flightNumber: String
    }

    func call(arguments: Arguments) async throws -> String {
        throw BookingSystemDown()
    }
}

/// A tool that runs until cancelled, reporting that it started and whether
/// cancellation reached it.
final class SlowTool: Tool {
    let name = "slowLookup"
    let description = "Looks something up in a very slow archive."

    @Generable
    struct Arguments {
        var query: String
    }

    struct Events: Sendable {
        var started = false
        var cancelled = false
    }

    let events = Mutex(Events())
    var started: Bool { events.withLock { $0.started } }
    var cancelled: Bool { events.withLock { $0.cancelled } }

    func call(arguments: Arguments) async throws -> String {
        events.withLock { $0.started = true }
        do {
            try await Task.sleep(for: .seconds(120))
        } catch {
            events.withLock { $0.cancelled = true }
            throw error
        }
        return "found"
    }
}

extension OnDeviceTests {
    /// Tool calling on the real model: the turn grammar, the session's loop,
    /// and what reaches the transcript.
    @Suite("On-device tools")
    struct Tools {
        static var flightNumber: Regex<Substring> { /[A-Z]{2}[0-9]{1,4}/ }
        static let required = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 48, toolCallingMode: .required)

        /// The kinds of `entries`, for comparing shapes.
        static func kinds(_ entries: some Sequence<Transcript.Entry>) -> [String] {
            entries.map { entry in
                switch entry {
                case .instructions: "instructions"
                case .prompt: "prompt"
                case .toolCalls: "toolCalls"
                case .toolOutput: "toolOutput"
                case .response: "response"
                case .reasoning: "reasoning"
                #if DataAttachments
                case .data: "data"
                #endif
                }
            }
        }

        @Test func requiredCallsADeclaredToolWithValidArgumentsThenAnswers() async throws {
            try OnDevice.requireModel()
            let tool = FlightStatusTool()
            let session = LanguageModelSession(tools: [tool], instructions: "You help travellers.")
            let response = try await session.respond(to: "Is flight LH454 on time?", options: Self.required)
            #expect(Self.kinds(session.transcript) == ["instructions", "prompt", "toolCalls", "toolOutput", "response"])
            let entries = Array(session.transcript)
            guard case .toolCalls(let calls) = entries[2], case .toolOutput(let output) = entries[3] else {
                Issue.record("unexpected transcript \(session.transcript)")
                return
            }
            #expect(calls.count == 1)
            let call = try #require(calls.first)
            #expect(call.toolName == "flightStatus")
            let arguments = try FlightStatusTool.Arguments(call.arguments)
            #expect(arguments.flightNumber.wholeMatch(of: Self.flightNumber) != nil, "\(arguments.flightNumber)")
            #expect(tool.calls.withLock { $0 } == [arguments])
            #expect(output.id == call.id)
            #expect(output.segments.map(\.text) == ["Flight \(arguments.flightNumber) is on time, departing from gate B7."])
            #expect(!response.content.isEmpty)
            #expect(!response.content.contains("<tool_call>"))
        }

        @Test func theToolListAndCallFormatAreInTheSystemTurn() async throws {
            try OnDevice.requireModel()
            let loaded = try await OnDeviceEngine.shared(for: .default).loaded()
            let session = LanguageModelSession(tools: [FlightStatusTool(), SlowTool()], instructions: "You help travellers.")
            let rendered = try loaded.rendering.prompt(for: session.transcript)
            switch loaded.rendering.toolFormat.style {
            case .jsonArray:
                #expect(rendered.contains("- flightStatus: Looks up the live status of a flight"))
                #expect(rendered.contains("\"flightNumber\": a string matching /[A-Z]{2}[0-9]{1,4}/"))
                #expect(rendered.contains("- slowLookup:"))
                #expect(rendered.contains("<tool_call>[{\"name\":"))
            case .hermes:
                // The template's own format: the tools' signatures as JSON in <tools>.
                #expect(rendered.contains("<tools>\n"))
                #expect(rendered.contains(#""name":"flightStatus""#))
                #expect(rendered.contains(#""pattern":"^(?:[A-Z]{2}[0-9]{1,4})$""#))
                #expect(rendered.contains(#""name":"slowLookup""#))
                #expect(rendered.contains("<tool_call>"))
            }
        }

        /// Tool outputs in the Hermes format end their user turn with one
        /// line that asks for the answer (ChatRendering.toolResultsNote):
        /// without it the default model writes the same call again as text.
        @Test func toolOutputsAreOneTurnThatAsksForTheAnswer() async throws {
            try OnDevice.requireModel()
            let loaded = try await OnDeviceEngine.shared(for: .default).loaded()
            let rendering = ChatRendering(model: loaded.rendering.model, toolFormat: .hermes)
            let calls = [("call_1", "ABC-123"), ("call_2", "XY-9")].map { id, sku in
                Transcript.ToolCall(id: id, toolName: "getStock", arguments: GeneratedContent(properties: ["sku": sku]))
            }
            let outputs: [Transcript.Entry] = [("call_1", "17 units"), ("call_2", "5 units")].map { id, text in
                .toolOutput(Transcript.ToolOutput(id: id, toolName: "getStock", segments: [.text(Transcript.TextSegment(content: text))]))
            }
            let transcript = Transcript(
                entries: [
                    .prompt(Transcript.Prompt(segments: [.text(Transcript.TextSegment(content: "How many units of ABC-123 and XY-9 do we have?"))])),
                    .toolCalls(Transcript.ToolCalls(calls)),
                ] + outputs)
            let messages = rendering.messages(for: transcript)
            #expect(messages.map(\.role) == ["user", "assistant", "user"])
            #expect(
                messages.last?.content == "<tool_response>\n17 units\n</tool_response>\n<tool_response>\n5 units\n</tool_response>"
                    + ChatRendering.toolResultsNote)
        }

        @Test func aToolWithoutSchemaInInstructionsIsStillCallable() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession(tools: [HiddenTool()], instructions: "You keep secrets.")
            guard case .instructions(let instructions) = try #require(session.transcript.first) else { return }
            #expect(instructions.toolDefinitions.isEmpty)
            let response = try await session.respond(to: "What is the secret of the castle?", options: Self.required)
            let calls = response.transcriptEntries.compactMap { entry -> Transcript.ToolCalls? in
                if case .toolCalls(let calls) = entry { calls } else { nil }
            }
            #expect(calls.first?.first?.toolName == "secretLookup")
        }

        @Test func aThrowingToolEndsWithToolCallErrorAndLeavesTheTranscript() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession(tools: [BrokenBookingTool()], instructions: "You book flights.")
            let before = session.transcript
            await #expect {
                try await session.respond(to: "Book me a seat on BA117.", options: Self.required)
            } throws: { error in
                guard let error = error as? LanguageModelSession.ToolCallError else { return false }
                return error.tool.name == "bookSeat" && error.underlyingError is BrokenBookingTool.BookingSystemDown
                    && error.errorDescription?.contains("bookSeat") == true
            }
            #expect(session.transcript == before)
            #expect(!session.isResponding)
        }

        @Test func disallowedNeverCallsATool() async throws {
            try OnDevice.requireModel()
            let tool = FlightStatusTool()
            let session = LanguageModelSession(tools: [tool], instructions: "You help travellers.")
            let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 24, toolCallingMode: .disallowed)
            let response = try await session.respond(to: "Is flight LH454 on time?", options: options)
            #expect(Self.kinds(response.transcriptEntries) == ["prompt", "response"])
            #expect(tool.calls.withLock { $0 }.isEmpty)
        }

        @Test func aBudgetTooSmallForAnyCallIsADecodingFailure() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession(tools: [FlightStatusTool()], instructions: "You help travellers.")
            let before = session.transcript
            let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 3, toolCallingMode: .required)
            await #expect {
                try await session.respond(to: "Is flight LH454 on time?", options: options)
            } throws: { error in
                guard case LanguageModelSession.GenerationError.decodingFailure(let context) = error else { return false }
                return context.debugDescription.contains("tool call")
            }
            #expect(session.transcript == before)
        }

        @Test func aToolWhoseArgumentsCannotBeEnforcedIsRefusedBeforeDecoding() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession(tools: [BackreferenceTool()], instructions: "You help.")
            let before = session.transcript
            await #expect {
                try await session.respond(to: "Go.", options: Self.required)
            } throws: { error in
                guard case LanguageModelSession.GenerationError.unsupportedGuide(let context) = error else { return false }
                return context.debugDescription.contains("echo") && context.debugDescription.contains("backreference")
            }
            #expect(session.transcript == before)
        }

        @Test func theRoundLimitEndsTheRequestWithAClearError() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession(tools: [FlightStatusTool()], instructions: "You help travellers.")
            session.maximumToolRounds = 0
            let before = session.transcript
            await #expect {
                try await session.respond(to: "Is flight LH454 on time?", options: Self.required)
            } throws: { error in
                guard case LanguageModelSession.GenerationError.decodingFailure(let context) = error else { return false }
                return context.debugDescription.contains("maximumToolRounds is 0")
            }
            #expect(session.transcript == before)
        }

        @Test func cancellationReachesALongRunningTool() async throws {
            try OnDevice.requireModel()
            let tool = SlowTool()
            let session = LanguageModelSession(tools: [tool], instructions: "You search archives.")
            let before = session.transcript
            let task = Task { try await session.respond(to: "Find the 1921 harbour records.", options: Self.required) }
            let deadline = ContinuousClock.now + .seconds(60)
            while !tool.started, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            try #require(tool.started, "the tool was never called")
            let cancelledAt = ContinuousClock.now
            task.cancel()
            let result = await task.result
            #expect(ContinuousClock.now - cancelledAt < .seconds(2))
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(tool.cancelled)
            #expect(session.transcript == before)
            #expect(!session.isResponding)
        }

        @Test func streamingShowsOnlyTheFinalAnswer() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession(tools: [FlightStatusTool()], instructions: "You help travellers.")
            var snapshots: [String] = []
            for try await snapshot in session.streamResponse(to: "Is flight AF1 on time?", options: Self.required) {
                snapshots.append(snapshot.content)
            }
            #expect(!snapshots.isEmpty)
            guard case .response(let final) = try #require(session.transcript.last) else {
                Issue.record("no response entry")
                return
            }
            // Every snapshot is a beginning of the answer: nothing of the
            // round that called the tool was shown.
            let answer = final.segments.map(\.text).joined()
            #expect(snapshots.allSatisfy { answer.hasPrefix($0) }, "\(snapshots)")
            #expect(snapshots.allSatisfy { !$0.contains("<tool_call>") })
            #expect(snapshots.last == answer)
            #expect(Self.kinds(session.transcript).contains("toolOutput"))
        }

        @Test func aTypedAnswerAfterAToolCall() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession(tools: [FlightStatusTool()], instructions: "You help travellers.")
            let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 64, toolCallingMode: .required)
            let response = try await session.respond(to: "Is flight LH454 on time?", generating: FlightReport.self, options: options)
            #expect(Self.kinds(response.transcriptEntries) == ["prompt", "toolCalls", "toolOutput", "response"])
            #expect(response.content.flightNumber.wholeMatch(of: Self.flightNumber) != nil)
        }

        @Test func aRestoredTranscriptWithToolCallsContinues() async throws {
            try OnDevice.requireModel()
            let first = LanguageModelSession(tools: [FlightStatusTool()], instructions: "You help travellers.")
            try await first.respond(to: "Is flight LH454 on time?", options: Self.required)
            let data = try JSONEncoder().encode(first.transcript)
            let restored = try JSONDecoder().decode(Transcript.self, from: data)
            #expect(restored == first.transcript)
            let second = LanguageModelSession(tools: [FlightStatusTool()], transcript: restored)
            let response = try await second.respond(to: "And which gate?", options: OnDevice.greedy)
            #expect(!response.content.isEmpty)
            #expect(Self.kinds(second.transcript) == ["instructions", "prompt", "toolCalls", "toolOutput", "response", "prompt", "response"])
            // The conversation's tokens, tool call block included, come from
            // the cache: the restored transcript renders as it was generated.
            #expect(response.usage.input.cachedTokenCount > response.usage.input.totalTokenCount / 2)
        }
    }
}

@Generable
struct FlightReport {
    @Guide(/[A-Z]{2}[0-9]{1,4}/)
    var flightNumber: String
    var onTime: Bool
}

/// A flight tool whose calls wait for each other: a turn's calls finish
/// only if the session runs them at the same time.
final class MeetingFlightTool: Tool {
    let name = "flightStatus"
    let description = "Looks up the live status of a flight by its flight number."
    let arrivals = Mutex(0)
    let overlapped = Mutex(false)

    @Generable
    struct Arguments {
        @Guide(description: "The flight number", /[A-Z]{2}[0-9]{1,4}/)
        var flightNumber: String
    }

    func call(arguments: Arguments) async throws -> String {
        arrivals.withLock { $0 += 1 }
        let deadline = ContinuousClock.now + .seconds(5)
        while arrivals.withLock({ $0 }) < 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        if arrivals.withLock({ $0 }) >= 2 { overlapped.withLock { $0 = true } }
        return "Flight \(arguments.flightNumber) is on time."
    }
}

extension OnDeviceTests.Tools {
    @Test func twoCallsInOneTurnRunConcurrently() async throws {
        try OnDevice.requireModel()
        let tool = MeetingFlightTool()
        // An example of two calls in the model's own format.
        let example =
            switch try await OnDeviceEngine.shared(for: .default).loaded().rendering.toolFormat.style {
            case .jsonArray:
                #"<tool_call>[{"name": "flightStatus", "arguments": {"flightNumber": "AB1"}}, {"name": "flightStatus", "arguments": {"flightNumber": "CD2"}}]</tool_call>"#
            case .hermes:
                #"<tool_call>\#n{"name": "flightStatus", "arguments": {"flightNumber": "AB1"}}\#n</tool_call>\#n<tool_call>\#n{"name": "flightStatus", "arguments": {"flightNumber": "CD2"}}\#n</tool_call>"#
            }
        let instructions = "You check flights. For several flights, call flightStatus once per flight, all in one turn, like \(example)"
        let session = LanguageModelSession(tools: [tool], instructions: instructions)
        // Room for two calls in the spaced layout (about 25 tokens each):
        // the 48 tokens of `required` fit only one.
        let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 96, toolCallingMode: .required)
        let response = try await session.respond(to: "Check flights LH454 and BA117.", options: options)
        let calls = response.transcriptEntries.compactMap { entry -> Transcript.ToolCalls? in
            if case .toolCalls(let calls) = entry { calls } else { nil }
        }
        try #require(calls.first?.count == 2, "the model made \(calls.first?.count ?? 0) calls")
        #expect(tool.overlapped.withLock { $0 })
    }
}
