import Foundation

/// A decimal amount held as an integer count of its smallest printed unit
/// (cents, thousandths of a litre), so a generated receipt's printed digits
/// and its ground truth are the same number, with no binary rounding.
struct FixedPoint: Equatable {
    var units: Int
    var decimals: Int

    private var scale: Int { Self.power(decimals) }

    var value: Double { Double(units) / Double(scale) }

    /// The amount as printed: `1234.5` → `"1234.50"` (or `"1234,50"`).
    func text(comma: Bool = false) -> String {
        let whole = units / scale
        guard decimals > 0 else { return "\(whole)" }
        let fraction = String(units % scale)
        return "\(whole)\(comma ? "," : ".")\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
    }

    /// `self × other`, rounded half up to `decimals` places (amounts are
    /// never negative here).
    func times(_ other: FixedPoint, decimals: Int) -> FixedPoint {
        let exact = units * other.units
        let divisor = Self.power(self.decimals + other.decimals - decimals)
        return FixedPoint(units: (exact + divisor / 2) / divisor, decimals: decimals)
    }

    /// `self ÷ other`, rounded half up to `decimals` places.
    func divided(by other: FixedPoint, decimals: Int) -> FixedPoint {
        // units / 10^d1 ÷ (other / 10^d2) = units × 10^(d2 + decimals − d1) / other, in units of 10^-decimals
        let numerator = units * Self.power(other.decimals + decimals) / Self.power(self.decimals)
        return FixedPoint(units: (numerator * 2 + other.units) / (other.units * 2), decimals: decimals)
    }

    static func power(_ exponent: Int) -> Int {
        (0..<max(0, exponent)).reduce(1) { value, _ in value * 10 }
    }
}
