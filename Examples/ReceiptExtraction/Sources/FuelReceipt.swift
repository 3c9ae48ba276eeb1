import FoundationModels

/// What an expense app keeps from a scanned fuel receipt: the station's
/// brand and the three numbers that must agree (volume × price per unit ≈
/// total).
@Generable(description: "Values read from a fuel receipt")
public struct FuelReceipt: Sendable, Codable, Equatable {
    @Guide(description: "The brand of the fuel station")
    public var stationBrand: String

    @Guide(description: "Total amount paid")
    public var totalAmount: Double

    @Guide(description: "Fuel dispensed, in litres or gallons as printed")
    public var volume: Double

    @Guide(description: "Price per litre or per gallon")
    public var pricePerUnit: Double

    public init(stationBrand: String, totalAmount: Double, volume: Double, pricePerUnit: Double) {
        self.stationBrand = stationBrand
        self.totalAmount = totalAmount
        self.volume = volume
        self.pricePerUnit = pricePerUnit
    }

    /// How far volume × price per unit is from the total, as a fraction of
    /// the total (0.01 is 1%); infinite when the total is not positive.
    public var arithmeticError: Double {
        ReceiptArithmetic.error(volume: volume, pricePerUnit: pricePerUnit, total: totalAmount)
    }
}

/// The receipt's one invariant: the pump computed the total as volume ×
/// price per unit (rounded to the cent).
public enum ReceiptArithmetic {
    /// Within 1% counts as consistent: rounding of the printed values
    /// stays far below it, a misread digit far above.
    public static let tolerance = 0.01

    public static func error(volume: Double, pricePerUnit: Double, total: Double) -> Double {
        guard total > 0, volume.isFinite, pricePerUnit.isFinite else { return .infinity }
        return abs(volume * pricePerUnit - total) / total
    }

    public static func isConsistent(volume: Double, pricePerUnit: Double, total: Double) -> Bool {
        error(volume: volume, pricePerUnit: pricePerUnit, total: total) <= tolerance
    }
}
