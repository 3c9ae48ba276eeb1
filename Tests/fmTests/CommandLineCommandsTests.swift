import Foundation
import TestSupport
import Testing

extension FMTests {
    /// `fm`'s subcommands beside `respond`: help, `schema`, `tokens`,
    /// `availability`, and the rules every command keeps (errors on standard
    /// error with a non-zero exit, no colour when the output is not a
    /// terminal). Mechanics: the small model in `make test`'s first run.
    @Suite("fm subcommands")
    struct CommandLineCommands {
        typealias Tool = CommandLineTool

        static let subcommands = ["availability", "respond", "chat", "tokens", "schema", "eval", "bench"]

        @Test func everySubcommandHasHelp() throws {
            let top = try Tool.run(["--help"])
            #expect(top.status == 0, "\(top.standardError)")
            for name in Self.subcommands {
                #expect(top.standardOutput.contains(name), "fm --help does not list \(name): \(top.standardOutput)")
                let help = try Tool.run([name, "--help"])
                #expect(help.status == 0, "fm \(name) --help: \(help.standardError)")
                #expect(help.standardOutput.contains("USAGE:"), "fm \(name) --help: \(help.standardOutput)")
            }
            // The shared options come from one option group.
            for name in ["respond", "chat"] {
                let help = try Tool.run([name, "--help"]).standardOutput
                for option in ["--greedy", "--max-tokens", "--model", "--context-size"] {
                    #expect(help.contains(option), "fm \(name) --help lacks \(option)")
                }
            }
        }

        @Test func schemaPrintsAnExampleTypesJSONSchema() throws {
            let result = try Tool.run(["schema", "AlbumRecommendation"])
            #expect(result.status == 0, "\(result.standardError)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any], "\(result.standardOutput)")
            let properties = try #require(object["properties"] as? [String: Any], "\(result.standardOutput)")
            #expect(Set(properties.keys) == ["title", "artist", "reason"])

            let list = try Tool.run(["schema", "--list"])
            #expect(list.status == 0)
            #expect(
                list.standardOutput.contains("CrateInsight") && list.standardOutput.contains("Examples/VinylCollection"), "\(list.standardOutput)")
        }

        @Test func anUnknownTypeIsAUsageErrorOnStandardError() throws {
            let result = try Tool.run(["schema", "NoSuchType"])
            #expect(result.status != 0)
            #expect(result.standardOutput.isEmpty, "\(result.standardOutput)")
            #expect(result.standardError.contains("NoSuchType") && result.standardError.contains("AlbumInsight"), "\(result.standardError)")
        }

        @Test func tokensCountsEachPartAndTheTotal() throws {
            try OnDevice.requireModel()
            let result = try Tool.run(["tokens", "--instructions", "Answer briefly.", "--type", "CrateInsight", "What is in this crate?"])
            #expect(result.status == 0, "\(result.standardError)")
            // "name  count", then perhaps "  how the schema was sent".
            var counts: [String: Int] = [:]
            for line in result.standardOutput.split(separator: "\n") {
                guard let match = line.firstMatch(of: /^\s*(\S.*?)\s{2,}(\d+)(?:\s{2}.*)?$/), let count = Int(match.2) else { continue }
                counts[String(match.1)] = count
            }
            let instructions = try #require(counts["instructions"], "\(result.standardOutput)")
            let prompt = try #require(counts["prompt"], "\(result.standardOutput)")
            let schema = try #require(counts["schema CrateInsight"], "\(result.standardOutput)")
            let sent = try #require(counts["CrateInsight in the prompt"], "\(result.standardOutput)")
            #expect(instructions > 0 && prompt > 0 && schema > 20 && sent > 20, "\(result.standardOutput)")
            // The total is what a request pays: the schema's description in
            // the prompt, not its JSON Schema text.
            #expect(counts["total"] == instructions + prompt + sent, "\(result.standardOutput)")
            #expect((counts["context"] ?? 0) > 0, "\(result.standardOutput)")
            // A longer prompt costs more.
            let longer = try Tool.run(["tokens", "What is in this crate, record by record, and why does it sound the way it does?"])
            let longerCount = longer.standardOutput.split(separator: "\n").first.flatMap { $0.split(separator: " ").last.flatMap { Int($0) } }
            #expect((longerCount ?? 0) > prompt, "\(longer.standardOutput)")
        }

        /// `--schema-budget` bounds what a schema's description takes in the
        /// prompt, and `fm tokens` reports what is sent and how it was shortened.
        @Test func theSchemaBudgetBoundsWhatThePromptCarries() throws {
            try OnDevice.requireModel()
            let properties = (1...300).map {
                #""field\#($0)": {"type": "string", "description": "The record's field number \#($0), as printed on the form."}"#
            }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("fm-budget-\(ProcessInfo.processInfo.processIdentifier).json")
            try Data(#"{"type": "object", "properties": {\#(properties.joined(separator: ", "))}}"#.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            func sent(_ extra: [String]) throws -> (count: Int, line: String) {
                let result = try Tool.run(["tokens", "--schema", file.path] + extra)
                #expect(result.status == 0, "\(result.standardError)")
                let line = try #require(
                    result.standardOutput.split(separator: "\n").first { $0.contains("in the prompt") }, "\(result.standardOutput)")
                let count = try #require(line.firstMatch(of: /in the prompt\s+(\d+)/).flatMap { Int($0.1) }, "\(line)")
                return (count, String(line))
            }
            let standard = try sent([])
            #expect(standard.count <= 1024 && standard.line.contains("budget 1024"), "\(standard.line)")
            let small = try sent(["--schema-budget", "256"])
            #expect(small.count <= 256 && small.count < standard.count && small.line.contains("budget 256"), "\(small.line)")
            let refused = try Tool.run(["tokens", "--schema", file.path, "--schema-budget", "10"])
            #expect(refused.status != 0 && refused.standardError.contains("--schema-budget must be at least 64"), "\(refused.standardError)")
        }

        @Test func aMissingModelIsAnErrorOnStandardErrorEverywhere() throws {
            let missing = ["--model", "/nonexistent/model.gguf"]
            let availability = try Tool.run(["availability"] + missing)
            #expect(availability.status == 1)
            #expect(availability.standardOutput.contains("modelNotReady"), "\(availability.standardOutput)")
            for arguments in [["respond", "Hi"], ["tokens", "Hi"]] {
                let result = try Tool.run(arguments + missing)
                #expect(result.status == 1, "fm \(arguments[0]): \(result.standardOutput)")
                #expect(result.standardOutput.isEmpty, "fm \(arguments[0]) wrote to standard output: \(result.standardOutput)")
                #expect(
                    result.standardError.hasPrefix("error: ") && result.standardError.contains("/nonexistent/model.gguf"),
                    "fm \(arguments[0]): \(result.standardError)")
            }
        }

        /// Piped output is plain text even where the environment asks for
        /// colour: escape sequences are for terminals only.
        @Test func noColourWhenTheOutputIsNotATerminal() throws {
            try OnDevice.requireModel()
            let result = try Tool.run(["availability"])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.hasPrefix("available: "), "\(result.standardOutput)")
            #expect(!result.standardOutput.contains("\u{1B}["), "\(result.standardOutput)")
        }
    }
}
