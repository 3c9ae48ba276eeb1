import Foundation
import Synchronization
import TestSupport
import Testing

@testable import FoundationModels

/// A turn whose tool calls go back to the caller (what `fm serve` runs for
/// an OpenAI client), against a scripted model.
@Suite("Turns whose caller runs the tools")
struct CallerToolTurnTests {
    /// A tool that counts its calls: the caller's turns must never make one.
    final class Calls: Sendable {
        let count = Mutex(0)
    }

    struct Counted: Tool {
        let name = "lookup"
        let description = "Looks up an artist's records."
        var calls = Calls()
        @Generable struct Arguments {
            var artist: String
        }
        func call(arguments: Arguments) async throws -> String {
            calls.count.withLock { $0 += 1 }
            return "never"
        }
    }

    /// A round the client ran: lookup(Bowie) and its output.
    static func bowieRound() throws -> [Transcript.Entry] {
        let call = Transcript.ToolCall(id: "call_1", toolName: "lookup", arguments: try GeneratedContent(json: #"{"artist":"Bowie"}"#))
        return [
            .toolCalls(Transcript.ToolCalls([call])),
            .toolOutput(Transcript.ToolOutput(id: "call_1", toolName: "lookup", segments: [.text(Transcript.TextSegment(content: "3 records"))])),
        ]
    }

    @Test func theModelsCallsComeBackAndNoToolRuns() async throws {
        let model = ScriptedModel([[.toolCall(id: "c1", name: "lookup", arguments: #"{"artist":"Bowie"}"#), .usage(input: 12, output: 7)]])
        let tool = Counted()
        let session = LanguageModelSession(model: model, tools: [tool])
        let turn = try await session.turn(to: Prompt("How many Bowie records?"), schema: nil)
        let calls = try #require(turn.toolCalls)
        #expect(calls.map(\.toolName) == ["lookup"])
        #expect(calls.first?.arguments.jsonString == #"{"artist":"Bowie"}"#)
        #expect(tool.calls.count.withLock { $0 } == 0)
        #expect(turn.usage.output.totalTokenCount == 7)
        #expect(model.script.requests.count == 1)
        // The transcript ends with the calls, as the client's next request will start.
        guard case .toolCalls = session.transcript.last else {
            Issue.record("the transcript does not end with the calls: \(session.transcript)")
            return
        }
    }

    @Test func earlierRoundsFollowThePromptAndTheAnswerUsesThem() async throws {
        let model = ScriptedModel([[.text("You own 3 Bowie records.")]])
        let session = LanguageModelSession(model: model, tools: [Counted()])
        let rounds = try Self.bowieRound()
        let turn = try await session.turn(to: Prompt("How many Bowie records?"), schema: nil, earlierRounds: rounds)
        #expect(turn.toolCalls == nil)
        #expect(String(describing: turn.content.kind).contains("You own 3 Bowie records."))
        let sent = try #require(model.script.requests.first).transcript.map { entry -> String in
            switch entry {
            case .instructions: "instructions"
            case .prompt: "prompt"
            case .toolCalls: "toolCalls"
            case .toolOutput: "toolOutput"
            default: "other"
            }
        }
        #expect(sent == ["instructions", "prompt", "toolCalls", "toolOutput"])
    }

    /// Small models call again after reading an output; the same call
    /// (tool and arguments) as an earlier round is not sent back to the
    /// client: the turn answers from the outputs it has, tools disallowed.
    @Test func aRepeatedCallIsAnsweredInstead() async throws {
        let model = ScriptedModel([
            [.toolCall(id: "c2", name: "lookup", arguments: #"{"artist":"Bowie"}"#)],
            [.text("3 records.")],
        ])
        let session = LanguageModelSession(model: model, tools: [Counted()])
        let rounds = try Self.bowieRound()
        let turn = try await session.turn(to: Prompt("How many?"), schema: nil, earlierRounds: rounds)
        #expect(turn.toolCalls == nil)
        #expect(model.script.requests.count == 2)
        #expect(model.script.requests.last?.enabledToolDefinitions.isEmpty == true)
    }

    @Test func aFailedTurnLeavesTheTranscriptAsItWas() async throws {
        struct Broken: Error {}
        let model = ScriptedModel([[.text("partial"), .fail(Broken())]])
        let session = LanguageModelSession(model: model, instructions: "Be brief.")
        let before = session.transcript
        await #expect(throws: Broken.self) {
            _ = try await session.turn(to: Prompt("Hi"), schema: nil)
        }
        #expect(session.transcript == before)
    }
}
