import GuidedGeneration
import Testing

/// A pattern that must be refused, and a word its message must contain.
struct RefusedPattern: Sendable, CustomTestStringConvertible {
    var pattern: String
    var mentions: String

    var testDescription: String { pattern }
}

let refusedPatterns: [RefusedPattern] = [
    RefusedPattern(pattern: #"(a)\1"#, mentions: "backreference"),
    RefusedPattern(pattern: #"(?<x>a)\k<x>"#, mentions: "backreference"),
    RefusedPattern(pattern: "a(?=b)", mentions: "lookahead"),
    RefusedPattern(pattern: "a(?!b)", mentions: "lookahead"),
    RefusedPattern(pattern: "(?<=a)b", mentions: "lookbehind"),
    RefusedPattern(pattern: "(?<!a)b", mentions: "lookbehind"),
    RefusedPattern(pattern: "(?>a|ab)c", mentions: "atomic group"),
    RefusedPattern(pattern: "a*+", mentions: "possessive"),
    RefusedPattern(pattern: "a++", mentions: "possessive"),
    RefusedPattern(pattern: "a?+", mentions: "possessive"),
    RefusedPattern(pattern: "a{2}+", mentions: "possessive"),
    RefusedPattern(pattern: "a{2,5}+", mentions: "possessive"),
    RefusedPattern(pattern: "a^b", mentions: "anchor"),
    RefusedPattern(pattern: "a$b", mentions: "anchor"),
    RefusedPattern(pattern: "(a$)", mentions: "anchor"),
    RefusedPattern(pattern: #"\bword\b"#, mentions: "word boundary"),
    RefusedPattern(pattern: #"a\B"#, mentions: "word boundary"),
    RefusedPattern(pattern: #"\Aa"#, mentions: "anchor"),
    RefusedPattern(pattern: #"a\z"#, mentions: "anchor"),
    RefusedPattern(pattern: #"a\Z"#, mentions: "anchor"),
    RefusedPattern(pattern: #"\Ga"#, mentions: "anchor"),
    RefusedPattern(pattern: "(?i)abc", mentions: "inline flags"),
    RefusedPattern(pattern: "(?i:abc)", mentions: "inline flags"),
    RefusedPattern(pattern: "(?x) a b", mentions: "inline flags"),
    RefusedPattern(pattern: #"\p{L}+"#, mentions: "Unicode property"),
    RefusedPattern(pattern: #"\P{Lu}"#, mentions: "Unicode property"),
    RefusedPattern(pattern: #"[\p{L}]"#, mentions: "Unicode property"),
    RefusedPattern(pattern: "[[:alpha:]]+", mentions: "POSIX character class"),
    RefusedPattern(pattern: "[a-z&&[^aeiou]]", mentions: "set operation"),
    RefusedPattern(pattern: "[a-z--[aeiou]]", mentions: "set operation"),
    RefusedPattern(pattern: "[a[bc]]", mentions: "nested character class"),
    RefusedPattern(pattern: "a{1001}", mentions: "above 1000"),
    RefusedPattern(pattern: "a{2,5000}", mentions: "above 1000"),
    RefusedPattern(pattern: "a{5,2}", mentions: "minimum exceeds its maximum"),
    RefusedPattern(pattern: "(ab", mentions: "unbalanced parentheses"),
    RefusedPattern(pattern: "ab)", mentions: "unbalanced parentheses"),
    RefusedPattern(pattern: "((a)|b", mentions: "unbalanced parentheses"),
    RefusedPattern(pattern: "[ab", mentions: "unbalanced brackets"),
    RefusedPattern(pattern: "[^", mentions: "unbalanced brackets"),
    RefusedPattern(pattern: "*abc", mentions: "nothing to repeat"),
    RefusedPattern(pattern: "a|+b", mentions: "nothing to repeat"),
    RefusedPattern(pattern: "(?:)?x(*)", mentions: "nothing to repeat"),
    RefusedPattern(pattern: "^*", mentions: "nothing to repeat"),
    RefusedPattern(pattern: "{3}", mentions: "nothing to repeat"),
    RefusedPattern(pattern: "a**", mentions: "after another quantifier"),
    RefusedPattern(pattern: "a{", mentions: "starts no repetition"),
    RefusedPattern(pattern: "[z-a]", mentions: "out of order"),
    RefusedPattern(pattern: #"[a-\d]"#, mentions: "class escape"),
    RefusedPattern(pattern: #"abc\"#, mentions: "trailing backslash"),
    RefusedPattern(pattern: #"\q"#, mentions: "unknown escape"),
    RefusedPattern(pattern: #"\uD800"#, mentions: "surrogate"),
    RefusedPattern(pattern: #"\x{110000}"#, mentions: "above U+10FFFF"),
    RefusedPattern(pattern: #"\xZZ"#, mentions: "bad escape"),
    RefusedPattern(pattern: #"\X"#, mentions: "grapheme"),
    RefusedPattern(pattern: "(?|a)", mentions: "group construct"),
]

@Suite("ByteDFA pattern syntax")
struct ByteDFASyntaxTests {
    @Test(arguments: refusedPatterns)
    func unsupportedConstructsAreRefusedByName(_ refused: RefusedPattern) {
        do {
            let dfa = try ByteDFA.jsonString(matching: refused.pattern)
            Issue.record("accepted, with \(dfa.stateCount) states")
        } catch {
            guard case .unsupportedGuide(let message) = error else {
                Issue.record("wrong error: \(error)")
                return
            }
            #expect(message.contains(refused.mentions), "\(message)")
            #expect(message.contains("\"\(refused.pattern)\""), "\(message)")
        }
    }

    @Test(arguments: [
        "^abc$", "(?:a)", "(?<name>a)", "(?P<name>a)", "(?'name'a)", "a{0}", "a{,3}", "a{1000}",
        #"\$"#, #"a\$"#, #"\\$"#, "[$^]", "}", "]", #"\cA"#, #"\0"#, #"\012"#, #"\e\a"#, #"\U0001F600"#,
        "[-]", "[a-]", "()", "(|)", "a||b",
    ])
    func supportedSyntaxIsAccepted(_ pattern: String) throws {
        DFACheck.expectInvariants(try ByteDFA.jsonString(matching: pattern))
    }

    @Test func trailingDollarAndEscapes() throws {
        let literalDollar = try ByteDFA.jsonString(matching: #"a\$"#)
        #expect(literalDollar.accepts(Array(#""a$""#.utf8)))
        let anchor = try ByteDFA.jsonString(matching: #"a\\$"#)
        #expect(anchor.accepts(Array(#""a\\""#.utf8)))
        #expect(!anchor.accepts(Array(#""a\\$""#.utf8)))
        let nul = try ByteDFA.jsonString(matching: #"\0"#)
        #expect(DFACheck.acceptedStrings(nul) == [Array(#""\u0000""#.utf8)])
        let octal = try ByteDFA.jsonString(matching: #"\0101"#)
        #expect(DFACheck.acceptedStrings(octal) == [Array(#""A""#.utf8)])
        let upTo = try ByteDFA.jsonString(matching: "a{,2}")
        #expect(DFACheck.acceptedStrings(upTo) == Set(["\"\"", "\"a\"", "\"aa\""].map { Array($0.utf8) }))
    }

    @Test func tooManyStatesIsRefused() {
        for pattern in ["(a|b)*a(a|b){20}", ".{0,1000}", "(a{1000}){1000}"] {
            do {
                _ = try ByteDFA.jsonString(matching: pattern)
                Issue.record("\(pattern) was accepted")
            } catch {
                guard case .unsupportedGuide(let message) = error else {
                    Issue.record("wrong error: \(error)")
                    continue
                }
                #expect(message.hasPrefix("pattern \"\(pattern)\" needs more than "), "\(message)")
                #expect(message.hasSuffix(" automaton states"), "\(message)")
            }
        }
    }

    /// Found by `make fuzz` (regex, the second pattern): searched for
    /// anywhere, a long count has a few thousand states, each a set of
    /// hundreds of positions, and its cost grows with the square of the
    /// count. It is refused with a clear error instead.
    @Test func aSearchTooCostlyToBuildIsRefused() throws {
        for pattern in [".{1000}", #"(?:ab|cd)*[^\s,]{255}|x?y+z{3}"#] {
            do {
                _ = try ByteDFA.jsonString(matching: pattern, search: true)
                Issue.record("\(pattern) was accepted")
            } catch {
                guard case .unsupportedGuide(let message) = error else {
                    Issue.record("wrong error: \(error)")
                    continue
                }
                #expect(message.contains("too large to enforce"), "\(message)")
            }
        }
        // Searches of moderate counts still build.
        let moderate = try ByteDFA.jsonString(matching: "[a-z]{100}", search: true)
        #expect(moderate.accepts(DFACheck.encoded("..." + String(repeating: "q", count: 100) + "!")))
        #expect(!moderate.accepts(DFACheck.encoded(String(repeating: "q", count: 99))))
    }

    /// Found by `make fuzz` (json-schema, a timeout): JSON Schema patterns
    /// are searched for anywhere, and such a search can have thousands of
    /// subset-construction states of hundreds of NFA positions each, or
    /// close a set for each of dozens of byte classes, taking seconds to
    /// build or refuse in a debug build while staying under the cap on
    /// stored entries. Times before the work bound, in this order, debug
    /// build: 5.2 s, 13.8 s, 1.4 s, 1.4 s, 1.3 s, 1.2 s, 2.4 s; after: under
    /// 0.5 s each.
    @Test func costlyPatternsAreBuiltOrRefusedQuickly() throws {
        let classOfSingleBytes = #"[!#%')+\-/13579;=?ACEGIKMOQSUWY_acegikmoqsuwy{}]"#
        let cases: [(pattern: String, search: Bool)] = [
            (".{30}x.{30}", true),
            (classOfSingleBytes + "?.{30}x.{30}", true),
            ("(a|b)*a(a|b){20}", true),
            ("((ab){3,9}c){5,20}.{40}", true),
            ("((a|(?:){0,1000})(?:){0,1000}){150}", true),
            ("(a{1000}){199}", false),
            (".{180}", true),
        ]
        let clock = ContinuousClock()
        var built: [String: ByteDFA] = [:]
        for (pattern, search) in cases {
            let started = clock.now
            do {
                built[pattern] = try ByteDFA.jsonString(matching: pattern, search: search)
            } catch {
                guard case .unsupportedGuide(let message) = error else {
                    Issue.record("\(pattern): wrong error: \(error)")
                    continue
                }
                #expect(message.contains("too large to enforce") || message.hasSuffix(" automaton states"), "\(message)")
                // Dozens of byte classes make each state cost more than its
                // stored entries say: the bound on work refuses this one.
                if pattern.hasPrefix(classOfSingleBytes) {
                    #expect(message.contains("building its automaton takes more than"), "\(message)")
                }
            }
            let elapsed = clock.now - started
            #expect(elapsed < .seconds(3), "\(pattern) took \(elapsed)")
        }
        // Large searches within the bound still build, and ordinary ones
        // match as before.
        let wide = try #require(built[".{180}"])
        #expect(wide.accepts(DFACheck.encoded("<" + String(repeating: "é", count: 180) + ">")))
        #expect(!wide.accepts(DFACheck.encoded(String(repeating: "é", count: 179))))
        let empties = try #require(built["((a|(?:){0,1000})(?:){0,1000}){150}"])
        #expect(empties.accepts(DFACheck.encoded("")))
        let date = try ByteDFA.jsonString(matching: #"\d{4}-\d{2}-\d{2}"#, search: true)
        #expect(date.accepts(DFACheck.encoded("due 2024-05-01!")))
        #expect(!date.accepts(DFACheck.encoded("due 2024-5-01")))
        let code = try ByteDFA.jsonString(matching: "[A-Z]{2}[0-9]{3,4}")
        #expect(code.accepts(DFACheck.encoded("AB1234")))
        #expect(!code.accepts(DFACheck.encoded("AB12")))
    }

    @Test func largeButBoundedPatternsBuild() throws {
        let dfa = try ByteDFA.jsonString(matching: "[a-z]{1000}")
        #expect(dfa.stateCount == 1003)
        let long = try ByteDFA.jsonString(matching: ".{0,500}")
        DFACheck.expectInvariants(try ByteDFA.jsonString(matching: ".{0,20}"))
        #expect(long.accepts(DFACheck.encoded(String(repeating: "é\t", count: 250))))
        #expect(!long.accepts(DFACheck.encoded(String(repeating: "é", count: 501))))
    }
}
