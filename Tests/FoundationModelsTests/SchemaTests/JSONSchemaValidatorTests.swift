import Foundation
import TestSupport
import Testing

/// Tests for the test-oracle JSON Schema validator itself.
@Suite struct JSONSchemaValidatorTests {
    typealias Validator = JSONSchemaValidator

    /// Violations of `instance` against `schema`.
    private func check(_ schema: String, _ instance: String) throws -> [Validator.Violation] {
        try Validator(schemaJSON: schema).validate(json: instance)
    }

    private func keywords(_ schema: String, _ instance: String) throws -> [String] {
        try check(schema, instance).map(\.keyword)
    }

    // MARK: type

    @Test(arguments: [
        ("string", "\"a\""), ("integer", "3"), ("integer", "3.0"), ("integer", "1e2"), ("integer", "-0"),
        ("number", "3"), ("number", "2.5"), ("boolean", "true"), ("boolean", "false"),
        ("null", "null"), ("object", "{}"), ("array", "[]"),
    ])
    func typeAccepts(type: String, instance: String) throws {
        #expect(try check(#"{"type": "\#(type)"}"#, instance).isEmpty)
    }

    @Test(arguments: [
        ("string", "1"), ("integer", "2.5"), ("integer", "true"), ("number", "true"), ("number", "\"1\""),
        ("boolean", "1"), ("boolean", "0"), ("null", "false"), ("object", "[]"), ("array", "{}"),
        ("integer", "null"),
    ])
    func typeRejects(type: String, instance: String) throws {
        let violations = try check(#"{"type": "\#(type)"}"#, instance)
        #expect(violations.count == 1)
        #expect(violations.first?.keyword == "type")
        #expect(violations.first?.path == "")
        #expect(violations.first?.schemaLocation == "#/type")
    }

    @Test func typeArray() throws {
        let schema = #"{"type": ["string", "null"]}"#
        #expect(try check(schema, "null").isEmpty)
        #expect(try check(schema, "\"x\"").isEmpty)
        #expect(try keywords(schema, "1") == ["type"])
        #expect(try check(schema, "1").first?.message == "expected string or null, got integer")
    }

    // MARK: objects

    @Test func properties() throws {
        let schema = #"{"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}}"#
        #expect(try check(schema, #"{"name": "Ann", "age": 3}"#).isEmpty)
        #expect(try check(schema, #"{}"#).isEmpty)
        #expect(try check(schema, #"{"other": 1}"#).isEmpty)
        let violations = try check(schema, #"{"name": 1, "age": "x"}"#)
        #expect(violations.map(\.path) == ["/name", "/age"])
        #expect(violations.map(\.keyword) == ["type", "type"])
        #expect(violations.first?.schemaLocation == "#/properties/name/type")
    }

    @Test func propertiesIgnoreNonObjects() throws {
        #expect(try check(#"{"properties": {"a": false}, "required": ["a"]}"#, "[1]").isEmpty)
    }

    @Test func required() throws {
        let schema = #"{"type": "object", "required": ["a", "b"]}"#
        #expect(try check(schema, #"{"a": null, "b": false}"#).isEmpty)
        let violations = try check(schema, #"{"a": 1}"#)
        #expect(violations.count == 1)
        #expect(violations.first?.keyword == "required")
        #expect(violations.first?.path == "")
        #expect(violations.first?.message.contains("'b'") == true)
    }

    @Test func additionalPropertiesFalse() throws {
        let schema = #"{"properties": {"a": {}}, "additionalProperties": false}"#
        #expect(try check(schema, #"{"a": 1}"#).isEmpty)
        let violations = try check(schema, #"{"a": 1, "b": 2}"#)
        #expect(violations.map(\.path) == ["/b"])
        #expect(violations.map(\.keyword) == ["additionalProperties"])
    }

    @Test func additionalPropertiesSchema() throws {
        let schema = #"{"properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}}"#
        #expect(try check(schema, #"{"a": "x", "b": 2, "c": 3}"#).isEmpty)
        let violations = try check(schema, #"{"a": "x", "b": 2.5}"#)
        #expect(violations.map(\.path) == ["/b"])
        #expect(violations.map(\.keyword) == ["type"])
        #expect(violations.first?.schemaLocation == "#/additionalProperties/type")
    }

    // MARK: arrays

    @Test func items() throws {
        let schema = #"{"type": "array", "items": {"type": "integer"}}"#
        #expect(try check(schema, "[1, 2, 3]").isEmpty)
        #expect(try check(schema, "[]").isEmpty)
        let violations = try check(schema, #"[1, "two", 3, null]"#)
        #expect(violations.map(\.path) == ["/1", "/3"])
    }

    @Test func minItemsAndMaxItems() throws {
        let schema = #"{"minItems": 2, "maxItems": 3}"#
        #expect(try check(schema, "[1, 2]").isEmpty)
        #expect(try check(schema, "[1, 2, 3]").isEmpty)
        #expect(try keywords(schema, "[1]") == ["minItems"])
        #expect(try keywords(schema, "[1, 2, 3, 4]") == ["maxItems"])
        #expect(try check(schema, "\"not an array\"").isEmpty)
    }

    // MARK: enum and const

    @Test func enumKeyword() throws {
        let schema = #"{"enum": ["red", 1, null, {"a": [true]}]}"#
        #expect(try check(schema, "\"red\"").isEmpty)
        #expect(try check(schema, "1.0").isEmpty)
        #expect(try check(schema, "null").isEmpty)
        #expect(try check(schema, #"{"a": [true]}"#).isEmpty)
        #expect(try keywords(schema, "\"blue\"") == ["enum"])
        #expect(try keywords(schema, "true") == ["enum"])
        #expect(try keywords(schema, #"{"a": [1]}"#) == ["enum"])
    }

    @Test func constKeyword() throws {
        #expect(try check(#"{"const": "x"}"#, "\"x\"").isEmpty)
        #expect(try keywords(#"{"const": "x"}"#, "\"y\"") == ["const"])
        #expect(try check(#"{"const": null}"#, "null").isEmpty)
        #expect(try keywords(#"{"const": null}"#, "0") == ["const"])
        #expect(try keywords(#"{"const": false}"#, "0") == ["const"])
        #expect(try keywords(#"{"const": 1}"#, "true") == ["const"])
        #expect(try check(#"{"const": {"a": 1, "b": 2}}"#, #"{"b": 2, "a": 1}"#).isEmpty)
        #expect(try keywords(#"{"const": [1, 2]}"#, "[2, 1]") == ["const"])
    }

    // MARK: strings

    @Test func pattern() throws {
        let schema = #"{"pattern": "[0-9]{3}"}"#
        #expect(try check(schema, "\"abc123def\"").isEmpty, "pattern uses search semantics, not a full match")
        #expect(try keywords(schema, "\"ab12\"") == ["pattern"])
        #expect(try check(schema, "12").isEmpty, "pattern ignores non-strings")
        let anchored = #"{"pattern": "^a+$"}"#
        #expect(try check(anchored, "\"aaa\"").isEmpty)
        #expect(try keywords(anchored, "\"aab\"") == ["pattern"])
    }

    @Test func minLengthAndMaxLength() throws {
        let schema = #"{"minLength": 2, "maxLength": 3}"#
        #expect(try check(schema, "\"ab\"").isEmpty)
        #expect(try check(schema, "\"abc\"").isEmpty)
        #expect(try keywords(schema, "\"a\"") == ["minLength"])
        #expect(try keywords(schema, "\"abcd\"") == ["maxLength"])
        // Lengths count code points: one astral character is one, not two UTF-16 units.
        #expect(try keywords(#"{"minLength": 2}"#, "\"\\ud83d\\ude00\"") == ["minLength"])
        #expect(try check(#"{"maxLength": 1}"#, "\"😀\"").isEmpty)
        #expect(try check(schema, "5").isEmpty)
    }

    // MARK: numbers

    @Test func minimumAndMaximum() throws {
        let schema = #"{"minimum": 1, "maximum": 10.5}"#
        #expect(try check(schema, "1").isEmpty)
        #expect(try check(schema, "10.5").isEmpty)
        #expect(try keywords(schema, "0.99") == ["minimum"])
        #expect(try keywords(schema, "11") == ["maximum"])
        #expect(try check(schema, "\"0\"").isEmpty)
    }

    @Test func exclusiveBounds() throws {
        let schema = #"{"exclusiveMinimum": 0, "exclusiveMaximum": 1}"#
        #expect(try check(schema, "0.5").isEmpty)
        #expect(try keywords(schema, "0") == ["exclusiveMinimum"])
        #expect(try keywords(schema, "1") == ["exclusiveMaximum"])
        #expect(try keywords(schema, "-1") == ["exclusiveMinimum"])
    }

    // MARK: combinators

    @Test func anyOf() throws {
        let schema = #"{"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 0}]}"#
        #expect(try check(schema, "\"x\"").isEmpty)
        #expect(try check(schema, "4").isEmpty)
        let violations = try check(schema, "-4")
        #expect(violations.map(\.keyword) == ["anyOf"])
        #expect(violations.first?.message.contains("minimum") == true)
    }

    @Test func oneOf() throws {
        let schema = #"{"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 10}]}"#
        #expect(try check(schema, "3").isEmpty)
        #expect(try check(schema, "10.5").isEmpty)
        #expect(try keywords(schema, "12") == ["oneOf"], "matches both branches")
        #expect(try keywords(schema, "2.5") == ["oneOf"], "matches neither branch")
        #expect(try check(schema, "12").first?.message.contains("exactly one") == true)
    }

    @Test func allOf() throws {
        let schema = #"{"allOf": [{"type": "integer"}, {"minimum": 5}, {"maximum": 8}]}"#
        #expect(try check(schema, "6").isEmpty)
        #expect(try keywords(schema, "4.5") == ["type", "minimum"])
        #expect(try keywords(schema, "9") == ["maximum"])
    }

    @Test func booleanSchemas() throws {
        #expect(try check("true", #"{"anything": [1]}"#).isEmpty)
        #expect(try keywords("false", "null") == ["false"])
        #expect(try keywords(#"{"properties": {"a": false}}"#, #"{"a": 1}"#) == ["false"])
    }

    // MARK: references

    @Test func refToDefs() throws {
        let schema = #"""
            {"$defs": {"Name": {"type": "string", "minLength": 1}},
             "type": "object", "properties": {"first": {"$ref": "#/$defs/Name"}}}
            """#
        #expect(try check(schema, #"{"first": "A"}"#).isEmpty)
        let violations = try check(schema, #"{"first": ""}"#)
        #expect(violations.map(\.path) == ["/first"])
        #expect(violations.map(\.schemaLocation) == ["#/$defs/Name/minLength"])
    }

    @Test func recursiveRefToDefs() throws {
        let schema = #"""
            {"$ref": "#/$defs/Node",
             "$defs": {"Node": {"type": "object", "required": ["value"], "additionalProperties": false,
                                "properties": {"value": {"type": "integer"},
                                               "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}}}
            """#
        #expect(try check(schema, #"{"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}]}"#).isEmpty)
        let violations = try check(schema, #"{"value": 1, "children": [{"value": 2, "children": [{"value": "3"}, {"x": 1}]}]}"#)
        #expect(violations.map(\.path) == ["/children/0/children/0/value", "/children/0/children/1", "/children/0/children/1/x"])
        #expect(violations.map(\.keyword) == ["type", "required", "additionalProperties"])
    }

    @Test func recursiveRefToRoot() throws {
        let schema = ##"{"type": ["array", "integer"], "items": {"$ref": "#"}}"##
        #expect(try check(schema, "[1, [2, [3, []]]]").isEmpty)
        #expect(try check(schema, #"[1, [2, ["x"]]]"#).map(\.path) == ["/1/1/0"])
    }

    @Test func refSiblingsAlsoApply() throws {
        let schema = ##"{"$defs": {"S": {"type": "string"}}, "$ref": "#/$defs/S", "maxLength": 2}"##
        #expect(try check(schema, "\"ab\"").isEmpty)
        #expect(try keywords(schema, "\"abc\"") == ["maxLength"])
        #expect(try keywords(schema, "1") == ["type"])
    }

    @Test func refWithEscapedPointerTokens() throws {
        let schema =
            ##"{"$defs": {"a/b": {"type": "null"}, "c d": {"type": "boolean"}}, "anyOf": [{"$ref": "#/$defs/a~1b"}, {"$ref": "#/$defs/c%20d"}]}"##
        #expect(try check(schema, "null").isEmpty)
        #expect(try check(schema, "true").isEmpty)
        #expect(try keywords(schema, "1") == ["anyOf"])
    }

    @Test func unresolvableRefIsRejected() {
        #expect(throws: Validator.SchemaError.unresolvableReference("#/$defs/Missing", location: "#/properties/a")) {
            try Validator(schemaJSON: ##"{"properties": {"a": {"$ref": "#/$defs/Missing"}}}"##)
        }
        #expect(throws: Validator.SchemaError.self) { try Validator(schemaJSON: #"{"$ref": "other.json#/x"}"#) }
        #expect(throws: Validator.SchemaError.self) { try Validator(schemaJSON: ##"{"$ref": "#anchor"}"##) }
    }

    @Test func refCycleWithoutDescentIsRejected() {
        #expect(throws: Validator.SchemaError.self) { try Validator(schemaJSON: ##"{"$ref": "#"}"##) }
        #expect(throws: Validator.SchemaError.self) {
            try Validator(schemaJSON: ##"{"$defs": {"A": {"anyOf": [{"$ref": "#/$defs/B"}]}, "B": {"allOf": [{"$ref": "#/$defs/A"}]}}}"##)
        }
    }

    // MARK: paths

    @Test func nestedPaths() throws {
        let schema = #"""
            {"type": "object", "properties": {"items": {"type": "array", "items": {
                "type": "object", "properties": {"name": {"type": "string"}}}}}}
            """#
        let violations = try check(schema, #"{"items": [{"name": "a"}, {"name": "b"}, {"name": 7}]}"#)
        #expect(violations.map(\.path) == ["/items/2/name"])
        #expect(violations.first?.schemaLocation == "#/properties/items/items/properties/name/type")
    }

    @Test func pathTokensAreEscaped() throws {
        let violations = try check(#"{"additionalProperties": {"type": "string"}}"#, #"{"a/b": 1, "c~d": 2}"#)
        #expect(violations.map(\.path) == ["/a~1b", "/c~0d"])
    }

    // MARK: schema loading

    @Test func annotationsAreIgnored() throws {
        let schema = #"""
            {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "urn:x", "title": "T",
             "description": "D", "x-order": ["a"], "default": 1, "examples": [1], "$comment": "c",
             "type": "integer"}
            """#
        #expect(try check(schema, "1").isEmpty)
    }

    @Test func unknownKeywordIsRejected() {
        // The validator checks what the tests need and refuses the rest, so a
        // keyword it cannot check never passes a test by being ignored.
        #expect(throws: Validator.SchemaError.unsupportedKeyword("contains", location: "#/properties/when")) {
            try Validator(schemaJSON: #"{"properties": {"when": {"type": "array", "contains": {"const": 1}}}}"#)
        }
        #expect(throws: Validator.SchemaError.unsupportedKeyword("if", location: "#/$defs/T")) {
            try Validator(schemaJSON: #"{"$defs": {"T": {"if": {"type": "string"}}}}"#)
        }
    }

    @Test func malformedKeywordValuesAreRejected() {
        for schema in [
            #"{"type": "float"}"#, #"{"type": []}"#, #"{"required": "a"}"#, #"{"minItems": -1}"#,
            #"{"maxLength": 1.5}"#, #"{"minimum": "1"}"#, #"{"exclusiveMinimum": "1"}"#, #"{"pattern": "("}"#,
            #"{"anyOf": []}"#, #"{"prefixItems": {}}"#, #"{"enum": 1}"#, #"{"properties": {"a": 1}}"#, "3",
            #"{"type": "string""#, #"{"a": 1, "a": 2}"#,
        ] {
            #expect(throws: Validator.SchemaError.self, "\(schema)") { try Validator(schemaJSON: schema) }
        }
    }

    @Test func errorDescriptionNamesKeywordAndLocation() {
        let error = Validator.SchemaError.unsupportedKeyword("format", location: "#/properties/when")
        #expect(error.description == "unsupported keyword 'format' at #/properties/when")
    }

    // MARK: instance parsing

    @Test func invalidInstanceJSONIsAViolation() throws {
        let validator = try Validator(schemaJSON: "true")
        for text in ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "tru", "\"\\x\"", "\"\\ud800\"", "1 2", "NaN", "1e999", #"{"a": 1, "a": 1}"#] {
            let violations = validator.validate(json: text)
            #expect(violations.count == 1, "\(text)")
            #expect(violations.first?.message.hasPrefix("instance is not valid JSON") == true, "\(text)")
        }
        #expect(validator.validate(Data([0x22, 0xFF, 0x22])).count == 1, "invalid UTF-8")
    }

    @Test func parserKeepsBooleansAndNumbersApart() throws {
        #expect(try Validator.JSON.parse("true") == .bool(true))
        #expect(try Validator.JSON.parse("1") == .number(1))
        #expect(try Validator.JSON.parse("1") != .bool(true))
        #expect(try Validator.JSON.parse(" [0, false] ") == .array([.number(0), .bool(false)]))
        #expect(try Validator.JSON.parse(#""a\u00e9\ud83d\ude00\n""#) == .string("aé😀\n"))
        #expect(try Validator.JSON.parse("-1.5e2") == .number(-150))
    }

    @Test func dataAndStringEntryPointsAgree() throws {
        let schema = #"{"type": "object", "required": ["a"]}"#
        let fromData = try Validator(schema: Data(schema.utf8))
        let fromString = try Validator(schemaJSON: schema)
        #expect(fromData.validate(Data("{}".utf8)) == fromString.validate(json: "{}"))
        #expect(fromData.validate(json: #"{"a": 1}"#).isEmpty)
        #expect(fromString.isValid(json: #"{"a": 1}"#))
    }
}
