import Foundation
import Testing
@testable import FoundationModels

extension OnDeviceTests {
    /// The `fm` command-line tool, run as a separate process on the real
    /// model (`swift build --build-tests` builds it next to the test bundle).
    @Suite("fm command line")
    struct CommandLineTool {
        /// The `fm` executable beside the test bundle.
        static func binary() throws -> URL {
            let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            let binary = directory.appendingPathComponent("fm")
            try #require(FileManager.default.isExecutableFile(atPath: binary.path), "no fm executable at \(binary.path); build all products first")
            return binary
        }

        /// Runs `fm` with `arguments`; returns its exit status, standard
        /// output and standard error.
        static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
            let process = Process()
            process.executableURL = try binary()
            process.arguments = arguments
            let output = Pipe(), error = Pipe()
            process.standardOutput = output
            process.standardError = error
            try process.run()
            let outputData = output.fileHandleForReading.readDataToEndOfFile()
            let errorData = error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
        }

        static let personSchema = """
            {"title":"Person","type":"object","additionalProperties":false,
             "properties":{"name":{"type":"string"},"born":{"type":"integer","minimum":1800,"maximum":1900},
                           "fields":{"type":"array","items":{"type":"string","enum":["mathematics","poetry","engineering"]},"minItems":1,"maxItems":2}},
             "required":["name","born","fields"],"x-order":["name","born","fields"]}
            """

        static func schemaFile(_ text: String) throws -> URL {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("fm-schema-\(UUID().uuidString).json")
            try Data(text.utf8).write(to: url)
            return url
        }

        @Test func respondWithASchemaPrintsJSONThatFollowsIt() throws {
            try OnDevice.requireModel()
            let file = try Self.schemaFile(Self.personSchema)
            defer { try? FileManager.default.removeItem(at: file) }
            for extra in [[], ["--stream"]] {
                let result = try Self.run(["respond", "--greedy", "--max-tokens", "64", "--schema", file.path] + extra + ["Describe Ada Lovelace."])
                #expect(result.status == 0, "\(result.error)")
                // Streaming prints every snapshot: the last line is the value.
                let json = try #require(result.output.split(separator: "\n").last.map(String.init))
                let validator = try JSONSchemaValidator(schemaJSON: Self.personSchema)
                #expect(validator.validate(json: json).isEmpty, "\(json) violates \(validator.validate(json: json))")
            }
        }

        @Test func anUnsupportedKeywordIsAClearError() throws {
            try OnDevice.requireModel()
            let file = try Self.schemaFile(#"{"type":"string","format":"email"}"#)
            defer { try? FileManager.default.removeItem(at: file) }
            let result = try Self.run(["respond", "--schema", file.path, "Hi"])
            #expect(result.status != 0)
            #expect(result.error.contains("format"), "\(result.error)")
            #expect(result.output.isEmpty)
        }
    }
}
