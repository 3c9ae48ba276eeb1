import Foundation
import GuidedGeneration
import PropertyBased
import Testing

@Suite("ByteDFA")
struct ByteDFATests {
    // MARK: Combining automata

    @Test func combiningManyAutomataStopsAtTheWorkBound() throws {
        // 300 automata (10 patterns, repeated) whose product remembers the
        // last 10 bytes: about 2,000 states, well within the state limit,
        // but 300 component transitions per state and joint byte class
        // (a handful: `a`, `b`, the quote, the rest), 3 million in all.
        // A bound of a million stops it after about 650 states.
        let patterns = try (0..<10).map { try ByteDFA.jsonString(matching: "^[ab]*a[ab]{\($0)}$") }
        let automata = (0..<300).map { patterns[$0 % 10] }
        #expect {
            try ByteDFA.intersection(automata, subject: "keys", workLimit: 1_000_000)
        } throws: { error in
            "\(error)".contains("transitions of work")
        }
        // A few automata stay well within it.
        let few = try ByteDFA.intersection(Array(automata.prefix(3)), subject: "keys", workLimit: 1_000_000)
        #expect(few.accepts(Array(#""baaa""#.utf8)))
        #expect(!few.accepts(Array(#""abbb""#.utf8)))
    }

    // MARK: Residuals

    /// What may follow a state is the same automaton, whatever automaton
    /// the state belongs to: the masks kept for one are right for the other.
    @Test func statesThatAcceptTheSameRestHaveEqualResiduals() throws {
        let first = try ByteDFA.jsonString(matching: "^ab[0-9]{2}$")
        let second = try ByteDFA.jsonString(matching: "^(xy|zw)[0-9]{2}$")
        let afterAB = first.walk(Array(#""ab"#.utf8), from: first.start)
        let afterXY = second.walk(Array(#""xy"#.utf8), from: second.start)
        let afterZW = second.walk(Array(#""zw"#.utf8), from: second.start)
        #expect(afterAB >= 0 && afterXY >= 0)
        #expect(first.residual(from: afterAB) == second.residual(from: afterXY))
        #expect(second.residual(from: afterXY) == second.residual(from: afterZW))
        // One digit further, one fewer is left: another residual.
        let afterABOne = first.walk(Array("1".utf8), from: afterAB)
        #expect(first.residual(from: afterABOne) != first.residual(from: afterAB))
        // The residual accepts exactly the rest.
        let rest = first.residual(from: afterAB)
        #expect(rest.accepts(Array(#"42""#.utf8)))
        #expect(!rest.accepts(Array(#"4""#.utf8)))
        #expect(!rest.accepts(Array(#"ab42""#.utf8)))
        // From the start, the residual is the automaton itself.
        #expect(first.residual(from: first.start) == first)
    }

    // MARK: Any JSON string

    @Test func anyJSONStringAcceptsJSONSerializationOutput() async throws {
        let dfa = ByteDFA.anyJSONString
        await propertyCheck(count: 500, input: Gen.singleScalarCharacter.string(of: 0...12)) { string in
            guard let data = try? JSONSerialization.data(withJSONObject: string, options: [.fragmentsAllowed]) else {
                Issue.record("JSONSerialization refused \(string.debugDescription)")
                return
            }
            let state = dfa.walk(Array(data), from: dfa.start)
            #expect(dfa.isAccepting(state), "\(String(decoding: data, as: UTF8.self))")
            #expect(dfa.isFinal(state))
            // And the canonical spelling too.
            #expect(dfa.accepts(DFACheck.encoded(string)))
        }
    }

    @Test func anyJSONStringAcceptsEveryEscape() {
        let accepted = [
            #""""#, #""\"\\\/\b\f\n\r\t""#, #""\u0000\u00e9\u00E9\uFFFF\uffff\uD7FF\ue000\uAbCd""#,
            "\"\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}é😀\"", "\"'/ {}[]:,\"",
        ]
        for text in accepted {
            #expect(ByteDFA.anyJSONString.accepts(Array(text.utf8)), "\(text)")
        }
    }

    @Test func anyJSONStringRejectsInvalidStrings() {
        let quote: UInt8 = 0x22
        let rejected: [[UInt8]] = [
            // Raw control bytes.
            [quote, 0x61, 0x01, quote], [quote, 0x0A, quote], [quote, 0x09, quote], [quote, 0x00, quote],
            [quote, 0x1F, quote],
            // Invalid escapes.
            Array(#""\a""#.utf8), Array(#""\x41""#.utf8), Array(#""\u12""#.utf8), Array(#""\u12g4""#.utf8),
            Array(#""\U0041""#.utf8), Array(#""\'""#.utf8), Array(#""\""#.utf8), Array(#""\ ""#.utf8),
            // Surrogate escapes, lone or paired.
            Array(#""\ud800""#.utf8), Array(#""\uDFFF""#.utf8), Array(#""\uDbFF""#.utf8),
            Array(#""\ud83d\ude00""#.utf8),
            // Invalid UTF-8.
            [quote, 0xC0, 0x80, quote], [quote, 0xC1, 0xBF, quote], [quote, 0xE0, 0x80, 0x80, quote],
            [quote, 0xED, 0xA0, 0x80, quote], [quote, 0xED, 0xBF, 0xBF, quote], [quote, 0xF0, 0x80, 0x80, 0x80, quote],
            [quote, 0xF4, 0x90, 0x80, 0x80, quote], [quote, 0xF5, 0x80, 0x80, 0x80, quote], [quote, 0xFF, quote],
            [quote, 0x80, quote], [quote, 0xC3, quote], [quote, 0xE2, 0x82, quote], [quote, 0xF0, 0x9F, 0x98, quote],
            // Unterminated or not a string.
            Array(#""abc"#.utf8), [quote], [], Array("abc\"".utf8), Array(#""a"b""#.utf8), Array(#"'a'"#.utf8),
        ]
        for bytes in rejected {
            #expect(!ByteDFA.anyJSONString.accepts(bytes), "\(bytes.map { String($0, radix: 16) })")
        }
    }

    /// Raw content bytes (no quote, backslash or control) are accepted
    /// exactly when they are valid UTF-8, as the standard library decides.
    @Test func anyJSONStringRawBytesAreExactlyValidUTF8() {
        let dfa = ByteDFA.anyJSONString
        var contents: [[UInt8]] = []
        for first in 0x80...0xFF {
            for second in 0x7E...0xC1 {
                contents.append([UInt8(first), UInt8(second)])
                for third: UInt8 in [0x7F, 0x80, 0xBF, 0xC0] {
                    contents.append([UInt8(first), UInt8(second), third])
                }
            }
        }
        for first in 0xF0...0xF7 {
            for second in 0x7E...0xC1 {
                for third: UInt8 in [0x80, 0xBF] {
                    for fourth: UInt8 in [0x7F, 0x80, 0xBF] {
                        contents.append([UInt8(first), UInt8(second), third, fourth])
                    }
                }
            }
        }
        var mismatches = 0
        for content in contents {
            let valid = String(validating: content, as: UTF8.self) != nil
            if dfa.accepts([0x22] + content + [0x22]) != valid {
                mismatches += 1
                if mismatches < 10 {
                    Issue.record("\(content.map { String($0, radix: 16) }): valid UTF-8 \(valid)")
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func anyJSONStringInvariants() {
        let dfa = ByteDFA.anyJSONString
        DFACheck.expectInvariants(dfa)
        let closed = dfa.walk(Array(#""ab""#.utf8), from: dfa.start)
        #expect(dfa.isFinal(closed))
        #expect(!dfa.isAccepting(dfa.walk(Array(#""ab"#.utf8), from: dfa.start)))
        #expect(dfa.next(closed, 0x22) == ByteDFA.dead)
    }

    // MARK: Choices

    static let trickyChoices = [
        "plain", "with \"quotes\"", "back\\slash", "a/b", "tab\there", "line\nbreak", "\u{1}\u{1F}\u{7F}",
        "bell\u{7}", "é", "e\u{301}", "😀", "👩‍👩‍👧", "", "pla", "plain ", "\r\n", "\u{8}\u{C}",
    ]

    @Test func choicesAcceptExactlyTheirEncodings() throws {
        let dfa = try ByteDFA.jsonString(oneOf: Self.trickyChoices)
        DFACheck.expectInvariants(dfa)
        let expected = Set(Self.trickyChoices.map(DFACheck.encoded))
        #expect(DFACheck.acceptedStrings(dfa) == expected)
        for choice in Self.trickyChoices {
            let bytes = DFACheck.encoded(choice)
            #expect(dfa.isFinal(dfa.walk(bytes, from: dfa.start)))
            #expect(DFACheck.decoded(bytes) == choice)
        }
    }

    @Test func oneChoiceHasOneSpelling() async {
        await propertyCheck(count: 200, input: Gen.singleScalarCharacter.string(of: 0...6)) { string in
            guard let dfa = try? ByteDFA.jsonString(oneOf: [string]) else {
                Issue.record("could not build \(string.debugDescription)")
                return
            }
            #expect(DFACheck.acceptedStrings(dfa) == [DFACheck.encoded(string)])
            #expect(dfa.stateCount == DFACheck.encoded(string).count + 1)
        }
    }

    @Test func randomChoiceListsAgreeWithSetMembership() async {
        let word = Gen.character(drawnFrom: Array("ab\"\\é\n")).string(of: 0...4)
        await propertyCheck(count: 200, input: word.array(of: 1...8), word) { choices, probe in
            guard let dfa = try? ByteDFA.jsonString(oneOf: choices) else {
                Issue.record("could not build \(choices)")
                return
            }
            #expect(dfa.accepts(DFACheck.encoded(probe)) == choices.contains(probe))
            #expect(DFACheck.acceptedStrings(dfa) == Set(choices.map(DFACheck.encoded)))
            DFACheck.expectInvariants(dfa)
        }
    }

    /// A real vocabulary's worth of names (SchemaStore's CryEngine schema
    /// enumerates 2,461 variables) needs more states than a pattern may
    /// take; a choice list's own limit admits it, and it stays exact.
    @Test func aLargeChoiceListCompilesExactly() throws {
        let choices = (0..<3_000).map { "cvar_\($0)_" + String(String($0 &* 7_919, radix: 36).reversed()) }
        let dfa = try ByteDFA.jsonString(oneOf: choices)
        #expect(dfa.stateCount > ByteDFA.maximumStateCount)
        #expect(dfa.stateCount <= ByteDFA.maximumChoiceStateCount)
        for choice in choices {
            #expect(dfa.accepts(DFACheck.encoded(choice)))
        }
        #expect(!dfa.accepts(DFACheck.encoded("cvar_1_")))
        #expect(!dfa.accepts(DFACheck.encoded(choices[7] + "x")))
        #expect(!dfa.accepts(DFACheck.encoded("cvar_3000_0")))
    }

    @Test func choicesMatchTheEquivalentPattern() throws {
        let choices = ["red", "green", "blue", "reed"]
        #expect(try ByteDFA.jsonString(oneOf: choices) == ByteDFA.jsonString(matching: "red|green|blue|reed"))
        #expect(try ByteDFA.jsonString(oneOf: ["a", "a", "b"]) == ByteDFA.jsonString(oneOf: ["b", "a"]))
    }

    @Test func noChoicesIsUnsatisfiable() {
        #expect(throws: GuidedGenerationError.self) {
            _ = try ByteDFA.jsonString(oneOf: [])
        }
        do {
            _ = try ByteDFA.jsonString(oneOf: [])
        } catch {
            guard case .unsatisfiable = error else {
                Issue.record("wrong error: \(error)")
                return
            }
        }
    }

    // MARK: Literals

    @Test func trueOrFalse() {
        let dfa = ByteDFA.literals([Array("true".utf8), Array("false".utf8)])
        DFACheck.expectInvariants(dfa)
        #expect(DFACheck.acceptedStrings(dfa) == [Array("true".utf8), Array("false".utf8)])
        #expect(dfa.isFinal(dfa.walk(Array("true".utf8), from: dfa.start)))
        #expect(dfa.isFinal(dfa.walk(Array("false".utf8), from: dfa.start)))
        #expect(!dfa.isAccepting(dfa.walk(Array("tru".utf8), from: dfa.start)))
        #expect(dfa.walk(Array("truex".utf8), from: dfa.start) == ByteDFA.dead)
        #expect(dfa.walk(Array("f".utf8), from: dfa.start) != ByteDFA.dead)
        #expect(dfa.walk(Array("n".utf8), from: dfa.start) == ByteDFA.dead)
        // Minimal: "tru" and "fals" both need only "e", so they merge.
        #expect(dfa.stateCount == 8)
    }

    @Test func literalsThatArePrefixesOfOthers() {
        let dfa = ByteDFA.literals([Array("null".utf8), Array("nullable".utf8)])
        DFACheck.expectInvariants(dfa)
        let afterNull = dfa.walk(Array("null".utf8), from: dfa.start)
        #expect(dfa.isAccepting(afterNull))
        #expect(!dfa.isFinal(afterNull))
        #expect(dfa.isFinal(dfa.walk(Array("nullable".utf8), from: dfa.start)))
    }

    @Test func noLiteralsAcceptsNothing() {
        let dfa = ByteDFA.literals([])
        #expect(dfa.start == ByteDFA.dead)
        #expect(dfa.stateCount == 0)
        #expect(!dfa.accepts([]))
        #expect(dfa.next(dfa.start, 0x74) == ByteDFA.dead)
    }

    // MARK: Closing quote

    @Test func closingQuoteIsFinal() throws {
        let cases: [(ByteDFA, String)] = [
            (try ByteDFA.jsonString(matching: "a*"), #""aa""#),
            (try ByteDFA.jsonString(oneOf: ["x", "xy"]), #""x""#),
            (.anyJSONString, #""\n""#),
        ]
        for (dfa, value) in cases {
            let open = dfa.next(dfa.start, 0x22)
            #expect(!dfa.isAccepting(dfa.start))
            #expect(!dfa.isFinal(open))
            let closed = dfa.walk(Array(value.utf8), from: dfa.start)
            #expect(dfa.isFinal(closed))
            #expect((0...255).allSatisfy { dfa.next(closed, UInt8($0)) == ByteDFA.dead })
        }
    }
}
