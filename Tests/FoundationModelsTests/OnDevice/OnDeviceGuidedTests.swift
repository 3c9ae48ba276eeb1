import Foundation
import TestSupport
import Testing

@testable import FoundationModels

/// A city with a string the model would not end on its own within a small
/// budget.
@Generable
struct GuidedEssay {
    @Guide(description: "The city's name")
    var name: String
    @Guide(description: "A long essay about the city's history, several paragraphs")
    var essay: String
    @Guide(.count(2))
    var landmarks: [String]
}

@Generable(description: "A city and facts about it")
struct GuidedCity: Equatable {
    @Guide(description: "The city's name")
    var name: String
    @Guide(description: "Population in millions", .range(0...40))
    var population: Int
    @Guide(.anyOf(["Europe", "Asia", "Africa", "Americas", "Oceania"]))
    var continent: String
    @Guide(.count(2))
    var landmarks: [String]
    var isCapital: Bool
}

@Generable
struct GuidedBackreference {
    @Guide(/(a)\1/)
    var doubled: String
}

extension OnDeviceTests {
    /// Guided generation on the real model, through the public API.
    @Suite("On-device guided generation")
    struct Guided {
        static let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 200)

        /// A schema whose description in full is longer than the whole
        /// context is still answered: the prompt carries a shorter one
        /// (the decoder enforces the schema either way).
        @Test func aSchemaWhoseDescriptionOutgrowsTheContextIsAnswered() async throws {
            try OnDevice.requireModel()
            let context = SystemLanguageModel.default.contextSize
            // (Each paragraph adds about 600 tokens: five fields of about 120.)
            let json = SchemaFixtures.documentedSchema(paragraphs: context / 500 + 1)
            let schema = try GenerationSchema(jsonSchema: GeneratedContent(json: json))
            let full = try await SystemLanguageModel.default.tokenCount(for: schema.promptDescription(style: .fieldLines))
            #expect(full > context, "the full description takes \(full) tokens of \(context)")
            let session = LanguageModelSession()
            let response = try await session.respond(to: "Describe a deployment of the checkout service.", schema: schema, options: Self.options)
            let validator = try JSONSchemaValidator(schemaJSON: json)
            let answer = response.content.jsonString
            #expect(validator.validate(json: answer).isEmpty, "\(answer) violates \(validator.validate(json: answer))")
        }

        static func statistics() -> OnDeviceEngine.Statistics {
            OnDeviceEngine.shared(for: .default).statistics.withLock { $0 }
        }

        @Test func generatesAGenerableTypeWithinItsGuides() async throws {
            try OnDevice.requireModel()
            let before = Self.statistics()
            let session = LanguageModelSession(instructions: "You describe cities.")
            let response = try await session.respond(to: "Describe Paris.", generating: GuidedCity.self, options: Self.options)
            let city = response.content
            #expect((0...40).contains(city.population))
            #expect(["Europe", "Asia", "Africa", "Americas", "Oceania"].contains(city.continent))
            #expect(city.landmarks.count == 2)
            // The transcript holds the structured answer.
            guard case .response(let entry) = try #require(session.transcript.last),
                case .structure(let segment) = try #require(entry.segments.first)
            else {
                Issue.record("expected a structured response entry")
                return
            }
            #expect(segment.content == response.rawContent)
            // Jump-forward: keys and punctuation cost no sampling steps.
            let after = Self.statistics()
            let generated = after.generatedTokens - before.generatedTokens
            let steps = after.modelSteps - before.modelSteps
            #expect(after.forcedTokens > before.forcedTokens)
            #expect(steps < generated, "\(steps) model steps for \(generated) tokens")
            #expect(response.usage.output.totalTokenCount == generated)
        }

        @Test func dynamicSchemaOutputValidatesAgainstItsJSONSchema() async throws {
            try OnDevice.requireModel()
            let schema = try GenerationSchema(root: DynamicSchemas.library, dependencies: [DynamicSchemas.book])
            let validator = try JSONSchemaValidator(schemaJSON: schema.jsonSchema.jsonString)
            for seed in 0..<3 {
                let session = LanguageModelSession(instructions: "You catalogue books.")
                let options = GenerationOptions(samplingMode: .random(top: 40, seed: UInt64(seed)), maximumResponseTokens: 160)
                let response = try await session.respond(to: "List two classic novels.", schema: schema, options: options)
                let json = response.content.jsonString
                #expect(validator.validate(json: json).isEmpty, "\(json): \(validator.validate(json: json))")
                #expect(response.content.isComplete)
            }
        }

        @Test func streamsPartialSnapshotsOfTheType() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession(instructions: "You describe cities.")
            let stream = session.streamResponse(to: "Describe Tokyo.", generating: GuidedCity.self, options: Self.options)
            var snapshots: [GeneratedContent] = []
            for try await snapshot in stream {
                snapshots.append(snapshot.rawContent)
            }
            #expect(snapshots.count >= 3)
            let response = try await stream.collect()
            #expect(response.rawContent.isComplete)
            #expect(response.content.landmarks.count == 2)
            // Partial until the value closes; from then on, the final value.
            let firstComplete = try #require(snapshots.firstIndex { $0.isComplete })
            #expect(firstComplete >= 2)
            #expect(snapshots[firstComplete...].allSatisfy { $0.jsonString == response.rawContent.jsonString })
        }

        @Test func schemaIsEnforcedWithoutBeingInThePrompt() async throws {
            try OnDevice.requireModel()
            let with = try await LanguageModelSession().respond(to: "Describe Rome.", generating: GuidedCity.self, options: Self.options)
            let without = try await LanguageModelSession().respond(
                to: "Describe Rome.", generating: GuidedCity.self, includeSchemaInPrompt: false, options: Self.options
            )
            #expect(without.content.landmarks.count == 2)
            #expect((0...40).contains(without.content.population))
            #expect(without.usage.input.totalTokenCount < with.usage.input.totalTokenCount)
        }

        /// `FOUNDATION_MODELS_SCHEMA_DETAIL` (the eval's runs at each detail)
        /// describes every schema at that detail, however small, and the
        /// answer is still the type: the decoder enforces the schema whatever
        /// the prompt says.
        @Test func aForcedDetailDescribesTheSchemaAtThatDetail() async throws {
            try OnDevice.requireModel()
            var environment = ["FOUNDATION_MODELS_SCHEMA_DETAIL": "outline"]
            environment["FOUNDATION_MODELS_MODEL"] = SystemLanguageModel.Configuration.default.modelPath
            let configuration = SystemLanguageModel.Configuration(environment: environment)
            #expect(configuration.forcedSchemaDetail == .outline)
            #expect(SystemLanguageModel.Configuration(environment: ["FOUNDATION_MODELS_SCHEMA_DETAIL": "terse"]).forcedSchemaDetail == nil)
            let outlined = SystemLanguageModel(configuration: configuration)
            let transcript = Transcript(entries: [
                .prompt(
                    Transcript.Prompt(
                        segments: [.text(.init(content: "Describe Rome."))],
                        responseFormat: Transcript.ResponseFormat(schema: GuidedCity.generationSchema)))
            ])
            let full = try await SystemLanguageModel.default.renderedInput(for: transcript).text
            let outline = try await outlined.renderedInput(for: transcript).text
            #expect(full.contains("Population in millions") && full.contains("\"landmarks\""), "\(full)")
            #expect(!outline.contains("Population in millions") && outline.contains("\"landmarks\""), "\(outline)")
            let response = try await LanguageModelSession(model: outlined).respond(
                to: "Describe Rome.", generating: GuidedCity.self, options: Self.options)
            #expect(response.content.landmarks.count == 2)
            #expect((0...40).contains(response.content.population))
        }

        @Test func aSmallBudgetStillEndsInAValidValue() async throws {
            try OnDevice.requireModel()
            // String pacing fits answers to small budgets on its own; without
            // it, the last resort is visible: an essay that would run on is
            // closed the shortest way once the budget only just fits the rest
            // of the value.
            let configuration = OnDevice.configuration(pacesStrings: false)
            let engine = OnDeviceEngine.shared(for: configuration)
            let before = engine.statistics.withLock { $0 }
            let session = LanguageModelSession(
                model: SystemLanguageModel(configuration: configuration),
                instructions: "You describe cities at great length.")
            let options = GenerationOptions(samplingMode: .random(top: 40, seed: 3), maximumResponseTokens: 40)
            let response = try await session.respond(to: "Describe London in detail.", generating: GuidedEssay.self, options: options)
            #expect(response.usage.output.totalTokenCount <= 40)
            #expect(response.content.landmarks.count == 2)
            #expect(response.rawContent.isComplete)
            #expect(engine.statistics.withLock { $0 }.closedEarly > before.closedEarly)
        }

        @Test func aBudgetTooSmallForAnyValueFailsCleanly() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession(instructions: "You describe cities.")
            let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 5)
            let before = Self.statistics()
            await #expect {
                _ = try await session.respond(to: "Describe Oslo.", generating: GuidedCity.self, options: options)
            } throws: { error in
                guard case LanguageModelSession.GenerationError.decodingFailure(let context) = error else { return false }
                // It names the limit it could not be finished within and
                // the fewest tokens a value takes, known before the first.
                return context.debugDescription.contains("GuidedCity") && context.debugDescription.contains("limit of 5 tokens")
                    && context.debugDescription.contains("0 written") && context.debugDescription.contains("the shortest way to finish it takes")
            }
            #expect(session.transcript.count == 1)
            // Refused before the prompt was evaluated: no token generated.
            #expect(Self.statistics() == before)
        }

        @Test func anUnsupportedPatternIsRefusedBeforeDecoding() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession()
            let before = Self.statistics()
            await #expect {
                _ = try await session.respond(to: "Write it.", generating: GuidedBackreference.self)
            } throws: { error in
                guard case LanguageModelSession.GenerationError.unsupportedGuide(let context) = error else { return false }
                return context.debugDescription.contains("backreference")
            }
            #expect(session.transcript.count == 0)
            #expect(Self.statistics() == before)
        }

        @Test func anUnsatisfiableSchemaIsADecodingFailure() async throws {
            try OnDevice.requireModel()
            let impossible = DynamicGenerationSchema(
                name: "Impossible",
                properties: [
                    .init(name: "value", schema: .init(type: Int.self, guides: [.minimum(5), .maximum(3)]))
                ])
            let schema = try GenerationSchema(root: impossible, dependencies: [])
            await #expect {
                _ = try await LanguageModelSession().respond(to: "Go.", schema: schema)
            } throws: { error in
                guard case LanguageModelSession.GenerationError.decodingFailure(let context) = error else { return false }
                return context.debugDescription.contains("Impossible")
            }
            // The executor throws the 27 family; a 27 session sees it as thrown.
            await #expect {
                _ = try await ModelSeamTests.session27(SystemLanguageModel.default).respond(to: "Go.", schema: schema)
            } throws: { error in
                guard let error = error as? GeneratedContent.ParsingError else { return false }
                return error.debugDescription.contains("Impossible")
            }
        }
    }
}
