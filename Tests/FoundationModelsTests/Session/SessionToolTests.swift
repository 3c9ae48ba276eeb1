import Foundation
import Synchronization
import TestSupport
import Testing

@testable import FoundationModels

/// The session's tool loop, against a scripted model.
@Suite("Session tools")
struct SessionToolTests {
    struct Lookup: Tool {
        let description = "Looks up an artist's records."
        @Generable struct Arguments {
            var artist: String
        }
        func call(arguments: Arguments) async throws -> String {
            "\(arguments.artist): 3 records"
        }
    }

    struct Failing: Tool {
        let description = "Always fails."
        struct Broken: Error {}
        @Generable struct Arguments {
            var input: String
        }
        func call(arguments: Arguments) async throws -> String {
            throw Broken()
        }
    }

    @Test func toolCallsAndOutputsGoIntoTheTranscript() async throws {
        let model = ScriptedModel([
            [.toolCall(id: "c1", name: "Lookup", arguments: "{\"artist\":"), .toolCall(id: "c1", name: "Lookup", arguments: "\"Bowie\"}")],
            [.text("You own 3 Bowie records.")],
        ])
        let session = LanguageModelSession(model: model, tools: [Lookup()], instructions: "Use tools.")
        let response = try await session.respond(to: "How many Bowie records?")
        #expect(response.content == "You own 3 Bowie records.")
        let kinds = response.transcriptEntries.map { entry -> String in
            switch entry {
            case .prompt: "prompt"
            case .toolCalls: "toolCalls"
            case .toolOutput: "toolOutput"
            case .response: "response"
            default: "other"
            }
        }
        #expect(kinds == ["prompt", "toolCalls", "toolOutput", "response"])
        guard case .toolOutput(let output) = Array(response.transcriptEntries)[2] else { return }
        #expect(output.toolName == "Lookup")
        #expect(output.segments.map(\.text) == ["Bowie: 3 records"])
        // The second executor call saw the tool output.
        #expect(model.script.requests.count == 2)
        #expect(model.script.requests[1].transcript.count == 4)  // instructions, prompt, tool calls, tool output
        #expect(model.script.requests[0].enabledToolDefinitions.map(\.name) == ["Lookup"])
    }

    @Test func aThrowingToolEndsTheRequestWithToolCallError() async throws {
        let model = ScriptedModel([[.toolCall(id: "c1", name: "Failing", arguments: "{\"input\":\"x\"}")], [.text("unreachable")]])
        let session = LanguageModelSession(model: model, tools: [Failing()])
        let before = session.transcript
        await #expect {
            try await session.respond(to: "go")
        } throws: { error in
            guard let error = error as? LanguageModelSession.ToolCallError else { return false }
            return error.tool.name == "Failing" && error.underlyingError is Failing.Broken
        }
        #expect(session.transcript == before)
    }

    @Test func callingAnUnknownToolIsADecodingFailure() async throws {
        let model = ScriptedModel([[.toolCall(id: "c1", name: "Nope", arguments: "{}")]])
        let session = LanguageModelSession(model: model, tools: [Lookup()])
        await #expect {
            try await session.respond(to: "go")
        } throws: { error in
            (error as? GeneratedContent.ParsingError)?.debugDescription.contains("Nope") == true
        }
    }

    @Test func disallowedToolCallingSendsNoTools() async throws {
        let model = ScriptedModel([[.text("plain")]])
        let session = LanguageModelSession(model: model, tools: [Lookup()])
        try await session.respond(to: "go", options: GenerationOptions(toolCallingMode: .disallowed))
        #expect(model.script.requests.first?.enabledToolDefinitions.isEmpty == true)
    }

    @Test func aRepeatedIdenticalCallIsNotRunAgainAndTheNextRoundAnswers() async throws {
        let call: [Script.Step] = [.toolCall(id: "c", name: "Lookup", arguments: "{\"artist\":\"A\"}")]
        let model = ScriptedModel([call, call, [.text("The answer.")]])
        let session = LanguageModelSession(model: model, tools: [Lookup()])
        let response = try await session.respond(to: "go")
        #expect(response.content == "The answer.")
        // One call and its output; the repeat left no trace.
        #expect(session.transcript.count == 5, "instructions, prompt, call, output, answer")
        let requests = model.script.requests
        #expect(requests.count == 3)
        #expect(requests.last?.enabledToolDefinitions.isEmpty == true, "the round after the repeat answers without tools")
        #expect(requests.last?.generationOptions.toolCallingMode == .disallowed)
    }

    /// Two tools that each wait until the other has started: they finish
    /// only if the session runs them at the same time.
    final class Rendezvous: Sendable {
        let arrivals = Mutex(0)

        func arriveAndWait() async throws {
            arrivals.withLock { $0 += 1 }
            let deadline = ContinuousClock.now + .seconds(10)
            while arrivals.withLock({ $0 }) < 2 {
                guard ContinuousClock.now < deadline else { throw Timeout() }
                try await Task.sleep(for: .milliseconds(1))
            }
        }

        struct Timeout: Error {}
    }

    struct Meeting: Tool {
        let name: String
        let description = "Meets the other tool."
        let rendezvous: Rendezvous
        @Generable struct Arguments {
            var who: String
        }
        func call(arguments: Arguments) async throws -> String {
            try await rendezvous.arriveAndWait()
            return "\(name) met \(arguments.who)"
        }
    }

    @Test func callsInOneTurnRunConcurrently() async throws {
        let rendezvous = Rendezvous()
        let model = ScriptedModel([
            [
                .toolCall(id: "a", name: "left", arguments: "{\"who\":\"right\"}"),
                .toolCall(id: "b", name: "right", arguments: "{\"who\":\"left\"}"),
            ],
            [.text("They met.")],
        ])
        let tools: [any Tool] = [Meeting(name: "left", rendezvous: rendezvous), Meeting(name: "right", rendezvous: rendezvous)]
        let session = LanguageModelSession(model: model, tools: tools)
        let response = try await session.respond(to: "Meet.")
        #expect(response.content == "They met.")
        // Outputs keep the calls' order and answer them by id.
        let outputs = response.transcriptEntries.compactMap { entry -> Transcript.ToolOutput? in
            if case .toolOutput(let output) = entry { output } else { nil }
        }
        #expect(outputs.map(\.id) == ["a", "b"])
        #expect(outputs.map { $0.segments.map(\.text) } == [["left met right"], ["right met left"]])
    }

    @Test func requiredCallsFirstThenAnswers() async throws {
        let model = ScriptedModel([
            [.toolCall(id: "c1", name: "Lookup", arguments: "{\"artist\":\"A\"}")],
            [.text("done")],
        ])
        let session = LanguageModelSession(model: model, tools: [Lookup()])
        try await session.respond(to: "go", options: GenerationOptions(toolCallingMode: .required))
        #expect(model.script.requests.map(\.generationOptions.toolCallingMode) == [.required, .disallowed])
        #expect(model.script.requests.map(\.enabledToolDefinitions.count) == [1, 0])
    }

    @Test func theRoundLimitIsConfigurable() async throws {
        let call: (String) -> [Script.Step] = { [.toolCall(id: $0, name: "Lookup", arguments: "{\"artist\":\"\($0)\"}")] }
        let session = LanguageModelSession(model: ScriptedModel([call("a"), call("b"), call("c")]), tools: [Lookup()])
        session.maximumToolRounds = 2
        await #expect {
            try await session.respond(to: "go")
        } throws: { error in
            (error as? GeneratedContent.ParsingError)?.debugDescription.contains("maximumToolRounds is 2") == true
        }
        #expect(session.transcript.count == 1)  // the instructions entry with the tool

    }

    /// A tool whose output is a value, not text.
    struct Shelf: Tool {
        let description = "Reports a shelf's records."
        @Generable struct Arguments {
            var shelf: Int
        }
        @Generable struct Contents: Equatable {
            var shelf: Int
            var records: [String]
        }
        func call(arguments: Arguments) async throws -> Contents {
            Contents(shelf: arguments.shelf, records: ["Blue Train", "Head Hunters"])
        }
    }

    @Test func aGenerableOutputIsAStructuredSegment() async throws {
        let model = ScriptedModel([
            [.toolCall(id: "s", name: "Shelf", arguments: "{\"shelf\":2}")],
            [.text("Two records.")],
        ])
        let session = LanguageModelSession(model: model, tools: [Shelf()])
        let response = try await session.respond(to: "What is on shelf 2?")
        let output = try #require(
            response.transcriptEntries.compactMap { entry -> Transcript.ToolOutput? in
                if case .toolOutput(let output) = entry { output } else { nil }
            }.first)
        guard case .structure(let segment) = try #require(output.segments.first) else {
            Issue.record("expected a structured segment, got \(output.segments)")
            return
        }
        #expect(try Shelf.Contents(segment.content) == Shelf.Contents(shelf: 2, records: ["Blue Train", "Head Hunters"]))
        // The next round's request carries it.
        #expect(model.script.requests[1].transcript.last == .toolOutput(output))
    }
}
