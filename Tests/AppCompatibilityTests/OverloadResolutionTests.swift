// Every form in which app code calls Apple's initializers and respond /
// streamResponse overloads, written as apps write them, so that each one is
// a compile-time check in the three language modes this file is built in
// (Swift 6; Xcode's default main-actor isolation in Swift 6 and in Swift 5
// mode: the MainActor- and Swift5AppCompatibilityTests folders link it).
// Where two of Apple's declarations both accept a call, the test also checks
// the overload Apple's documentation means was picked: the 26 initializers
// take the system model and surface the 26 `GenerationError`, the 27 ones
// take any `LanguageModel` and throw the 27 errors as they are.
//
// Run, like the rest of this target, with the model file missing, so every
// request fails at once with the unavailable model's error; which error
// says which family the session belongs to.
//
// Exhaustive switches over Apple's enums, written with the cases of Apple's
// shipped SDK (Xcode 27 beta 5) and no `default`, are here too: a case this
// package added beyond the SDK would make them fail to compile.

import Foundation
import FoundationModels
import TestSupport
import Testing

@Generable struct OverloadAnswer {
    var title: String
}

/// Which family of initializers made a session, read from the error a
/// request on a missing model surfaces.
enum SessionFamily: Equatable {
    /// The 26 initializers: `LanguageModelSession.GenerationError`.
    case systemModel26
    /// The 27 initializers: the model's own error, as thrown.
    case anyModel27
    case other(String)
}

func family(of session: LanguageModelSession) async -> SessionFamily {
    do {
        _ = try await session.respond(to: "Hi")
        return .other("answered")
    } catch LanguageModelSession.GenerationError.assetsUnavailable {
        return .systemModel26
    } catch SystemLanguageModel.Error.assetsUnavailable {
        return .anyModel27
    } catch {
        return .other(String(describing: error))
    }
}

/// A builder that may throw, as apps write one (instructions read from a file).
struct InstructionsFileMissing: Error {}
func loadedInstructions(_ fail: Bool) throws -> String {
    if fail { throw InstructionsFileMissing() }
    return "Answer briefly."
}

/// What a provider-generic helper in app code writes: the model is a type
/// parameter, so only the 27 initializers apply (as for a custom model).
func genericSession<Model: LanguageModel>(_ model: Model, tools: [any Tool] = []) -> LanguageModelSession {
    LanguageModelSession(model: model, tools: tools) {
        "You help with a record collection."
    }
}

func someModelSession(_ model: some LanguageModel) -> LanguageModelSession {
    LanguageModelSession(model: model, instructions: "Answer briefly.")
}

@Suite("Apple's overloads, called as apps call them")
struct OverloadResolutionTests {
    @Test("initializers on the system model resolve, to the 26 family", .tags(.noModel), .needs(.noModel))
    func systemModelInitializers() async throws {
        let tool = FindAlbumTool.sample
        let tagging = SystemLanguageModel(useCase: .contentTagging)
        let sessions: [LanguageModelSession] = [
            LanguageModelSession(),
            LanguageModelSession(instructions: "Answer briefly."),
            LanguageModelSession(instructions: Instructions { "Answer briefly." }),
            LanguageModelSession { "Answer briefly." },
            LanguageModelSession(tools: [tool]) { "Answer briefly." },
            LanguageModelSession(model: .default),
            LanguageModelSession(model: .default) { "Answer briefly." },
            LanguageModelSession(model: SystemLanguageModel.default, instructions: "Answer briefly."),
            // The calls Swift 6.3 found ambiguous between Apple's 26
            // `init(model: SystemLanguageModel = .default, tools:, instructions: () throws -> Instructions) rethrows`
            // and 27 `init<Failure>(model: some LanguageModel, tools:, instructions: () throws(Failure) -> Instructions) throws(Failure)`.
            LanguageModelSession(model: SystemLanguageModel(useCase: .contentTagging), tools: [tool]) {
                "Tag the album."
            },
            LanguageModelSession(model: tagging, tools: [tool]) { "Tag the album." },
            LanguageModelSession(model: tagging) { "Tag the album." },
            LanguageModelSession(model: tagging, instructions: { "Tag the album." }),
            LanguageModelSession(model: tagging, tools: [tool], instructions: "Tag the album."),
            LanguageModelSession(model: tagging, transcript: Transcript()),
            LanguageModelSession(transcript: Transcript()),
            try LanguageModelSession(model: tagging) { try loadedInstructions(false) },
        ]
        for (index, session) in sessions.enumerated() {
            let found = await family(of: session)
            #expect(found == .systemModel26, "session \(index)")
        }
        #expect(throws: InstructionsFileMissing.self) {
            _ = try LanguageModelSession(model: tagging) { try loadedInstructions(true) }
        }
    }

    @Test("initializers on a model of any type resolve, to the 27 family", .tags(.noModel), .needs(.noModel))
    func anyModelInitializers() async throws {
        let model = SystemLanguageModel(useCase: .general)
        let sessions: [LanguageModelSession] = [
            genericSession(model),
            genericSession(model, tools: [FindAlbumTool.sample]),
            someModelSession(model),
        ]
        for (index, session) in sessions.enumerated() {
            let found = await family(of: session)
            #expect(found == .anyModel27, "session \(index)")
        }
        // A typed-throws builder keeps its error type (the 27 initializer).
        func typed(_ model: some LanguageModel) throws(InstructionsFileMissing) -> LanguageModelSession {
            try LanguageModelSession(model: model) { () throws(InstructionsFileMissing) -> Instructions in
                throw InstructionsFileMissing()
            }
        }
        #expect(throws: InstructionsFileMissing.self) { _ = try typed(model) }
    }

    @Test("respond and streamResponse in every form an app writes", .tags(.noModel), .needs(.noModel))
    func respondForms() async {
        let session = LanguageModelSession()
        let schema = OverloadAnswer.generationSchema
        let options = GenerationOptions(temperature: 0.2)
        let calls: [@Sendable () async throws -> Void] = [
            { _ = try await session.respond(to: "Hi") },
            { _ = try await session.respond(to: Prompt("Hi")) },
            { _ = try await session.respond { "Hi" } },
            { _ = try await session.respond(to: "Hi", options: options) },
            { _ = try await session.respond(options: options) { "Hi" } },
            { _ = try await session.respond(to: "Hi", generating: OverloadAnswer.self) },
            { _ = try await session.respond(to: "Hi", generating: OverloadAnswer.self, includeSchemaInPrompt: false) },
            { _ = try await session.respond(generating: OverloadAnswer.self) { "Hi" } },
            { _ = try await session.respond(to: "Hi", generating: OverloadAnswer.self, options: options) },
            { _ = try await session.respond(to: "Hi", schema: schema) },
            { _ = try await session.respond(to: "Hi", schema: schema, includeSchemaInPrompt: false, options: options) },
            { _ = try await session.respond(schema: schema) { "Hi" } },
            { _ = try await session.respond(to: "Hi", contextOptions: ContextOptions()) },
            { _ = try await session.respond(to: "Hi", metadata: ["trace": "abc"]) },
            { _ = try await session.respond(to: "Hi", generating: OverloadAnswer.self, metadata: ["trace": "abc"]) },
            { for try await _ in session.streamResponse(to: "Hi") {} },
            { for try await _ in session.streamResponse { "Hi" } {} },
            { for try await _ in session.streamResponse(to: "Hi", options: options) {} },
            { for try await _ in session.streamResponse(to: "Hi", generating: OverloadAnswer.self) {} },
            { for try await _ in session.streamResponse(generating: OverloadAnswer.self) { "Hi" } {} },
            { for try await _ in session.streamResponse(to: "Hi", schema: schema) {} },
            { for try await _ in session.streamResponse(to: "Hi", contextOptions: ContextOptions(), metadata: ["trace": "abc"]) {} },
            { _ = try await session.streamResponse(to: "Hi", generating: OverloadAnswer.self).collect() },
        ]
        for (index, call) in calls.enumerated() {
            do {
                try await call()
                Issue.record("call \(index): an unavailable model answered")
            } catch LanguageModelSession.GenerationError.assetsUnavailable {
                // The 26 family's session: every form fails the same way.
            } catch {
                Issue.record("call \(index): \(error)")
            }
        }
        #expect(session.transcript.isEmpty)
    }

    @Test("exhaustive switches with the shipped SDK's cases and no default", .tags(.noModel), .needs(.noModel))
    func exhaustiveSwitches() {
        func name(_ attachment: Transcript.Attachment) -> String {
            switch attachment {
            case .image: "image"
            #if DataAttachments
            // An app written for 27.2 (the trait on) has 27.2's case too.
            case .data: "data"
            #endif
            }
        }
        func name(_ segment: Transcript.Segment) -> String {
            switch segment {
            case .text: "text"
            case .structure: "structure"
            case .attachment: "attachment"
            }
        }
        func name(_ entry: Transcript.Entry) -> String {
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
        func name(_ availability: SystemLanguageModel.Availability) -> String {
            switch availability {
            case .available: "available"
            case .unavailable(.deviceNotEligible): "deviceNotEligible"
            case .unavailable(.appleIntelligenceNotEnabled): "notEnabled"
            case .unavailable(.modelNotReady): "notReady"
            }
        }
        #expect(name(.text(Transcript.TextSegment(content: "Hi"))) == "text")
        #expect(name(SystemLanguageModel.default.availability) == "notReady")
    }
}
