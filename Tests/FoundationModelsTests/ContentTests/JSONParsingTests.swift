import Foundation
import Testing

@testable import FoundationModels

extension ContentTests {
    @Suite("JSON parsing and printing")
    struct JSONParsing {
        @Test("a complete object keeps its key order and kinds")
        func objectKinds() throws {
            let content = try GeneratedContent(json: #"{"b": 1, "a": [true, null, "x"], "c": {"d": -2.5}}"#)
            #expect(content.isComplete)
            guard case .structure(let properties, let keys) = content.kind else {
                Issue.record("expected a structure, got \(content.kind)")
                return
            }
            #expect(keys == ["b", "a", "c"])
            #expect(properties["b"]?.kind == .number(1))
            #expect(
                properties["a"]?.kind
                    == .array([
                        GeneratedContent(kind: .bool(true)), GeneratedContent(kind: .null), GeneratedContent(kind: .string("x")),
                    ]))
            #expect(try properties["c"]?.value(Double.self, forProperty: "d") == -2.5)
            #expect(content.jsonString == #"{"b":1,"a":[true,null,"x"],"c":{"d":-2.5}}"#)
        }

        @Test("escapes, including surrogate pairs, decode to the right characters")
        func escapes() throws {
            let content = try GeneratedContent(json: #""q\" b\\ s\/ \b\f\n\r\t \u00e9 \u4e2D \ud83d\ude00""#)
            #expect(content.kind == .string("q\" b\\ s/ \u{08}\u{0C}\n\r\t é 中 😀"))
        }

        @Test("lone surrogates become U+FFFD")
        func loneSurrogates() throws {
            #expect(try GeneratedContent(json: #""a\ud800b""#).kind == .string("a\u{FFFD}b"))
            #expect(try GeneratedContent(json: #""\udc00""#).kind == .string("\u{FFFD}"))
            #expect(try GeneratedContent(json: #""\ud800\u0041""#).kind == .string("\u{FFFD}A"))
        }

        @Test("raw non-ASCII text passes through unchanged")
        func rawUnicode() throws {
            let content = try GeneratedContent(json: "[\"héllo 👋🏽 日本\"]")
            #expect(content.kind == .array([GeneratedContent(kind: .string("héllo 👋🏽 日本"))]))
            #expect(content.jsonString == "[\"héllo 👋🏽 日本\"]")
        }

        @Test(
            "numbers keep their exact text",
            arguments: [
                "0", "-0", "12", "-7", "1.5", "0.1", "1e3", "1E-2", "-2.5e+10", "123456789012345678901234567890",
                "9007199254740993", "1e400",
            ])
        func numbers(text: String) throws {
            let content = try GeneratedContent(json: text)
            #expect(content.isComplete)
            #expect(content.jsonString == text)
            guard case .number(let value) = content.kind else {
                Issue.record("expected a number")
                return
            }
            #expect(value == Double(text))
        }

        @Test(
            "compact documents print back identically",
            arguments: [
                #"{}"#, #"[]"#, #""""#, #"null"#, #"true"#, #"false"#,
                #"{"a":{"b":{"c":[1,[2,[3,{}]]]}},"z":""}"#,
                #"["\"quoted\"","back\\slash","tab\tnew\nline","\u0001\u001f"]"#,
                #"{"emoji":"😀","accent":"é","cjk":"中文"}"#,
                #"[-0.5,1e-7,3.14159,-1,1000000]"#,
            ])
        func roundTrip(json: String) throws {
            let content = try GeneratedContent(json: json)
            #expect(content.jsonString == json)
            #expect(try GeneratedContent(json: content.jsonString) == content)
        }

        @Test("whitespace is allowed around every token")
        func whitespace() throws {
            let content = try GeneratedContent(json: " \n\t{ \"a\" :\r [ 1 , 2 ] } \n")
            #expect(content.jsonString == #"{"a":[1,2]}"#)
            #expect(content.isComplete)
        }

        @Test("duplicate keys: the last value wins at the first position")
        func duplicateKeys() throws {
            let content = try GeneratedContent(json: #"{"a":1,"b":2,"a":3}"#)
            #expect(content.jsonString == #"{"a":3,"b":2}"#)
        }

        @Test("printing numbers: integral values have no fraction")
        func printingNumbers() {
            #expect(GeneratedContent(kind: .number(5)).jsonString == "5")
            #expect(GeneratedContent(kind: .number(-5.0)).jsonString == "-5")
            #expect(GeneratedContent(kind: .number(0.25)).jsonString == "0.25")
            #expect(GeneratedContent(kind: .number(1e300)).jsonString == "1e+300")
            #expect(GeneratedContent(kind: .number(.infinity)).jsonString == "null")
            #expect(5.0.generatedContent.jsonString == "5")
            #expect(Float(0.1).generatedContent.jsonString == "0.1")
            #expect(Int.max.generatedContent.jsonString == "9223372036854775807")
            #expect(Decimal(string: "12.340")!.generatedContent.jsonString == "12.34")
        }

        @Test("printing strings escapes quotes, backslashes and control characters only")
        func printingStrings() {
            let content = GeneratedContent(kind: .string("a\"b\\c\n\u{01}/é"))
            #expect(content.jsonString == #""a\"b\\c\n\u0001/é""#)
        }

        @Test("structures print keys in orderedKeys order, then any unlisted keys sorted")
        func printingStructures() {
            let value = GeneratedContent(kind: .number(1))
            let content = GeneratedContent(
                kind: .structure(
                    properties: ["x": value, "y": value, "b": value, "a": value],
                    orderedKeys: ["y", "x", "missing"]
                ))
            #expect(content.jsonString == #"{"y":1,"x":1,"a":1,"b":1}"#)
        }

        @Test("debugDescription shows the JSON and marks incomplete content")
        func debugDescription() throws {
            #expect(try GeneratedContent(json: "[1]").debugDescription == "[1]")
            #expect(try GeneratedContent(json: "[1,").debugDescription == "[1] (incomplete)")
        }
    }
}
