import Foundation
import GuidedGeneration
import Testing

/// The indented layout (``JSONLayout/indented``): what instruction-tuned
/// models write when they answer in JSON — one member a line, two spaces a
/// level, lists of objects one element a line, lists of scalars on one line.
/// Every byte of it is the matcher's: masks, forced runs and shortest
/// completions all follow it, at every depth.
@Suite("Indented JSON layout")
struct IndentedLayoutTests {
    /// The toy vocabulary's bytes plus line breaks and the multi-byte
    /// whitespace tokens real vocabularies have.
    static let vocabulary: TokenVocabulary = {
        var tokens = ([9, 10] + Array(32..<127)).map { [UInt8($0)] }
        tokens += ["\n  ", "\n    ", ",\n", "  ", "    ", "\": ", "{\n", "[\n", "\n}", "\"name", "true"].map { Array($0.utf8) }
        tokens.append([])
        return TokenVocabulary(tokens: tokens, endOfGeneration: [Int32(tokens.count - 1)])
    }()

    static func indented(_ root: SchemaNode, _ definitions: [SchemaDefinition] = []) throws -> TokenConstraint {
        try TokenConstraint(root: root, definitions: definitions, vocabulary: vocabulary, layout: .indented)
    }

    /// Feeds `text` byte by byte through the mask.
    static func accepts(_ constraint: TokenConstraint, _ text: String) -> Bool {
        var decoder = constraint.makeDecoder()
        for byte in text.utf8 {
            guard let token = vocabulary.tokens.firstIndex(of: [byte]).map(Int32.init),
                decoder.allowedTokens().contains(token), decoder.accept(token)
            else { return false }
        }
        return decoder.canEnd
    }

    static let card = SchemaNode.object(
        ObjectNode(properties: [
            PropertyNode(name: "q", node: .string(StringNode())),
            PropertyNode(name: "a", node: .string(StringNode()), isOptional: true),
        ]))

    /// A deck: a string, a list of scalars, a list of objects with an
    /// optional member, an optional nested object.
    static let deck = SchemaNode.object(
        ObjectNode(properties: [
            PropertyNode(name: "topic", node: .string(StringNode())),
            PropertyNode(name: "tags", node: .array(ArrayNode(items: .string(StringNode(choices: ["x", "y"])), minimumCount: 1, maximumCount: 3))),
            PropertyNode(name: "cards", node: .array(ArrayNode(items: card, minimumCount: 1, maximumCount: 3))),
            PropertyNode(
                name: "meta",
                node: .object(
                    ObjectNode(properties: [
                        PropertyNode(name: "n", node: .integer(NumberNode(minimum: 0, maximum: 9)))
                    ])), isOptional: true),
        ]))

    /// A recursive tree: depth is unbounded, so indentation comes from the
    /// stack, not from the schema.
    static let tree = SchemaNode.object(
        ObjectNode(properties: [
            PropertyNode(name: "v", node: .boolean),
            PropertyNode(name: "kids", node: .array(ArrayNode(items: .reference("Tree"), minimumCount: 0, maximumCount: 2))),
        ]))
    static let treeDefinitions = [SchemaDefinition(name: "Tree", node: tree)]

    @Test func membersOnTheirOwnLinesListsOfScalarsOnOne() throws {
        let deck = try Self.indented(Self.deck)
        let text = """
            {
              "topic": "Cells",
              "tags": ["x", "y"],
              "cards": [
                {
                  "q": "What?",
                  "a": "That."
                },
                {
                  "q": "Why?"
                }
              ],
              "meta": {
                "n": 3
              }
            }
            """
        #expect(Self.accepts(deck, text))
        #expect(Self.accepts(deck, "{\n  \"topic\": \"\",\n  \"tags\": [\"x\"],\n  \"cards\": [\n    {\n      \"q\": \"\"\n    }\n  ]\n}"))
        #expect(!Self.accepts(deck, #"{"topic": "Cells", "tags": ["x"], "cards": [{"q": "?"}]}"#), "one line is another layout")
        #expect(!Self.accepts(deck, "{\n  \"topic\": \"\",\n  \"tags\": [\n    \"x\"\n  ],\n  \"cards\": []\n}"), "scalars stay on one line")
        #expect(!Self.accepts(deck, "{\n   \"topic\": \"\""), "two spaces a level")
        #expect(!Self.accepts(deck, "{\n  \"topic\": \"\",\n  \"tags\": [\"x\"],\n  \"cards\": [\n  {"), "an element is a level in")
        #expect(!Self.accepts(deck, "{\n  \"topic\":\"\""), "a space after the colon")
    }

    @Test func emptyObjectsAndListsStayOnOneLine() throws {
        let optional = SchemaNode.object(
            ObjectNode(properties: [
                PropertyNode(name: "a", node: .boolean, isOptional: true),
                PropertyNode(name: "list", node: .array(ArrayNode(items: Self.card, minimumCount: 0, maximumCount: 2)), isOptional: true),
            ]))
        let constraint = try Self.indented(optional)
        #expect(Self.accepts(constraint, "{}"))
        #expect(Self.accepts(constraint, "{\n  \"list\": []\n}"))
        #expect(!Self.accepts(constraint, "{\n}"))
        #expect(!Self.accepts(constraint, "{\n  \"list\": [\n  ]\n}"))
    }

    @Test func keysAndIndentationAreForced() throws {
        var decoder = try Self.indented(Self.deck).makeDecoder()
        #expect(String(decoding: decoder.forcedBytes(), as: UTF8.self) == "{\n  \"topic\": \"")
        for byte in "{\n  \"topic\": \"Cells\",".utf8 { _ = decoder.accept(bytes: [byte]) }
        #expect(String(decoding: decoder.forcedBytes(), as: UTF8.self) == "\n  \"tags\": [\"")
    }

    @Test func theShortestCompletionIsIndentedAtItsDepth() throws {
        var decoder = try Self.indented(Self.deck).makeDecoder()
        let shortest = "{\n  \"topic\": \"\",\n  \"tags\": [\"x\"],\n  \"cards\": [\n    {\n      \"q\": \"\"\n    }\n  ]\n}"
        #expect(decoder.completionLength() == shortest.utf8.count)
        let prefix = "{\n  \"topic\": \"Cells\",\n  \"tags\": [\"y\"],\n  \"cards\": [\n    {\n      \"q\": \"Wh"
        for byte in prefix.utf8 { do { let accepted = decoder.accept(bytes: [byte]); #expect(accepted) } }
        let completion = decoder.completionTokens()
        let closing = try #require(completion)
        for token in closing { do { let accepted = decoder.accept(token); #expect(accepted) } }
        #expect(decoder.isComplete)
        #expect(String(decoding: decoder.output, as: UTF8.self) == prefix + "\"\n    }\n  ]\n}")
    }

    @Test func aRecursiveTreeIsIndentedByTheStack() throws {
        let tree = try Self.indented(.reference("Tree"), Self.treeDefinitions)
        let text = """
            {
              "v": true,
              "kids": [
                {
                  "v": false,
                  "kids": [
                    {
                      "v": true,
                      "kids": []
                    }
                  ]
                }
              ]
            }
            """
        #expect(Self.accepts(tree, text))
        var decoder = tree.makeDecoder()
        let prefix = "{\n  \"v\": true,\n  \"kids\": [\n    {\n      \"v\": false,\n      \"kids\": [\n        {\n          \"v\": tr"
        for byte in prefix.utf8 { _ = decoder.accept(bytes: [byte]) }
        let completion = decoder.completionTokens()
        let closing = try #require(completion)
        for token in closing { _ = decoder.accept(token) }
        #expect(
            String(decoding: decoder.output, as: UTF8.self)
                == prefix + "ue,\n          \"kids\": []\n        }\n      ]\n    }\n  ]\n}")
    }

    /// Extra keys and free-form values are indented like the rest
    /// (FreeFormIndentedTests has the details).
    @Test func freeFormValuesAreIndentedToo() throws {
        let constraint = try Self.indented(JSONLayoutTests.open)
        #expect(Self.accepts(constraint, "{\n  \"name\": \"Ada\",\n  \"tags\": [true],\n  \"x\": {\n    \"a\": 1\n  }\n}"))
        #expect(!Self.accepts(constraint, #"{"name": "Ada", "tags": [true], "x": {"a": 1}}"#))
    }

    /// Random walks through the mask, closed by the shortest completion when
    /// their budget runs low: every one is valid JSON, and exactly the
    /// indented spelling of its own value.
    @Test(arguments: 0..<40) func randomWalksAreTheIndentedSpellingOfTheirValue(seed: Int) throws {
        let (root, definitions) = seed % 2 == 0 ? (Self.deck, []) : (SchemaNode.reference("Tree"), Self.treeDefinitions)
        let text = try randomWalk(Self.indented(root, definitions), seed: seed, budget: 40 + seed * 4)
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "\(text)")
        #expect(text == Self.reindented(text), "\(text)")
    }

    /// `text` with its whitespace outside strings removed, then laid out
    /// again by the rules, independently of the matcher: a list is one
    /// element a line when its first element is an object or a list.
    static func reindented(_ text: String) -> String {
        var compact: [UInt8] = []
        var inString = false
        var escaped = false
        for byte in text.utf8 {
            if inString {
                compact.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte != UInt8(ascii: " "), byte != UInt8(ascii: "\n") {
                compact.append(byte)
                if byte == UInt8(ascii: "\"") { inString = true }
            }
        }
        var out = ""
        var expanded: [Bool] = []
        inString = false
        escaped = false
        func newline(_ level: Int) { out += "\n" + String(repeating: "  ", count: level) }
        for (index, byte) in compact.enumerated() {
            let character = String(UnicodeScalar(byte))
            if inString {
                out += character
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            let next = index + 1 < compact.count ? compact[index + 1] : 0
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let empty = next == UInt8(ascii: "}") || next == UInt8(ascii: "]")
                let breaks = !empty && (byte == UInt8(ascii: "{") || next == UInt8(ascii: "{") || next == UInt8(ascii: "["))
                expanded.append(breaks)
                out += character
                if breaks { newline(expanded.count) }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if expanded.removeLast() { newline(expanded.count) }
                out += character
            case UInt8(ascii: ","):
                out += ","
                if expanded.last == true { newline(expanded.count) } else { out += " " }
            case UInt8(ascii: ":"):
                out += ": "
            case UInt8(ascii: "\""):
                inString = true
                out += character
            default:
                out += character
            }
        }
        return out
    }
}
