import Foundation
import GuidedGeneration
import Testing

/// The spaced layout (``JSONLayout/spaced``): one space after every `,` and
/// `:` between values, nothing else, everywhere a separator is written —
/// fixed keys, extra keys, free-form values, arrays, completions.
@Suite("JSON layout")
struct JSONLayoutTests {
    static func spaced(_ root: SchemaNode, _ definitions: [SchemaDefinition] = []) throws -> TokenConstraint {
        try TokenConstraint(root: root, definitions: definitions, vocabulary: ToyVocabulary.make, layout: .spaced)
    }

    /// A person with free extra keys: every kind of separator the matcher writes.
    static let open = SchemaNode.object(
        ObjectNode(
            properties: [
                PropertyNode(name: "name", node: .string(StringNode())),
                PropertyNode(name: "tags", node: .array(ArrayNode(items: .boolean, minimumCount: 1, maximumCount: 3))),
            ],
            additionalProperties: .any
        ))

    @Test func oneSpaceAfterEachSeparatorAndNowhereElse() throws {
        let person = try Self.spaced(ConstraintTests.person)
        #expect(accepts(person, #"{"name": "Ada", "age": 36, "tags": [true, false]}"#))
        #expect(accepts(person, #"{"name": "A, b: c", "tags": [true]}"#), "strings keep their own spacing")
        #expect(!accepts(person, #"{"name":"Ada","tags":[true]}"#), "compact is another layout")
        #expect(!accepts(person, #"{"name": "Ada", "tags": [true,false]}"#), "arrays too")
        #expect(!accepts(person, #"{"name":  "Ada", "tags": [true]}"#), "one space")
        #expect(!accepts(person, #"{ "name": "Ada", "tags": [true]}"#), "nothing inside brackets")
    }

    @Test func extraKeysAndFreeValuesAreSpacedToo() throws {
        let open = try Self.spaced(Self.open)
        #expect(accepts(open, #"{"name": "Ada", "tags": [true], "x": {"a": [1, null], "b": "c"}, "y": 2}"#))
        #expect(!accepts(open, #"{"name": "Ada", "tags": [true], "x":1}"#))
        #expect(!accepts(open, #"{"name": "Ada", "tags": [true], "x": {"a":1}}"#))
        #expect(!accepts(open, #"{"name": "Ada", "tags": [true],"x": 1}"#))
    }

    @Test func theShortestCompletionIsSpaced() throws {
        var decoder = try Self.spaced(ConstraintTests.person).makeDecoder()
        #expect(decoder.completionLength() == #"{"name": "", "tags": [true]}"#.utf8.count)
        for byte in #"{"name": "Ada", "tags": [true, "#.utf8 { do { let accepted = decoder.accept(bytes: [byte]); #expect(accepted) } }
        let completion = decoder.completionTokens()
        let closing = try #require(completion)
        for token in closing { do { let accepted = decoder.accept(token); #expect(accepted) } }
        #expect(decoder.isComplete)
        #expect(String(decoding: decoder.output, as: UTF8.self) == #"{"name": "Ada", "tags": [true, true]}"#)
    }

    @Test func theForcedRunIncludesTheSpaces() throws {
        var decoder = try Self.spaced(ConstraintTests.person).makeDecoder()
        #expect(decoder.forcedBytes() == Array(#"{"name": ""#.utf8))
    }

    /// Random walks through the mask, each closed by the shortest completion
    /// when its budget runs low: every one is valid JSON in the spaced layout.
    @Test(arguments: 0..<40) func randomWalksAreValidSpacedJSON(seed: Int) throws {
        let text = try randomWalk(Self.spaced(Self.open), seed: seed, budget: 30 + seed * 3)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(object?["name"] is String, "\(text)")
        #expect((object?["tags"] as? [Bool])?.isEmpty == false, "\(text)")
        #expect(Self.isSpaced(text), "\(text)")
    }

    /// Whether every `,` and `:` outside strings is followed by exactly one
    /// space, and no other whitespace appears outside strings.
    static func isSpaced(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var inString = false
        var escaped = false
        for (index, byte) in bytes.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                guard index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: " "), bytes[index + 2] != UInt8(ascii: " ") else { return false }
            case UInt8(ascii: " "):
                guard index > 0, bytes[index - 1] == UInt8(ascii: ",") || bytes[index - 1] == UInt8(ascii: ":") else { return false }
            case UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                return false
            default: break
            }
        }
        return true
    }
}

/// A walk through `constraint`'s masks with random allowed tokens from
/// `seed`, closed by the shortest completion when `budget` tokens would no
/// longer hold it: the output, which must be a valid value.
func randomWalk(_ constraint: TokenConstraint, seed: Int, budget: Int) throws -> String {
    var generator = SplitMix(state: UInt64(seed))
    var decoder = constraint.makeDecoder()
    var budget = budget
    while !decoder.isComplete {
        let allowed = decoder.allowedTokens().tokens
        try #require(!allowed.isEmpty)
        let token = allowed[Int(generator.next() % UInt64(allowed.count))]
        if decoder.accept(token, completableWithin: budget - 1) {
            budget -= 1
            if decoder.ended { break }
        } else {
            let completion = decoder.completionTokens()
            let closing = try #require(completion)
            for token in closing { do { let accepted = decoder.accept(token); #expect(accepted) } }
            break
        }
    }
    return String(decoding: decoder.output, as: UTF8.self)
}
