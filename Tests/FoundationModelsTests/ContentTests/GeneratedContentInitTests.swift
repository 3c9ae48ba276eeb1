import Foundation
import Testing

@testable import FoundationModels

extension ContentTests {
    @Suite("Building GeneratedContent")
    struct Building {
        @Test("properties keep their order; a repeated key keeps its first position and last value")
        func properties() {
            let content = GeneratedContent(properties: ["b": 1, "a": "x", "c": [true], "b": 2])
            #expect(content.jsonString == #"{"b":2,"a":"x","c":[true]}"#)
            #expect(content.id == nil)
            #expect(content.isComplete)
        }

        @Test("uniquingKeysWith combines duplicates with the closure")
        func uniquing() throws {
            let pairs: [(String, any ConvertibleToGeneratedContent)] = [("n", 1), ("s", "a"), ("n", 2), ("n", 3)]
            let content = try GeneratedContent(properties: pairs) { first, second in
                (try Int(first)) + (try Int(second))
            }
            #expect(content.jsonString == #"{"n":6,"s":"a"}"#)
            struct Refused: Error {}
            #expect(throws: Refused.self) {
                _ = try GeneratedContent(properties: pairs) { _, _ -> Int in throw Refused() }
            }
        }

        @Test("elements, single values, kinds and ids")
        func others() {
            let id = GenerationID()
            let elements = GeneratedContent(elements: [1, "two", nil as Int?] as [any ConvertibleToGeneratedContent], id: id)
            #expect(elements.jsonString == #"[1,"two",null]"#)
            #expect(elements.id == id)
            #expect(GeneratedContent("text").kind == .string("text"))
            #expect(GeneratedContent(3.5, id: id).id == id)
            #expect(GeneratedContent(kind: .bool(true), id: id).id == id)
            #expect(GeneratedContent(kind: .null).jsonString == "null")
        }

        @Test("equality compares kinds (numbers by value), completeness and ids")
        func equality() throws {
            #expect(GeneratedContent(kind: .number(5)) == (try GeneratedContent(json: "5.0")))
            #expect(GeneratedContent(properties: ["a": 1]) == (try GeneratedContent(json: #"{"a":1}"#)))
            #expect(GeneratedContent(kind: .string("a"), id: GenerationID()) != GeneratedContent(kind: .string("a")))
            #expect(try GeneratedContent(json: #"["a"]"#) != (try GeneratedContent(json: #"["a""#)))
            #expect(GenerationID() != GenerationID())
        }

        @Test("GeneratedContent is Generable: it converts to and from itself")
        func generable() throws {
            let content = try GeneratedContent(json: #"{"x":[1,2]}"#)
            #expect(try GeneratedContent(content) == content)
            #expect(content.generatedContent == content)
            #expect(try content.value(GeneratedContent.self) == content)
        }
    }
}
