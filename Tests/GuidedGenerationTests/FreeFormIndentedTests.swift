import Foundation
import GuidedGeneration
import Testing

/// Free-form values (`anyValue`: JSON Schema's `{}`, `GeneratedContent`)
/// and extra keys (`additionalProperties`, `patternProperties`) in the
/// indented layout: written as instruction-tuned models write JSON, like the
/// typed values around them. A model that answers `{` and then its own line
/// break must find that line break allowed, not only `}`.
@Suite("Free-form values, indented")
struct FreeFormIndentedTests {
    static func indented(_ root: SchemaNode, _ definitions: [SchemaDefinition] = []) throws -> TokenConstraint {
        try IndentedLayoutTests.indented(root, definitions)
    }

    static func accepts(_ constraint: TokenConstraint, _ text: String) -> Bool {
        IndentedLayoutTests.accepts(constraint, text)
    }

    /// The tokens of `mask`, spelled.
    static func spelled(_ mask: TokenMask, _ vocabulary: TokenVocabulary = IndentedLayoutTests.vocabulary) -> Set<String> {
        Set(mask.tokens.map { String(decoding: vocabulary.tokens[Int($0)], as: UTF8.self) })
    }

    /// A decoder that has read `prefix` byte by byte.
    static func decoder(_ constraint: TokenConstraint, after prefix: String) -> GuidedDecoder {
        var decoder = constraint.makeDecoder()
        for byte in prefix.utf8 { do { let accepted = decoder.accept(bytes: [byte]); #expect(accepted, "\(prefix)") } }
        return decoder
    }

    /// `prefix` finished with the shortest completion.
    static func completed(_ constraint: TokenConstraint, _ prefix: String) throws -> String {
        var decoder = Self.decoder(constraint, after: prefix)
        let length = decoder.completionLength()
        let completion = decoder.completionTokens()
        let closing = try #require(completion)
        for token in closing { do { let accepted = decoder.accept(token); #expect(accepted) } }
        #expect(decoder.isComplete || decoder.canEnd)
        #expect(length == decoder.output.count - prefix.utf8.count, "the length is the completion's")
        return String(decoding: decoder.output, as: UTF8.self)
    }

    /// A person with an object of any shape, a list of anything, and a map
    /// of extra keys to booleans.
    static let person = SchemaNode.object(
        ObjectNode(properties: [
            PropertyNode(name: "name", node: .string(StringNode())),
            PropertyNode(name: "data", node: .any),
            PropertyNode(name: "list", node: .array(ArrayNode(items: .any, maximumCount: 3)), isOptional: true),
            PropertyNode(name: "flags", node: .object(ObjectNode(properties: [], additionalProperties: .boolean)), isOptional: true),
        ]))

    /// Optional properties, then extra keys of two kinds: they may start
    /// the object, follow a property, or follow each other.
    static let open = SchemaNode.object(
        ObjectNode(
            properties: [
                PropertyNode(name: "a", node: .integer(NumberNode(minimum: 0, maximum: 99)), isOptional: true),
                PropertyNode(name: "b", node: .boolean, isOptional: true),
            ],
            additionalProperties: .any,
            patternProperties: [PatternProperty(pattern: "^n", node: .integer(NumberNode(minimum: 0, maximum: 9)))]
        ))

    // MARK: - Free-form objects

    @Test func aFreeObjectIsWrittenLikeATypedOne() throws {
        let any = try Self.indented(.any)
        #expect(Self.accepts(any, "{}"))
        #expect(Self.accepts(any, "{\n  \"city\": \"Paris\"\n}"))
        #expect(Self.accepts(any, "{\n  \"city\": \"Paris\",\n  \"population\": 2102650,\n  \"capital\": true,\n  \"mayor\": null\n}"))
        #expect(Self.accepts(any, "\"Paris\""))
        #expect(Self.accepts(any, "12"))
        #expect(Self.accepts(any, "true"))
        #expect(!Self.accepts(any, #"{"city": "Paris"}"#), "one line is the spaced layout")
        #expect(!Self.accepts(any, #"{"city":"Paris"}"#), "no line at all is the compact one")
        #expect(!Self.accepts(any, "{\n}"), "empty is `{}`")
        #expect(!Self.accepts(any, "{\n  \"city\":\"Paris\"\n}"), "a space after the colon")
        #expect(!Self.accepts(any, "{\n   \"city\": \"Paris\"\n}"), "two spaces a level")
        #expect(!Self.accepts(any, "{\n  \"city\": \"Paris\"}"), "the brace on a line of its own")
        #expect(!Self.accepts(any, "{\n  \"city\": \"Paris\", \"x\": 1\n}"), "a member a line")
        #expect(!Self.accepts(any, "{\n  \"city\": \"Paris\"\n  }"), "the brace at the object's own level")
    }

    /// The reported failure: after `{` the model's own next token is a line
    /// break. It is allowed (with the indentation and quote that follow
    /// it), and so is `}`; nothing else.
    @Test func afterTheBraceALineBreakOrTheClosingBrace() throws {
        let any = try Self.indented(.any)
        var decoder = Self.decoder(any, after: "{")
        #expect(Self.spelled(decoder.allowedTokens()) == ["}", "\n", "\n  "])
        #expect(String(decoding: decoder.forcedBytes(), as: UTF8.self) == "")
        decoder = Self.decoder(any, after: "{\n")
        #expect(String(decoding: decoder.forcedBytes(), as: UTF8.self) == "  \"")
        decoder = Self.decoder(any, after: "{\n  \"city\": \"Paris\"")
        #expect(Self.spelled(decoder.allowedTokens()) == [",", ",\n", "\n", "\n}"])
        decoder = Self.decoder(any, after: "{\n  \"city\": \"Paris\",")
        #expect(String(decoding: decoder.forcedBytes(), as: UTF8.self) == "\n  \"")
        decoder = Self.decoder(any, after: "{\n  \"city\": \"Paris\"\n")
        #expect(String(decoding: decoder.forcedBytes(), as: UTF8.self) == "}")
    }

    @Test func nestedFreeValuesAreIndentedByTheStack() throws {
        let any = try Self.indented(.any)
        let text = """
            {
              "a": {
                "b": {
                  "c": [
                    {
                      "d": []
                    },
                    {}
                  ]
                },
                "e": [1, "x", null]
              },
              "f": {}
            }
            """
        #expect(Self.accepts(any, text))
        #expect(!Self.accepts(any, "{\n  \"a\": {\n  \"b\": 1\n  }\n}"), "a nested object's members a level in")
        #expect(!Self.accepts(any, "{\n  \"a\": {\n    \"b\": 1\n}\n}"), "its brace at its own level")
        let person = try Self.indented(Self.person)
        let typed = """
            {
              "name": "Ada",
              "data": {
                "langs": [
                  {
                    "name": "Swift"
                  }
                ]
              },
              "list": [
                "x",
                {
                  "y": [2, 3]
                }
              ],
              "flags": {
                "admin": true
              }
            }
            """
        #expect(Self.accepts(person, typed))
        #expect(Self.accepts(person, "{\n  \"name\": \"Ada\",\n  \"data\": 1,\n  \"list\": [],\n  \"flags\": {}\n}"))
        #expect(!Self.accepts(person, #"{"name": "Ada", "data": {"a": 1}}"#))
    }

    // MARK: - Free-form arrays

    @Test func aFreeArrayIsOnOneLineOrOneElementALine() throws {
        let any = try Self.indented(.any)
        #expect(Self.accepts(any, "[]"))
        #expect(Self.accepts(any, #"["a", "b"]"#))
        #expect(Self.accepts(any, "[1, 2.5, true, null]"))
        #expect(Self.accepts(any, "[\n  1,\n  2\n]"))
        #expect(Self.accepts(any, "[\n  {\n    \"a\": [1, 2]\n  },\n  [],\n  \"x\"\n]"))
        #expect(Self.accepts(any, "[\n  [\n    [1]\n  ]\n]"))
        #expect(!Self.accepts(any, "[[1]]"), "a list of lists is one element a line")
        #expect(!Self.accepts(any, #"[{"a": 1}]"#), "and so is a list of objects")
        #expect(!Self.accepts(any, "[1, {}]"), "one line holds scalars only")
        #expect(!Self.accepts(any, "[1,\n  2]"), "the form holds")
        #expect(!Self.accepts(any, "[\n  1, 2\n]"), "the form holds")
        #expect(!Self.accepts(any, "[\n  1,\n  2]"), "the bracket on a line of its own")
        #expect(!Self.accepts(any, "[1,2]"), "a space after the comma")
        #expect(!Self.accepts(any, "[\n]"), "empty is `[]`")
    }

    @Test func theArraysFormIsTheModelsChoiceAtItsBracket() throws {
        let any = try Self.indented(.any)
        var decoder = Self.decoder(any, after: "[")
        let first = Self.spelled(decoder.allowedTokens())
        #expect(first.isSuperset(of: ["]", "\n", "\n  ", "\"", "1", "-", "t", "f", "n"]))
        #expect(!first.contains("{") && !first.contains("[") && !first.contains(" "))
        decoder = Self.decoder(any, after: "[\n  ")
        let expanded = Self.spelled(decoder.allowedTokens())
        #expect(expanded.isSuperset(of: ["{", "[", "\"", "1"]))
        decoder = Self.decoder(any, after: "[1")
        #expect(Self.spelled(decoder.allowedTokens()).isSuperset(of: [",", "]", "0", "."]))
        #expect(!Self.spelled(decoder.allowedTokens()).contains("\n"))
        decoder = Self.decoder(any, after: "[\n  1")
        #expect(Self.spelled(decoder.allowedTokens()).isSuperset(of: [",", ",\n", "\n", "0"]))
        #expect(!Self.spelled(decoder.allowedTokens()).contains("]"))
        decoder = Self.decoder(any, after: "[\n  1,")
        #expect(String(decoding: decoder.forcedBytes(), as: UTF8.self) == "\n  ")
    }

    // MARK: - Extra keys

    @Test func extraKeysAreMembersOnTheirOwnLines() throws {
        let map = try Self.indented(.object(ObjectNode(properties: [], additionalProperties: .integer(NumberNode(minimum: 0, maximum: 9)))))
        #expect(Self.accepts(map, "{}"))
        #expect(Self.accepts(map, "{\n  \"a\": 1\n}"))
        #expect(Self.accepts(map, "{\n  \"a\": 1,\n  \"b\": 2\n}"))
        #expect(!Self.accepts(map, #"{"a": 1}"#))
        #expect(!Self.accepts(map, "{\n  \"a\": 1, \"b\": 2\n}"))
        #expect(!Self.accepts(map, "{\n  \"a\": 1\n  }"))
        var decoder = Self.decoder(map, after: "{")
        #expect(Self.spelled(decoder.allowedTokens()) == ["}", "\n", "\n  "])
        decoder = Self.decoder(map, after: "{\n  \"a\": 1")
        #expect(Self.spelled(decoder.allowedTokens()) == [",", ",\n", "\n", "\n}"])

        let open = try Self.indented(Self.open)
        #expect(Self.accepts(open, "{}"))
        #expect(Self.accepts(open, "{\n  \"a\": 1\n}"))
        #expect(Self.accepts(open, "{\n  \"x\": [1, 2]\n}"), "an extra key first")
        #expect(Self.accepts(open, "{\n  \"a\": 1,\n  \"n1\": 3,\n  \"x\": {\n    \"y\": []\n  }\n}"))
        #expect(Self.accepts(open, "{\n  \"b\": true,\n  \"z\": null\n}"))
        #expect(!Self.accepts(open, "{\n  \"n1\": \"3\"\n}"), "a key matching the pattern takes its values")
        #expect(!Self.accepts(open, "{\n  \"a\": 1, \"x\": 2\n}"))
        #expect(!Self.accepts(open, #"{"x": 2}"#))

        // Properties and extra keys, as the spaced layout tests them.
        let mixed = try Self.indented(JSONLayoutTests.open)
        #expect(Self.accepts(mixed, "{\n  \"name\": \"Ada\",\n  \"tags\": [true],\n  \"x\": {\n    \"a\": 1\n  },\n  \"y\": 2\n}"))
        #expect(!Self.accepts(mixed, #"{"name": "Ada", "tags": [true], "x": 1}"#))
    }

    // MARK: - Shortest completions

    @Test func theShortestCompletionClosesFreeValuesOnTheirLines() throws {
        let any = try Self.indented(.any)
        #expect(try Self.completed(any, "{") == "{}")
        #expect(try Self.completed(any, "{\n") == "{\n  \"\": 0\n}")
        #expect(try Self.completed(any, "{\n  \"city\": \"Par") == "{\n  \"city\": \"Par\"\n}")
        #expect(try Self.completed(any, "{\n  \"ci") == "{\n  \"ci\": 0\n}")
        #expect(try Self.completed(any, "{\n  \"a\": ") == "{\n  \"a\": 0\n}")
        #expect(try Self.completed(any, "{\n  \"a\": 1,") == "{\n  \"a\": 1,\n  \"\": 0\n}")
        #expect(try Self.completed(any, "{\n  \"a\": 1\n") == "{\n  \"a\": 1\n}")
        #expect(try Self.completed(any, "[1, ") == "[1, 0]")
        #expect(try Self.completed(any, "[\n") == "[\n  0\n]")
        #expect(try Self.completed(any, "[\n  1") == "[\n  1\n]")
        #expect(try Self.completed(any, "[\n  1,") == "[\n  1,\n  0\n]")
        #expect(
            try Self.completed(any, "{\n  \"a\": [\n    {\n      \"b\": tr")
                == "{\n  \"a\": [\n    {\n      \"b\": true\n    }\n  ]\n}")
        let open = try Self.indented(Self.open)
        #expect(try Self.completed(open, "{\n  \"a\": 1,\n  \"x\": [\n    \"s") == "{\n  \"a\": 1,\n  \"x\": [\n    \"s\"\n  ]\n}")
        #expect(try Self.completed(open, "{\n  \"a\": 1,\n  \"n") == "{\n  \"a\": 1,\n  \"n\": 0\n}")
        #expect(try Self.completed(open, "{\n  \"a\": 1,\n  \"x\": 2,") == "{\n  \"a\": 1,\n  \"x\": 2,\n  \"\": 0\n}")
        let person = try Self.indented(Self.person)
        #expect(
            try Self.completed(person, "{\n  \"name\": \"Ada\",\n  \"data\": {\n    \"k\": [\n      ")
                == "{\n  \"name\": \"Ada\",\n  \"data\": {\n    \"k\": [\n      0\n    ]\n  }\n}")
        #expect(
            try Self.completed(person, "{\n  \"name\": \"Ada\",\n  \"data\": 1,\n  \"flags\": {\n    \"x\"")
                == "{\n  \"name\": \"Ada\",\n  \"data\": 1,\n  \"flags\": {\n    \"x\": true\n  }\n}")
    }

    // MARK: - Whitespace

    /// Every whitespace byte is the layout's: after a line break the mask
    /// offers no second one, and the indentation is forced to its width
    /// and no further.
    @Test func whitespaceIsForcedAndBounded() throws {
        let any = try Self.indented(.any)
        let forced = [
            "{\n": "  \"", "{\n ": " \"", "{\n  \"a\": {\n": "    \"", "{\n  \"a\": [\n": "    ", "[\n": "  ", "[\n  [\n": "    ",
            "{\n  \"a\": 1,\n": "  \"", "{\n  \"a\": 1\n": "}", "{\n  \"a\": {}\n": "}", "[\n  1\n": "]", "[\n  [\n    1\n": "  ]",
        ]
        for (prefix, expected) in forced {
            var decoder = Self.decoder(any, after: prefix)
            #expect(String(decoding: decoder.forcedBytes(), as: UTF8.self) == expected, "\(prefix.debugDescription)")
            let allowed = Self.spelled(decoder.allowedTokens())
            #expect(allowed.allSatisfy { !$0.hasPrefix("\n") }, "\(prefix.debugDescription): \(allowed)")
        }
        // However long the walk, the output is its value's indented spelling.
        for seed in 0..<10 {
            let text = try randomWalk(any, seed: seed, budget: 300)
            #expect(Self.laidOut(text) == text, "\(text)")
        }
    }

    // MARK: - Random walks

    /// JSON Schema's `{"additionalProperties": true}`: an object of any keys
    /// and values.
    static let map = SchemaNode.object(ObjectNode(properties: [], additionalProperties: .any))

    static let walked: [(name: String, root: SchemaNode)] = [
        ("any value", .any),
        ("a map of anything", map),
        ("a person", person),
        ("extra keys", open),
        ("a list of anything", .array(ArrayNode(items: .any, minimumCount: 1, maximumCount: 3))),
    ]

    /// Random walks through the mask, closed by the shortest completion when
    /// their budget runs low: every one is valid JSON, laid out exactly as
    /// the indented layout writes its value (a free-form array in the form
    /// it chose).
    @Test(arguments: 0..<60) func randomWalksAreIndentedJSON(seed: Int) throws {
        let (name, root) = Self.walked[seed % Self.walked.count]
        let text = try randomWalk(Self.indented(root), seed: seed, budget: 20 + seed * 3)
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) != nil, "\(name): \(text)")
        #expect(Self.laidOut(text) == text, "\(name): \(text)")
    }

    /// `text` with its whitespace outside strings removed, then laid out by
    /// the indented layout's rules, independently of the matcher: objects
    /// one member a line; each array in the form `text` gives it (one
    /// element a line where a line break follows its `[`), and one that is
    /// on one line must hold strings, numbers, booleans or null only, which
    /// is checked by laying out its other elements one element a line (so
    /// that the result differs from `text`).
    static func laidOut(_ text: String) -> String {
        let bytes = Array(text.utf8)
        // Each `[`'s form, in order.
        var forms: [Bool] = []
        var compact: [UInt8] = []
        var inString = false
        var escaped = false
        for (index, byte) in bytes.enumerated() {
            if inString {
                compact.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            if byte == UInt8(ascii: "[") { forms.append(index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n")) }
            if byte != UInt8(ascii: " "), byte != UInt8(ascii: "\n") {
                compact.append(byte)
                if byte == UInt8(ascii: "\"") { inString = true }
            }
        }
        var out = ""
        var expanded: [Bool] = []
        var arrays = 0
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
                var breaks = !empty
                if byte == UInt8(ascii: "[") {
                    let chosen = forms[arrays]
                    arrays += 1
                    breaks = !empty && (chosen || next == UInt8(ascii: "{") || next == UInt8(ascii: "["))
                }
                expanded.append(breaks)
                out += character
                if breaks { newline(expanded.count) }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if expanded.removeLast() { newline(expanded.count) }
                out += character
            case UInt8(ascii: ","):
                out += ","
                if expanded.last == true || next == UInt8(ascii: "{") || next == UInt8(ascii: "[") { newline(expanded.count) } else { out += " " }
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

    // MARK: - Exact masks

    /// The vocabulary of the mask checks with the whitespace tokens real
    /// vocabularies have, alone and where a value ends and the structure
    /// goes on: tokens that close a string or number and break the line.
    static let exactVocabulary: TokenVocabulary = {
        var tokens = MaskExactnessTests.vocabulary.tokens.filter { !$0.isEmpty }
        tokens += [
            "\n", "\n  ", "\n    ", "  ", "    ", ",\n", ",\n  ", ",\n  \"", "{\n", "{\n  \"", "[\n", "\n}", "\n]", "\n  }", "\n  ]", "\"\n",
            "\",\n", "\",\n  \"", "\"\n}", "1\n", "1,\n", "},\n", "}\n", "]\n", "],\n", "\": {\n", "\": [\n", "\": ", "\": \"", ", ", "[\"",
            "e\n", "ab\",\n    \"", "null\n", "true,\n",
        ].map { Array($0.utf8) }
        tokens.append([])
        return TokenVocabulary(tokens: tokens, endOfGeneration: [Int32(tokens.count - 1)])
    }()

    static let exact: [(name: String, root: SchemaNode)] = [
        ("any value", .any),
        ("a map of anything", map),
        ("a person", person),
        ("extra keys", open),
        (
            "a map in a list",
            .array(ArrayNode(items: .object(ObjectNode(properties: [], additionalProperties: .string(StringNode()))), maximumCount: 2))
        ),
    ]

    /// The mask is exactly the tokens the matcher accepts, in free-form
    /// values and among extra keys, indented.
    @Test(arguments: exact.indices)
    func theMaskIsWhatTheMatcherAccepts(_ index: Int) throws {
        let (name, root) = Self.exact[index]
        let constraint = try TokenConstraint(root: root, definitions: [], vocabulary: Self.exactVocabulary, layout: .indented)
        MaskExactnessTests.expectExactMasks(constraint, name: name, vocabulary: Self.exactVocabulary)
    }

    // MARK: - The other layouts

    /// Free-form values and extra keys in the compact and spaced layouts are
    /// what they always were: one line, no whitespace (compact) or one
    /// space after each `,` and `:` (spaced).
    @Test func theCompactAndSpacedLayoutsAreUnchanged() throws {
        let compact = try TokenConstraint(root: .any, definitions: [], vocabulary: Self.exactVocabulary, layout: .compact)
        let spaced = try TokenConstraint(root: .any, definitions: [], vocabulary: Self.exactVocabulary, layout: .spaced)
        func accepts(_ constraint: TokenConstraint, _ text: String) -> Bool {
            var decoder = constraint.makeDecoder()
            return decoder.accept(bytes: Array(text.utf8)) && decoder.canEnd
        }
        #expect(accepts(compact, #"{"a":[1,{"b":[]}],"c":{}}"#))
        #expect(!accepts(compact, "{\n  \"a\": 1\n}"))
        #expect(!accepts(compact, #"{"a": 1}"#))
        #expect(accepts(spaced, #"{"a": [1, {"b": []}], "c": {}}"#))
        #expect(!accepts(spaced, "{\n  \"a\": 1\n}"))
        #expect(!accepts(spaced, "[\n  1\n]"))
        #expect(!accepts(spaced, #"{"a":1}"#))
        for (constraint, text) in [(compact, "{\"a\":[1,{\"\":0"), (spaced, "{\"a\": [1, {\"\": 0")] {
            var decoder = constraint.makeDecoder()
            let accepted = decoder.accept(bytes: Array(text.utf8))
            #expect(accepted)
            let tokens = decoder.completionTokens()
            let completion = try #require(tokens)
            #expect(String(decoding: completion.flatMap { Self.exactVocabulary.tokens[Int($0)] }, as: UTF8.self) == "}]}")
        }
        for seed in 0..<20 {
            let text = try randomWalk(compact, seed: seed, budget: 20 + seed * 3)
            #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) != nil, "\(text)")
            #expect(!Self.outsideStrings(text).contains { $0 == " " || $0 == "\n" }, "\(text)")
            let spacedText = try randomWalk(spaced, seed: seed, budget: 20 + seed * 3)
            #expect(JSONLayoutTests.isSpaced(spacedText), "\(spacedText)")
        }
        MaskExactnessTests.expectExactMasks(spaced, name: "any value, spaced", vocabulary: Self.exactVocabulary)
    }

    /// The bytes of `text` outside its strings' contents.
    static func outsideStrings(_ text: String) -> String {
        var out = ""
        var inString = false
        var escaped = false
        for character in text.unicodeScalars {
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false; out.unicodeScalars.append(character)
                }
                continue
            }
            out.unicodeScalars.append(character)
            if character == "\"" { inString = true }
        }
        return out
    }
}
