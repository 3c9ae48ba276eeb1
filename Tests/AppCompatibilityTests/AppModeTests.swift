// The app shapes of issue 16, run in the three configurations apps build
// in: this file, AppCode and Models are shared (by symlink) with
// MainActorAppCompatibilityTests (Swift 6, default main-actor isolation,
// approachable concurrency) and Swift5AppCompatibilityTests (Xcode's new
// project: Swift 5 mode, the same isolation settings). Each line compiles in
// all three, and each expectation checks the code does what it does on
// Apple's SDK. Run, like the rest of these targets, with the model not
// downloaded (see SessionUsageTests).

import Foundation
import FoundationModels
import Synchronization
import TestSupport
import Testing

@Suite("App code in every build configuration")
struct AppModeTests {
    static let soup = Recipe(
        title: "Leek soup",
        course: .starter,
        difficulty: .easy,
        ingredients: [
            Recipe.Ingredient(name: "leek", amount: "2"),
            Recipe.Ingredient(name: "potato", amount: "300 g"),
        ]
    )

    @Test("every kind of @Generable declaration round-trips through its content")
    func roundTrips() throws {
        #expect(try Recipe(Self.soup.generatedContent) == Self.soup)
        #expect(Self.soup.generatedContent.jsonString.hasPrefix(#"{"title":"Leek soup","course":"starter","difficulty":"easy","#))
        for serving in [Serving.plated(portions: 2), .buffet, .boxed(container: "jar", portions: 4)] {
            #expect(try Serving(serving.generatedContent) == serving)
        }
        #expect(try Difficulty(GeneratedContent(json: #""hard""#)) == .hard)
        #expect(throws: DecodingError.self) { try Difficulty(GeneratedContent(json: #""tricky""#)) }
        let label = RecipeBox.Label(title: "Winter soups", course: .starter)
        #expect(try RecipeBox.Label(label.generatedContent) == label)
    }

    @Test("the Generable conformances are nonisolated: schemas and content off the main actor")
    func offTheMainActor() async throws {
        let soup = Self.soup
        let (json, schemas) = try await Task.detached {
            let schemas = try [
                Recipe.generationSchema, Serving.generationSchema, PantryTool.Arguments.generationSchema, RecipeBox.Label.generationSchema,
            ]
            .map { try JSONEncoder().encode($0) }
            return (soup.generatedContent.jsonString, schemas)
        }.value
        #expect(try Recipe(GeneratedContent(json: json)) == soup)
        #expect(schemas.allSatisfy { !$0.isEmpty })
    }

    @Test("a recipe in an Instructions or Prompt block is its structured content")
    func representable() throws {
        let session = LanguageModelSession(
            instructions: Instructions {
                "Cook like this:"
                Self.soup
            })
        guard case .instructions(let instructions) = try #require(session.transcript.first) else {
            Issue.record("the first entry should be the instructions")
            return
        }
        guard case .structure(let structure) = try #require(instructions.segments.last) else {
            Issue.record("the recipe should be a structured segment")
            return
        }
        #expect(try Recipe(structure.content) == Self.soup)
        #expect(String(describing: Prompt { Self.soup }).contains("Leek soup"))
    }

    @Test(
        "LanguageModelSession(model: .default, tools:, instructions:) and its builder form list the tool; respond fails as the model is missing",
        .tags(.noModel), .needs(.noModel))
    func sessionWithTools() async throws {
        let box = RecipeBox()
        guard case .instructions(let instructions) = try #require(box.session.transcript.first) else {
            Issue.record("the first entry should be the instructions")
            return
        }
        #expect(instructions.toolDefinitions.map(\.name) == ["PantryTool"])
        let built = LanguageModelSession(model: .default, tools: [PantryTool(pantry: [])]) {
            "Cook like this:"
            Self.soup
        }
        guard case .instructions(let builtInstructions) = try #require(built.transcript.first) else {
            Issue.record("the first entry should be the instructions")
            return
        }
        #expect(builtInstructions.toolDefinitions.map(\.name) == ["PantryTool"])
        #expect(builtInstructions.segments.count == 2)
        await box.suggest(.main, like: Self.soup)
        #expect(box.failure == .modelUnavailable)
        await box.label(for: Self.soup)
        #expect(box.recipes.isEmpty && box.labels.isEmpty)
        #expect(box.session.transcript.count == 1)
    }

    @Test("@Observable in a file importing only Foundation and FoundationModels is observed")
    func observation() {
        let box = RecipeBox()
        let changes = ChangeCount()
        withObservationTracking {
            _ = box.recipes
        } onChange: {
            changes.record()
        }
        box.add(Self.soup)
        #expect(changes.count == 1)
        #expect(box.recipes == [Self.soup])
    }

    @Test("the tool's nested Arguments decode from the model's JSON and the tool runs")
    func tool() async throws {
        let arguments = try PantryTool.Arguments(GeneratedContent(json: #"{"course":"main","limit":2}"#))
        #expect(arguments.course == .main)
        let output = try await PantryTool(pantry: RecipeBox.pantry).call(arguments: arguments)
        #expect(output == Array(RecipeBox.pantry.prefix(2)))
        #expect(PantryTool(pantry: []).parameters.debugDescription.contains("limit"))
    }
}

/// Counts observation callbacks, which arrive on whichever thread mutates.
private nonisolated final class ChangeCount: Sendable {
    private let state = Mutex(0)

    func record() {
        state.withLock { $0 += 1 }
    }

    var count: Int {
        state.withLock { $0 }
    }
}
