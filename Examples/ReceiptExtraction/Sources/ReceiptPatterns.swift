import Foundation

/// The numbers a fuel receipt prints, read by regular expressions: the
/// deterministic reader beside the model. Numbers are what a small model
/// most often gets wrong (a digit dropped, the net amount taken for the
/// total) and what patterns read best; the station's brand is the reverse.
public struct ReceiptNumbers: Sendable, Equatable {
    public var volume: Double?
    public var pricePerUnit: Double?
    public var totalAmount: Double?

    public init(volume: Double? = nil, pricePerUnit: Double? = nil, totalAmount: Double? = nil) {
        self.volume = volume
        self.pricePerUnit = pricePerUnit
        self.totalAmount = totalAmount
    }

    /// Reads `text` row by row; the first row that matches a field gives it.
    ///
    /// Rows about taxes, net amounts and loyalty points are skipped for the
    /// total (`TOTAL HT`, `USt 20%`, `SALES TAX`, `REWARDS BALANCE`), and
    /// a price is never read from a tax row (`INCL FED TAX 0.184/GAL`).
    /// A decimal comma (`39,30`) reads as a decimal point.
    public init(parsing text: String) {
        for row in text.split(whereSeparator: \.isNewline) {
            let row = row.lowercased()
            let isTaxRow = row.contains(Patterns.taxRow)
            if volume == nil {
                volume = Self.number(in: row, Patterns.volumeKeyword) ?? Self.number(in: row, Patterns.volumeUnit)
            }
            if pricePerUnit == nil, !isTaxRow {
                pricePerUnit = Self.number(in: row, Patterns.perUnit) ?? Self.number(in: row, Patterns.priceKeyword)
            }
            if totalAmount == nil, !isTaxRow {
                totalAmount = Self.number(in: row, Patterns.total)
            }
        }
    }

    private static func number(in row: String, _ pattern: Regex<(Substring, Substring)>) -> Double? {
        guard let match = row.firstMatch(of: pattern) else { return nil }
        return Double(match.output.1.replacingOccurrences(of: ",", with: "."))
    }

    /// The patterns, on lowercased rows. A number is 1–6 digits with an
    /// optional decimal part after `.` or `,`. (Computed: `Regex` is not
    /// `Sendable`, so it cannot be a shared constant.)
    enum Patterns {
        static var taxRow: Regex<Substring> { #/\btax\b|\bht\b|\bnetto\b|\btva\b|\bust\b|\bvat\b|\bpoints\b|\brewards\b|\bchange\b|\bcash\b/# }
        /// `LITRES 19.82`, `Menge 36,101 l`, `QTY 4.608 GAL`, `Volume (L) 28.36`, `VOLU ME 5.552 G`
        static var volumeKeyword: Regex<(Substring, Substring)> {
            #/(?:litres?|liters?|litros|menge|qty|qte|quantit[eé]|vol\s?u\s?me(?:\s*\((?:l|gal)\))?)\s*[:.]?\s*(\d{1,6}(?:[.,]\d{1,4})?)/#
        }
        /// `12.25 l x …`, `69.28 L @ …`, `13.415 GAL @ …` (a number followed by a unit, not by `/`)
        static var volumeUnit: Regex<(Substring, Substring)> { #/(?:^|[^\d.,/$£€])(\d{1,6}(?:[.,]\d{1,4})?)\s*(?:l|ltr|litres?|liters?|gal|g)\b/# }
        /// `1.633 €/l`, `$5.498/GAL`, `@ 3.602/GAL`, `1.719 EUR/L`; a litre
        /// read as a one by OCR (`€/1`) too.
        static var perUnit: Regex<(Substring, Substring)> {
            #/(\d{1,3}(?:[.,]\d{1,4})?)\s*(?:[$£€]|eur|usd|gbp)?\s*/\s*(?:l|1|ltr|litre|liter|gal|g)\b/#
        }
        /// `PRIX/L 1.653`, `PRICE PER LITRE 1.757`, `EUR/L 1.939`, `:PRICE/GAL $3.743`, `PRICE 5.128 /G`
        static var priceKeyword: Regex<(Substring, Substring)> {
            #/(?:pri[xc]e?\s*/\s*(?:l|1|gal|g)|price\s+per\s+(?:litre|liter|gallon|gal)|preis\s*/\s*l|precio\s*/\s*l|(?:eur|€|\$|£)\s*/\s*(?:l|1|gal)|price)\s*[:.]?\s*[$£€]?\s*(\d{1,3}(?:[.,]\d{1,4})?)/#
        }
        /// `TOTAL £27.01`, `T0TAAL 79,86`, `TOTAL EUR EUR 60,00`, `AMOUNT DUE 108.57`, `SALE 20.00 EUR`, `TOTAL TO PAY 50.00`
        static var total: Regex<(Substring, Substring)> {
            #/\b(?:t[o0]ta+l(?:\s+to\s+pay)?|amount\s+due|balance\s+due|fuel\s+sale|sale|betrag|importe|summe)\s*(?:(?:eur|usd|gbp)\s*)*[:.]?\s*[$£€]?\s*(\d{1,6}(?:[.,]\d{1,2})?)/#
        }
    }
}
