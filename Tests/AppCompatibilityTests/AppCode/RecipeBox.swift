// A view model as a new Xcode project writes it: `@Observable` in a file
// that imports only Foundation and FoundationModels (Apple's module makes
// Observation's names visible), a session on `model: .default` with tools
// and instructions, and a `@Generable` type nested in the class.

import Foundation
import FoundationModels

@Observable
final class RecipeBox {
    /// The label the model writes for a shelf of the box.
    @Generable
    struct Label: Equatable {
        @Guide(description: "Two or three words")
        var title: String
        var course: Recipe.Course
    }

    private(set) var recipes: [Recipe] = []
    private(set) var labels: [Label] = []
    private(set) var failure: GenerationFailure?

    @ObservationIgnored let session: LanguageModelSession

    init(pantry: [Recipe.Ingredient] = RecipeBox.pantry) {
        session = LanguageModelSession(
            model: .default,
            tools: [PantryTool(pantry: pantry)],
            instructions: "You are a chef who cooks with what is in the pantry."
        )
    }

    func add(_ recipe: Recipe) {
        recipes.append(recipe)
    }

    func suggest(_ course: Recipe.Course, like favorite: Recipe) async {
        do {
            let response = try await session.respond(generating: Recipe.self) {
                "Suggest a \(course) from what the pantry tool lists, something like:"
                favorite
            }
            recipes.append(response.content)
        } catch {
            failure = await classify(error)
        }
    }

    func label(for recipe: Recipe) async {
        do {
            let response = try await session.respond(
                to: Prompt {
                    "Write a shelf label for"; recipe
                }, generating: Label.self)
            labels.append(response.content)
        } catch {
            failure = await classify(error)
        }
    }

    static let pantry: [Recipe.Ingredient] = [
        Recipe.Ingredient(name: "leek", amount: "2"),
        Recipe.Ingredient(name: "potato", amount: "300 g"),
        Recipe.Ingredient(name: "cream", amount: "100 ml"),
    ]
}
