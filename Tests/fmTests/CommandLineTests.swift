import Foundation
import FoundationModels
import TestSupport
import Testing

extension FMTests {
    /// The `fm` command-line tool, run as a separate process on the real
    /// model (`swift build --build-tests` builds it next to the test bundle).
    @Suite("fm command line")
    struct CommandLineTool {
        /// The `fm` executable beside the test bundle.
        static func binary() throws -> URL {
            let binary = TestMachine.product("fm")
            try #require(FileManager.default.isExecutableFile(atPath: binary.path), "no fm executable at \(binary.path); build all products first")
            return binary
        }

        /// Runs `fm` with `arguments`; returns its exit status, standard
        /// output and standard error.
        static func run(_ arguments: [String]) throws -> ChildProcess.Output {
            try TestMachine.run(binary(), arguments)
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
                #expect(result.status == 0, "\(result.standardError)")
                // Streaming prints every snapshot: the last line is the value.
                let json = try #require(result.standardOutput.split(separator: "\n").last.map(String.init))
                let validator = try JSONSchemaValidator(schemaJSON: Self.personSchema)
                #expect(validator.validate(json: json).isEmpty, "\(json) violates \(validator.validate(json: json))")
            }
        }

        /// The order of a JSON Schema file's `properties` is the order of the
        /// answer's keys (no `x-order`, keys deliberately not alphabetical).
        @Test func propertyOrderOfTheFileIsKept() throws {
            try OnDevice.requireModel()
            let schema = """
                {"type":"object","additionalProperties":false,
                 "properties":{"reasoning":{"type":"string","maxLength":60},"total":{"type":"number"},"arithmeticCheckPassed":{"type":"boolean"}},
                 "required":["reasoning","total","arithmeticCheckPassed"]}
                """
            let file = try Self.schemaFile(schema)
            defer { try? FileManager.default.removeItem(at: file) }
            let result = try Self.run(["respond", "--greedy", "--max-tokens", "80", "--schema", file.path, "Add 2 and 3."])
            #expect(result.status == 0, "\(result.standardError)")
            let json = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            let positions = ["\"reasoning\"", "\"total\"", "\"arithmeticCheckPassed\""].map { json.range(of: $0)?.lowerBound }
            #expect(positions.allSatisfy { $0 != nil }, "\(json)")
            let found = positions.compactMap { $0 }
            #expect(found == found.sorted(), "keys out of the file's order: \(json)")
            let validator = try JSONSchemaValidator(schemaJSON: schema)
            #expect(validator.validate(json: json).isEmpty, "\(json) violates \(validator.validate(json: json))")
        }

        /// Schemas whose keywords the engine enforces as a union of cases
        /// (`not`, `if`, the dependencies, property counts, an overlapping
        /// `oneOf`), each with a prompt; strings are bounded so a small
        /// model's greedy answer ends within the token budget.
        static let keywordSchemas: [(keyword: String, schema: String, prompt: String)] = [
            (
                "not a type",
                #"{"type":"object","properties":{"id":{"type":["string","integer"],"not":{"type":"string"}}},"required":["id"],"additionalProperties":false}"#,
                "Give the order an id."
            ),
            (
                "not a value",
                #"""
                {"type":"object","properties":{"status":{"enum":["draft","open","closed"],"not":{"const":"draft"}},
                 "user":{"type":"string","maxLength":12,"not":{"enum":["admin","root"]}}},"required":["status","user"],"additionalProperties":false}
                """#, "The ticket is a draft filed by admin."
            ),
            ("not a pattern", #"{"type":"string","maxLength":12,"not":{"pattern":"[0-9]"}}"#, "Name a planet with 4 moons."),
            (
                "if, then, else",
                #"""
                {"type":"object","properties":{"country":{"enum":["US","CA"]},"code":{"type":"string","maxLength":7}},"required":["country","code"],
                 "additionalProperties":false,"if":{"properties":{"country":{"const":"US"}}},"then":{"properties":{"code":{"pattern":"^[0-9]{5}$"}}},
                 "else":{"properties":{"code":{"pattern":"^[A-Z][0-9][A-Z] [0-9][A-Z][0-9]$"}}}}
                """#, "Give an address's country and postal code."
            ),
            (
                "dependentRequired",
                #"""
                {"type":"object","properties":{"card":{"type":"string","maxLength":8},"billing":{"type":"string","maxLength":8}},"required":["card"],
                 "dependentRequired":{"card":["billing"]},"additionalProperties":false}
                """#, "Pay with the card 4242."
            ),
            (
                "dependentSchemas",
                #"""
                {"type":"object","properties":{"kind":{"enum":["cup","mug"]},"size":{"type":"integer"}},"required":["kind"],
                 "dependentSchemas":{"size":{"properties":{"size":{"minimum":1,"maximum":9}}}},"additionalProperties":false}
                """#, "A large mug, size 40."
            ),
            (
                "dependencies (draft 7)",
                #"""
                {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"boolean"},"b":{"type":"boolean"}},
                 "dependencies":{"a":["b"]},"required":["a"],"additionalProperties":false}
                """#, "Set a."
            ),
            (
                "minProperties",
                #"""
                {"type":"object","properties":{"tea":{"type":"boolean"},"milk":{"type":"boolean"},"sugar":{"type":"boolean"}},"minProperties":2,"additionalProperties":false}
                """#, "How do you take your tea?"
            ),
            (
                "maxProperties",
                #"""
                {"type":"object","properties":{"tea":{"type":"boolean"},"milk":{"type":"boolean"},"sugar":{"type":"boolean"}},"required":["tea"],"maxProperties":2,"additionalProperties":false}
                """#, "Tea with milk and sugar, please."
            ),
            (
                "oneOf whose branches overlap", #"{"oneOf":[{"type":"string","maxLength":8},{"type":"string","minLength":3,"maxLength":12}]}"#,
                "Name a color."
            ),
            (
                "uniqueItems over strings",
                #"{"type":"array","items":{"type":"string","maxLength":20},"uniqueItems":true,"minItems":3,"maxItems":5}"#, "List the primary colors."
            ),
            (
                "uniqueItems over an enum", #"{"type":"array","items":{"enum":["red","green","blue","yellow"]},"uniqueItems":true,"minItems":2}"#,
                "Which colors are on the French flag?"
            ),
            (
                "uniqueItems over integers",
                #"{"type":"array","items":{"type":"integer","minimum":1,"maximum":20},"uniqueItems":true,"minItems":4,"maxItems":6}"#,
                "List the first prime numbers."
            ),
        ]

        /// Each keyword above, answered by `fm respond --schema` on the
        /// real model, judged by Python's `jsonschema` (an implementation
        /// independent of the engine's).
        @Test(arguments: keywordSchemas.map(\.keyword))
        func eachKeywordAnswersJSONThatJSONSchemaAccepts(keyword: String) throws {
            try OnDevice.requireModel()
            let item = try #require(Self.keywordSchemas.first { $0.keyword == keyword })
            let python = try TestMachine.python(environment: "openai_env.sh")
            let file = try Self.schemaFile(item.schema)
            defer { try? FileManager.default.removeItem(at: file) }
            let result = try Self.run(["respond", "--greedy", "--max-tokens", "120", "--schema", file.path, item.prompt])
            #expect(result.status == 0, "\(keyword): \(result.standardError)")
            let json = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            let check = try TestMachine.run([
                python, "-c", "import json, sys, jsonschema; jsonschema.validate(json.loads(sys.argv[2]), json.loads(sys.argv[1])); print('valid')",
                item.schema, json,
            ])
            #expect(
                check.status == 0 && check.standardOutput.contains("valid"), "\(keyword): \(json) is refused by jsonschema: \(check.standardOutput)")
        }

        @Test func anUnsupportedKeywordIsAClearError() throws {
            try OnDevice.requireModel()
            let file = try Self.schemaFile(#"{"type":"array","items":{"type":"object"},"uniqueItems":true}"#)
            defer { try? FileManager.default.removeItem(at: file) }
            let result = try Self.run(["respond", "--schema", file.path, "Hi"])
            #expect(result.status != 0)
            #expect(result.standardError.contains("uniqueItems"), "\(result.standardError)")
            #expect(result.standardOutput.isEmpty)
        }

        /// Sampling values no model can honor fail as the API fails them:
        /// the same message (the session's), on standard error, exit status
        /// 1, before the model runs (a model that is not there is not asked).
        @Test(arguments: [
            (["--temperature=-1"], "temperature"),
            (["--top-k", "0"], "samplingMode"),
            (["--top-p", "0"], "samplingMode"),
            (["--top-p", "1.5"], "samplingMode"),
            (["--max-tokens", "0"], "maximumResponseTokens"),
            (["--max-tokens=-3"], "maximumResponseTokens"),
        ])
        func optionsNoModelCanHonorAreTheAPIsError(arguments: [String], option: String) throws {
            let result = try Self.run(["respond", "--model", "/nonexistent/not-downloaded.gguf"] + arguments + ["Hi"])
            #expect(result.status == 1, "\(result.standardError)")
            #expect(result.standardOutput.isEmpty, "\(result.standardOutput)")
            #expect(result.standardError.hasPrefix("error: Invalid generation option '\(option)': "), "\(result.standardError)")
        }

        @Test func aFailedGenerationIsAnErrorOnStandardError() throws {
            try OnDevice.requireModel()
            let file = try Self.schemaFile(#"{"type":"object","properties":{"story":{"type":"string","minLength":40}},"required":["story"]}"#)
            defer { try? FileManager.default.removeItem(at: file) }
            // Two tokens cannot hold a 40-character string: a decoding failure.
            let result = try Self.run(["respond", "--schema", file.path, "--max-tokens", "2", "Tell a story."])
            #expect(result.status == 1)
            #expect(result.standardOutput.isEmpty, "\(result.standardOutput)")
            #expect(result.standardError.hasPrefix("error: "), "\(result.standardError)")
            #expect(result.standardError.contains("maximumResponseTokens"), "\(result.standardError)")
        }
    }

    /// `fm respond --schema` judged on the default model: in the quality run
    /// (`make test`'s run of the tests tagged defaultModel), where
    /// FOUNDATION_MODELS_MODEL is the default model.
    @Suite("fm command line on the default model", .tags(.defaultModel), .needs(.defaultModel))
    struct CommandLineQualityTests {
        /// A schema as people write it: `$schema`, `definitions` with `$ref`,
        /// `format: date-time`, a `["string","null"]` type — answered with
        /// JSON that follows it, on the default model.
        @Test func aSchemaAsPeopleWriteItIsAnswered() throws {
            try OnDevice.requireModel()
            let schema = """
                {"$schema":"http://json-schema.org/draft-07/schema#","$id":"https://example.com/event.json","title":"Event",
                 "definitions":{"When":{"type":"string","format":"date-time","description":"RFC 3339 time"}},
                 "type":"object","additionalProperties":false,
                 "properties":{"name":{"type":"string","maxLength":40},"starts":{"$ref":"#/definitions/When"},"venue":{"type":["string","null"],"maxLength":40}},
                 "required":["name","starts","venue"]}
                """
            let file = try CommandLineTool.schemaFile(schema)
            defer { try? FileManager.default.removeItem(at: file) }
            let result = try CommandLineTool.run([
                "respond", "--greedy", "--max-tokens", "120", "--schema", file.path, "The launch party is on 1 March 2026 at 7pm UTC.",
            ])
            #expect(result.status == 0, "\(result.standardError)")
            let json = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            let oracle = schema.replacingOccurrences(
                of: #""$schema":"http://json-schema.org/draft-07/schema#","$id":"https://example.com/event.json","#, with: "")
            let validator = try JSONSchemaValidator(schemaJSON: oracle)
            #expect(validator.validate(json: json).isEmpty, "\(json) violates \(validator.validate(json: json))")
        }

        /// A schema whose description alone is over 3,000 tokens (each field
        /// documented at length, as Kubernetes and SchemaStore schemas are)
        /// is answered with JSON that follows it: the prompt describes it
        /// more briefly where the whole would crowd the context.
        @Test func aSchemaDescribedInOver3000TokensIsAnswered() async throws {
            try OnDevice.requireModel()
            let schema = SchemaFixtures.documentedSchema(paragraphs: 5)
            let read = try GenerationSchema(jsonSchema: GeneratedContent(json: schema))
            let tokens = try await SystemLanguageModel.default.tokenCount(for: read.promptDescription(style: .fieldLines))
            #expect(tokens > 3000, "the description takes \(tokens) tokens")
            let file = try CommandLineTool.schemaFile(schema)
            defer { try? FileManager.default.removeItem(at: file) }
            let result = try CommandLineTool.run([
                "respond", "--greedy", "--max-tokens", "120", "--schema", file.path,
                "Deploy the checkout service: 3 replicas in the backend tier, rolling updates, not paused.",
            ])
            #expect(result.status == 0, "\(result.standardError)")
            let json = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            let validator = try JSONSchemaValidator(schemaJSON: schema)
            #expect(validator.validate(json: json).isEmpty, "\(json) violates \(validator.validate(json: json))")
            #expect(json.contains("\"replicas\":3"), "\(json)")
        }
    }
}
