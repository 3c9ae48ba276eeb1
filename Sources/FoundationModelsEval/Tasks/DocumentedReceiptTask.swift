import FoundationModels

/// The receipt's four values with each field documented as an API's JSON
/// Schema documents it: a first sentence saying what the field is (the
/// example's own description), then a paragraph of where it is printed,
/// its unit and what it is not.
///
/// Exists to measure the shorter descriptions a large schema gets in the
/// prompt (``SchemaPromptDetail``): the example's types are described in a
/// sentence a field, so cutting descriptions to their first sentence
/// changes nothing there. Here the full description is several times the
/// brief one, so runs at each detail (`FOUNDATION_MODELS_SCHEMA_DETAIL`)
/// show what each keeps, and what it costs in prompt tokens and time.
@Generable(description: "Values read from a fuel receipt")
package struct DocumentedFuelReceipt: Sendable {
    @Guide(
        description: """
            The brand of the fuel station. This is the retail brand under which the station trades, as printed in the \
            receipt's header, usually on the first or second row and often in capitals, above the street address. It is \
            not the name of the operating company, the franchisee or the card issuer, which some receipts print in smaller \
            type further down, and it never includes a store or station number that may follow it. When the header is \
            damaged, use the brand named in a footer line such as a loyalty programme or a thank-you message. The value is \
            compared without regard to case.
            """)
    package var stationBrand: String

    @Guide(
        description: """
            Total amount paid. This is the final amount charged for the whole transaction, taxes included, in the currency \
            printed on the receipt, written as a plain number without a currency symbol or thousands separators. It is \
            usually labelled with a word such as total or amount due and is the largest money amount on the receipt. Do not \
            report a subtotal, a tax amount, a discount, change given or a pre-authorisation hold, which some pumps print \
            before the fuel is dispensed. Where the amount is printed twice, once beside the card line, the two agree and \
            either may be used.
            """)
    package var totalAmount: Double

    @Guide(
        description: """
            Fuel dispensed, in litres or gallons as printed. This is the quantity of fuel the pump delivered in this \
            transaction, as a plain number in the unit the receipt uses: never convert between litres and gallons. It is \
            usually printed with three decimal places beside the fuel grade or the pump number and followed by a unit \
            abbreviation. It is never a money amount, a pump number or a count of items bought in the shop.
            """)
    package var volume: Double

    @Guide(
        description: """
            Price per litre or per gallon. This is the unit price of the fuel grade dispensed, a plain number in the \
            receipt's currency per unit of volume, often with three decimal places and often printed after an at sign or \
            the word price. Multiplied by the volume it gives the amount paid for the fuel, up to rounding. It is not the \
            total, and it is not a loyalty discount per unit.
            """)
    package var pricePerUnit: Double
}

extension DocumentedFuelReceipt: FuelReceiptValues {}

/// The receipts with ``DocumentedFuelReceipt``.
package enum DocumentedReceiptTask: ReceiptVariantTask {
    package typealias Item = ReceiptItem
    package typealias Answer = DocumentedFuelReceipt
    package static let corpus = Corpus.receiptsDocumented
}
