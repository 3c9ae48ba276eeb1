import Foundation
import Testing
import GuidedGeneration
@testable import FoundationModels

extension SchemaTests {
    @Suite("JSON Schema round trips and strict decoding")
    struct Coding {
        static let schemas: [GenerationSchema] = [
            Person.generationSchema, Contact.generationSchema, Genre.generationSchema, Pet.generationSchema,
            Payload.generationSchema, TreeNode.generationSchema, Employee.generationSchema, Guided.generationSchema,
            Explicit.generationSchema, String.generationSchema, [Address].generationSchema, GeneratedContent.generationSchema,
        ]

        @Test("schema → JSON → schema → JSON is identical", arguments: schemas)
        func roundTrip(schema: GenerationSchema) throws {
            let first = try SchemaTests.encoded(schema)
            let decoded = try SchemaTests.decoded(first)
            #expect(try SchemaTests.encoded(decoded) == first)
            #expect(SchemaTests.json(decoded) == SchemaTests.json(schema))
            #expect(decoded.name == schema.name)
        }

        @Test("decoding rebuilds the same IR (apart from explicit-nil objects)", arguments: schemas.filter { $0.name != "Explicit" })
        func sameIR(schema: GenerationSchema) throws {
            let decoded = try SchemaTests.decoded(try SchemaTests.encoded(schema))
            #expect(decoded.root == schema.root)
            #expect(decoded.definitions == schema.definitions)
            #expect(decoded.typeDescription == schema.typeDescription)
        }

        @Test("a dynamic schema round-trips too")
        func dynamicRoundTrip() throws {
            let schema = try GenerationSchema(root: DynamicSchemas.library, dependencies: [DynamicSchemas.book])
            let first = try SchemaTests.encoded(schema)
            #expect(try SchemaTests.encoded(SchemaTests.decoded(first)) == first)
        }

        @Test("unsupported or misplaced keywords throw, naming keyword and location", arguments: [
            (#"{"title":"X","type":"string","format":"date"}"#, #"unsupported JSON Schema keyword "format" at #"#),
            (#"{"type":"object","properties":{"a":{"type":"string","minLength":2}},"required":["a"],"x-order":["a"]}"#,
             #"unsupported JSON Schema keyword "minLength" at #/properties/a"#),
            (#"{"type":"string","minimum":1}"#, #"unsupported JSON Schema keyword "minimum" at #"#),
            (#"{"type":["string","null"]}"#, "expected a string at #/type, found an array"),
            (#"{"type":"object","properties":{},"additionalProperties":true}"#, "unsupported value for additionalProperties at #: only false is supported"),
            (#"{"$ref":"https://example.com/s.json"}"#, ##"unsupported reference "https://example.com/s.json" at #/$ref: only "#/$defs/Name" references are supported"##),
            (##"{"$ref":"#/$defs/A","type":"string"}"##, #"unsupported JSON Schema keyword "type" at #"#),
            (#"{"type":"integer","minimum":"1"}"#, "expected a number at #/minimum, found a string"),
            (#"{"type":"array","items":{"type":"string"},"minItems":1.5}"#, "expected a non-negative integer at #/minItems, found 1.5"),
            (#"{"type":"object","properties":{"a":{"type":"string"}},"x-order":["b"]}"#, "x-order at # must list each property exactly once"),
            (#"{"type":"object","properties":{},"required":["a"]}"#, #"required property "a" at # is not among the properties"#),
            (#"{"type":"tuple"}"#, #"unsupported type "tuple" at #/type"#),
            (#"{"$defs":{"A":{"oneOf":[]}},"type":"null"}"#, #"unsupported JSON Schema keyword "oneOf" at #/$defs/A"#),
            (#"[1]"#, "expected a JSON object at #, found an array"),
        ])
        func strictDecoding(json: String, message: String) throws {
            do {
                _ = try SchemaTests.decoded(json)
                Issue.record("decoding \(json) should throw")
            } catch DecodingError.dataCorrupted(let context) {
                #expect(context.debugDescription == "Invalid generation schema: \(message)")
            }
        }

        @Test("a schema written by hand in the same dialect decodes")
        func handWritten() throws {
            let json = #"""
            {"title":"Ticket","description":"A support ticket","type":"object",
             "properties":{"urgency":{"description":"1 to 5","type":"integer","minimum":1,"maximum":5},
                           "tags":{"type":"array","items":{"type":"string"},"minItems":2,"maxItems":4},
                           "owner":{"$ref":"#/$defs/User"}},
             "required":["urgency","tags"],"additionalProperties":false,"x-order":["urgency","tags","owner"],
             "$defs":{"User":{"type":"object","properties":{"email":{"type":"string","pattern":"^\\S+@\\S+$"}},"required":["email"]}}}
            """#
            let schema = try SchemaTests.decoded(json)
            #expect(schema.name == "Ticket")
            #expect(schema.typeDescription == "A support ticket")
            #expect(schema.root == .object(ObjectNode(properties: [
                PropertyNode(name: "urgency", description: "1 to 5", node: .integer(NumberNode(minimum: 1, maximum: 5))),
                PropertyNode(name: "tags", node: .array(ArrayNode(items: .string(StringNode()), minimumCount: 2, maximumCount: 4))),
                PropertyNode(name: "owner", node: .reference("User"), isOptional: true),
            ])))
            #expect(schema.resolve("User") == .object(ObjectNode(properties: [
                PropertyNode(name: "email", node: .string(StringNode(pattern: #"^\S+@\S+$"#))),
            ])))
        }
    }
}
