import ArgumentParser
import FoundationModels

/// `fm`: the FoundationModels command-line tool.
@main
struct FM: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fm",
        abstract: "Run language models through the FoundationModels API.",
        discussion: """
            The commands of Apple's fm come first, with its flags (-m system is the default on-device model); this \
            package's own follow. Progress (model loading) is shown on standard error when it is a terminal; errors \
            always go there, with a non-zero exit status.
            """,
        // Apple's `fm` (macOS 27) names, in its order; `availability` is an
        // alias of `available`.
        subcommands: [Availability.self, Chat.self, CountTokens.self, License.self, Respond.self, Schema.self, Serve.self],
        groupedSubcommands: [
            CommandGroup(name: "This package's", subcommands: [Tokens.self, Eval.self, Bench.self])
        ]
    )
}
