import Foundation
import GuidedGeneration
import PropertyBased
import Testing

/// An independent judge of what a number constraint should accept: the
/// grammar as a regular expression, the bounds compared as `Decimal`s read
/// from the bounds' descriptions. Shares no code with `NumberConstraint`.
struct NumberReference: CustomStringConvertible, Sendable {
    let isInteger: Bool
    let minimum: Double?
    let maximum: Double?
    private let low: Decimal?
    private let high: Decimal?

    init(isInteger: Bool, minimum: Double?, maximum: Double?) {
        self.isInteger = isInteger
        self.minimum = minimum
        self.maximum = maximum
        self.low = Self.decimal(minimum)
        self.high = Self.decimal(maximum)
    }

    var description: String {
        "\(isInteger ? "integer" : "number") [\(minimum.map { "\($0)" } ?? "-∞"), \(maximum.map { "\($0)" } ?? "∞")]"
    }

    nonisolated(unsafe) static let integerGrammar = try! Regex("-?(0|[1-9][0-9]{0,17})")
    nonisolated(unsafe) static let numberGrammar = try! Regex("-?(0|[1-9][0-9]{0,14})(\\.[0-9]{1,15})?")

    static func decimal(_ bound: Double?) -> Decimal? {
        guard let bound, bound.isFinite else { return nil }
        guard let value = Decimal(string: bound.description) else {
            Issue.record("reference cannot read bound \(bound)")
            return nil
        }
        return value
    }

    /// The text matches the language (grammar, digit limits, no negative zero).
    func isWellFormed(_ text: String) -> Bool {
        let grammar = isInteger ? Self.integerGrammar : Self.numberGrammar
        if text.utf8.count <= 5 {
            // The same regular expression, evaluated once for all short texts.
            guard shortWellFormedTexts[text] != nil, !isInteger || !text.utf8.contains(UInt8(ascii: ".")) else { return false }
        } else {
            guard (try? grammar.wholeMatch(in: text)) != nil else { return false }
        }
        if text.hasPrefix("-"), text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) { return false }
        return true
    }

    func accepts(_ text: String) -> Bool {
        guard isWellFormed(text), let value = shortWellFormedTexts[text] ?? Decimal(string: text) else { return false }
        if let low, value < low { return false }
        if let high, value > high { return false }
        return true
    }

    /// Some value on the grid of the finest text (10⁻¹⁵, or 1 for
    /// integers) within the digit limits lies in the bounds.
    var isSatisfiable: Bool {
        let grid = Decimal(string: isInteger ? "1" : "1e15")!
        let limit = Decimal(string: isInteger ? "999999999999999999" : "999999999999999999999999999999")!
        var lowest = -limit
        var highest = limit
        if var scaled = low.map({ $0 * grid }) {
            var rounded = Decimal()
            NSDecimalRound(&rounded, &scaled, 0, .up)
            lowest = max(lowest, rounded)
        }
        if var scaled = high.map({ $0 * grid }) {
            var rounded = Decimal()
            NSDecimalRound(&rounded, &scaled, 0, .down)
            highest = min(highest, rounded)
        }
        if minimum == .infinity || maximum == -.infinity { return false }
        return lowest <= highest
    }

    func makeConstraint() throws -> NumberConstraint {
        try NumberConstraint(isInteger: isInteger, minimum: minimum, maximum: maximum)
    }
}

/// Feeds `text` byte by byte; nil as soon as a byte is refused.
private func walk(_ constraint: NumberConstraint, _ text: String) -> LeafState? {
    var state = constraint.initial
    for byte in text.utf8 {
        guard let next = constraint.next(state, byte) else { return nil }
        state = next
    }
    return state
}

private func accepts(_ constraint: NumberConstraint, _ text: String) -> Bool {
    walk(constraint, text).map(constraint.isAccepting) ?? false
}

/// SplitMix64, so a property input (a seed) drives whole random walks.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

private let numberBytes = Array("-0123456789.".utf8)
private let probeBytes = numberBytes + Array(",e +".utf8)

/// Every string of length 0...5 over "-0123456789." that matches either
/// grammar, with its value (computed once; strings with other bytes never
/// match).
private let shortWellFormedTexts: [String: Decimal] = {
    var result: [String: Decimal] = [:]
    var layer = [""]
    for _ in 0...5 {
        var nextLayer: [String] = []
        for text in layer {
            if (try? NumberReference.numberGrammar.wholeMatch(in: text)) != nil { result[text] = Decimal(string: text) }
            for byte in numberBytes { nextLayer.append(text + String(UnicodeScalar(byte))) }
        }
        layer = nextLayer
    }
    return result
}()

private let bruteForceCases: [NumberReference] = [
    NumberReference(isInteger: false, minimum: nil, maximum: nil),
    NumberReference(isInteger: true, minimum: nil, maximum: nil),
    NumberReference(isInteger: false, minimum: 0, maximum: nil),
    NumberReference(isInteger: false, minimum: nil, maximum: 0),
    NumberReference(isInteger: true, minimum: 5, maximum: nil),
    NumberReference(isInteger: true, minimum: nil, maximum: -3),
    NumberReference(isInteger: false, minimum: -2.5, maximum: -1.25),
    NumberReference(isInteger: false, minimum: 0.1, maximum: 0.35),
    NumberReference(isInteger: false, minimum: 3, maximum: 3),
    NumberReference(isInteger: false, minimum: 0.5, maximum: 0.5),
    NumberReference(isInteger: true, minimum: -15, maximum: 7),
    NumberReference(isInteger: true, minimum: 100, maximum: 199),
    NumberReference(isInteger: false, minimum: -1, maximum: 1),
    NumberReference(isInteger: true, minimum: 3, maximum: 3),
    NumberReference(isInteger: false, minimum: -0.001, maximum: 0.002),
    NumberReference(isInteger: true, minimum: -0.5, maximum: 0.5),
    NumberReference(isInteger: false, minimum: 1e-05, maximum: nil),
    NumberReference(isInteger: false, minimum: 12.34, maximum: 56.7),
    NumberReference(isInteger: true, minimum: -1e20, maximum: 1e20),
    NumberReference(isInteger: false, minimum: -123.456, maximum: -0.05),
    NumberReference(isInteger: true, minimum: 2.5, maximum: 7.5),
    NumberReference(isInteger: false, minimum: -99.99, maximum: 99.99),
    NumberReference(isInteger: true, minimum: -1000, maximum: -990),
    NumberReference(isInteger: false, minimum: 0.1 + 0.2, maximum: 1e+20),
    NumberReference(isInteger: false, minimum: 99999, maximum: 100001),
]

/// Finds an accepted completion of `state` by depth-first search through
/// `next` (memoized; gives up after `budget` nodes).
private struct CompletionSearch {
    let constraint: NumberConstraint
    var memo: [LeafState: String?] = [:]
    var budget = 200_000

    mutating func completion(of state: LeafState) -> String? {
        if let known = memo[state] { return known }
        budget -= 1
        guard budget > 0 else { return nil }
        var found: String? = nil
        if constraint.isAccepting(state) {
            found = constraint.text(of: state)
        } else if constraint.text(of: state).utf8.count < NumberConstraint.maximumLength {
            for byte in Array("0123456789.-".utf8) {
                if let child = constraint.next(state, byte), let text = completion(of: child) {
                    found = text
                    break
                }
            }
        }
        memo[state] = .some(found)
        return found
    }
}

@Suite struct NumberConstraintTests {
    @Test(arguments: bruteForceCases)
    func bruteForceShortTexts(_ reference: NumberReference) throws {
        let constraint = try reference.makeConstraint()
        let expected = Set(shortWellFormedTexts.keys.filter(reference.accepts))
        var search = CompletionSearch(constraint: constraint)
        var acceptedByWalk = Set<String>()
        var statesByText: [LeafState: String] = [:]
        var checkedCompletions = Set<String>()

        // Plain checks in the hot loop: `#expect` is too slow for ~10⁵ calls.
        func check(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition { Issue.record("\(reference): \(message())") }
        }
        func visit(_ text: String, _ state: LeafState) {
            check(constraint.text(of: state) == text, "text(of:) of \"\(text)\"")
            if let other = statesByText.updateValue(text, forKey: state) {
                Issue.record("\(reference): \"\(text)\" and \"\(other)\" share a state")
            }
            let accepting = constraint.isAccepting(state)
            check(accepting == reference.accepts(text), "isAccepting(\"\(text)\") is \(accepting)")
            if accepting { acceptedByWalk.insert(text) }
            // Viability: some accepted number starts with this text.
            if let completion = search.completion(of: state) {
                check(completion.hasPrefix(text), "completion \"\(completion)\" of \"\(text)\"")
                if checkedCompletions.insert(completion).inserted {
                    check(reference.accepts(completion), "completion \"\(completion)\" of \"\(text)\"")
                }
            } else {
                Issue.record("\(reference): dead end at \"\(text)\"")
            }
            var extendable = false
            for byte in probeBytes {
                let longer = text + String(UnicodeScalar(byte))
                if let child = constraint.next(state, byte) {
                    extendable = true
                    if longer.utf8.count <= 5 { visit(longer, child) }
                } else if longer.utf8.count <= 5 {
                    check(!reference.accepts(longer), "refused accepted \"\(longer)\"")
                }
            }
            check(constraint.isFinal(state) == (accepting && !extendable), "isFinal(\"\(text)\")")
        }
        visit("", constraint.initial)
        // Completeness: every accepted short text is reached (and accepted).
        #expect(acceptedByWalk == expected, "\(reference): missing \(expected.subtracting(acceptedByWalk).sorted().prefix(10))")
    }

    @Test func unsatisfiableRangesThrow() {
        let cases: [(Bool, Double?, Double?)] = [
            (true, 0.2, 0.8),
            (true, 0.5, 0.5),
            (true, 5, 3),
            (false, 5, 3),
            (false, 0.35, 0.1),
            (false, 1e20, nil),  // above 15 integer digits
            (false, nil, -1e16),
            (true, 1e19, nil),  // above 18 digits
            (true, nil, -1e18),
            (false, 1e-16, 9e-16),  // between two 15-digit fractions
            (false, .infinity, nil),
            (true, nil, -.infinity),
        ]
        for (isInteger, minimum, maximum) in cases {
            #expect(!NumberReference(isInteger: isInteger, minimum: minimum, maximum: maximum).isSatisfiable)
            #expect(throws: GuidedGenerationError.self, "\(isInteger) \(String(describing: minimum)) \(String(describing: maximum))") {
                _ = try NumberConstraint(isInteger: isInteger, minimum: minimum, maximum: maximum)
            }
            do {
                _ = try NumberConstraint(isInteger: isInteger, minimum: minimum, maximum: maximum)
            } catch {
                guard case .unsatisfiable = error else {
                    Issue.record("expected .unsatisfiable, got \(error)")
                    continue
                }
            }
        }
    }

    @Test func nanBoundsAreUnsupported() {
        for (minimum, maximum) in [(Double.nan, nil), (nil, Double.nan), (0, Double.nan)] as [(Double?, Double?)] {
            for isInteger in [false, true] {
                do {
                    _ = try NumberConstraint(isInteger: isInteger, minimum: minimum, maximum: maximum)
                    Issue.record("NaN bound accepted")
                } catch {
                    guard case .unsupportedGuide = error else {
                        Issue.record("expected .unsupportedGuide, got \(error)")
                        continue
                    }
                }
            }
        }
    }

    @Test func infiniteBoundsMeanUnbounded() throws {
        for isInteger in [false, true] {
            let open = try NumberConstraint(isInteger: isInteger, minimum: -.infinity, maximum: .infinity)
            let none = try NumberConstraint(isInteger: isInteger, minimum: nil, maximum: nil)
            #expect(open == none)
            #expect(open.isInteger == isInteger)
        }
    }

    @Test func finalStates() throws {
        let integerAtMost5 = try NumberConstraint(isInteger: true, minimum: nil, maximum: 5)
        #expect(try #require(walk(integerAtMost5, "5")).isFinal(in: integerAtMost5))
        #expect(try #require(walk(integerAtMost5, "4")).isFinal(in: integerAtMost5))  // 40 > 5
        #expect(try !#require(walk(integerAtMost5, "-4")).isFinal(in: integerAtMost5))  // -40
        #expect(walk(integerAtMost5, "6") == nil)

        let integer = try NumberConstraint(isInteger: true, minimum: nil, maximum: nil)
        #expect(try #require(walk(integer, "0")).isFinal(in: integer))
        #expect(try !#require(walk(integer, "1")).isFinal(in: integer))
        #expect(try #require(walk(integer, "123456789012345678")).isFinal(in: integer))
        #expect(try #require(walk(integer, "-999999999999999999")).isFinal(in: integer))
        #expect(walk(integer, "-0") == nil)
        #expect(walk(integer, "1.") == nil)

        let number = try NumberConstraint(isInteger: false, minimum: nil, maximum: nil)
        #expect(try !#require(walk(number, "0")).isFinal(in: number))  // 0.5
        #expect(try #require(walk(number, "0.000000000000001")).isFinal(in: number))
        #expect(try !#require(walk(number, "-0.00000000000000")).isAccepting(in: number))
        #expect(walk(number, "-0.000000000000000") == nil)
        #expect(try #require(walk(number, "-999999999999999.999999999999999")).isFinal(in: number))
        #expect(NumberConstraint.maximumLength == "-999999999999999.999999999999999".utf8.count)

        let three = try NumberConstraint(isInteger: false, minimum: 3, maximum: 3)
        #expect(try !#require(walk(three, "3")).isFinal(in: three))  // 3.0
        #expect(try #require(walk(three, "3.000000000000000")).isFinal(in: three))
        #expect(walk(three, "3.01") == nil)

        let half = try NumberConstraint(isInteger: false, minimum: 0.5, maximum: 0.5)
        #expect(try !#require(walk(half, "0.5")).isFinal(in: half))
        #expect(try #require(walk(half, "0.500000000000000")).isFinal(in: half))
        #expect(try !#require(walk(half, "0.")).isAccepting(in: half))
    }

    @Test func boundsAreExactDecimals() throws {
        let tenth = try NumberConstraint(isInteger: false, minimum: nil, maximum: 0.1)
        #expect(accepts(tenth, "0.1"))
        #expect(accepts(tenth, "0.100000000000000"))
        #expect(walk(tenth, "0.100000000000001") == nil)
        #expect(walk(tenth, "0.10000000000000001") == nil)
        #expect(walk(tenth, "0.11") == nil)
        #expect(accepts(tenth, "-123"))

        let sum = try NumberConstraint(isInteger: false, minimum: nil, maximum: 0.1 + 0.2)  // 0.30000000000000004
        #expect(accepts(sum, "0.3"))
        #expect(accepts(sum, "0.300000000000000"))
        #expect(walk(sum, "0.300000000000001") == nil)

        let tiny = try NumberConstraint(isInteger: false, minimum: 1e-05, maximum: nil)  // "1e-05"
        #expect(accepts(tiny, "0.00001"))
        #expect(walk(tiny, "0.000009") == nil)
        #expect(walk(tiny, "0.00000999999") == nil)
        #expect(walk(tiny, "-") == nil)
        #expect(walk(tiny, "0.0000") != nil)

        let smallest = try NumberConstraint(isInteger: false, minimum: Double.leastNonzeroMagnitude, maximum: nil)  // 5e-324
        #expect(accepts(smallest, "0.000000000000001"))
        #expect(!accepts(smallest, "0"))
        #expect(!accepts(smallest, "0.0"))

        let huge = try NumberConstraint(isInteger: false, minimum: -1e+20, maximum: 1.7976931348623157e+308)
        #expect(huge == (try NumberConstraint(isInteger: false, minimum: nil, maximum: nil)))

        let clamped = try NumberConstraint(isInteger: true, minimum: nil, maximum: 1e+20)
        #expect(try #require(walk(clamped, "999999999999999999")).isFinal(in: clamped))
        #expect(walk(clamped, "1000000000000000000") == nil)

        let big = try NumberConstraint(isInteger: false, minimum: 1e+14, maximum: nil)
        #expect(accepts(big, "999999999999999.999999999999999"))
        #expect(accepts(big, "100000000000000"))
        #expect(walk(big, "99999999999999.9") == nil)
        #expect(walk(big, "9999999999999999") == nil)

        // 1.2345678901234568e+17 is exactly 123456789012345680: 18 digits,
        // more than one 64-bit word of packed text.
        let wide = try NumberConstraint(isInteger: true, minimum: -1.2345678901234568e+17, maximum: 1.2345678901234568e+17)
        #expect(try #require(walk(wide, "123456789012345680")).isFinal(in: wide))
        #expect(try #require(walk(wide, "-123456789012345680")).isFinal(in: wide))
        #expect(accepts(wide, "123456789012345679"))
        #expect(walk(wide, "123456789012345681") == nil)
        #expect(walk(wide, "-123456789012345681") == nil)
        #expect(walk(wide, "123456789012345690") == nil)
        #expect(try #require(walk(wide, "12345678901234569")).isFinal(in: wide))  // 17 digits; any 18th is too big
        #expect(accepts(wide, "12345678901234568"))

        let rounded = try NumberConstraint(isInteger: true, minimum: -2.5, maximum: 7.9)
        #expect(accepts(rounded, "-2"))
        #expect(accepts(rounded, "7"))
        #expect(walk(rounded, "-3") == nil)
        #expect(walk(rounded, "8") == nil)
    }

    @Test func foreignBytesAndMalformedTextsAreRefused() throws {
        let number = try NumberConstraint(isInteger: false, minimum: nil, maximum: nil)
        for text in ["+1", " 1", "1e5", "1E5", "01", "1..2", ".5", "-.5", "1-", "--1", "0x1", "1,", "NaN", "Infinity"] {
            #expect(walk(number, text) == nil, "\(text)")
        }
        for text in ["1.", "-", "", "-0", "-0.0"] {
            let state = try #require(walk(number, text), "\(text)")
            #expect(!number.isAccepting(state), "\(text)")
        }
        // Every byte outside the alphabet is refused from every state kind.
        for text in ["", "-", "1", "1.", "1.5", "0"] {
            let state = try #require(walk(number, text))
            for byte in UInt8.min...UInt8.max where !numberBytes.contains(byte) {
                #expect(number.next(state, byte) == nil)
            }
        }
    }

    @Test func equalTextsAreEqualStates() throws {
        let number = try NumberConstraint(isInteger: false, minimum: -50, maximum: 50)
        let a = try #require(walk(number, "-12.5"))
        let b = try #require(walk(number, "-12.5"))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != (try #require(walk(number, "-12.50"))))
        #expect(number.text(of: a) == "-12.5")
        #expect(number.text(of: number.initial) == "")
        let long = "-999999999999999.999999999999999"
        let unbounded = try NumberConstraint(isInteger: false, minimum: nil, maximum: nil)
        #expect(unbounded.text(of: try #require(walk(unbounded, long))) == long)
    }

    /// Random bounds, then random walks that pick uniformly among the
    /// allowed bytes (and stopping, when accepting) end on a number that
    /// parses and lies within the bounds, and never get stuck.
    @Test func randomWalksEndInBounds() async {
        await propertyCheck(
            count: 300,
            input: Gen.bool, Gen.int(in: -2_000_000...2_000_000), Gen.int(in: 0...7),
            Gen.int(in: 0...4_000_000), Gen.int(in: 0...7), Gen.int(in: 0...4), Gen.int(in: -3...14), Gen.uint64()
        ) { isInteger, start, startScale, width, widthScale, shape, magnitude, seed in
            let reference = Self.randomReference(isInteger, start, startScale, width, widthScale, shape, magnitude)
            let constraint: NumberConstraint
            do {
                constraint = try reference.makeConstraint()
            } catch {
                #expect(!reference.isSatisfiable, "\(reference): \(error)")
                return
            }
            #expect(reference.isSatisfiable, "\(reference)")
            var rng = SplitMix(state: seed)
            for _ in 0..<20 {
                var state = constraint.initial
                var text = ""
                while true {
                    let allowed = probeBytes.filter { constraint.next(state, $0) != nil }
                    let accepting = constraint.isAccepting(state)
                    if constraint.isFinal(state) { #expect(allowed.isEmpty) }
                    let options = allowed.count + (accepting ? 1 : 0)
                    guard options > 0 else {
                        Issue.record("\(reference): stuck at \"\(text)\"")
                        return
                    }
                    let pick = Int.random(in: 0..<options, using: &rng)
                    if pick == allowed.count { break }
                    state = constraint.next(state, allowed[pick]) ?? state
                    text.append(Character(UnicodeScalar(allowed[pick])))
                }
                #expect(text.utf8.count <= NumberConstraint.maximumLength)
                #expect(Double(text) != nil, "\(reference): \"\(text)\"")
                #expect(reference.accepts(text), "\(reference): \"\(text)\"")
                #expect(constraint.text(of: state) == text)
            }
        }
    }

    /// Texts close to the bounds (the bound's own digits, extended, cut,
    /// nudged) are accepted by walking `next` exactly when the reference
    /// accepts them, including texts far longer than the brute force.
    @Test func textsNearBoundsMatchReference() async {
        await propertyCheck(
            count: 300,
            input: Gen.bool, Gen.int(in: -2_000_000...2_000_000), Gen.int(in: 0...7),
            Gen.int(in: 0...4_000_000), Gen.int(in: 0...7), Gen.int(in: 0...4), Gen.int(in: -3...14), Gen.uint64()
        ) { isInteger, start, startScale, width, widthScale, shape, magnitude, seed in
            let reference = Self.randomReference(isInteger, start, startScale, width, widthScale, shape, magnitude)
            guard let constraint = try? reference.makeConstraint() else { return }
            var rng = SplitMix(state: seed)
            // The bounds written out in full ("1.5e+17" → "150000000000000000").
            let seeds =
                [reference.minimum, reference.maximum].compactMap { $0 }
                .map { Decimal(string: $0.description).map { "\($0)" } ?? $0.description }
                + ["0", "1", "-1", "0.5"]
            for base in seeds {
                for _ in 0..<40 {
                    let text = Self.mutate(base, using: &rng)
                    guard reference.isWellFormed(text) || Bool.random(using: &rng) else { continue }
                    #expect(accepts(constraint, text) == reference.accepts(text), "\(reference): \"\(text)\"")
                    // A refused well-formed text in bounds would be a false dead end.
                    if reference.accepts(text) { #expect(walk(constraint, text) != nil) }
                }
            }
        }
    }

    private static func randomReference(
        _ isInteger: Bool, _ start: Int, _ startScale: Int, _ width: Int, _ widthScale: Int, _ shape: Int,
        _ magnitude: Int
    ) -> NumberReference {
        // Bounds from ~10⁻¹⁶ to ~10²⁴: around and beyond the digit limits, often in exponent form.
        let scale = magnitude < 0 ? pow(10, Double(3 * magnitude)) : pow(10, Double(magnitude + (magnitude > 10 ? 3 : 0)))
        let low = Double(start) / pow(10, Double(startScale)) * scale
        let high = low + Double(width) / pow(10, Double(widthScale)) * scale  // often a 17-digit decimal
        switch shape {
        case 0: return NumberReference(isInteger: isInteger, minimum: low, maximum: high)
        case 1: return NumberReference(isInteger: isInteger, minimum: low, maximum: nil)
        case 2: return NumberReference(isInteger: isInteger, minimum: nil, maximum: high)
        case 3: return NumberReference(isInteger: isInteger, minimum: low, maximum: (high * 1e6).rounded() / 1e6)
        default: return NumberReference(isInteger: isInteger, minimum: nil, maximum: nil)
        }
    }

    /// A few random edits of `base`: drop the exponent form, append digits
    /// or zeros, cut the tail, change the last digit, toggle the sign.
    private static func mutate(_ base: String, using rng: inout SplitMix) -> String {
        var text = base
        if let e = text.firstIndex(of: "e") { text = String(text[..<e]) }
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            switch Int.random(in: 0..<7, using: &rng) {
            case 0: text += String(repeating: "0", count: Int.random(in: 1...14, using: &rng))
            case 1: text += String(Int.random(in: 0...9, using: &rng))
            case 2: if !text.isEmpty { text.removeLast(Int.random(in: 1...min(3, text.count), using: &rng)) }
            case 3:
                if let last = text.last, let digit = last.wholeNumberValue {
                    text.removeLast()
                    text += String((digit + Int.random(in: 1...9, using: &rng)) % 10)
                }
            case 4: text = text.hasPrefix("-") ? String(text.dropFirst()) : "-" + text
            case 5: if !text.contains(".") { text += "." }
            default: text += String(repeating: "9", count: Int.random(in: 1...16, using: &rng))
            }
        }
        return text
    }
}

extension LeafState {
    fileprivate func isFinal(in constraint: NumberConstraint) -> Bool { constraint.isFinal(self) }
    fileprivate func isAccepting(in constraint: NumberConstraint) -> Bool { constraint.isAccepting(self) }
}
