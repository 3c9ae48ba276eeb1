import Foundation

/// A constraint on the values the model may generate for one property:
/// string constants, choices and patterns, numeric bounds, array counts.
///
/// Exists so `@Guide` and hand-written schemas can narrow a type's schema;
/// each guide becomes a JSON Schema keyword (`const`, `enum`, `pattern`,
/// `minimum`, `maximum`, `minItems`, `maxItems`) that guided generation
/// enforces. `Value` is the type the guide applies to.
public struct GenerationGuide<Value> {
    package let kind: GuideKind

    package init(_ kind: GuideKind) {
        self.kind = kind
    }
}

// `Value` is only a phantom type: the stored `GuideKind` is Sendable.
extension GenerationGuide: Sendable {}

/// What a ``GenerationGuide`` asks for, independent of its phantom type.
package indirect enum GuideKind: Sendable, Hashable {
    case constant(String)
    case anyOf([String])
    case pattern(String)
    /// A regex whose pattern text could not be recovered.
    case unsupportedPattern(String)
    case minimum(Double)
    case maximum(Double)
    case range(Double, Double)
    case minimumCount(Int)
    case maximumCount(Int)
    case count(Int, Int)
    case element(GuideKind)
}

extension GenerationGuide where Value == String {
    /// Enforces that the string be precisely the given value.
    public static func constant(_ value: String) -> GenerationGuide<String> {
        GenerationGuide(.constant(value))
    }

    /// Enforces that the string be one of the provided values.
    public static func anyOf(_ values: [String]) -> GenerationGuide<String> {
        GenerationGuide(.anyOf(values))
    }

    /// Enforces that the string follows the pattern.
    public static func pattern<Output>(_ regex: Regex<Output>) -> GenerationGuide<String> {
        GenerationGuide(RegexPattern.guide(for: regex))
    }
}

extension GenerationGuide where Value == Int {
    /// Enforces a minimum value (inclusive).
    public static func minimum(_ value: Int) -> GenerationGuide<Int> {
        GenerationGuide(.minimum(Double(value)))
    }

    /// Enforces a maximum value (inclusive).
    public static func maximum(_ value: Int) -> GenerationGuide<Int> {
        GenerationGuide(.maximum(Double(value)))
    }

    /// Enforces values that fall within a range (bounds inclusive).
    public static func range(_ range: ClosedRange<Int>) -> GenerationGuide<Int> {
        GenerationGuide(.range(Double(range.lowerBound), Double(range.upperBound)))
    }
}

extension GenerationGuide where Value == Float {
    /// Enforces a minimum value (inclusive).
    public static func minimum(_ value: Float) -> GenerationGuide<Float> {
        GenerationGuide(.minimum(GuideNumber.double(value)))
    }

    /// Enforces a maximum value (inclusive).
    public static func maximum(_ value: Float) -> GenerationGuide<Float> {
        GenerationGuide(.maximum(GuideNumber.double(value)))
    }

    /// Enforces values that fall within a range (bounds inclusive).
    public static func range(_ range: ClosedRange<Float>) -> GenerationGuide<Float> {
        GenerationGuide(.range(GuideNumber.double(range.lowerBound), GuideNumber.double(range.upperBound)))
    }
}

extension GenerationGuide where Value == Double {
    /// Enforces a minimum value (inclusive).
    public static func minimum(_ value: Double) -> GenerationGuide<Double> {
        GenerationGuide(.minimum(value))
    }

    /// Enforces a maximum value (inclusive).
    public static func maximum(_ value: Double) -> GenerationGuide<Double> {
        GenerationGuide(.maximum(value))
    }

    /// Enforces values that fall within a range (bounds inclusive).
    public static func range(_ range: ClosedRange<Double>) -> GenerationGuide<Double> {
        GenerationGuide(.range(range.lowerBound, range.upperBound))
    }
}

extension GenerationGuide where Value == Decimal {
    /// Enforces a minimum value (inclusive).
    public static func minimum(_ value: Decimal) -> GenerationGuide<Decimal> {
        GenerationGuide(.minimum(GuideNumber.double(value)))
    }

    /// Enforces a maximum value (inclusive).
    public static func maximum(_ value: Decimal) -> GenerationGuide<Decimal> {
        GenerationGuide(.maximum(GuideNumber.double(value)))
    }

    /// Enforces values that fall within a range (bounds inclusive).
    public static func range(_ range: ClosedRange<Decimal>) -> GenerationGuide<Decimal> {
        GenerationGuide(.range(GuideNumber.double(range.lowerBound), GuideNumber.double(range.upperBound)))
    }
}

extension GenerationGuide {
    /// Enforces a minimum number of elements in the array (inclusive).
    public static func minimumCount<Element>(_ count: Int) -> GenerationGuide<[Element]> where Value == [Element] {
        GenerationGuide<[Element]>(.minimumCount(count))
    }

    /// Enforces a maximum number of elements in the array (inclusive).
    public static func maximumCount<Element>(_ count: Int) -> GenerationGuide<[Element]> where Value == [Element] {
        GenerationGuide<[Element]>(.maximumCount(count))
    }

    /// Enforces that the number of elements in the array fall within a
    /// closed range.
    public static func count<Element>(_ range: ClosedRange<Int>) -> GenerationGuide<[Element]> where Value == [Element] {
        GenerationGuide<[Element]>(.count(range.lowerBound, range.upperBound))
    }

    /// Enforces that the array has exactly a certain number of elements.
    public static func count<Element>(_ count: Int) -> GenerationGuide<[Element]> where Value == [Element] {
        GenerationGuide<[Element]>(.count(count, count))
    }

    /// Enforces a guide on the elements within the array.
    public static func element<Element>(_ guide: GenerationGuide<Element>) -> GenerationGuide<[Element]> where Value == [Element] {
        GenerationGuide<[Element]>(.element(guide.kind))
    }
}

// Length guides written where the element type is not known, as in
// `@Guide(description: "Items for sale", .count(3))`: the attribute alone
// doesn't say what the array holds, so these overloads (Apple's, hidden from
// its documentation) make the guide a `GenerationGuide<[Never]>`. `@Generable`
// copies the guide next to the property's declared type, where the real
// element type is inferred.
extension GenerationGuide where Value == [Never] {
    public static func minimumCount(_ count: Int) -> GenerationGuide<Value> {
        GenerationGuide(.minimumCount(count))
    }

    public static func maximumCount(_ count: Int) -> GenerationGuide<Value> {
        GenerationGuide(.maximumCount(count))
    }

    public static func count(_ range: ClosedRange<Int>) -> GenerationGuide<Value> {
        GenerationGuide(.count(range.lowerBound, range.upperBound))
    }

    public static func count(_ count: Int) -> GenerationGuide<Value> {
        GenerationGuide(.count(count, count))
    }
}

/// Converts guide bounds to the `Double`s the schema stores, through their
/// decimal text so `Float(0.1)` becomes `0.1`, not `0.10000000149011612`.
enum GuideNumber {
    static func double(_ value: Float) -> Double {
        Double("\(value)") ?? Double(value)
    }

    static func double(_ value: Decimal) -> Double {
        Double(value.description) ?? NSDecimalNumber(decimal: value).doubleValue
    }
}
