import Foundation
import GuidedGeneration
import Testing

@testable import FoundationModels

extension SchemaTests {
    /// An object schema that declares no property (`{"type": "object"}`,
    /// OpenAI's `json_object`): the prompt says what it holds, so its keys
    /// are the model's to write, and the description must not say "empty".
    @Suite("Objects that declare no property")
    struct OpenObjects {
        @Test func anObjectThatDeclaresNothingTakesAnyKeys() throws {
            let schema = try GenerationSchema(jsonSchema: GeneratedContent(json: #"{"type":"object"}"#))
            guard case .object(let object) = schema.root else {
                Issue.record("not an object: \(schema.root)")
                return
            }
            #expect(object.properties.isEmpty)
            #expect(object.additionalProperties == .any)
            let description = schema.promptDescription(style: .fieldLines)
            #expect(!description.contains("empty"), "\(description)")
            #expect(description.contains("the keys and values the request asks for"), "\(description)")
        }

        @Test func declaredPropertiesStillCloseTheObject() throws {
            // JSON Schema allows other keys here too; the engine writes the
            // declared ones only (a model given the choice invents keys).
            let schema = try GenerationSchema(jsonSchema: GeneratedContent(json: #"{"type":"object","properties":{"city":{"type":"string"}}}"#))
            guard case .object(let object) = schema.root else { return }
            #expect(object.additionalProperties == nil)
        }

        @Test func closedAndBoundedObjectsStayAsTheySay() throws {
            let closed = try GenerationSchema(jsonSchema: GeneratedContent(json: #"{"type":"object","additionalProperties":false}"#))
            guard case .object(let empty) = closed.root else { return }
            #expect(empty.additionalProperties == nil)
            #expect(closed.promptDescription(style: .fieldLines).contains("an empty object"))
            let bounded = try GenerationSchema(jsonSchema: GeneratedContent(json: #"{"type":"object","maxProperties":2}"#))
            guard case .object(let object) = bounded.root else { return }
            #expect(object.additionalProperties == nil, "maxProperties cannot be enforced on free keys token by token")
        }

        @Test func aDeclaredPropertyNoValueSatisfiesKeepsTheObjectClosed() throws {
            // MaskBench's Github_trivial---o30283: "mode" can only be absent,
            // so {"mode": "all"} is invalid; an open object would write it.
            let schema = try GenerationSchema(
                jsonSchema: GeneratedContent(
                    json: #"{"type":"object","properties":{"mode":{"enum":["all","misc"],"type":"object"}}}"#))
            guard case .object(let object) = schema.root else { return }
            #expect(object.properties.isEmpty)
            #expect(object.additionalProperties == nil)
            let forbidden = try GenerationSchema(jsonSchema: GeneratedContent(json: #"{"type":"object","not":{"required":["a"]}}"#))
            guard case .object(let other) = forbidden.root else { return }
            #expect(other.additionalProperties == nil, "not/required on free keys is not enforced")
        }

        @Test func mapsAreDescribedByTheirValues() throws {
            let schema = try GenerationSchema(
                jsonSchema: GeneratedContent(
                    json: #"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":{"type":"integer"}}"#)
            )
            let description = schema.promptDescription(style: .fieldLines)
            #expect(description.contains("then other keys, each an integer"), "\(description)")
        }
    }
}
