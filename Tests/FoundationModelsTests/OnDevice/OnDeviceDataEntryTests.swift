#if DataAttachments && LlamaCpp
import Foundation
import Testing
import TestSupport
@testable import FoundationModels

/// The in-process model and Apple 27.2's data entries (`DataAttachments`
/// trait): it takes textual types, rendered into its chat as a user turn
/// that names the type, and refuses binary ones before anything is rendered.
@Suite("On-device data entries", .serialized, .tags(.model, .dataAttachments), .needs(.smallModel))
struct OnDeviceDataEntryTests {
    static func model() -> SystemLanguageModel {
        OnDevice.model(path: TestMachine.smallModel, contexts: 1, contextSize: 1024)
    }

    static let order = Transcript.DataEntry(id: "order", contentType: .json, content: Data(#"{"order": "A-7731", "items": 3}"#.utf8))

    @Test func textualTypesAreTakenAndBinaryOnesAreNot() async throws {
        let model = Self.model()
        for type in [UTType.json, .plainText, .text, UTType("net.daringfireball.markdown")!] {
            #expect(try await model.supportsDataEntryType(type), "\(type)")
        }
        for type in [UTType.png, .pdf, .audio, .data, UTType("com.example.trace")!] {
            #expect(try await model.supportsDataEntryType(type) == false, "\(type)")
        }
    }

    @Test func aDataEntryIsRenderedIntoThePromptAndTheModelAnswers() async throws {
        let model = Self.model()
        defer { OnDeviceEngine.release(for: model.configuration) }
        let transcript = Transcript(entries: [.data(Self.order)])
        let prompt = Transcript.Entry.prompt(Transcript.Prompt(segments: [.text(.init(content: "What is the order number?"))]))
        let input = try await model.renderedInput(for: Transcript(entries: [.data(Self.order), prompt]))
        #expect(input.messages.first?.role == "user")
        #expect(input.messages.first?.content == "Data (public.json):\n" + #"{"order": "A-7731", "items": 3}"#)
        #expect(input.text.contains("A-7731"))
        // The entry comes before the question, in the order of the transcript.
        let entryAt = try #require(input.text.range(of: "A-7731"))
        let questionAt = try #require(input.text.range(of: "What is the order number?"))
        #expect(entryAt.lowerBound < questionAt.lowerBound)

        let session = LanguageModelSession(model: model, transcript: transcript)
        let answer = try await session.respond(to: "What is the order number?", options: OnDevice.greedy)
        #expect(!answer.content.isEmpty)
        #expect(session.transcript.first == .data(Self.order))
        #expect(answer.transcriptEntries.contains { if case .response = $0 { true } else { false } })
    }

    @Test func aBinaryDataEntryIsRefusedBeforeTheModelLoads() async throws {
        let model = Self.model()
        let image = Transcript.DataEntry(id: "png", contentType: .png, content: Data([0x89, 0x50, 0x4E, 0x47]))
        let session = LanguageModelSession(model: model, transcript: Transcript(entries: [.data(image)]))
        do {
            _ = try await session.respond(to: "Describe it.", options: OnDevice.greedy)
            Issue.record("a PNG data entry reached the text model")
        } catch LanguageModelError.unsupportedTranscriptContent(let context) {
            #expect(context.unsupportedContent == [.data(image)])
        }
    }
}
#endif
