import Foundation
import GuidedGeneration
import Testing

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

        @Test(
            "decoding rebuilds the same IR (apart from explicit-nil objects and inlined string choices)",
            arguments: schemas.filter { $0.name != "Explicit" })
        func sameIR(schema: GenerationSchema) throws {
            let decoded = try SchemaTests.decoded(try SchemaTests.encoded(schema))
            // Named string choices are written inline, as Apple writes them.
            // (A property without a description takes the choice's.)
            let inlined = Dictionary(
                uniqueKeysWithValues: schema.definitions.compactMap { definition -> (String, SchemaDefinition)? in
                    if case .string = definition.node { return (definition.name, definition) }
                    return nil
                })
            func inline(_ node: SchemaNode) -> SchemaNode {
                switch node {
                case .reference(let name): return inlined[name]?.node ?? node
                case .object(var object):
                    for index in object.properties.indices {
                        if case .reference(let name) = object.properties[index].node, object.properties[index].description == nil {
                            object.properties[index].description = inlined[name]?.description
                        }
                        object.properties[index].node = inline(object.properties[index].node)
                    }
                    return .object(object)
                case .array(var array):
                    array.items = inline(array.items)
                    return .array(array)
                case .anyOf(let choices): return .anyOf(choices.map(inline))
                default: return node
                }
            }
            #expect(decoded.root == inline(schema.root))
            #expect(
                decoded.definitions
                    == schema.definitions.filter { inlined[$0.name] == nil }.map {
                        SchemaDefinition(name: $0.name, description: $0.description, node: inline($0.node))
                    })
            #expect(decoded.typeDescription == schema.typeDescription)
        }

        @Test("a dynamic schema round-trips too")
        func dynamicRoundTrip() throws {
            let schema = try GenerationSchema(root: DynamicSchemas.library, dependencies: [DynamicSchemas.book])
            let first = try SchemaTests.encoded(schema)
            #expect(try SchemaTests.encoded(SchemaTests.decoded(first)) == first)
        }

        @Test(
            "unsupported, misplaced or unenforceable keywords throw, naming keyword and location",
            arguments: [
                (
                    #"{"$ref":"https://example.com/s.json"}"#,
                    ##"unsupported reference "https://example.com/s.json" at #/$ref: only references inside the document are supported"##
                ),
                (##"{"$ref":"#/$defs/A","type":"string"}"##, ##"unresolvable reference "#/$defs/A" at #/$ref"##),
                (#"{"type":"integer","minimum":"1"}"#, "expected a number at #/minimum, found a string"),
                (#"{"type":"array","items":{"type":"string"},"minItems":1.5}"#, "expected a non-negative integer at #/minItems, found 1.5"),
                (#"{"type":"object","properties":{"a":{"type":"string"}},"x-order":["b"]}"#, "x-order at # must list each property exactly once"),
                (#"{"type":"tuple"}"#, #"unsupported type "tuple" at #/type"#),
                (#"[1]"#, "expected a schema (an object or a boolean) at #, found an array"),
                (
                    #"{"type":"array","contains":{"type":"string"}}"#,
                    #"unsupported JSON Schema keyword "contains" at #/contains: cannot be enforced token by token"#
                ),
                (
                    #"{"type":"object","additionalProperties":{"type":"string"},"minProperties":1}"#,
                    #"unsupported JSON Schema keyword "minProperties" at #: 1 properties with only 0 required cannot be enforced token by token"#
                ),
                (
                    #"{"oneOf":[{"type":"integer"},{"multipleOf":2}]}"#,
                    #"oneOf at #: branches 0 and 1 may both match the same value, so oneOf cannot be enforced (write anyOf if either may match): unsupported not at #/oneOf/1: the negation of "multipleOf" cannot be enforced token by token"#
                ),
                (
                    #"{"if":{"multipleOf":2},"then":{"minimum":3}}"#,
                    #"unsupported not at #/if: the negation of "multipleOf" cannot be enforced token by token"#
                ),
                (#"{"not":{"multipleOf":3}}"#, #"unsupported not at #/not: the negation of "multipleOf" cannot be enforced token by token"#),
                (
                    #"{"type":"object","unevaluatedProperties":false}"#,
                    #"unsupported JSON Schema keyword "unevaluatedProperties" at # cannot be enforced token by token"#
                ),
                (
                    ##"{"$defs":{"A":{"allOf":[{"$ref":"#/$defs/A"}],"type":"string"}},"$ref":"#/$defs/A"}"##,
                    "unsupported $ref at #/$defs/A/allOf/0/$ref: a recursive reference combined with other keywords cannot be enforced"
                ),
                (
                    #"{"type":"integer","multipleOf":7}"#,
                    #"unsupported JSON Schema keyword "multipleOf" at #/multipleOf: only 1, or an integer factor with a range of at most 256 multiples, can be enforced"#
                ),
                (
                    #"{"type":"string","pattern":"(?=a)"}"#,
                    #"unsupported pattern at #/pattern: unsupported guide: lookahead '(?=' is not supported in pattern "(?=a)""#
                ),
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
            #expect(
                schema.root
                    == .object(
                        ObjectNode(properties: [
                            PropertyNode(name: "urgency", description: "1 to 5", node: .integer(NumberNode(minimum: 1, maximum: 5))),
                            PropertyNode(name: "tags", node: .array(ArrayNode(items: .string(StringNode()), minimumCount: 2, maximumCount: 4))),
                            PropertyNode(name: "owner", node: .reference("User"), isOptional: true),
                        ])))
            // No additionalProperties: only the declared keys are written;
            // the pattern is searched for.
            #expect(
                schema.resolve("User")
                    == .object(
                        ObjectNode(properties: [
                            PropertyNode(name: "email", node: .string(StringNode(searchPatterns: [#"^\S+@\S+$"#])))
                        ])))
        }
    }
}
