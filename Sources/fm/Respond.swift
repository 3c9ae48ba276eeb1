import ArgumentParser
import FoundationModels

extension FM {
    /// `fm respond "PROMPT"`: one answer from the on-device model.
    struct Respond: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Answer a prompt with the on-device model.")

        @Argument(help: "The prompt.")
        var prompt: String

        @Option(help: "Instructions for the session.")
        var instructions: String?

        @Flag(help: "Print the answer as it is generated.")
        var stream = false

        @Option(name: .customLong("max-tokens"), help: "The most tokens to generate.")
        var maxTokens: Int?

        func run() async throws {
            let session = LanguageModelSession(instructions: instructions)
            let options = GenerationOptions(maximumResponseTokens: maxTokens)
            do {
                if stream {
                    var printed = ""
                    for try await snapshot in session.streamResponse(to: prompt, options: options) {
                        let text = snapshot.content
                        if text.hasPrefix(printed) {
                            print(text.dropFirst(printed.count), terminator: "")
                        }
                        printed = text
                    }
                    print()
                } else {
                    print(try await session.respond(to: prompt, options: options).content)
                }
            } catch let error as LanguageModelSession.GenerationError {
                throw ValidationError(error.errorDescription ?? "\(error)")
            }
        }
    }
}
