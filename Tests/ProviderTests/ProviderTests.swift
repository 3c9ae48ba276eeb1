// A third-party provider (WireProvider.swift) driven through the public API
// only: what its tests would check on Apple's 27 SDK.

import Foundation
import FoundationModels
import Testing

@Suite("A provider package on the public API")
struct ProviderTests {
    static let signature = Data("sig-7f3a".utf8)

    @Test("text, response metadata and usage with its metadata reach the caller")
    func textMetadataAndUsage() async throws {
        let server = ScriptedServer([
            [
                .responseMetadata(["tier": "flex", "model": "wire-large-2026"]),
                .textDelta("Bonjour"), .textDelta(" !"),
                .usage(input: 120, cached: 100, output: 3, reasoning: 0, cost: 0.0042),
            ]
        ])
        let session = LanguageModelSession(model: WireModel(server: server), instructions: "Answer in French.")
        let response = try await session.respond(
            to: "Say hello", options: GenerationOptions(temperature: 0.2), contextOptions: ContextOptions(reasoningLevel: .deep),
            metadata: ["user": "u-42"])
        #expect(response.content == "Bonjour !")
        #expect(response.usage.input.totalTokenCount == 120)
        #expect(response.usage.input.cachedTokenCount == 100)
        #expect(response.usage.output.totalTokenCount == 3)
        #expect(response.usage.totalTokenCount == 123)
        #expect(try response.usage.metadata["cost"]?.value(Double.self) == 0.0042)
        #expect(session.usage.totalTokenCount == 123)

        // The response entry keeps the metadata the server reported.
        guard case .response(let entry) = try #require(response.transcriptEntries.last) else {
            Issue.record("the last entry should be the response"); return
        }
        #expect(try entry.metadata["tier"]?.value(String.self) == "flex")
        #expect(try entry.metadata["model"]?.value(String.self) == "wire-large-2026")

        // What the provider was sent: instructions, prompt, the request's
        // metadata and reasoning level.
        let request = try #require(server.requests.first)
        #expect(request.messages.map(\.role) == ["system", "user"])
        #expect(request.metadata == ["user": "u-42"])
        #expect(request.reasoningEffort == "high")
        guard case .prompt(let prompt) = session.transcript[1] else { Issue.record("prompt entry"); return }
        #expect(try prompt.metadata["user"]?.value(String.self) == "u-42")
        #expect(prompt.contextOptions.reasoningLevel == .deep)
    }

    @Test("reasoning with a signature becomes a transcript entry and is sent back on the next turn")
    func reasoningReplays() async throws {
        let server = ScriptedServer([
            [
                .reasoningDelta("The user wants "), .reasoningDelta("a number."),
                .reasoningSignature(Self.signature.base64EncodedString()),
                .textDelta("42"),
                .usage(input: 10, cached: 0, output: 9, reasoning: 7, cost: 0.001),
            ],
            [.textDelta("Because it is the answer.")],
        ])
        let session = LanguageModelSession(model: WireModel(server: server))
        let first = try await session.respond(to: "Pick a number")
        #expect(first.content == "42")
        #expect(first.usage.output.reasoningTokenCount == 7)

        // prompt, reasoning, response
        #expect(session.transcript.count == 3)
        guard case .reasoning(let reasoning) = session.transcript[1] else {
            Issue.record("expected a reasoning entry before the response, got \(session.transcript[1])"); return
        }
        #expect(reasoning.signature == Self.signature)
        #expect(reasoning.segments.count == 1)
        guard case .text(let thought) = try #require(reasoning.segments.first) else { Issue.record("reasoning text"); return }
        #expect(thought.content == "The user wants a number.")
        #expect(first.transcriptEntries.contains { if case .reasoning = $0 { true } else { false } })

        // The next request carries the reasoning back with its signature.
        _ = try await session.respond(to: "Why?")
        let replayed = try #require(server.requests.last?.messages)
        #expect(replayed.map(\.role) == ["user", "reasoning", "assistant", "user"])
        #expect(replayed[1].reasoningSignature == Self.signature.base64EncodedString())
        #expect(replayed[1].text == "The user wants a number.")

        // The signature and the metadata survive saving the transcript.
        let decoded = try JSONDecoder().decode(Transcript.self, from: JSONEncoder().encode(session.transcript))
        #expect(decoded == session.transcript)
    }

    @Test("tool calls with metadata run, and the outputs answer their calls")
    func toolCalls() async throws {
        let server = ScriptedServer([
            [
                .toolCallDelta(id: "call_1", name: "exchangeRate", arguments: #"{"from":"EUR","#),
                .toolCallDelta(id: "call_1", name: "exchangeRate", arguments: #""to":"JPY"}"#),
                .toolCallMetadata(id: "call_1", name: "exchangeRate", ["itemID": "fc_9"]),
            ],
            [.textDelta("1 EUR is 162 JPY."), .responseMetadata(["tier": "default"])],
        ])
        let session = LanguageModelSession(model: WireModel(server: server), tools: [ExchangeRate()])
        let response = try await session.respond(to: "How many yen for a euro?")
        #expect(response.content == "1 EUR is 162 JPY.")

        let calls = session.transcript.compactMap { if case .toolCalls(let calls) = $0 { calls } else { nil } }
        let call = try #require(calls.first?.first)
        #expect(call.id == "call_1")
        #expect(call.toolName == "exchangeRate")
        #expect(try call.metadata["itemID"]?.value(String.self) == "fc_9")
        let outputs = session.transcript.compactMap { if case .toolOutput(let output) = $0 { output } else { nil } }
        #expect(outputs.map(\.id) == ["call_1"])

        let second = try #require(server.requests.last)
        #expect(second.messages.map(\.role) == ["instructions", "user", "assistant", "tool"].map { $0 == "instructions" ? "system" : $0 })
        #expect(second.messages[3].toolCallID == "call_1")
        #expect(second.messages[3].text == "162")
        #expect(second.tools == ["exchangeRate"])
    }

    @Test("the LanguageModelError a provider throws reaches the caller as thrown, and the transcript is unchanged")
    func errorsAsThrown() async throws {
        let server = ScriptedServer([
            [.error(code: "rate_limit_exceeded", message: "slow down")],
            [.textDelta("par"), .error(code: "context_length_exceeded", message: "too long")],
            [.error(code: "content_filter", message: "blocked")],
            [.error(code: "refusal", message: "I can't help with that.")],
        ])
        let session = LanguageModelSession(model: WireModel(server: server), instructions: "I")
        let before = session.transcript

        do {
            _ = try await session.respond(to: "one")
            Issue.record("expected rateLimited")
        } catch LanguageModelError.rateLimited(let info) {
            #expect(info.debugDescription == "slow down")
            #expect(info.resetDate == Date(timeIntervalSince1970: 1_900_000_000))
            #expect(info.metadata["code"] as? String == "rate_limit_exceeded")
        }
        await #expect {
            try await session.respond(to: "two")
        } throws: { error in
            guard case LanguageModelError.contextSizeExceeded(let info) = error else { return false }
            return info.contextSize == 8192 && info.tokenCount == 9000
        }
        await #expect {
            try await session.respond(to: "three")
        } throws: { error in
            guard case LanguageModelError.guardrailViolation = error else { return false }
            return true
        }
        do {
            _ = try await session.respond(to: "four")
            Issue.record("expected refusal")
        } catch LanguageModelError.refusal(let refusal) {
            #expect(try await refusal.explanation.content == "I can't help with that.")
            #expect(refusal.debugDescription == "refused")
        }
        #expect(session.transcript == before)
        #expect(!session.isResponding)
    }

    @Test("a second request while one is in flight throws LanguageModelSession.Error.concurrentRequests")
    func concurrentRequests() async throws {
        let latch = Latch()
        let server = ScriptedServer([[.stall(latch), .textDelta("slow")]])
        let session = LanguageModelSession(model: WireModel(server: server))
        let first = Task { try await session.respond(to: "one") }
        while !session.isResponding { await Task.yield() }
        await #expect(throws: LanguageModelSession.Error.concurrentRequests) {
            try await session.respond(to: "two")
        }
        latch.open()
        #expect(try await first.value.content == "slow")
        #expect(server.requests.count == 1)
    }

    @Test("a stream's snapshots carry the request's entries and usage as they grow")
    func streamingSnapshots() async throws {
        let server = ScriptedServer([
            [
                .reasoningDelta("thinking"), .reasoningSignature(Self.signature.base64EncodedString()),
                .textDelta("a"), .textDelta("b"),
                .usage(input: 5, cached: 0, output: 4, reasoning: 2, cost: 0),
            ]
        ])
        let session = LanguageModelSession(model: WireModel(server: server))
        var last: LanguageModelSession.ResponseStream<String>.Snapshot?
        for try await snapshot in session.streamResponse(to: "go") {
            last = snapshot
            // prompt, reasoning, response-so-far
            #expect(snapshot.transcriptEntries.count == 3)
        }
        let final = try #require(last)
        #expect(final.content == "ab")
        #expect(final.usage.output.reasoningTokenCount == 2)
        guard case .reasoning(let reasoning) = final.transcriptEntries[final.transcriptEntries.startIndex + 1] else {
            Issue.record("reasoning entry in the snapshot"); return
        }
        #expect(reasoning.signature == Self.signature)
    }
}

/// A tool the scripted model calls.
struct ExchangeRate: Tool {
    let name = "exchangeRate"
    let description = "Looks up an exchange rate."

    @Generable
    struct Arguments {
        var from: String
        var to: String
    }

    func call(arguments: Arguments) async throws -> String {
        arguments.from == "EUR" && arguments.to == "JPY" ? "162" : "unknown"
    }
}
