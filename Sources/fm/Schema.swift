import ArgumentParser
import FoundationModels

extension FM {
    /// `fm schema`: a JSON Schema, built from flags (`fm schema object`,
    /// Apple's) or an example type's (`fm schema TYPE`, this package's).
    struct Schema: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a JSON Schema: one built from flags (schema object), or an example type's (schema TYPE).",
            subcommands: [SchemaObject.self, ExampleType.self],
            defaultSubcommand: ExampleType.self
        )
    }

    /// `fm schema TYPE`: the JSON Schema of an example's `@Generable` type —
    /// what guided generation enforces and what a server tier is sent.
    struct ExampleType: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "type",
            abstract: "Print the JSON Schema of an example's @Generable type (the default: fm schema TYPE)."
        )

        @Argument(help: "The type's name (omit it, or --list, to list them).")
        var type: String?

        @Flag(help: "List the example types and the examples that declare them.")
        var list = false

        func validate() throws {
            if let type, !list, ExampleTypes.named(type) == nil { throw ValidationError(ExampleTypes.unknown(type)) }
        }

        func run() throws {
            guard let type, !list, let generable = ExampleTypes.named(type) else {
                let width = ExampleTypes.all.map(\.name.count).max() ?? 0
                for entry in ExampleTypes.all {
                    print(entry.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + "Examples/\(entry.example)")
                }
                return
            }
            print(generable.generationSchema.debugDescription)
        }
    }
}
