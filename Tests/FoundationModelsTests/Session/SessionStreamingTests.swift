import Foundation
import Observation
import Synchronization
import TestSupport
import Testing

@testable import FoundationModels

@Generable
struct Flashcard: Equatable {
    @Guide(description: "The question")
    var front: String
    var back: String
}

/// Streaming: cumulative snapshots, partially generated values, collect().
@Suite("Session streaming")
struct SessionStreamingTests {
    @Test func textSnapshotsAreCumulative() async throws {
        let session = LanguageModelSession(model: ScriptedModel([[.text("Hel"), .text("lo"), .text(" world")]]))
        var snapshots: [String] = []
        var completeFlags: [Bool] = []
        for try await snapshot in session.streamResponse(to: "greet") {
            snapshots.append(snapshot.content)
            completeFlags.append(snapshot.rawContent.isComplete)
        }
        #expect(snapshots == ["Hel", "Hello", "Hello world", "Hello world"])
        #expect(completeFlags == [false, false, false, true])
        #expect(session.transcript.count == 2)
    }

    /// A cancelled stream throws `CancellationError` rather than ending as
    /// if complete, and only once the session is free: the caller may send
    /// the next request at once.
    @Test func aCancelledStreamThrowsOnceTheSessionIsFree() async throws {
        let session = LanguageModelSession(
            model: ScriptedModel([
                [.text("Once"), .delay(.seconds(30)), .text(" upon")],
                [.text("Hi")],
            ]))
        let reading = Task {
            var seen: [String] = []
            for try await snapshot in session.streamResponse(to: "story") {
                seen.append(snapshot.content)
            }
            return seen
        }
        while !session.isResponding { await Task.yield() }
        try await Task.sleep(for: .milliseconds(50))
        reading.cancel()
        await #expect(throws: CancellationError.self) { try await reading.value }
        #expect(!session.isResponding)
        #expect(session.transcript.isEmpty)
        #expect(try await session.respond(to: "again").content == "Hi")
    }

    @Test func collectReturnsTheFinalResponse() async throws {
        let session = LanguageModelSession(model: ScriptedModel([[.text("a"), .text("b")]]))
        let response = try await session.streamResponse(to: "x").collect()
        #expect(response.content == "ab")
        #expect(response.transcriptEntries.count == 2)
    }

    @Test func structuredSnapshotsArePartiallyGeneratedValues() async throws {
        let pieces = ["{\"front\":\"Capi", "tal of France?\",", "\"back\":\"Pa", "ris\"}"]
        let session = LanguageModelSession(model: ScriptedModel([pieces.map { .text($0) }]))
        var fronts: [String?] = []
        var backs: [String?] = []
        let stream = session.streamResponse(to: "card", generating: Flashcard.self)
        for try await snapshot in stream {
            fronts.append(snapshot.content.front)
            backs.append(snapshot.content.back)
        }
        #expect(fronts.first == "Capi")
        #expect(fronts.last == "Capital of France?")
        #expect(backs.first == .some(nil))
        #expect(backs.last == "Paris")
        let response = try await stream.collect()
        #expect(response.content == Flashcard(front: "Capital of France?", back: "Paris"))
        guard case .response(let entry) = session.transcript.last, case .structure(let segment) = entry.segments.first else {
            Issue.record("expected a structured response entry")
            return
        }
        #expect(segment.content == response.rawContent)
    }

    @Test func abandoningAStreamCancelsGeneration() async throws {
        let session = LanguageModelSession(model: ScriptedModel([[.text("a"), .delay(.seconds(60)), .text("b")]]))
        for try await snapshot in session.streamResponse(to: "x") {
            #expect(snapshot.content == "a")
            break
        }
        // The producer notices the end of iteration and stops; the session frees up.
        let deadline = ContinuousClock.now + .seconds(5)
        while session.isResponding, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(!session.isResponding)
        #expect(session.transcript.isEmpty)
    }

    @Test func isRespondingIsObservable() async throws {
        let session = LanguageModelSession(model: ScriptedModel([[.text("x")]]))
        let changed = Mutex(false)
        withObservationTracking {
            _ = session.isResponding
        } onChange: {
            changed.withLock { $0 = true }
        }
        try await session.respond(to: "go")
        #expect(changed.withLock { $0 })
    }
}
