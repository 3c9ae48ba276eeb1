import Foundation
import GuidedGeneration
import PropertyBased
import Testing

/// A pattern in this engine's dialect, the same language for
/// NSRegularExpression (ICU), and characters random test strings use.
struct PatternCase: Sendable, CustomTestStringConvertible {
    var pattern: String
    /// ICU spelling where it differs (`\d` is Unicode-wide in ICU, ASCII here;
    /// `.` excludes every line terminator in ICU, only U+000A here).
    var oracle: String?
    var alphabet: String
    /// Strings that must match.
    var matching: [String] = []

    var testDescription: String { pattern }
}

private let common = "ab1Z_ -.\"\\/\n\té😀"

let patternCases: [PatternCase] = [
    PatternCase(pattern: "[A-Z]{2}[0-9]{3,4}", alphabet: "ABZa019", matching: ["AB123", "ZZ0000"]),
    PatternCase(pattern: #"\d{3}-\d{4}"#, oracle: "[0-9]{3}-[0-9]{4}", alphabet: "0159-a", matching: ["555-1234"]),
    PatternCase(
        pattern: #"^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$"#, alphabet: "ab1.@%+-Z",
        matching: ["a.b+c@d-e.fr", "x@y.com"]
    ),
    PatternCase(pattern: "^(foo|bar|baz)$", alphabet: "fobarz", matching: ["foo", "bar", "baz"]),
    PatternCase(pattern: "a*b+c?", alphabet: "abc", matching: ["b", "aabbc"]),
    PatternCase(pattern: "(ab|cd){2,3}", alphabet: "abcd", matching: ["abcd", "cdcdab"]),
    PatternCase(pattern: ".*", oracle: "[^\\n]*", alphabet: common + "\r\u{1}\u{2028}", matching: ["", "a\"b\\c"]),
    PatternCase(pattern: "[^a-c]+", alphabet: "abcd" + common, matching: ["d", "\u{0}"]),
    PatternCase(pattern: #"\w+"#, oracle: "[A-Za-z0-9_]+", alphabet: common, matching: ["a_1"]),
    PatternCase(
        pattern: #"\s*x\s*"#, oracle: "[ \\t\\n\\r\\f\\x0B]*x[ \\t\\n\\r\\f\\x0B]*",
        alphabet: "x \t\n\r\u{B}\u{C}\u{A0}a", matching: [" \t\nx\u{B}\u{C}\r"]
    ),
    PatternCase(pattern: "[é-ü]+", alphabet: "eéêüýa", matching: ["éü"]),
    PatternCase(pattern: "😀|😃+", alphabet: "😀😃😄a", matching: ["😀", "😃😃"]),
    PatternCase(
        pattern: #"[\u{1F600}-\u{1F64F}]*"#, oracle: #"[\x{1F600}-\x{1F64F}]*"#,
        alphabet: "😀🙏🙐😃a\u{FFFF}", matching: ["😀🙏"]
    ),
    PatternCase(pattern: #""[^"\\]*""#, alphabet: "\"\\ab\u{1}", matching: ["\"ab\"", "\"\""]),
    PatternCase(pattern: #"[\x00-\x1f]*"#, alphabet: "\u{0}\u{1}\u{8}\t\n\u{B}\u{C}\r\u{1F} a", matching: ["\u{0}\u{1F}\r"]),
    PatternCase(pattern: #"\\[a-z]+"#, alphabet: "\\az/", matching: ["\\az"]),
    PatternCase(pattern: "(?:a|b)*abb", alphabet: "ab", matching: ["abb", "babababb"]),
    PatternCase(
        pattern: #"(?<year>\d{4})-(?<month>\d{2})"#, oracle: "(?<year>[0-9]{4})-(?<month>[0-9]{2})",
        alphabet: "0129-", matching: ["2024-01"]
    ),
    PatternCase(pattern: "colou?r", alphabet: "colur", matching: ["color", "colour"]),
    PatternCase(pattern: "x{0,3}y{2,}", alphabet: "xy", matching: ["yy", "xxxyyyy"]),
    PatternCase(pattern: "[a-]+[-b]*", alphabet: "ab-c", matching: ["a-", "-b-"]),
    PatternCase(pattern: #"\.\*\+\?\(\)\[\]\{\}\|\^\$"#, alphabet: ".*+?()[]{}|^$", matching: [".*+?()[]{}|^$"]),
    PatternCase(pattern: #"a\tb\nc\rd\fe\vf"#, alphabet: "abcdef\t\n\r\u{C}\u{B}", matching: ["a\tb\nc\rd\u{C}e\u{B}f"]),
    PatternCase(pattern: #"\x41\u0042\x{43}\u{44}"#, oracle: "ABCD", alphabet: "ABCD", matching: ["ABCD"]),
    PatternCase(
        pattern: #"[^\d\s]+"#, oracle: "[^0-9 \\t\\n\\r\\f\\x0B]+", alphabet: common + "0\r",
        matching: ["é😀\"\\"]
    ),
    PatternCase(pattern: "(a|)+b", alphabet: "ab", matching: ["b", "aab"]),
    PatternCase(pattern: "", alphabet: "a ", matching: [""]),
    PatternCase(pattern: "a+?b*?c??", alphabet: "abc", matching: ["a", "aabbc"]),
    PatternCase(pattern: #"[\[\]]+"#, alphabet: "[]a", matching: ["[]"]),
    PatternCase(pattern: ".{2,4}", oracle: "[^\\n]{2,4}", alphabet: common, matching: ["é😀", "\"\\/\t"]),
    PatternCase(pattern: "[^\"]*", alphabet: common + "\u{0}\u{7F}\u{80}\u{FFFF}\u{10FFFF}", matching: ["\\\n\u{10FFFF}"]),
    PatternCase(pattern: "[a/]+", alphabet: "a/\\b", matching: ["a/a"]),
    PatternCase(pattern: "((a|b)c)*", alphabet: "abc", matching: ["", "acbc"]),
    PatternCase(pattern: "(?#a comment)abc", oracle: "abc", alphabet: "abc", matching: ["abc"]),
    PatternCase(pattern: #"\$[0-9]+(\.[0-9]{2})?"#, alphabet: "$0.5a", matching: ["$10", "$1.50"]),
    PatternCase(pattern: "[]a]+", alphabet: "]ab", matching: ["]a"]),
    PatternCase(pattern: #"[^\u0000-\u007F]{1,3}"#, oracle: #"[^\x00-\x7F]{1,3}"#, alphabet: common + "\u{80}\u{7FF}\u{800}", matching: ["é\u{80}😀"]),
]

@Suite("ByteDFA patterns against NSRegularExpression")
struct ByteDFAPatternTests {
    @Test(arguments: patternCases)
    func randomStringsAgreeWithNSRegularExpression(_ testCase: PatternCase) async throws {
        let dfa = try ByteDFA.jsonString(matching: testCase.pattern)
        let regex = try DFACheck.wholeMatchRegex(testCase.oracle ?? testCase.pattern)
        let alphabet = Array(testCase.alphabet)
        await propertyCheck(count: 300, input: Gen.character(drawnFrom: alphabet).string(of: 0...8)) { string in
            let expected = DFACheck.wholeMatch(regex, string)
            #expect(dfa.accepts(DFACheck.encoded(string)) == expected, "\(string.debugDescription)")
        }
    }

    @Test(arguments: patternCases)
    func builtStringsMatch(_ testCase: PatternCase) throws {
        let dfa = try ByteDFA.jsonString(matching: testCase.pattern)
        let regex = try DFACheck.wholeMatchRegex(testCase.oracle ?? testCase.pattern)
        for string in testCase.matching {
            #expect(DFACheck.wholeMatch(regex, string), "oracle: \(string.debugDescription)")
            #expect(dfa.accepts(DFACheck.encoded(string)), "\(string.debugDescription)")
        }
    }

    /// Strings drawn from the automaton itself: each decodes as JSON, is
    /// canonically encoded, and matches the oracle.
    @Test(arguments: patternCases)
    func sampledStringsAreCanonicalMatches(_ testCase: PatternCase) throws {
        let dfa = try ByteDFA.jsonString(matching: testCase.pattern)
        let regex = try DFACheck.wholeMatchRegex(testCase.oracle ?? testCase.pattern)
        var rng = DFATestRNG(state: UInt64(testCase.pattern.utf8.count) &* 7919)
        let sampler = DFACheck.Sampler(dfa)
        for _ in 0..<100 {
            let bytes = sampler.sample(using: &rng)
            #expect(dfa.isFinal(dfa.walk(bytes, from: dfa.start)))
            guard let string = DFACheck.decoded(bytes) else {
                Issue.record("not a JSON string: \(bytes)")
                continue
            }
            #expect(DFACheck.encoded(string) == bytes, "not canonical: \(String(decoding: bytes, as: UTF8.self))")
            #expect(DFACheck.wholeMatch(regex, string), "\(string.debugDescription)")
        }
    }

    @Test(arguments: patternCases)
    func invariantsHold(_ testCase: PatternCase) throws {
        DFACheck.expectInvariants(try ByteDFA.jsonString(matching: testCase.pattern))
    }

    /// Scalar ranges lowered to UTF-8 byte ranges: membership is exact at
    /// and around the bounds and at every encoding-length boundary.
    @Test func randomScalarRangesAreExact() async {
        let scalar = Gen<Int>.int(in: 0...(0x10FFFF - 0x800)).map { value in
            UInt32(value >= 0xD800 ? value + 0x800 : value)
        }
        await propertyCheck(count: 200, input: scalar, scalar) { first, second in
            let low = min(first, second)
            let high = max(first, second)
            let pattern = "[\\x{\(String(low, radix: 16))}-\\x{\(String(high, radix: 16))}]"
            guard let dfa = try? ByteDFA.jsonString(matching: pattern) else {
                Issue.record("could not build \(pattern)")
                return
            }
            var probes: [UInt32] = [low, high, low &+ 1, high &- 1, low / 2 + high / 2, 0, 0x7F, 0x80, 0x7FF, 0x800]
            probes += [0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x3FFFF, 0x40000, 0xFFFFF, 0x100000, 0x10FFFF]
            if low > 0 { probes.append(low - 1) }
            probes.append(high + 1)
            for probe in probes {
                guard let value = Unicode.Scalar(probe) else { continue }
                let string = String(Character(value))
                let inRange = (low...high).contains(probe)
                #expect(dfa.accepts(DFACheck.encoded(string)) == inRange, "\(pattern) U+\(String(probe, radix: 16))")
            }
        }
    }

    @Test func emptyPatternMatchesOnlyTheEmptyString() throws {
        let dfa = try ByteDFA.jsonString(matching: "")
        #expect(DFACheck.acceptedStrings(dfa) == [Array("\"\"".utf8)])
        #expect(try ByteDFA.jsonString(matching: "^$") == dfa)
    }

    @Test func equivalentPatternsGiveEqualAutomata() throws {
        let pairs: [(String, String)] = [
            ("(a|b)*", "[ab]*"),
            ("a|a", "a"),
            ("(?:x){2}", "xx"),
            ("a+", "aa*"),
            ("a{2,}", "aaa*"),
            ("(a*)*", "a*"),
            (#"\d"#, "[0-9]"),
            ("[^\\n]", "."),
            ("a*?", "a*"),
            ("^abc$", "abc"),
        ]
        for (left, right) in pairs {
            #expect(try ByteDFA.jsonString(matching: left) == ByteDFA.jsonString(matching: right), "\(left) vs \(right)")
        }
        #expect(try ByteDFA.jsonString(matching: "a") != ByteDFA.jsonString(matching: "b"))
    }

    @Test func canonicalEncodingInsideThePattern() throws {
        let dfa = try ByteDFA.jsonString(matching: "[\"\\\\/\u{1}\u{8}\n]")
        let accepted = DFACheck.acceptedStrings(dfa)
        let expected = Set([#""\"""#, #""\\""#, #""/""#, #""\u0001""#, #""\b""#, #""\n""#].map { Array($0.utf8) })
        #expect(accepted == expected)
        #expect(!dfa.accepts(Array(#""\/""#.utf8)))
        #expect(!dfa.accepts(Array(#""\u000a""#.utf8)))
    }

    @Test func controlEscapesUseLowercaseHex() throws {
        let dfa = try ByteDFA.jsonString(matching: #"\x1f\x0b"#)
        #expect(DFACheck.acceptedStrings(dfa) == [Array(#""\u001f\u000b""#.utf8)])
    }

    @Test func aPatternThatMatchesNothingIsUnsatisfiable() {
        for pattern in [#"[^\s\S]"#, "a[^\\x{0}-\\x{10FFFF}]b"] {
            #expect {
                _ = try ByteDFA.jsonString(matching: pattern)
            } throws: { error in
                guard case GuidedGenerationError.unsatisfiable(let message) = error else { return false }
                return message.contains(pattern)
            }
        }
    }
}
