// Schemas built at run time (forms defined by the user, shapes from a
// server) and the errors GenerationSchema(root:dependencies:) reports.

import Foundation
import FoundationModels
import Testing

@Suite("Dynamic schemas and SchemaError")
struct SchemaErrorTests {
    static let track = DynamicGenerationSchema(
        name: "Track",
        description: "A track on an album",
        properties: [
            .init(name: "title", schema: DynamicGenerationSchema(type: String.self)),
            .init(name: "seconds", description: "Length in seconds", schema: DynamicGenerationSchema(type: Int.self, guides: [.range(1...3600)])),
        ]
    )

    static let album = DynamicGenerationSchema(
        name: "Album",
        properties: [
            .init(name: "title", schema: DynamicGenerationSchema(type: String.self)),
            .init(name: "format", schema: DynamicGenerationSchema(name: "Format", anyOf: ["LP", "EP", "single"])),
            .init(
                name: "tracks",
                schema: DynamicGenerationSchema(arrayOf: DynamicGenerationSchema(referenceTo: "Track"), minimumElements: 1, maximumElements: 30)),
            .init(name: "notes", schema: DynamicGenerationSchema(type: String.self), isOptional: true),
        ]
    )

    @Test("a valid dynamic schema resolves references into $defs")
    func valid() throws {
        let schema = try GenerationSchema(root: Self.album, dependencies: [Self.track])
        let json = try SchemaJSON.document(schema)
        #expect(json.string("title") == "Album")
        SchemaJSON.expectObject(json, order: ["title", "format", "tracks", "notes"], required: ["title", "format", "tracks"])
        let tracks = try #require(json.property("tracks"))
        #expect(tracks.object("items")?.string("$ref") == "#/$defs/Track")
        #expect(tracks.number("minItems") == 1)
        #expect(tracks.number("maxItems") == 30)
        let track = try #require(json.definition("Track"))
        #expect(track.string("description") == "A track on an album")
        #expect(track.property("seconds")?.number("maximum") == 3600)
        let format = json.property("format")
        #expect(format?.strings("enum") ?? json.definition("Format")?.strings("enum") == ["LP", "EP", "single"])

        // And content generated for it reads back by property.
        let content = try GeneratedContent(json: #"{"title":"Blue","format":"LP","tracks":[{"title":"All I Want","seconds":214}]}"#)
        #expect(try content.value(String.self, forProperty: "title") == "Blue")
        let first = try #require(try content.value([GeneratedContent].self, forProperty: "tracks").first)
        #expect(try first.value(Int.self, forProperty: "seconds") == 214)

        // The schema survives its JSON form too.
        let decoded = try JSONDecoder().decode(GenerationSchema.self, from: SchemaJSON.data(schema))
        #expect(try SchemaJSON.data(decoded) == SchemaJSON.data(schema))
    }

    @Test("two different dependencies with the same name throw duplicateType")
    func duplicateType() {
        let otherTrack = DynamicGenerationSchema(
            name: "Track",
            properties: [
                .init(name: "name", schema: DynamicGenerationSchema(type: String.self))
            ])
        do {
            _ = try GenerationSchema(root: Self.album, dependencies: [Self.track, otherTrack])
            Issue.record("accepted a duplicate type")
        } catch let error as GenerationSchema.SchemaError {
            guard case .duplicateType(_, let type, _) = error else {
                Issue.record("expected duplicateType, got \(error)")
                return
            }
            #expect(type == "Track")
            #expect(error.errorDescription?.contains("Track") == true)
        } catch {
            Issue.record("expected a SchemaError, got \(error)")
        }
    }

    @Test("two properties with the same name throw duplicateProperty")
    func duplicateProperty() {
        let root = DynamicGenerationSchema(
            name: "Receipt",
            properties: [
                .init(name: "total", schema: DynamicGenerationSchema(type: Double.self)),
                .init(name: "total", schema: DynamicGenerationSchema(type: String.self)),
            ])
        do {
            _ = try GenerationSchema(root: root, dependencies: [])
            Issue.record("accepted a duplicate property")
        } catch let error as GenerationSchema.SchemaError {
            guard case .duplicateProperty(let schema, let property, _) = error else {
                Issue.record("expected duplicateProperty, got \(error)")
                return
            }
            #expect(schema == "Receipt")
            #expect(property == "total")
            #expect(error.recoverySuggestion?.isEmpty == false)
        } catch {
            Issue.record("expected a SchemaError, got \(error)")
        }
    }

    @Test(
        "an any-of without choices throws emptyTypeChoices",
        arguments: [
            DynamicGenerationSchema(name: "Mood", anyOf: [String]()),
            DynamicGenerationSchema(name: "Mood", anyOf: [DynamicGenerationSchema]()),
        ])
    func emptyChoices(root: DynamicGenerationSchema) {
        do {
            _ = try GenerationSchema(root: root, dependencies: [])
            Issue.record("accepted an empty choice")
        } catch let error as GenerationSchema.SchemaError {
            guard case .emptyTypeChoices(let schema, _) = error else {
                Issue.record("expected emptyTypeChoices, got \(error)")
                return
            }
            #expect(schema == "Mood")
        } catch {
            Issue.record("expected a SchemaError, got \(error)")
        }
    }

    @Test("a reference to a schema nobody defined throws undefinedReferences")
    func undefinedReference() {
        do {
            _ = try GenerationSchema(root: Self.album, dependencies: [])
            Issue.record("accepted an undefined reference")
        } catch let error as GenerationSchema.SchemaError {
            guard case .undefinedReferences(_, let references, _) = error else {
                Issue.record("expected undefinedReferences, got \(error)")
                return
            }
            #expect(references == ["Track"])
            #expect(error.localizedDescription.contains("Track"))
        } catch {
            Issue.record("expected a SchemaError, got \(error)")
        }
    }
}
