// Calls shaped exactly as code written against Apple's SDK makes them, for
// the declarations that did not compile here before (issue 12): each line
// below is a compile-time check, and each expectation checks the call does
// what Apple's does. Run, like the rest of this target, with the model not
// downloaded (see SessionUsageTests).

import Foundation
import FoundationModels
import TestSupport
import Testing

/// A public type, as a package of app models declares one: Swift infers
/// `Sendable` for no public type, so the macro declares it for the partial
/// form (checked by the compiler, as in Apple's expansion).
@Generable public struct PublicHeadline {
    public var title: String
    public var tags: [String]
    public var rank: Int?
}

@Suite("Apple's declaration shapes from app code")
struct DeclarationShapeTests {
    @Test("A public type's PartiallyGenerated is Sendable: snapshots cross isolation")
    func partiallyGeneratedIsSendable() async throws {
        func isSendable<T: Sendable>(_: T.Type) -> Bool { true }
        #expect(isSendable(PublicHeadline.PartiallyGenerated.self))
        #expect(isSendable(LanguageModelSession.ResponseStream<PublicHeadline>.Snapshot.self))
        let partial = try PublicHeadline.PartiallyGenerated(GeneratedContent(json: #"{"title":"Tid","tags":["a"#))
        let seen = await Task.detached { (partial.title, partial.tags, partial.rank) }.value
        #expect(seen.0 == "Tid" && seen.1 == ["a"] && seen.2 == nil)
    }

    @Test("LanguageModelSession(model: .default) is the 26 family: it surfaces GenerationError", .tags(.noModel), .needs(.noModel))
    func sessionOnTheDefaultModel() async throws {
        let session = LanguageModelSession(model: .default, instructions: "Answer briefly.")
        let alsoSession = LanguageModelSession(model: .default)
        #expect(alsoSession.transcript.isEmpty)
        do {
            _ = try await session.respond(to: "Hello")
            Issue.record("an unavailable model answered")
        } catch LanguageModelSession.GenerationError.assetsUnavailable {
            // The 26 catch clause app code has keeps working.
        }
        #expect(session.transcript.count == 1)
    }

    @Test("tokenCount(for:) takes a String, as any PromptRepresentable", .tags(.noModel), .needs(.noModel))
    func tokenCountOfAString() async throws {
        let text = "How many tokens is this?"
        // The model is not downloaded in this run: the call compiles and
        // fails with the reason, never a crash. (The count itself is
        // checked on the model in OnDeviceSessionTests.tokenCountsAreExact.)
        await #expect {
            _ = try await SystemLanguageModel.default.tokenCount(for: text)
        } throws: { error in
            guard case SystemLanguageModel.Error.assetsUnavailable = error else { return false }
            return true
        }
    }

    @Test("PartiallyGenerated typealiases of plain Generable types and Optional")
    func partiallyGeneratedTypealiases() throws {
        let partial: String.PartiallyGenerated = "ab"
        let optional: Optional<Int>.PartiallyGenerated = 3
        #expect(partial == "ab")
        #expect(optional == 3)
        #expect(String.PartiallyGenerated.self == String.self)
        #expect(Optional<Int>.PartiallyGenerated.self == Int.self)
    }

    @Test("ContextOptions.ReasoningLevel is Apple's enum, custom levels included")
    func reasoningLevels() {
        let levels: [ContextOptions.ReasoningLevel] = [.light, .moderate, .deep, .custom("max")]
        let names = levels.map { level -> String in
            switch level {
            case .light: "light"
            case .moderate: "moderate"
            case .deep: "deep"
            case .custom(let name): name
            }
        }
        #expect(names == ["light", "moderate", "deep", "max"])
    }
}
