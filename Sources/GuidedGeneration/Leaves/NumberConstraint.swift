/// The byte-level automaton for one JSON number value with exact inclusive
/// bounds: the matcher feeds it a candidate token's bytes one at a time and
/// keeps the token only while the text so far can still become an accepted
/// number.
///
/// Exists so a `@Guide(.range(...))` or a schema's `minimum`/`maximum` is
/// enforced while the model generates, not checked afterwards: ``next(_:_:)``
/// never enters a dead end, so every text it allows can be completed to a
/// number of the right kind inside the bounds and the digit limits.
///
/// The language is compact JSON without exponent:
/// - integers: `-?(0|[1-9][0-9]*)`, at most 18 digits (so every value fits
///   `Int64`), never `-0`;
/// - numbers: `-?(0|[1-9][0-9]*)(\.[0-9]+)?` with at most 15 integer and 15
///   fraction digits (so a text is at most ``maximumLength`` bytes and its
///   value fits two 64-bit words), never a negative zero (`-0`, `-0.00`),
///   never ending in `.`.
///
/// Bounds are exact in decimal: a `Double` bound stands for the decimal of
/// its shortest description (see ``DecimalText``). Internally each sign has
/// its own range of admissible magnitudes (``MagnitudeRange``) on the grid
/// of the finest number the language can write (10⁻¹⁵, or 1 for integers),
/// and each step intersects the set of values the text can still reach with
/// that range, using only 64-bit integer arithmetic.
///
/// The state is the text itself, packed into ``LeafState`` four bits per
/// character from the low end of `low` on into `high` (code `d + 1` for the
/// digit `d`, 11 for `-`, 12 for `.`, 0 after the end, which gives the
/// length), so two equal texts are always the same state.
package struct NumberConstraint: Sendable, Hashable {
    /// Only integers: no point, up to 18 digits.
    package let isInteger: Bool
    /// Magnitudes that a text without a leading `-` may reach.
    private let positive: MagnitudeRange
    /// Magnitudes that a text with a leading `-` may reach (never zero).
    private let negative: MagnitudeRange

    /// Longest text this constraint can produce: a sign, 15 integer digits,
    /// a point and 15 fraction digits (an integer is at most 19 bytes).
    package static let maximumLength = 32

    /// Most integer digits of a non-integer number.
    static let numberIntegerDigits = 15
    /// Most fraction digits of a non-integer number.
    static let fractionDigits = 15
    /// Most digits of an integer.
    static let integerDigits = 18

    /// - Throws: `.unsatisfiable` when no number of this kind lies in the
    ///   bounds (min > max; an integer range with no integer in it; a
    ///   minimum above, or a maximum below, everything the digit limits can
    ///   write); `.unsupportedGuide` for NaN bounds. Infinite bounds in the
    ///   open direction (`minimum: -∞`, `maximum: +∞`) mean unbounded; a
    ///   `minimum` of +∞ or a `maximum` of −∞ admits nothing.
    package init(
        isInteger: Bool, minimum: Double?, maximum: Double?, excludesMinimum: Bool = false, excludesMaximum: Bool = false
    ) throws(GuidedGenerationError) {
        let kind = isInteger ? "integer" : "number"
        if let minimum, minimum.isNaN {
            throw .unsupportedGuide("\(kind) minimum is NaN")
        }
        if let maximum, maximum.isNaN {
            throw .unsupportedGuide("\(kind) maximum is NaN")
        }
        if let minimum, let maximum, minimum > maximum || (minimum == maximum && (excludesMinimum || excludesMaximum)) {
            throw .unsatisfiable("\(kind) minimum \(minimum) is greater than maximum \(maximum)")
        }
        if minimum == .infinity || maximum == -.infinity {
            throw .unsatisfiable("\(kind) range [\(minimum ?? -.infinity), \(maximum ?? .infinity)] holds no finite value")
        }

        // Signed bounds on the grid: value × 10^scale, within ±limit.
        let scale = isInteger ? 0 : Self.fractionDigits
        let totalDigits = isInteger ? Self.integerDigits : Self.numberIntegerDigits + Self.fractionDigits
        var limit: UInt128 = 1
        for _ in 0..<totalDigits { limit *= 10 }
        limit -= 1
        var low = -Int128(limit)
        var high = Int128(limit)
        // An exclusive bound on the grid moves one step inward; one between
        // grid points already excludes itself by rounding.
        if let minimum, let decimal = try Self.decimal(minimum, kind: kind, role: "minimum") {
            var bound = decimal.scaled(by: scale, roundingUp: true, cap: limit + 1)
            if excludesMinimum, bound == decimal.scaled(by: scale, roundingUp: false, cap: limit + 1) { bound += 1 }
            low = max(low, bound)
        }
        if let maximum, let decimal = try Self.decimal(maximum, kind: kind, role: "maximum") {
            var bound = decimal.scaled(by: scale, roundingUp: false, cap: limit + 1)
            if excludesMaximum, bound == decimal.scaled(by: scale, roundingUp: true, cap: limit + 1) { bound -= 1 }
            high = min(high, bound)
        }
        guard low <= high else {
            let range = "[\(minimum ?? -.infinity), \(maximum ?? .infinity)]"
            throw .unsatisfiable(
                isInteger
                    ? "no integer of at most \(Self.integerDigits) digits lies in \(range)"
                    : "no number of at most \(Self.numberIntegerDigits) integer and \(Self.fractionDigits) fraction digits lies in \(range)"
            )
        }

        let unit = UInt128(Self.power(of: scale))
        self.isInteger = isInteger
        self.positive = MagnitudeRange(low: max(low, 0), high: high, unit: unit)
        self.negative = MagnitudeRange(low: max(-high, 1), high: -low, unit: unit)
    }

    private static func decimal(
        _ bound: Double,
        kind: String,
        role: String
    ) throws(GuidedGenerationError) -> DecimalText? {
        guard bound.isFinite else { return nil }  // the open-direction infinity: no bound
        guard let decimal = DecimalText(bound) else {
            throw .unsupportedGuide("\(kind) \(role) \(bound) cannot be read as a decimal")
        }
        return decimal
    }

    /// The state before any byte.
    package var initial: LeafState { LeafState() }

    /// The state after appending `byte` to the text so far, or nil when no
    /// accepted number starts with the longer text.
    package func next(_ state: LeafState, _ byte: UInt8) -> LeafState? {
        let text = PackedText(state)
        let range = text.isNegative ? negative : positive
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            let digit = UInt64(byte &- UInt8(ascii: "0"))
            if text.hasPoint {
                guard text.fractionDigits < Self.fractionDigits else { return nil }
                let width = Self.power(of: Self.fractionDigits - 1 - text.fractionDigits)
                let start = (text.fractionValue &* 10 &+ digit) &* width
                guard range.admits(integer: text.integerValue, fractions: start, start &+ width &- 1) else {
                    return nil
                }
            } else if text.integerDigits == 0 {
                if digit == 0 {
                    guard range.admits(integer: 0, fractions: 0, fractionCeiling) else { return nil }
                } else {
                    guard range.admits(integerPrefix: digit, digits: 1) else { return nil }
                }
            } else {
                guard text.integerValue != 0, text.integerDigits < integerDigitLimit,
                    range.admits(integerPrefix: text.integerValue &* 10 &+ digit, digits: text.integerDigits + 1)
                else { return nil }
            }
            return PackedText.appending(digit &+ 1, to: state, at: text.length)
        case UInt8(ascii: "."):
            guard !isInteger, text.integerDigits > 0, !text.hasPoint,
                range.admits(integer: text.integerValue, fractions: 0, fractionCeiling)
            else { return nil }
            return PackedText.appending(PackedText.pointCode, to: state, at: text.length)
        case UInt8(ascii: "-"):
            guard text.length == 0, !negative.isEmpty else { return nil }
            return PackedText.appending(PackedText.minusCode, to: state, at: 0)
        default:
            return nil
        }
    }

    /// The text so far is a complete accepted number.
    package func isAccepting(_ state: LeafState) -> Bool {
        let text = PackedText(state)
        guard text.integerDigits > 0, text.integerDigits <= integerDigitLimit else { return false }
        var fraction: UInt64 = 0
        if text.hasPoint {
            guard text.fractionDigits > 0, text.fractionDigits <= Self.fractionDigits, !isInteger else { return false }
            fraction = text.fractionValue &* Self.power(of: Self.fractionDigits - text.fractionDigits)
        }
        let range = text.isNegative ? negative : positive
        return range.admits(integer: text.integerValue, fractions: fraction, fraction)
    }

    /// Accepting and no byte can extend it (e.g. integer max 5 and text "5";
    /// text "0" of an integer).
    package func isFinal(_ state: LeafState) -> Bool {
        guard isAccepting(state) else { return false }
        // Only digits and the point can follow the first byte.
        if next(state, UInt8(ascii: ".")) != nil { return false }
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") where next(state, byte) != nil {
            return false
        }
        return true
    }

    /// The text so far (for diagnostics and tests).
    package func text(of state: LeafState) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.maximumLength)
        for word in [state.low, state.high] {
            var rest = word
            while rest != 0 {
                switch rest & 0xF {
                case 1...10: bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: (rest & 0xF) &- 1))
                case PackedText.minusCode: bytes.append(UInt8(ascii: "-"))
                case PackedText.pointCode: bytes.append(UInt8(ascii: "."))
                default: bytes.append(UInt8(ascii: "?"))
                }
                rest >>= 4
            }
            if bytes.count < 16 { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private var integerDigitLimit: Int { isInteger ? Self.integerDigits : Self.numberIntegerDigits }

    /// The largest fraction (in units of 10⁻¹⁵) that may follow an integer
    /// part: none for integers.
    private var fractionCeiling: UInt64 { isInteger ? 0 : Self.power(of: Self.fractionDigits) - 1 }

    /// 10^exponent for 0...19; 0 outside (only reachable from a corrupt state).
    @inline(__always)
    static func power(of exponent: Int) -> UInt64 {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        case 19: 10_000_000_000_000_000_000
        default: 0
        }
    }
}

/// The magnitudes (absolute values) one sign of a ``NumberConstraint`` may
/// reach, as inclusive bounds split into integer part and fraction (in units
/// of 10⁻¹⁵; always 0 for integers).
///
/// Exists so the per-byte check is a few 64-bit comparisons: every set of
/// values a text prefix can still reach is either one interval inside a
/// single integer part, or a union of intervals of whole integer parts, and
/// both intersect a range by comparing integer parts first.
struct MagnitudeRange: Hashable, Sendable {
    var lowInteger: UInt64
    var lowFraction: UInt64
    var highInteger: UInt64
    var highFraction: UInt64
    /// Decimal digits of `highInteger` (0 when it is 0).
    var highIntegerDigits: Int

    /// No magnitude at all: `low` is above every reachable value.
    var isEmpty: Bool { lowInteger > highInteger }

    /// The magnitudes in `low...high` (in multiples of 1/`unit`); empty
    /// when `high < low`.
    init(low: Int128, high: Int128, unit: UInt128) {
        guard low <= high, low >= 0 else {
            self.lowInteger = .max
            self.lowFraction = 0
            self.highInteger = 0
            self.highFraction = 0
            self.highIntegerDigits = 0
            return
        }
        let fractionScale = UInt128(NumberConstraint.power(of: NumberConstraint.fractionDigits)) / unit
        let low = UInt128(low)
        let high = UInt128(high)
        self.lowInteger = UInt64(low / unit)
        self.lowFraction = UInt64((low % unit) * fractionScale)
        self.highInteger = UInt64(high / unit)
        self.highFraction = UInt64((high % unit) * fractionScale)
        var digits = 0
        var rest = highInteger
        while rest != 0 {
            digits += 1
            rest /= 10
        }
        self.highIntegerDigits = digits
    }

    /// Some magnitude `integer + f·10⁻¹⁵` with `from <= f <= through` lies
    /// in the range.
    @inline(__always)
    func admits(integer: UInt64, fractions from: UInt64, _ through: UInt64) -> Bool {
        (integer < highInteger || (integer == highInteger && from <= highFraction))
            && (integer > lowInteger || (integer == lowInteger && through >= lowFraction))
    }

    /// Some magnitude whose integer part is `prefix` followed by zero or
    /// more further digits (any fraction) lies in the range. The digit limit
    /// needs no check: `highInteger` already fits it.
    ///
    /// The integer parts with `m` more digits form the interval
    /// `prefix·10^m ..< (prefix+1)·10^m`; these intervals grow with `m`, so
    /// only the largest `m` whose start is at most `high` can reach `low`.
    @inline(__always)
    func admits(integerPrefix prefix: UInt64, digits: Int) -> Bool {
        var more = highIntegerDigits - digits
        guard more >= 0 else { return false }
        if prefix &* NumberConstraint.power(of: more) > highInteger {
            more -= 1
            guard more >= 0 else { return false }
        }
        return (prefix &+ 1) &* NumberConstraint.power(of: more) > lowInteger
    }
}

/// A ``LeafState`` read back as the parts of a number's text.
///
/// Exists to keep the packing in one place: ``NumberConstraint`` decides on
/// values, this type knows where the characters live in the two words.
struct PackedText {
    static let minusCode: UInt64 = 11
    static let pointCode: UInt64 = 12

    var length = 0
    var isNegative = false
    var integerDigits = 0
    var integerValue: UInt64 = 0
    var hasPoint = false
    var fractionDigits = 0
    var fractionValue: UInt64 = 0

    /// Reads the text in constant time, without a per-character loop: the
    /// length from the highest used nibble, the point as the only code with
    /// its two top bits set, and each digit run converted from packed
    /// digits to binary a whole word at a time. A corrupt state reads as
    /// some text (wrapping arithmetic, never a trap).
    @inline(__always)
    init(_ state: LeafState) {
        let text = UInt128(state.high) << 64 | UInt128(state.low)
        length = (128 &- text.leadingZeroBitCount &+ 3) >> 2
        isNegative = state.low & 0xF == Self.minusCode
        let start = isNegative ? 1 : 0
        // Bit 2 of a nibble survives only for codes 12...15: the point.
        let pointBits = text & (text >> 1) & Self.nibbleBit2
        var digitsEnd = length
        if pointBits != 0 {
            let point = pointBits.trailingZeroBitCount >> 2
            hasPoint = true
            digitsEnd = point
            fractionDigits = length &- point &- 1
            fractionValue = Self.number(in: text, from: point &+ 1, count: fractionDigits)
        }
        integerDigits = digitsEnd &- start
        integerValue = Self.number(in: text, from: start, count: integerDigits)
    }

    @inline(__always)
    private static var nibbleBit2: UInt128 { UInt128(0x4444_4444_4444_4444) << 64 | UInt128(0x4444_4444_4444_4444) }

    /// The value of the `count` digit codes starting at nibble `from`
    /// (at most 32, ending by nibble 32; more than 19 digits wrap).
    @inline(__always)
    private static func number(in text: UInt128, from: Int, count: Int) -> UInt64 {
        guard count > 16 else {
            return number(UInt64(truncatingIfNeeded: text &>> (4 &* from)), count: count)
        }
        let head = number(UInt64(truncatingIfNeeded: text &>> (4 &* from)), count: count &- 16)
        let tail = number(
            UInt64(truncatingIfNeeded: text &>> (4 &* (from &+ count &- 16))),
            count: 16
        )
        return head &* 10_000_000_000_000_000 &+ tail
    }

    /// The value of the first `count` (0...16) digit codes of `codes`, the
    /// first digit in the lowest nibble.
    @inline(__always)
    private static func number(_ codes: UInt64, count: Int) -> UInt64 {
        guard count > 0 else { return 0 }
        let unused = 64 &- 4 &* (count < 16 ? count : 16)
        let mask = UInt64.max >> UInt64(unused)
        // Codes are digit + 1; move the last digit to the top nibble so the
        // leading nibbles are zero digits.
        var w = ((codes & mask) &- (0x1111_1111_1111_1111 & mask)) << UInt64(unused)
        // Each step merges neighbouring lanes: the lower lane holds the
        // earlier, more significant digits.
        w = (w & 0x0F0F_0F0F_0F0F_0F0F) &* 10 &+ ((w >> 4) & 0x0F0F_0F0F_0F0F_0F0F)
        w = (w & 0x00FF_00FF_00FF_00FF) &* 100 &+ ((w >> 8) & 0x00FF_00FF_00FF_00FF)
        w = (w & 0x0000_FFFF_0000_FFFF) &* 10_000 &+ ((w >> 16) & 0x0000_FFFF_0000_FFFF)
        return (w & 0xFFFF_FFFF) &* 100_000_000 &+ (w >> 32)
    }

    /// `state` with the character `code` written at `position`.
    @inline(__always)
    static func appending(_ code: UInt64, to state: LeafState, at position: Int) -> LeafState {
        var state = state
        if position < 16 {
            state.low |= code << UInt64(4 * position)
        } else {
            state.high |= code << UInt64(4 * (position - 16))
        }
        return state
    }
}
