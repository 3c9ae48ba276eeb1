// Shapes from a recipe app, written as a new Xcode project writes them: the
// app adds its own conformances to the prompt protocols, nests its types,
// and hands a tool a nested `Arguments`.

import FoundationModels

@Generable(description: "A recipe the model writes from what is in the fridge")
struct Recipe: Equatable {
    @Guide(description: "The dish's name")
    var title: String

    var course: Course

    var difficulty: Difficulty

    @Guide(description: "What goes in", .minimumCount(1))
    var ingredients: [Ingredient]

    @Generable
    struct Ingredient: Equatable {
        var name: String
        @Guide(description: "How much, with its unit")
        var amount: String
    }

    @Generable
    enum Course: Equatable {
        case starter, main, dessert
    }
}

// The app passes recipes to `Instructions { … }` and `Prompt { … }` blocks
// and says so itself (they already are, through `Generable`). Under default
// main-actor isolation Swift 6.2 and 6.3 infer these two conformances
// `@MainActor`, although `Recipe` is nonisolated, and reject them against the
// nonisolated `Generable` conformance they refine, whatever the macro emits;
// swiftlang/swift#86682 (Swift 6.4) stops that (docs/MACROS.md, "Isolation").
// On those compilers the main-actor targets compile what such an app writes
// instead; every other configuration compiles the lines as written.
#if compiler(>=6.4) || !APP_DEFAULT_MAIN_ACTOR
extension Recipe: InstructionsRepresentable {}
extension Recipe: PromptRepresentable {}
#else
extension Recipe: nonisolated InstructionsRepresentable {}
extension Recipe: nonisolated PromptRepresentable {}
#endif

@Generable
enum Difficulty: Equatable {
    case easy, medium, hard
}

/// An enum whose cases carry values.
@Generable
enum Serving: Equatable {
    case plated(portions: Int)
    case buffet
    case boxed(container: String, portions: Int)
}

/// A tool whose nested `Arguments` is a struct and whose output is an app type.
struct PantryTool: Tool {
    let description = "Looks up what is in the pantry for a kind of dish."

    @Generable
    struct Arguments {
        @Guide(description: "The kind of dish")
        var course: Recipe.Course
        @Guide(description: "How many items to list at most", .range(1...10))
        var limit: Int
    }

    let pantry: [Recipe.Ingredient]

    func call(arguments: Arguments) async throws -> [Recipe.Ingredient] {
        Array(pantry.prefix(arguments.limit))
    }
}
