import ArgumentParser
import Foundation
import FoundationModels
import TerminalSupport

extension FM {
    /// `fm count-tokens`: Apple's token count, one number — what the
    /// instructions, a transcript and the prompt take in the model's
    /// context together, each counted as the model frames it (its chat
    /// template's turn markers included). `fm tokens` is this package's
    /// itemized table.
    struct CountTokens: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "count-tokens",
            abstract: "Count the tokens of a prompt, instructions or a saved transcript.",
            discussion: """
                Prints 'Token count: N' on a terminal and the bare number when standard output is piped (--quiet: always \
                the bare number). With nothing to count on the command line, the prompt is read from standard input. \
                --image counts the text OCR reads from the image, which is what fm respond puts in the prompt.
                """
        )

        @Argument(help: "The prompt (- reads it from standard input, as does leaving it out with nothing else to count).")
        var prompt: String?

        @Option(name: [.customShort("i"), .long], help: "Instructions to count with it.")
        var instructions: String?

        @Option(name: .customLong("text"), help: ArgumentHelp("More text for the prompt (repeatable).", valueName: "text"))
        var texts: [String] = []

        @Option(
            name: .customLong("image"),
            help: ArgumentHelp("An image for the prompt, counted as the text OCR reads from it (repeatable).", valueName: "file"))
        var images: [String] = []

        @Option(help: ArgumentHelp("A saved transcript (fm respond --save-transcript, fm chat), counted entry by entry.", valueName: "file.json"))
        var transcript: String?

        @Flag(name: [.customShort("q"), .long], help: "Print only the number.")
        var quiet = false

        @OptionGroup var model: ModelOptions

        func validate() throws {
            try ImageText.validate(images: images, labels: [])
        }

        func run() async throws {
            var parts: [String] = []
            if prompt == "-" || prompt == nil && texts.isEmpty && images.isEmpty && instructions == nil && transcript == nil {
                parts.append(try StandardInput.argument(nil, name: "prompt"))
            } else if let prompt {
                parts.append(prompt)
            }
            parts += texts
            parts += try await ImageText.segments(images: images, labels: [])
            var entries: [Transcript.Entry] = []
            if let instructions {
                entries.append(
                    .instructions(Transcript.Instructions(segments: [.text(Transcript.TextSegment(content: instructions))], toolDefinitions: [])))
            }
            if let transcript { entries += try TranscriptFile.load(transcript) }
            if !parts.isEmpty {
                entries.append(.prompt(Transcript.Prompt(segments: [.text(Transcript.TextSegment(content: parts.joined(separator: "\n\n")))])))
            }
            let count: Int
            do {
                count = try await self.model.loadedModel().tokenCount(for: entries)
            } catch {
                throw Failure.exit(error)
            }
            print(quiet || !TerminalStream.output.isTerminal ? "\(count)" : "Token count: \(count)")
        }
    }
}
