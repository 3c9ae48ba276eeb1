import Foundation
import FoundationModels
import Testing

@testable import FoundationModelsEval

/// The JSON-object corpus and its scorer (no model).
@Suite("Eval JSON objects")
struct JSONObjectTaskTests {
    static func rights(_ json: String, _ item: JSONObjectItem) throws -> [String: Bool] {
        Dictionary(uniqueKeysWithValues: JSONObjectTask.score(try GeneratedContent(json: json), for: item).map { ($0.field, $0.right) })
    }

    @Test func theCapitalOfFrance() throws {
        let france = JSONObjectCorpus.generate()[0]
        #expect(france.prompt == "Give a JSON object with a key 'city' for the capital of France.")
        #expect(try Self.rights(#"{"city": "Paris"}"#, france) == ["keys": true, "values": true])
        #expect(try Self.rights(#"{"city": "Paris, France"}"#, france) == ["keys": true, "values": true])
        #expect(try Self.rights(#"{"city": "Lyon"}"#, france) == ["keys": true, "values": false])
        #expect(try Self.rights(#"{"capital": "Paris"}"#, france) == ["keys": false, "values": false], "the key the request named")
        #expect(try Self.rights(#"{"city": null}"#, france)["keys"] == false)
    }

    @Test func nestedKeysListsNumbersAndBooleans() throws {
        let nested = JSONObjectItem(
            id: "t", shape: "nested", prompt: "",
            keys: [.init("person", .object), .init("person.name", .string, "Ana"), .init("person.age", .number, "34")])
        #expect(try Self.rights(#"{"person": {"name": "Ana", "age": 34}}"#, nested) == ["keys": true, "values": true])
        #expect(
            try Self.rights(#"{"person": {"name": "Ana", "age": "34"}}"#, nested) == ["keys": false, "values": true],
            "a number as a string is the wrong kind")
        #expect(try Self.rights(#"{"name": "Ana", "age": 34}"#, nested) == ["keys": false, "values": false], "not nested")
        let list = JSONObjectItem(id: "t", shape: "list", prompt: "", keys: [.init("capitals", .list, "Oslo"), .init("capitals", .list, "Lima")])
        #expect(try Self.rights(#"{"capitals": ["Oslo", "Lima"]}"#, list) == ["keys": true, "values": true])
        #expect(try Self.rights(#"{"capitals": ["Oslo"]}"#, list) == ["keys": true, "values": false])
        #expect(try Self.rights(#"{"capitals": []}"#, list)["keys"] == false)
        #expect(try Self.rights(#"{"capitals": {"Norway": "Oslo", "Peru": "Lima"}}"#, list) == ["keys": true, "values": true], "listed as a map")
        #expect(try Self.rights(#"{"capitals": {"Norway": "Oslo"}}"#, list) == ["keys": true, "values": false])
        #expect(try Self.rights(#"{"capitals": "Oslo, Lima"}"#, list)["keys"] == false, "one string is no list")
        let prime = JSONObjectItem(id: "t", shape: "one key", prompt: "", keys: [.init("isPrime", .boolean, "false")])
        #expect(try Self.rights(#"{"isPrime": false}"#, prime) == ["keys": true, "values": true])
        #expect(try Self.rights(#"{"isPrime": true}"#, prime) == ["keys": true, "values": false])
        let tags = JSONObjectItem(id: "t", shape: "list", prompt: "", keys: [.init("tags", .list)])
        #expect(JSONObjectTask.score(try GeneratedContent(json: #"{"tags": ["calm"]}"#), for: tags).allSatisfy(\.right))
    }

    @Test func theCorpusHasEveryShape() throws {
        let items = JSONObjectCorpus.generate()
        #expect(items.count == JSONObjectCorpus.size && items.count >= 21)
        #expect(Set(items.map(\.id)).count == items.count && Set(items.map(\.prompt)).count == items.count)
        #expect(Set(items.map(\.shape)) == ["one key", "two keys", "three keys", "nested", "list"])
        for item in items {
            // Every requested key is named in the request, in quotes.
            for key in item.keys {
                #expect(item.prompt.contains("'\(key.path.split(separator: ".").last!)'"), "\(item.id): \(key.path)")
            }
        }
        #expect(JSONObjectCorpus.generate(seed: 1) != items && JSONObjectCorpus.generate() == items)
    }

    @Test func theSchemaIsAnyObject() throws {
        let schema = try #require(JSONObjectTask.customSchema)
        #expect(JSONObjectTask.answerSchema.jsonSchema.jsonString == schema.jsonSchema.jsonString)
        let written = schema.jsonSchema.jsonString.replacingOccurrences(of: " ", with: "")
        #expect(written.contains(#""type":"object""#), "\(written)")
    }
}
