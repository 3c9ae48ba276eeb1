import ArgumentParser
import FoundationModels

/// `fm`: the FoundationModels command-line tool.
@main
struct FM: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fm",
        abstract: "Run language models through the FoundationModels API.",
        discussion: "Progress (model loading) is shown on standard error when it is a terminal; errors always go there, with a non-zero exit status.",
        subcommands: [Availability.self, Respond.self, Chat.self, Tokens.self, Schema.self, Eval.self, Bench.self, Serve.self]
    )
}
