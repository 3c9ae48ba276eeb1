import Foundation
import Testing

@testable import FoundationModels

extension ContentTests {
    @Suite("Incomplete (streamed) JSON")
    struct PartialJSON {
        static let documents = [
            #"{"name":"Alice","age":31,"tags":["a","b\"c"],"address":{"city":"Zürich","zip":null},"ok":true}"#,
            #"[{"q":"What is 2+2?","a":"4"},{"q":"Emoji \ud83d\ude00 \u00e9","a":"-1.5e3"},[],{}]"#,
            #"{"cards":[{"question":"x","answer":"y"}],"score":-12.75,"flags":[false,true,null]}"#,
            #""plain string with \"escapes\" and \n newline""#,
        ]

        /// Every prefix of the document, cut at every UTF-8 byte that starts
        /// a character.
        static func prefixes(of document: String) -> [String] {
            var result: [String] = []
            var index = document.startIndex
            while index < document.endIndex {
                result.append(String(document[..<index]))
                index = document.index(after: index)
            }
            return result
        }

        @Test("every prefix parses, is incomplete, and prints as valid complete JSON", arguments: documents)
        func everyPrefix(document: String) throws {
            for prefix in Self.prefixes(of: document) {
                let content: GeneratedContent
                do {
                    content = try GeneratedContent(json: prefix)
                } catch {
                    Issue.record("prefix \(prefix.debugDescription) threw \(error)")
                    continue
                }
                #expect(!content.isComplete, "prefix \(prefix.debugDescription) should be incomplete")
                let reparsed = try GeneratedContent(json: content.jsonString)
                #expect(reparsed.isComplete)
            }
            let full = try GeneratedContent(json: document)
            #expect(full.isComplete)
            #expect(full.jsonString == document.replacingOccurrences(of: #"\ud83d\ude00 \u00e9"#, with: "😀 é"))
        }

        @Test("prefixes only ever grow: each snapshot's JSON is a prefix-compatible refinement")
        func monotonicStrings() throws {
            let document = #"{"name":"Alexandra"}"#
            var previous = ""
            for prefix in Self.prefixes(of: document) {
                let content = try GeneratedContent(json: prefix)
                let name = try content.value(String?.self, forProperty: "name") ?? ""
                #expect(name.hasPrefix(previous), "\(name) should extend \(previous)")
                previous = name
            }
            #expect(previous == "Alexandra")
        }

        @Test("an unfinished string keeps its text; the node and its ancestors are incomplete")
        func unfinishedString() throws {
            let content = try GeneratedContent(json: #"{"id":7,"name":"Ali"#)
            #expect(!content.isComplete)
            guard case .structure(let properties, let keys) = content.kind else {
                Issue.record("expected a structure")
                return
            }
            #expect(keys == ["id", "name"])
            #expect(properties["id"]?.isComplete == true)
            #expect(properties["name"]?.kind == .string("Ali"))
            #expect(properties["name"]?.isComplete == false)
        }

        @Test("nested: finished children are complete, the unfinished path is not")
        func nested() throws {
            let content = try GeneratedContent(json: #"{"cards":[{"q":"x"},{"q":"y"#)
            let cards = try content.value(GeneratedContent.self, forProperty: "cards")
            guard case .array(let elements) = cards.kind else {
                Issue.record("expected an array")
                return
            }
            #expect(elements.count == 2)
            #expect(elements[0].isComplete)
            #expect(!elements[1].isComplete)
            #expect(!cards.isComplete)
            #expect(try elements[1].value(String.self, forProperty: "q") == "y")
        }

        @Test(
            "members without a value yet are left out",
            arguments: [
                (#"{"a""#, "{}"), (#"{"a":"#, "{}"), (#"{"a" :  "#, "{}"), (#"{"a":1,"b"#, #"{"a":1}"#),
                (#"{"a":1,"#, #"{"a":1}"#), (#"{"#, "{}"), (#"["#, "[]"), (#"[1,"#, "[1]"),
            ])
        func danglingMembers(input: String, expected: String) throws {
            let content = try GeneratedContent(json: input)
            #expect(content.jsonString == expected)
            #expect(!content.isComplete)
        }

        @Test(
            "unfinished numbers: kept when already a number, left out otherwise",
            arguments: [
                (#"[1"#, "[1]"), (#"[-"#, "[]"), (#"[1."#, "[]"), (#"[1.5"#, "[1.5]"), (#"[1e"#, "[]"),
                (#"[1e+"#, "[]"), (#"[1e+2"#, "[1e+2]"), (#"{"n":-12"#, #"{"n":-12}"#), (#"{"n":0"#, #"{"n":0}"#),
            ])
        func unfinishedNumbers(input: String, expected: String) throws {
            let content = try GeneratedContent(json: input)
            #expect(content.jsonString == expected)
            #expect(!content.isComplete)
        }

        @Test("a number inside a container is incomplete until a delimiter follows")
        func numberCompleteness() throws {
            let open = try GeneratedContent(json: "[12")
            let closed = try GeneratedContent(json: "[12,")
            guard case .array(let openElements) = open.kind, case .array(let closedElements) = closed.kind else {
                Issue.record("expected arrays")
                return
            }
            #expect(openElements.first?.isComplete == false)
            #expect(closedElements.first?.isComplete == true)
        }

        @Test("a top-level number ends with the document")
        func topLevelNumber() throws {
            #expect(try GeneratedContent(json: "12").isComplete)
            #expect(try GeneratedContent(json: "12 ").isComplete)
        }

        @Test(
            "unfinished literals are left out",
            arguments: [
                (#"[t"#, "[]"), (#"[tr"#, "[]"), (#"[fals"#, "[]"), (#"{"a":nu"#, "{}"), (#"[true"#, "[true]"),
            ])
        func unfinishedLiterals(input: String, expected: String) throws {
            let content = try GeneratedContent(json: input)
            #expect(content.jsonString == expected)
        }

        @Test(
            "escape sequences cut in the middle are left out",
            arguments: [
                (#""abc\"#, "abc"), (#""abc\u"#, "abc"), (#""abc\u00"#, "abc"), (#""abc\ud83d"#, "abc"),
                (#""abc\ud83d\"#, "abc"), (#""abc\ud83d\ude0"#, "abc"), (#""abc\ud83d\ude00"#, "abc😀"),
            ])
        func unfinishedEscapes(input: String, expected: String) throws {
            let content = try GeneratedContent(json: input)
            #expect(content.kind == .string(expected))
            #expect(!content.isComplete)
        }

        @Test("nothing representable yet at the top level gives an incomplete null", arguments: ["", "  ", "t", "nul", "-"])
        func nothingYet(input: String) throws {
            let content = try GeneratedContent(json: input)
            #expect(content.kind == .null)
            #expect(!content.isComplete)
        }
    }
}
