import ArgumentParser
import FoundationModels

/// `fm`: the FoundationModels command-line tool.
@main
struct FM: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fm",
        abstract: "Run language models through the FoundationModels API.",
        subcommands: [Availability.self, Respond.self, Eval.self]
    )
}
