/// The exact decimal that a `Double` bound stands for: the value written by
/// Swift's shortest round-trip description, read back digit by digit.
///
/// Exists because a schema's bound is meant in decimal: `maximum: 0.1`
/// means exactly one tenth, not the binary double nearest to it, so
/// "0.1" must be accepted and "0.100000000000001" refused. Reading the
/// description (including the exponent forms Swift prints, `1e-05`,
/// `1e+20`) gives that decimal without Foundation.
struct DecimalText: Hashable, Sendable {
    /// The sign as written (`-0.0` is negative with a zero significand).
    var isNegative: Bool
    /// The written digits as an integer, leading and point removed.
    var significand: UInt64
    /// The value is `±significand × 10^exponent`.
    var exponent: Int

    /// Reads `-?digits(.digits)?([eE][+-]?digits)?`; nil for anything else
    /// (`inf`, `nan`, more than 19 significant digits).
    init?(parsing text: String) {
        var negative = false
        var significand: UInt64 = 0
        var exponent = 0
        var sawDigit = false
        var sawPoint = false
        var bytes = text.utf8.makeIterator()
        var byte = bytes.next()
        if byte == UInt8(ascii: "-") {
            negative = true
            byte = bytes.next()
        }
        while let b = byte {
            if b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") {
                let (times10, overflow1) = significand.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(b - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { return nil }
                significand = sum
                if sawPoint { exponent -= 1 }
                sawDigit = true
            } else if b == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else {
                break
            }
            byte = bytes.next()
        }
        guard sawDigit else { return nil }
        if let b = byte {
            guard b == UInt8(ascii: "e") || b == UInt8(ascii: "E") else { return nil }
            byte = bytes.next()
            var exponentNegative = false
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                exponentNegative = byte == UInt8(ascii: "-")
                byte = bytes.next()
            }
            var written = 0
            var sawExponentDigit = false
            while let b = byte, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") {
                guard written < 100_000 else { return nil }
                written = written * 10 + Int(b - UInt8(ascii: "0"))
                sawExponentDigit = true
                byte = bytes.next()
            }
            guard sawExponentDigit, byte == nil else { return nil }
            exponent += exponentNegative ? -written : written
        }
        self.isNegative = negative
        self.significand = significand
        self.exponent = exponent
    }

    /// The decimal of a finite double; nil for NaN and the infinities.
    init?(_ value: Double) {
        guard value.isFinite else { return nil }
        self.init(parsing: value.description)
    }

    /// `self × 10^scale`, rounded to an integer up (toward +∞) or down
    /// (toward −∞), with magnitudes above `cap` reported as `cap`.
    func scaled(by scale: Int, roundingUp: Bool, cap: UInt128) -> Int128 {
        // Rounding the value up rounds a negative value's magnitude down.
        let magnitudeUp = roundingUp != isNegative
        let magnitude = scaledMagnitude(by: scale, roundingUp: magnitudeUp, cap: cap)
        return isNegative ? -Int128(magnitude) : Int128(magnitude)
    }

    private func scaledMagnitude(by scale: Int, roundingUp: Bool, cap: UInt128) -> UInt128 {
        guard significand != 0 else { return 0 }
        let shift = exponent + scale
        var value = UInt128(significand)
        if shift >= 0 {
            for _ in 0..<shift {
                if value >= cap { return cap }
                value *= 10
            }
            return min(value, cap)
        }
        var inexact = false
        for _ in 0..<(-shift) {
            if value == 0 { break }
            if value % 10 != 0 { inexact = true }
            value /= 10
        }
        if roundingUp, inexact { value += 1 }
        return min(value, cap)
    }
}
