import Foundation
import GuidedGeneration
import TestSupport
import Testing

@testable import FoundationModels

extension OnDeviceTests {
    /// Every JSON Schema keyword the reader accepts, enforced: for each
    /// schema, random walks through the mask over the real vocabulary (no
    /// model runs) end in documents the independent validator accepts, and
    /// given valid and invalid documents are accepted and refused token by
    /// token. Keywords that cannot be enforced are a clear error naming the
    /// keyword and its location.
    @Suite("JSON Schema keywords")
    struct JSONSchemaKeywords {
        struct Case: CustomTestStringConvertible, Sendable {
            var name: String
            var schema: String
            /// The schema the validator checks against, where the engine's
            /// reading has a keyword the validator does not know (`nullable`).
            var oracle: String?
            var valid: [String] = []
            var invalid: [String] = []
            /// Extra keys (additionalProperties, patternProperties): a walk
            /// may write one key twice (see GUIDED_GENERATION.md).
            var repeatsKeys = false
            var testDescription: String { name }
        }

        static let cases: [Case] = [
            Case(
                name: "annotations constrain nothing",
                schema: #"""
                    {"$schema":"http://json-schema.org/draft-07/schema#","$id":"https://example.com/s","$comment":"c","title":"T","description":"d",
                     "examples":["ab"],"default":"a","readOnly":true,"writeOnly":false,"deprecated":true,"$anchor":"top","x-vendor":{"any":[1]},
                     "self":{"vendor":"x"},"type":"string","maxLength":3}
                    """#, oracle: #"{"type":"string","maxLength":3}"#, valid: [#""abc""#], invalid: [#""abcd""#, "3"]),
            Case(
                name: "$ref into definitions",
                schema: #"""
                    {"definitions":{"Name":{"type":"string","enum":["ann","bob"]}},"type":"object","properties":{"n":{"$ref":"#/definitions/Name"}},"required":["n"]}
                    """#, valid: [#"{"n":"bob"}"#], invalid: [#"{"n":"eve"}"#, "{}"]),
            Case(
                name: "$ref to the root (recursion)",
                schema: #"""
                    {"type":"object","properties":{"v":{"type":"integer"},"next":{"$ref":"#"}},"required":["v"],"additionalProperties":false}
                    """#, valid: [#"{"v":1,"next":{"v":2}}"#], invalid: [#"{"v":1,"next":{}}"#]),
            Case(
                name: "$ref to any local pointer, with siblings",
                schema: #"""
                    {"$defs":{"S":{"type":"string","minLength":1}},"properties":{"a":{"$ref":"#/$defs/S","maxLength":2}},"type":"object","required":["a"]}
                    """#, valid: [#"{"a":"xy"}"#], invalid: [#"{"a":"xyz"}"#, #"{"a":""}"#]),
            Case(
                name: "$ref to a property's schema",
                schema: #"""
                    {"type":"object","properties":{"a":{"type":"string","enum":["x","y"]},"b":{"$ref":"#/properties/a"}},"required":["a","b"],"additionalProperties":false}
                    """#, valid: [#"{"a":"x","b":"y"}"#], invalid: [#"{"a":"x","b":"z"}"#]),
            Case(
                name: "integers are not numbers", schema: #"{"type":"integer","minimum":-3,"maximum":3}"#, valid: ["-3", "0"], invalid: ["1.5", "4"]),
            Case(
                name: "type arrays", schema: #"{"type":["string","null"],"maxLength":4}"#, valid: ["null", #""abcd""#], invalid: ["1", #""abcde""#]),
            Case(
                name: "nullable", schema: #"{"type":"integer","nullable":true,"minimum":0,"maximum":9}"#,
                oracle: #"{"type":["integer","null"],"minimum":0,"maximum":9}"#, valid: ["null", "9"], invalid: ["10", #""1""#]),
            Case(
                name: "enum of any JSON values", schema: #"{"enum":[1,"two",null,true,{"a":[1,2]},[3]]}"#,
                valid: ["1", #""two""#, "null", "true", #"{"a":[1,2]}"#, "[3]"], invalid: ["2", "false", "[4]"]),
            Case(name: "const object", schema: #"{"const":{"k":"v","n":2}}"#, valid: [#"{"k":"v","n":2}"#], invalid: [#"{"k":"v","n":3}"#]),
            Case(
                name: "integer multipleOf in a range", schema: #"{"type":"integer","multipleOf":5,"minimum":0,"maximum":50}"#,
                valid: ["0", "45"], invalid: ["7", "55"]),
            Case(
                name: "exclusive bounds (number form)", schema: #"{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1}"#,
                valid: ["0.5"], invalid: ["0", "1"]),
            Case(
                name: "exclusive bounds (draft 4 flags)",
                schema: #"{"type":"integer","minimum":1,"exclusiveMinimum":true,"maximum":5,"exclusiveMaximum":true}"#,
                valid: ["2", "4"], invalid: ["1", "5"]),
            Case(
                name: "minLength and maxLength", schema: #"{"type":"string","minLength":2,"maxLength":5}"#, valid: [#""ab""#, #""héllo""#],
                invalid: [#""a""#, #""abcdef""#]),
            Case(name: "long maxLength (counted)", schema: #"{"type":"string","minLength":1,"maxLength":5000}"#, valid: [#""a""#], invalid: [#""""#]),
            // Patterns and formats under a length bound: in the automaton
            // while it stays small, counted beside it past that (a bound
            // past 1,000 with a pattern); escapes count one character; a
            // pattern whose lengths skip (only even ones).
            Case(
                name: "pattern under a length bound", schema: #"{"type":"string","pattern":"^[a-zA-Z0-9_.-]+$","minLength":3,"maxLength":255}"#,
                valid: [#""ab.c""#, "\"" + String(repeating: "x", count: 255) + "\""],
                invalid: [#""ab""#, "\"" + String(repeating: "x", count: 256) + "\"", #""a b c""#]),
            Case(
                name: "pattern under a bound past 1000 (counted)", schema: #"{"type":"string","pattern":"^[a-z]+@[a-z]+$","maxLength":5000}"#,
                valid: [#""ada@example""#, "\"" + String(repeating: "a", count: 4000) + "@b\""],
                invalid: [#""@b""#, #""ada@""#, "\"" + String(repeating: "a", count: 4999) + "@b\""]),
            Case(
                name: "pattern with escapes under a length bound", schema: #"{"type":"string","pattern":"^[a\\n\"]+$","minLength":2,"maxLength":3}"#,
                valid: [#""a\n""#, #""\"\"\"""#], invalid: [#""a""#, #""aaaa""#, #""a\n\na""#]),
            Case(
                name: "format under a length bound", schema: #"{"type":"string","format":"email","maxLength":12}"#,
                valid: [#""ada@ex.com""#], invalid: [#""ada@example.com""#, #""ada""#]),
            Case(
                name: "pattern whose lengths skip, under a bound", schema: #"{"type":"string","pattern":"^(ab)+$","maxLength":5}"#,
                valid: [#""ab""#, #""abab""#], invalid: [#""aba""#, #""ababab""#]),
            Case(
                name: "unanchored pattern is a search", schema: #"{"type":"string","pattern":"[0-9]{3}","maxLength":8}"#,
                valid: [#""ab123cd""#, #""999""#], invalid: [#""ab12cd""#]),
            Case(name: "anchored pattern", schema: #"{"type":"string","pattern":"^ab+$"}"#, valid: [#""abbb""#], invalid: [#""xab""#, #""abx""#]),
            Case(
                name: "format date-time", schema: #"{"type":"string","format":"date-time"}"#,
                valid: [#""2024-02-29T23:59:59.5Z""#, #""2023-01-01T00:00:00+05:30""#], invalid: [#""2023-02-29T00:00:00Z""#, #""2023-01-01""#]),
            Case(
                name: "format date", schema: #"{"type":"string","format":"date"}"#, valid: [#""2000-02-29""#],
                invalid: [#""1900-02-29""#, #""2023-13-01""#]),
            Case(name: "format time", schema: #"{"type":"string","format":"time"}"#, valid: [#""12:30:00Z""#], invalid: [#""24:00:00Z""#]),
            Case(
                name: "format duration", schema: #"{"type":"string","format":"duration"}"#, valid: [#""P1DT2H""#, #""P3W""#],
                invalid: [#""P""#, #""PT""#]),
            Case(name: "format email", schema: #"{"type":"string","format":"email"}"#, valid: [#""ada@example.com""#], invalid: [#""ada""#]),
            Case(
                name: "format hostname", schema: #"{"type":"string","format":"hostname"}"#, valid: [#""api.example.com""#], invalid: [#""-bad.com""#]),
            Case(
                name: "format ipv4", schema: #"{"type":"string","format":"ipv4"}"#, valid: [#""192.168.0.1""#],
                invalid: [#""256.1.1.1""#, #""01.1.1.1""#]),
            Case(
                name: "format ipv6", schema: #"{"type":"string","format":"ipv6"}"#, valid: [#""::1""#, #""2001:db8::ff00:42:8329""#],
                invalid: [#""1::2::3""#]),
            Case(
                name: "format uri", schema: #"{"type":"string","format":"uri"}"#, valid: [#""https://example.com/a?b=c#d""#],
                invalid: [#""no scheme""#]),
            Case(name: "format uri-reference", schema: #"{"type":"string","format":"uri-reference"}"#, valid: [#""../a/b?c""#], invalid: [#""a b""#]),
            Case(
                name: "format uuid", schema: #"{"type":"string","format":"uuid"}"#,
                valid: [#""123e4567-e89b-12d3-a456-426614174000""#], invalid: [#""123e4567e89b12d3a456426614174000""#]),
            Case(
                name: "required and additionalProperties false",
                schema: #"""
                    {"type":"object","properties":{"a":{"type":"string"},"b":{"type":"boolean"}},"required":["b"],"additionalProperties":false}
                    """#, valid: [#"{"b":true}"#, #"{"a":"x","b":false}"#], invalid: [#"{"a":"x"}"#, #"{"b":true,"c":1}"#]),
            Case(
                name: "additionalProperties true", schema: #"{"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":true}"#,
                valid: [#"{"a":1,"z":[null]}"#, #"{"q":{}}"#], invalid: [#"{"a":"1"}"#], repeatsKeys: true),
            Case(
                name: "additionalProperties schema", schema: #"{"type":"object","additionalProperties":{"type":"integer","maximum":3}}"#,
                valid: [#"{"x":1,"y":3}"#, "{}"], invalid: [#"{"x":4}"#], repeatsKeys: true),
            Case(
                name: "patternProperties",
                schema: #"""
                    {"type":"object","patternProperties":{"^x-":{"type":"string","maxLength":3},"^n_":{"type":"integer"}},"additionalProperties":false}
                    """#, valid: [#"{"x-a":"abc","n_1":5}"#], invalid: [#"{"x-a":"abcd"}"#, #"{"other":1}"#], repeatsKeys: true),
            Case(
                name: "propertyNames",
                schema: #"{"type":"object","propertyNames":{"pattern":"^[a-z]{1,4}$"},"additionalProperties":{"type":"boolean"}}"#,
                valid: [#"{"ab":true}"#], invalid: [#"{"ABC":true}"#, #"{"abcde":false}"#], repeatsKeys: true),
            Case(
                name: "minProperties implied by required",
                schema: #"""
                    {"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"minProperties":1,"additionalProperties":false}
                    """#, valid: [#"{"a":""}"#], invalid: ["{}"]),
            Case(
                name: "maxProperties implied by the declared properties",
                schema: #"""
                    {"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"maxProperties":2,"additionalProperties":false}
                    """#, valid: [#"{"a":"","b":""}"#, "{}"], invalid: [#"{"a":"","b":"","c":""}"#]),
            Case(
                name: "dependentRequired implied by required",
                schema: #"""
                    {"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a","b"],"dependentRequired":{"a":["b"]},"additionalProperties":false}
                    """#, valid: [#"{"a":"","b":""}"#], invalid: [#"{"a":""}"#]),
            Case(
                name: "items as a tuple with additionalItems",
                schema: #"{"type":"array","items":[{"type":"string"},{"type":"integer"}],"additionalItems":false}"#,
                valid: [#"["a",1]"#, #"["a"]"#], invalid: [#"[1,"a"]"#, #"["a",1,2]"#]),
            Case(
                name: "prefixItems and items",
                schema: #"{"type":"array","prefixItems":[{"const":"x"}],"items":{"type":"boolean"},"minItems":1,"maxItems":3}"#,
                valid: [#"["x",true,false]"#], invalid: [#"["y"]"#, #"["x",1]"#, "[]"]),
            Case(
                name: "uniqueItems where at most one item", schema: #"{"type":"array","items":{"type":"string"},"uniqueItems":true,"maxItems":1}"#,
                valid: ["[]", #"["a"]"#], invalid: [#"["a","a"]"#]),
            Case(
                name: "uniqueItems over free strings", schema: #"{"type":"array","items":{"type":"string"},"uniqueItems":true,"minItems":3}"#,
                valid: [#"["a","b","c"]"#, #"["a","b","c","A"]"#],
                invalid: [#"["a","b","a"]"#, #"["a","a","b"]"#, #"["a","b"]"#, #"["A","\u0041","b"]"#]),
            Case(
                name: "uniqueItems over an enum", schema: #"{"type":"array","items":{"enum":["red","green","blue"]},"uniqueItems":true}"#,
                valid: ["[]", #"["red","blue"]"#, #"["blue","green","red"]"#], invalid: [#"["red","red"]"#, #"["red","green","blue","red"]"#]),
            Case(
                name: "uniqueItems over an enum whose values begin one another",
                schema: #"{"type":"array","items":{"enum":["a","ab","abc"]},"uniqueItems":true,"minItems":3}"#,
                valid: [#"["abc","a","ab"]"#, #"["a","ab","abc"]"#], invalid: [#"["a","ab","a"]"#, #"["ab","ab","a"]"#]),
            Case(
                name: "uniqueItems over a bounded integer range",
                schema: #"{"type":"array","items":{"type":"integer","minimum":1,"maximum":12},"uniqueItems":true,"minItems":4}"#,
                valid: ["[1,10,11,12]", "[12,11,10,1,2]"], invalid: ["[1,10,1,2]", "[1,2,3]"]),
            Case(
                name: "uniqueItems over booleans and null: three values at most",
                schema: #"{"type":"array","items":{"type":["boolean","null"]},"uniqueItems":true}"#,
                valid: ["[true,false,null]", "[null]", "[]"], invalid: ["[true,true]", "[false,null,false]", "[true,false,null,true]"]),
            Case(
                name: "uniqueItems over exactly as many strings as required",
                schema: #"{"type":"array","items":{"type":"string","pattern":"^[ab]?$"},"uniqueItems":true,"minItems":3}"#,
                valid: [#"["","a","b"]"#, #"["b","","a"]"#], invalid: [#"["a","a",""]"#, #"["a","b","c"]"#, #"["a","b","","a"]"#]),
            Case(
                name: "uniqueItems over a tuple and its rest",
                schema: #"{"type":"array","prefixItems":[{"const":"x"}],"items":{"enum":["x","y"]},"uniqueItems":true,"minItems":2}"#,
                valid: [#"["x","y"]"#], invalid: [#"["x","x"]"#, #"["x","y","x"]"#]),
            Case(
                name: "uniqueItems over strings of bounded length, in an object",
                schema: #"""
                    {"type":"object","properties":{"tags":{"type":"array","items":{"type":"string","minLength":1,"maxLength":2},"uniqueItems":true,"minItems":2}},"required":["tags"]}
                    """#, valid: [#"{"tags":["a","ab"]}"#], invalid: [#"{"tags":["ab","ab"]}"#, #"{"tags":["a",""]}"#]),
            Case(
                name: "contains with minContains 0 constrains nothing",
                schema: #"{"type":"array","items":{"type":"integer"},"contains":{"minimum":5},"minContains":0,"maxItems":3}"#,
                oracle: #"{"type":"array","items":{"type":"integer"},"maxItems":3}"#, valid: ["[]", "[1,2]"], invalid: [#"["a"]"#, "[1,2,3,4]"]),
            Case(
                name: "if true applies then", schema: #"{"type":"string","if":true,"then":{"maxLength":2}}"#,
                oracle: #"{"type":"string","maxLength":2}"#, valid: [#""ab""#], invalid: [#""abc""#]),
            Case(
                name: "anyOf with sibling properties",
                schema: #"""
                    {"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"anyOf":[{"required":["a"]},{"required":["b"]}],"additionalProperties":false}
                    """#, valid: [#"{"a":"x"}"#, #"{"b":1}"#, #"{"a":"x","b":1}"#], invalid: ["{}"]),
            Case(
                name: "oneOf disjoint by type", schema: #"{"oneOf":[{"type":"string","maxLength":3},{"type":"integer"}]}"#, valid: [#""abc""#, "7"],
                invalid: ["true"]),
            Case(
                name: "oneOf disjoint by a constant",
                schema: #"""
                    {"oneOf":[{"type":"object","properties":{"kind":{"const":"a"},"x":{"type":"integer"}},"required":["kind"]},
                              {"type":"object","properties":{"kind":{"const":"b"},"y":{"type":"string"}},"required":["kind"]}]}
                    """#, valid: [#"{"kind":"a","x":1}"#, #"{"kind":"b"}"#], invalid: [#"{"kind":"c"}"#]),
            Case(
                name: "oneOf made disjoint by the keys each branch requires",
                schema: #"""
                    {"type":"object","properties":{"ssn":{"type":"string"},"ein":{"type":"string"}},"oneOf":[{"required":["ssn"]},{"required":["ein"]}]}
                    """#, valid: [#"{"ssn":"1"}"#, #"{"ein":"2"}"#], invalid: [#"{"ssn":"1","ein":"2"}"#, "{}"]),
            Case(
                name: "oneOf of string patterns", schema: #"{"type":"string","oneOf":[{"pattern":"^a"},{"pattern":"^b"}]}"#,
                valid: [#""ax""#, #""b""#], invalid: [#""c""#]),
            Case(
                name: "allOf merged",
                schema: #"""
                    {"allOf":[{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]},{"properties":{"b":{"type":"string"}},"required":["b"]}]}
                    """#, valid: [#"{"a":1,"b":"x"}"#], invalid: [#"{"a":1}"#, #"{"b":"x"}"#]),
            Case(name: "not a type", schema: #"{"type":["string","integer"],"not":{"type":"string"}}"#, valid: ["3"], invalid: [#""3""#]),
            Case(
                name: "not a required property",
                schema: #"""
                    {"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"not":{"required":["b"]},"additionalProperties":false}
                    """#, valid: [#"{"a":"x"}"#, "{}"], invalid: [#"{"b":"y"}"#]),
            Case(
                name: "not both of two required properties",
                schema: #"""
                    {"type":"object","properties":{"result":{"type":"integer"},"error":{"type":"string"}},"not":{"required":["result","error"]},
                     "anyOf":[{"required":["result"]},{"required":["error"]}],"additionalProperties":false}
                    """#, valid: [#"{"result":1}"#, #"{"error":"x"}"#], invalid: [#"{"result":1,"error":"x"}"#, "{}"]),
            Case(
                name: "a oneOf branch that contradicts its siblings is left out",
                schema: #"""
                    {"type":"object","oneOf":[{"properties":{"key":{"type":"string"}},"required":["key"],"additionalProperties":false},
                                              {"properties":{"keyValues":{"type":"array"}},"required":["keys"],"additionalProperties":false}]}
                    """#, valid: [#"{"key":"a"}"#], invalid: [#"{"keys":"a"}"#, #"{"keyValues":[]}"#, "{}"]),
            Case(name: "not a value of an enum", schema: #"{"enum":["a","b","c"],"not":{"const":"b"}}"#, valid: [#""a""#], invalid: [#""b""#]),
            Case(
                name: "not an enum of strings", schema: #"{"type":"string","not":{"enum":["draft","deleted"]}}"#,
                valid: [#""drafts""#, #""done""#, #""""#], invalid: [#""draft""#, #""deleted""#]),
            Case(
                name: "not a value, any type", schema: #"{"not":{"enum":[1,"a",null,true]}}"#,
                valid: ["2", "0.5", "false", #""b""#, "[]"], invalid: ["1", #""a""#, "null", "true"]),
            Case(
                name: "not a number: the ranges either side", schema: #"{"type":"integer","minimum":0,"maximum":9,"not":{"enum":[3,5]}}"#,
                valid: ["0", "4", "9"], invalid: ["3", "5", "10"]),
            Case(
                name: "not a pattern", schema: #"{"type":"string","maxLength":6,"not":{"pattern":"[^a-z]"}}"#,
                valid: [#""abc""#, #""""#], invalid: [#""aBc""#, #""a b""#]),
            Case(name: "not a bound", schema: #"{"type":"number","not":{"minimum":3}}"#, valid: ["2.5", "-1"], invalid: ["3", "4"]),
            Case(
                name: "not a bound: every other type meets the bound", schema: #"{"type":["integer","string"],"not":{"maximum":3}}"#,
                valid: ["4", "10"], invalid: ["3", "-2", #""x""#]),
            Case(name: "not a length", schema: #"{"type":"string","not":{"maxLength":2}}"#, valid: [#""abc""#], invalid: [#""ab""#, #""""#]),
            Case(name: "not not", schema: #"{"type":"string","not":{"not":{"minLength":2}}}"#, valid: [#""ab""#], invalid: [#""a""#]),
            Case(
                name: "not anyOf of required groups",
                schema: #"""
                    {"type":"object","properties":{"d":{"type":"integer"},"x":{"type":"integer"},"y":{"type":"integer"}},"additionalProperties":false,
                     "not":{"anyOf":[{"required":["d","x"]},{"required":["d","y"]}]}}
                    """#, valid: [#"{"x":1,"y":2}"#, #"{"d":1}"#], invalid: [#"{"d":1,"x":2}"#, #"{"d":1,"y":2}"#]),
            Case(
                name: "not a property's schema",
                schema: #"""
                    {"type":"object","properties":{"kind":{"type":"string","enum":["a","b"]}},"required":["kind"],"additionalProperties":false,
                     "not":{"properties":{"kind":{"const":"a"}}}}
                    """#, valid: [#"{"kind":"b"}"#], invalid: [#"{"kind":"a"}"#]),
            Case(
                name: "not a $ref",
                schema: #"""
                    {"definitions":{"Short":{"type":"string","maxLength":3}},"type":"string","not":{"$ref":"#/definitions/Short"}}
                    """#, valid: [#""long""#], invalid: [#""abc""#]),
            Case(
                name: "propertyNames not a const",
                schema: #"""
                    {"type":"object","additionalProperties":{"type":"integer"},"propertyNames":{"not":{"const":"0"}}}
                    """#, valid: [#"{"1":2}"#, "{}"], invalid: [#"{"0":2}"#], repeatsKeys: true),
            Case(
                name: "oneOf whose branches overlap: each branch without the others",
                schema: #"{"oneOf":[{"type":"string"},{"type":"string","minLength":2}]}"#,
                valid: [#""a""#, #""""#], invalid: [#""ab""#, "1"]),
            Case(
                name: "oneOf of overlapping lengths: the bounds that cross drop out",
                schema: #"{"oneOf":[{"type":"string","maxLength":4},{"type":"string","minLength":2,"maxLength":6}]}"#,
                valid: [#""a""#, #""abcde""#], invalid: [#""abc""#, #""abcdefg""#]),
            Case(
                name: "not integers between: a range with none drops out",
                schema: #"{"type":"integer","minimum":0,"maximum":6,"not":{"enum":[3,4]}}"#,
                valid: ["2", "5"], invalid: ["3", "4"]),
            Case(
                name: "oneOf of open objects: the branch that matches alone",
                schema: #"""
                    {"definitions":{"Text":{"type":"object","properties":{"text":{"type":"string"},"size":{"type":"integer"}},"required":["text"]},
                                    "Size":{"type":"object","properties":{"size":{"type":"integer","minimum":10}},"required":["size"]}},
                     "oneOf":[{"$ref":"#/definitions/Text"},{"$ref":"#/definitions/Size"}]}
                    """#, valid: [#"{"text":"a"}"#, #"{"text":"a","size":3}"#, #"{"size":12}"#], invalid: [#"{"text":"a","size":12}"#, "{}"]),
            Case(
                name: "enum of objects beside object keywords",
                schema: #"""
                    {"type":"object","properties":{"a":{"type":"integer","minimum":2}},"enum":[{"a":1},{"a":3},{"b":1}]}
                    """#, valid: [#"{"a":3}"#, #"{"b":1}"#], invalid: [#"{"a":1}"#]),
            Case(
                name: "a $ref to a union, with siblings",
                schema: #"""
                    {"definitions":{"U":{"anyOf":[{"type":"string"},{"type":"integer"}]}},"$ref":"#/definitions/U","maxLength":2,"minimum":5}
                    """#, valid: [#""ab""#, "7"], invalid: [#""abc""#, "3", "null"]),
            Case(
                name: "if, then, else",
                schema: #"""
                    {"type":"object","properties":{"country":{"enum":["US","CA"]},"code":{"type":"string"}},"required":["country","code"],"additionalProperties":false,
                     "if":{"properties":{"country":{"const":"US"}}},"then":{"properties":{"code":{"pattern":"^[0-9]{5}$"}}},
                     "else":{"properties":{"code":{"pattern":"^[A-Z][0-9][A-Z] [0-9][A-Z][0-9]$"}}}}
                    """#,
                oracle: #"""
                    {"type":"object","properties":{"country":{"enum":["US","CA"]},"code":{"type":"string"}},"required":["country","code"],"additionalProperties":false,
                     "anyOf":[{"properties":{"country":{"const":"US"},"code":{"pattern":"^[0-9]{5}$"}}},
                              {"properties":{"country":{"not":{"const":"US"}},"code":{"pattern":"^[A-Z][0-9][A-Z] [0-9][A-Z][0-9]$"}}}]}
                    """#, valid: [#"{"country":"US","code":"12345"}"#, #"{"country":"CA","code":"K1A 0B1"}"#],
                invalid: [#"{"country":"US","code":"K1A 0B1"}"#, #"{"country":"CA","code":"12345"}"#]),
            Case(
                name: "if and then, no else", schema: #"{"type":"integer","if":{"minimum":10},"then":{"multipleOf":1,"maximum":12}}"#,
                oracle: #"{"type":"integer","anyOf":[{"not":{"minimum":10}},{"maximum":12}]}"#, valid: ["3", "11"], invalid: ["13"]),
            Case(
                name: "dependentRequired",
                schema: #"""
                    {"type":"object","properties":{"card":{"type":"string"},"billing":{"type":"string"},"name":{"type":"string"}},"additionalProperties":false,
                     "dependentRequired":{"card":["billing"]}}
                    """#, valid: [#"{"card":"1","billing":"x"}"#, #"{"billing":"x"}"#, #"{"name":"n"}"#],
                invalid: [#"{"card":"1"}"#, #"{"card":"1","name":"n"}"#]),
            Case(
                name: "dependencies, both forms",
                schema: #"""
                    {"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"},"c":{"type":"integer"}},"additionalProperties":false,
                     "dependencies":{"a":["b"],"c":{"properties":{"b":{"maximum":0}}}}}
                    """#,
                oracle: #"""
                    {"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"},"c":{"type":"integer"}},"additionalProperties":false,
                     "dependentRequired":{"a":["b"]},"anyOf":[{"not":{"required":["c"]}},{"properties":{"b":{"maximum":0}}}]}
                    """#, valid: [#"{"a":1,"b":2}"#, #"{"b":0,"c":1}"#, #"{"c":1}"#], invalid: [#"{"a":1}"#, #"{"b":1,"c":1}"#]),
            Case(
                name: "minProperties beyond the required",
                schema: #"""
                    {"type":"object","properties":{"a":{"type":"boolean"},"b":{"type":"boolean"},"c":{"type":"boolean"}},"required":["a"],"minProperties":2,"additionalProperties":false}
                    """#, valid: [#"{"a":true,"b":false}"#, #"{"a":true,"c":true}"#, #"{"a":true,"b":true,"c":true}"#], invalid: [#"{"a":true}"#]),
            Case(
                name: "minProperties 1 with nothing required",
                schema: #"""
                    {"type":"object","properties":{"a":{"type":"boolean"},"b":{"type":"boolean"},"c":{"type":"boolean"}},"minProperties":1,"additionalProperties":false}
                    """#, valid: [#"{"a":true}"#, #"{"c":false}"#, #"{"a":true,"b":false,"c":true}"#], invalid: ["{}"]),
            Case(
                name: "minProperties 1 met by a declared or an additional property",
                schema: #"""
                    {"type":"object","properties":{"a":{"type":"boolean"}},"additionalProperties":{"type":"integer","minimum":0,"maximum":9},"minProperties":1}
                    """#, valid: [#"{"a":true}"#, #"{"k":1}"#, #"{"a":false,"k":2}"#], invalid: ["{}", #"{"k":10}"#], repeatsKeys: true),
            Case(
                name: "minProperties 1 in a recursive condition",
                schema: #"""
                    {"definitions":{"C":{"type":"object","minProperties":1,"additionalProperties":false,"properties":{
                      "and":{"type":"array","items":{"$ref":"#/definitions/C"},"minItems":1},"not":{"$ref":"#/definitions/C"},
                      "name":{"type":"string","maxLength":8},"id":{"type":"integer"},"open":{"type":"boolean"}}}},
                     "$ref":"#/definitions/C"}
                    """#, valid: [#"{"not":{"and":[{"id":1},{"open":true}]}}"#, #"{"name":"x","id":2}"#],
                invalid: ["{}", #"{"not":{}}"#, #"{"and":[{"id":1},{}]}"#]),
            Case(
                name: "maxProperties below the declared",
                schema: #"""
                    {"type":"object","properties":{"a":{"type":"boolean"},"b":{"type":"boolean"},"c":{"type":"boolean"}},"maxProperties":1}
                    """#, valid: [#"{"b":true}"#, "{}"], invalid: [#"{"a":true,"b":false}"#]),
            Case(
                name: "if alone constrains nothing", schema: #"{"type":"integer","if":{"minimum":3}}"#,
                oracle: #"{"type":"integer"}"#, valid: ["1"], invalid: [#""1""#]),
            Case(
                name: "false subschemas", schema: #"{"type":"object","properties":{"a":false,"b":{"type":"null"}},"additionalProperties":false}"#,
                valid: [#"{"b":null}"#, "{}"], invalid: [#"{"a":1}"#]),
        ]

        /// What cannot be enforced token by token: refused before decoding,
        /// naming the keyword and where it is.
        static let refusals: [(schema: String, mentions: String)] = [
            (#"{"type":"array","contains":{"type":"string"}}"#, #""contains" at #/contains"#),
            (#"{"not":{"multipleOf":3}}"#, #"not at #/not: the negation of "multipleOf""#),
            (#"{"type":"number","not":{"type":"integer"}}"#, "not at #: a number that is not an integer"),
            (#"{"not":{"const":{"a":1}}}"#, "not at #: excluding a single object value"),
            (#"{"type":"array","not":{"items":{"type":"string"}}}"#, #"not at #/not: the negation of "items""#),
            (#"{"if":{"multipleOf":2},"then":{"minimum":3}}"#, #"not at #/if: the negation of "multipleOf""#),
            (#"{"oneOf":[{"type":"integer"},{"multipleOf":2}]}"#, "oneOf at #: branches 0 and 1 may both match"),
            (#"{"properties":{"a":{"$ref":"https://example.com/s.json"}}}"#, "#/properties/a/$ref"),
            (#"{"type":"object","unevaluatedProperties":false}"#, #""unevaluatedProperties" at #"#),
            (#"{"type":"integer","multipleOf":7}"#, #""multipleOf" at #/multipleOf"#),
            (#"{"type":"object","additionalProperties":{"type":"string"},"minProperties":1}"#, #""minProperties" at #"#),
            (
                #"{"type":"object","properties":{"a":false},"additionalProperties":false,"minProperties":1}"#,
                "unsatisfiable schema at #: minProperties 1"
            ),
            // Other keys are allowed, though the engine writes none: refused,
            // never taken as unsatisfiable (which would drop the property).
            (#"{"type":"object","properties":{"d":{"type":"object","minProperties":1}}}"#, #""minProperties" at #/properties/d"#),
            (#"{"type":"object","additionalProperties":true,"maxProperties":2}"#, #""maxProperties" at #"#),
            (#"{"type":"string","pattern":"(?=a)"}"#, "#/pattern"),
            (
                #"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"not":{"required":["a"]}}"#,
                "unsatisfiable schema at #: the required properties"
            ),
            (#"{"type":"object","properties":{"a":false},"required":["a"]}"#, #"unsatisfiable schema at #: the required property "a""#),
            (#"{"type":"array","items":[{"type":"string"},false],"minItems":2}"#, "unsatisfiable schema at #: minItems 2"),
            // MaskBench regression (a stack overflow): a recursion through a
            // `$ref` with siblings, which is expanded in place at every level.
            (
                ##"{"definitions":{"Foo":{"type":"object","properties":{"child":{"allOf":[{"$ref":"#/definitions/Foo"},{"type":"object"}]}}}},"$ref":"#/definitions/Foo"}"##,
                "nested more than 40 levels deep"
            ),
        ]

        static func constraint(_ json: String, vocabulary: TokenVocabulary) throws -> TokenConstraint {
            let schema = try GenerationSchema(jsonSchema: GeneratedContent(json: json))
            return try TokenConstraint(root: schema.root, definitions: schema.definitions, vocabulary: vocabulary)
        }

        /// Whether `document` is accepted token by token (the model's own
        /// tokenization) to a complete value.
        static func accepts(_ constraint: TokenConstraint, _ document: String) throws -> Bool {
            var decoder = constraint.makeDecoder()
            let tokens = try #require(constraint.vocabulary.tokenize(Array(document.utf8)))
            for token in tokens {
                guard decoder.allowedTokens().contains(token), decoder.accept(token) else { return false }
            }
            return decoder.canEnd
        }

        @Test(arguments: cases)
        func keyword(_ item: Case) async throws {
            let vocabulary = try await GuidedProperties.vocabulary()
            let constraint = try Self.constraint(item.schema, vocabulary: vocabulary)
            let validator = try JSONSchemaValidator(schemaJSON: item.oracle ?? item.schema)
            for seed in 0..<12 {
                var random = SplitMix64(seed: UInt64(seed))
                let output = try GuidedProperties.walk(constraint, random: &random, budget: 48)
                var violations = validator.validate(json: output)
                if item.repeatsKeys, violations.allSatisfy({ $0.message.contains("duplicate key") }) {
                    // Judge the value with the repeated key's last value, as
                    // JSON parsers that accept repeats read it.
                    let reparsed = try GeneratedContent(json: output).jsonString
                    violations = validator.validate(json: reparsed)
                }
                #expect(violations.isEmpty, "\(item.name), seed \(seed): \(output) violates \(violations)")
            }
            for document in item.valid {
                #expect(validator.validate(json: document).isEmpty, "test bug: \(document) is not valid for \(item.name)")
                #expect(try Self.accepts(constraint, document), "\(item.name): the valid \(document) is refused")
            }
            for document in item.invalid {
                #expect(!validator.validate(json: document).isEmpty, "test bug: \(document) is valid for \(item.name)")
                #expect(try !Self.accepts(constraint, document), "\(item.name): the invalid \(document) is accepted")
            }
        }

        @Test(arguments: refusals)
        func unenforceableKeywordIsAClearError(_ schema: String, mentions: String) throws {
            do {
                let read = try GenerationSchema(jsonSchema: GeneratedContent(json: schema))
                Issue.record("\(schema) should be refused, read as \(read.root)")
            } catch DecodingError.dataCorrupted(let context) {
                #expect(context.debugDescription.contains(mentions), "\(context.debugDescription) does not name \(mentions)")
            }
        }

        /// What the matcher cannot compare as it is written (objects,
        /// arrays, numbers with a fraction), and uniqueness no set of values
        /// can meet: refused when the schema is compiled, naming where.
        static let uniquenessRefusals: [(schema: String, mentions: String)] = [
            (
                #"{"type":"array","items":{"type":"object"},"uniqueItems":true}"#,
                #"keyword "uniqueItems" at #/uniqueItems: elements that may be objects"#
            ),
            (
                #"{"type":"array","items":{"type":"number"},"uniqueItems":true}"#,
                #"keyword "uniqueItems" at #/uniqueItems: elements that may be numbers with a fraction"#
            ),
            (
                #"{"type":"object","properties":{"a":{"type":"array","items":{"type":"array"},"uniqueItems":true}}}"#,
                #"keyword "uniqueItems" at #/properties/a/uniqueItems: elements that may be arrays"#
            ),
            (#"{"type":"array","items":{"enum":["a","b"]},"uniqueItems":true,"minItems":3}"#, "#: minItems 3 with uniqueItems"),
        ]

        @Test(arguments: uniquenessRefusals)
        func uniquenessTheMatcherCannotCheckIsAClearError(_ schema: String, mentions: String) async throws {
            let vocabulary = try await GuidedProperties.vocabulary()
            do {
                _ = try Self.constraint(schema, vocabulary: vocabulary)
                Issue.record("\(schema) should be refused")
            } catch let error as GuidedGenerationError {
                #expect("\(error)".contains(mentions), "\(error) does not name \(mentions)")
            }
        }

        /// A JSON Schema document's property order is kept: keys as written,
        /// `x-order` when present, through encode and decode again.
        @Test func propertyOrderIsKept() throws {
            let written =
                #"{"type":"object","properties":{"reasoning":{"type":"string"},"zeta":{"type":"integer"},"arithmeticCheckPassed":{"type":"boolean"}},"required":["zeta"]}"#
            let schema = try GenerationSchema(jsonSchema: GeneratedContent(json: written))
            guard case .object(let object) = schema.root else { Issue.record("not an object"); return }
            #expect(object.properties.map(\.name) == ["reasoning", "zeta", "arithmeticCheckPassed"])
            let reordered = #"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"x-order":["b","a"]}"#
            guard case .object(let explicit) = try GenerationSchema(jsonSchema: GeneratedContent(json: reordered)).root else { return }
            #expect(explicit.properties.map(\.name) == ["b", "a"])
            // Codable round trips (JSONEncoder/JSONDecoder) keep it through x-order.
            let once = try JSONDecoder().decode(GenerationSchema.self, from: JSONEncoder().encode(schema))
            let twice = try JSONDecoder().decode(GenerationSchema.self, from: JSONEncoder().encode(once))
            for decoded in [once, twice] {
                guard case .object(let round) = decoded.root else { Issue.record("not an object"); return }
                #expect(round.properties.map(\.name) == ["reasoning", "zeta", "arithmeticCheckPassed"])
            }
        }
    }
}
