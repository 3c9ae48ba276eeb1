// App code written against Xcode 27 beta 5 (the shape of 27.0 as shipped):
// the declarations it added or changed since beta 1, used as an app uses
// them. Compiled in the three language modes (the MainActor- and
// Swift5AppCompatibilityTests folders link this file); run with the model
// missing, like the rest of this target.

import Foundation
import FoundationModels
import TestSupport
import Testing

/// A profile an app writes for beta 5: the model chosen at run time (an
/// existential), a reasoning hook, and a part only newer systems have.
struct BriefingProfile: LanguageModelSession.DynamicProfile {
    let model: any LanguageModel
    var body: some DynamicProfile {
        if #available(macOS 27, iOS 27, *) {
            Profile { Instructions { "Brief the user in two sentences." } }
                .model(model)
                .onReasoning { reasoning in _ = reasoning.segments.count }
        } else {
            Profile { Instructions { "Brief the user." } }
        }
    }
}

@Suite("Xcode 27 beta 5 shapes from app code")
struct Beta5ShapesTests {
    @Test("the system model names its variant, which is never one of Apple's here")
    func variant() {
        let variant = SystemLanguageModel.default.variant
        #expect(!variant.displayName.isEmpty)
        let tiers: [SystemLanguageModel.Variant: String] = [.core3: "fast", .coreAdvanced3: "best"]
        #expect(tiers[variant] == nil)
        #expect(SystemLanguageModel.Variant.core3 != .coreAdvanced3)
        #expect(SystemLanguageModel(useCase: .contentTagging).variant == variant)
    }

    @Test("a transcript's history view: the conversation without the instructions")
    func historyView() {
        let session = LanguageModelSession(instructions: "Answer briefly.")
        var transcript = session.transcript
        #expect(transcript.count == 1 && transcript.history.isEmpty)
        var history: Transcript.HistoryView = transcript.history
        history.append(.prompt(Transcript.Prompt(segments: [.text(Transcript.TextSegment(content: "Hi"))])))
        transcript.history = history
        #expect(transcript.count == 2)
        let prompts = transcript.history.filter { if case .prompt = $0 { true } else { false } }
        #expect(prompts.count == 1)
    }

    @Test("metadata values are generated content")
    func typedMetadata() throws {
        let response = Transcript.Response(metadata: ["tier": "device", "latencyMs": 42], segments: [])
        #expect(try response.metadata["tier"]?.value(String.self) == "device")
        #expect(try response.metadata["latencyMs"]?.value(Int.self) == 42)
        let usage = LanguageModelSession.Usage(
            input: .init(totalTokenCount: 10, cachedTokenCount: 4),
            output: .init(totalTokenCount: 3, reasoningTokenCount: 0),
            metadata: ["cost": 0.25]
        )
        #expect(try usage.metadata["cost"]?.value(Double.self) == 0.25)
    }

    @Test("a profile with its model chosen at run time, type-erased, fails with the model's error", .tags(.noModel), .needs(.noModel))
    func profileWithAModel() async {
        let profile = LanguageModelSession.AnyDynamicProfile(BriefingProfile(model: SystemLanguageModel.default))
        let session = LanguageModelSession(profile: profile)
        // The 27 family (OverloadResolutionTests): the model's own error, as thrown.
        #expect(await family(of: session) == .anyModel27)
        #expect(session.transcript.isEmpty)
    }

    @Test("numbers go into prompts as they are")
    func numbersInPrompts() {
        let prompt = Prompt {
            "Servings:"; 4; "Vegetarian:"; false
        }
        #expect(prompt.segments.count == 4)
    }
}
