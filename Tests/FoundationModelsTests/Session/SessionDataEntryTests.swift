#if DataAttachments
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import FoundationModels

/// What a test's model does each turn and what it saw: the data-entry
/// events it sends after its text, and the transcripts it was given.
final class DataEntryLog: Sendable, Hashable {
    let events: [LanguageModelExecutorGenerationChannel.Event]
    private let seen = Mutex<[Transcript]>([])
    init(events: [LanguageModelExecutorGenerationChannel.Event]) { self.events = events }
    func record(_ transcript: Transcript) { seen.withLock { $0.append(transcript) } }
    var transcripts: [Transcript] { seen.withLock { $0 } }
    static func == (lhs: DataEntryLog, rhs: DataEntryLog) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// A model that takes JSON data entries (and data attachments).
struct DataEntryModel: LanguageModel {
    typealias Executor = LoggingExecutor<Self>
    let log: DataEntryLog
    var capabilities: LanguageModelCapabilities { LanguageModelCapabilities([]) }
    var executorConfiguration: DataEntryLog { log }

    func supportsDataEntryType(_ type: UTType) async throws -> Bool { type == .json }
    func supportsDataAttachmentType(_ type: UTType) async throws -> Bool { type == .json }
}

/// A model that lists no data types: the default of `LanguageModel`.
struct PlainModel: LanguageModel {
    typealias Executor = LoggingExecutor<Self>
    let log: DataEntryLog
    var capabilities: LanguageModelCapabilities { LanguageModelCapabilities([]) }
    var executorConfiguration: DataEntryLog { log }
}

/// Both models' executor: records the transcript it is given, answers
/// "done", then sends the log's events. Generic over the model, because
/// an executor names the one model type it serves.
struct LoggingExecutor<Model: LanguageModel>: LanguageModelExecutor {
    let log: DataEntryLog

    init(configuration: DataEntryLog) throws { log = configuration }

    func respond(
        to request: LanguageModelExecutorGenerationRequest,
        model: Model,
        streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
        log.record(request.transcript)
        await channel.send(.response(action: .appendText("done", tokenCount: 1)))
        for event in log.events { await channel.send(event) }
    }
}

/// Data entries (Apple 27.2, `DataAttachments` trait) between a session and its model.
@Suite(.tags(.dataAttachments)) struct SessionDataEntryTests {
    static let json = Transcript.DataEntry(id: "json-1", contentType: .json, content: Data(#"{"total": 42}"#.utf8))
    static let binary = Transcript.DataEntry(id: "bin-1", contentType: .png, content: Data([0x89, 0x50]))

    @Test func aSupportedDataEntryIsOfferedToTheModel() async throws {
        let log = DataEntryLog(events: [])
        let session = LanguageModelSession(model: DataEntryModel(log: log), transcript: Transcript(entries: [.data(Self.json)]))
        let answer = try await session.respond(to: "What is the total?")
        #expect(answer.content == "done")
        let seen = try #require(log.transcripts.first)
        #expect(seen.contains(.data(Self.json)))
        #expect(session.transcript.first == .data(Self.json))
    }

    @Test func anUnsupportedDataEntryIsRefusedBeforeTheExecutorIsCalled() async throws {
        let log = DataEntryLog(events: [])
        let session = LanguageModelSession(model: DataEntryModel(log: log), transcript: Transcript(entries: [.data(Self.binary)]))
        do {
            _ = try await session.respond(to: "Describe it.")
            Issue.record("a PNG data entry reached a model that takes JSON only")
        } catch LanguageModelError.unsupportedTranscriptContent(let context) {
            #expect(context.unsupportedContent == [.data(Self.binary)])
            #expect(context.debugDescription.contains("data entries"))
        }
        #expect(log.transcripts.isEmpty)
    }

    @Test func aModelThatListsNoTypesRefusesEveryDataEntryAndAttachment() async throws {
        let log = DataEntryLog(events: [])
        let attachment = Transcript.Prompt(segments: [
            .attachment(.init(content: .data(Transcript.DataAttachment(contentType: .json, content: Data("{}".utf8)))))
        ])
        for entries: [Transcript.Entry] in [[.data(Self.json)], [.prompt(attachment)]] {
            let session = LanguageModelSession(model: PlainModel(log: log), transcript: Transcript(entries: entries))
            await #expect(throws: LanguageModelError.self) { _ = try await session.respond(to: "Go.") }
        }
        #expect(log.transcripts.isEmpty)
        #expect(try await PlainModel(log: log).supportsDataEntryType(.plainText) == false)
    }

    @Test func aSupportedDataAttachmentIsOffered() async throws {
        let log = DataEntryLog(events: [])
        let session = LanguageModelSession(model: DataEntryModel(log: log))
        _ = try await session.respond {
            "Sum it."
            Attachment(JSONNotes(text: #"{"a": 1}"#))
        }
        #expect(log.transcripts.count == 1)
    }

    @Test func dataEntryEventsAreUpsertedIntoTheTranscriptAfterTheTurnsReasoning() async throws {
        let log = DataEntryLog(events: [
            .data(entryID: "trace", action: .update(contentType: .json, content: Data("1".utf8))),
            .data(action: .update(contentType: .json, content: Data("fresh".utf8), metadata: GeneratedContent(properties: ["k": "v"]))),
            .data(entryID: "trace", action: .update(contentType: .json, content: Data("2".utf8))),
        ])
        let session = LanguageModelSession(model: DataEntryModel(log: log))
        let response = try await session.respond(to: "Go.")
        let entries = Array(session.transcript)
        // prompt, the two data entries (the upserted one where it was first sent), then the response.
        #expect(entries.count == 4)
        guard entries.count == 4, case .data(let trace) = entries[1], case .data(let fresh) = entries[2], case .response = entries[3] else {
            Issue.record("unexpected entries: \(entries)")
            return
        }
        #expect(trace.id == "trace")
        #expect(trace.content == Data("2".utf8))
        #expect(fresh.id != "trace" && !fresh.id.isEmpty)
        #expect(try fresh.metadata.value(String.self, forProperty: "k") == "v")
        #expect(response.transcriptEntries.contains(.data(trace)))
    }

    @Test func aDataEntryEventOfAnUnsupportedTypeFailsTheRequest() async throws {
        let log = DataEntryLog(events: [.data(entryID: "img", action: .update(contentType: .png, content: Data([1])))])
        let session = LanguageModelSession(model: DataEntryModel(log: log))
        do {
            _ = try await session.respond(to: "Go.")
            Issue.record("a PNG data entry event was accepted")
        } catch LanguageModelError.unsupportedTranscriptContent(let context) {
            #expect(context.unsupportedContent.map(\.id) == ["img"])
        }
        #expect(!session.transcript.contains { if case .data = $0 { true } else { false } })
    }
}

/// JSON text as a data attachment.
struct JSONNotes: DataAttachmentRepresentable {
    var text: String
    init(text: String) { self.text = text }
    var transcriptRepresentation: Transcript.DataAttachment { Transcript.DataAttachment(contentType: .json, content: Data(text.utf8)) }
    init(_ attachment: Transcript.DataAttachment) throws { text = String(decoding: attachment.content, as: UTF8.self) }
}
#endif
