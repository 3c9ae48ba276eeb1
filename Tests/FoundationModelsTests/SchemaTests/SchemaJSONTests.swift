import Foundation
import GuidedGeneration
import RegexBuilder
import Testing

@testable import FoundationModels

/// A regex component with no pattern text, so its regex cannot be turned
/// into a `pattern` keyword.
private struct DigitComponent: CustomConsumingRegexComponent {
    typealias RegexOutput = Substring

    func consuming(_ input: String, startingAt index: String.Index, in bounds: Range<String.Index>) throws -> (
        upperBound: String.Index, output: Substring
    )? {
        guard index < bounds.upperBound, input[index].isNumber else { return nil }
        let next = input.index(after: index)
        return (next, input[index..<next])
    }
}

extension SchemaTests {
    @Suite("JSON Schema form")
    struct JSONForm {
        static let personBody =
            ##""type":"object","properties":{"name":{"description":"Full name","type":"string"},"age":{"type":"integer","minimum":0,"maximum":150},"nickname":{"type":"string"}},"required":["name","age"],"additionalProperties":false,"x-order":["name","age","nickname"]"##
        static let addressBody =
            ##""type":"object","properties":{"city":{"type":"string"},"zip":{"type":"string","pattern":"^(?:[0-9]{5})$"}},"required":["city","zip"],"additionalProperties":false,"x-order":["city","zip"]"##

        @Test("a struct: properties in order, optionals not required, guides as keywords")
        func person() {
            let schema = Person.generationSchema
            #expect(schema.name == "Person")
            #expect(SchemaTests.json(schema) == ##"{"title":"Person","description":"A person","## + Self.personBody + "}")
        }

        @Test("nested types become $defs referenced by $ref; arrays carry counts")
        func nested() {
            let expected =
                ##"{"title":"Contact","description":"Where to reach someone","type":"object","properties":{"home":{"description":"Main address","$ref":"#/$defs/Address"},"others":{"type":"array","items":{"$ref":"#/$defs/Address"},"minItems":1,"maxItems":3},"owner":{"$ref":"#/$defs/Person"}},"required":["home","others"],"additionalProperties":false,"x-order":["home","others","owner"],"$defs":{"Address":{"##
                + Self.addressBody + ##"},"Person":{"description":"A person","## + Self.personBody + "}}}"
            #expect(SchemaTests.json(Contact.generationSchema) == expected)
        }

        @Test("a string enumeration uses enum")
        func stringChoices() {
            #expect(
                SchemaTests.json(Genre.generationSchema)
                    == ##"{"title":"Genre","description":"A music genre","type":"string","enum":["rock","jazz","folk"]}"##)
        }

        @Test("a union of types uses anyOf, named choices by reference")
        func typeChoices() {
            let expected =
                ##"{"title":"Pet","description":"Any pet","anyOf":[{"$ref":"#/$defs/Cat"},{"$ref":"#/$defs/Dog"},{"type":"string"}],"$defs":{"Cat":{"type":"object","properties":{"lives":{"type":"integer"}},"required":["lives"],"additionalProperties":false,"x-order":["lives"]},"Dog":{"type":"object","properties":{"breed":{"description":"A music genre","type":"string","enum":["rock","jazz","folk"]}},"required":["breed"],"additionalProperties":false,"x-order":["breed"]}}}"##
            #expect(SchemaTests.json(Pet.generationSchema) == expected)
        }

        @Test("tagged cases: anyOf objects with a constant \"case\" discriminator first")
        func taggedCases() {
            let expected =
                ##"{"title":"Payload","description":"A message payload","anyOf":[{"type":"object","properties":{"case":{"description":"Plain text","type":"string","const":"text"},"value":{"type":"string"}},"required":["case","value"],"additionalProperties":false,"x-order":["case","value"]},{"type":"object","properties":{"case":{"type":"string","const":"point"},"x":{"type":"number"},"y":{"type":"number"}},"required":["case","x"],"additionalProperties":false,"x-order":["case","x","y"]},{"type":"object","properties":{"case":{"type":"string","const":"none"}},"required":["case"],"additionalProperties":false,"x-order":["case"]}]}"##
            #expect(SchemaTests.json(Payload.generationSchema) == expected)
        }

        @Test("a recursive type references itself through $defs and terminates")
        func recursion() {
            let body =
                ##""type":"object","properties":{"value":{"type":"integer"},"children":{"type":"array","items":{"$ref":"#/$defs/TreeNode"}}},"required":["value","children"],"additionalProperties":false,"x-order":["value","children"]"##
            #expect(SchemaTests.json(TreeNode.generationSchema) == ##"{"title":"TreeNode","## + body + ##","$defs":{"TreeNode":{"## + body + "}}}")
        }

        @Test("mutually recursive types each get one definition")
        func mutualRecursion() throws {
            let schema = Employee.generationSchema
            #expect(schema.definitions.map(\.name) == ["Department", "Employee"])
            let department = try #require(schema.definition(named: "Department"))
            #expect(department.node == .object(ObjectNode(properties: [PropertyNode(name: "head", node: .reference("Employee"))])))
            #expect(
                schema.root
                    == .object(
                        ObjectNode(properties: [
                            PropertyNode(name: "name", node: .string(StringNode())),
                            PropertyNode(name: "department", node: .reference("Department"), isOptional: true),
                        ])))
        }

        @Test("every guide becomes its keyword")
        func guides() {
            let expected =
                ##"{"title":"Guided","type":"object","properties":{"kind":{"type":"string","const":"guided"},"mood":{"type":"string","enum":["happy","sad"]},"code":{"type":"string","pattern":"^(?:[A-Z]{2}[0-9]+)$"},"price":{"type":"number","minimum":0.25},"ratio":{"type":"number","minimum":0.1,"maximum":0.9},"score":{"type":"number","maximum":9.5},"low":{"type":"integer","minimum":-3},"tags":{"type":"array","items":{"type":"string","enum":["a","b"]},"minItems":2,"maxItems":4},"pair":{"type":"array","items":{"type":"integer","minimum":1,"maximum":6},"minItems":2,"maxItems":2},"flag":{"type":"boolean"}},"required":["kind","mood","code","price","ratio","score","low","tags","pair","flag"],"additionalProperties":false,"x-order":["kind","mood","code","price","ratio","score","low","tags","pair","flag"]}"##
            #expect(SchemaTests.json(Guided.generationSchema) == expected)
        }

        @Test("representNilExplicitly: optionals are required and nullable")
        func explicitNil() {
            let expected =
                ##"{"title":"Explicit","type":"object","properties":{"a":{"type":"integer"},"b":{"description":"maybe","anyOf":[{"type":"string"},{"type":"null"}]}},"required":["a","b"],"additionalProperties":false,"x-order":["a","b"]}"##
            #expect(SchemaTests.json(Explicit.generationSchema) == expected)
        }

        @Test("built-in types have inline, structural schemas")
        func builtIns() {
            #expect(SchemaTests.json(String.generationSchema) == ##"{"title":"String","type":"string"}"##)
            #expect(SchemaTests.json(Int.generationSchema) == ##"{"title":"Int","type":"integer"}"##)
            #expect(SchemaTests.json(Bool.generationSchema) == ##"{"title":"Bool","type":"boolean"}"##)
            #expect(SchemaTests.json(Decimal.generationSchema) == ##"{"title":"Decimal","type":"number"}"##)
            #expect(
                SchemaTests.json([[Double]].generationSchema)
                    == ##"{"title":"Array<Array<Double>>","type":"array","items":{"type":"array","items":{"type":"number"}}}"##)
            #expect(
                SchemaTests.json([Address].generationSchema)
                    == ##"{"title":"Array<Address>","type":"array","items":{"$ref":"#/$defs/Address"},"$defs":{"Address":{"## + Self.addressBody
                    + "}}}")
            #expect(SchemaTests.json(GeneratedContent.generationSchema) == ##"{"title":"GeneratedContent"}"##)
            #expect(Never.generationSchema.root == .anyOf([]))
        }

        @Test("a regex without recoverable pattern is recorded as an unsupported guide, not dropped")
        func unsupportedRegex() {
            let schema = GenerationSchema(
                type: Address.self,
                properties: [
                    .init(
                        name: "code", type: String.self,
                        guides: [
                            Regex {
                                "a"; DigitComponent()
                            }
                        ]),
                    .init(name: "twice", type: String?.self, guides: [/a+/, /b+/]),
                ])
            #expect(schema.unsupportedGuides.count == 2)
            #expect(schema.unsupportedGuides[0].contains("pattern cannot be recovered"))
            #expect(schema.unsupportedGuides[1] == "a second pattern (b+) on a value already guided by the pattern a+")
            #expect(
                SchemaTests.json(schema).contains(
                    ##""twice":{"type":"string","pattern":"^(?:a+)$","x-unsupported-guides":["a second pattern (b+) on a value already guided by the pattern a+"]}"##
                ))
            #expect(Person.generationSchema.unsupportedGuides.isEmpty)
        }

        @Test("regex literals and string regexes become pattern keywords")
        func regexForms() throws {
            let fromString = try Regex("^[a-z]+@[a-z]+\\.com$")
            let schema = GenerationSchema(
                type: Address.self,
                properties: [
                    .init(name: "email", type: String.self, guides: [fromString]),
                    .init(name: "id", type: String.self, guides: [.pattern(/ID-\d{3}/)]),
                ])
            #expect(SchemaTests.json(schema).contains(##""email":{"type":"string","pattern":"^(?:^[a-z]+@[a-z]+\\.com$)$"}"##))
            #expect(SchemaTests.json(schema).contains(##""id":{"type":"string","pattern":"^(?:ID\\-\\d{3})$"}"##))
        }

        @Test("a repeated property name keeps its first declaration")
        func repeatedProperty() {
            let schema = GenerationSchema(
                type: Address.self,
                properties: [
                    .init(name: "a", type: Int.self), .init(name: "a", type: String.self),
                ])
            #expect(schema.root == .object(ObjectNode(properties: [PropertyNode(name: "a", node: .integer(NumberNode()))])))
        }

        @Test("debugDescription is indented JSON Schema")
        func debugDescription() {
            #expect(
                Genre.generationSchema.debugDescription == """
                    {
                      "title": "Genre",
                      "description": "A music genre",
                      "type": "string",
                      "enum": [
                        "rock",
                        "jazz",
                        "folk"
                      ]
                    }
                    """)
        }

        @Test("JSONEncoder output is the same JSON Schema")
        func encoder() throws {
            let encoded = try SchemaTests.encoded(Person.generationSchema)
            let fromEncoder = try JSONSerialization.jsonObject(with: Data(encoded.utf8)) as? NSDictionary
            let fromWriter = try JSONSerialization.jsonObject(with: Data(SchemaTests.json(Person.generationSchema).utf8)) as? NSDictionary
            #expect(fromEncoder != nil)
            #expect(fromEncoder == fromWriter)
            #expect(encoded.contains(##""minimum":0"##))
            #expect(!encoded.contains("0.0"))
        }
    }
}
