import Foundation
import FoundationModels

/// The deterministic tools of the tools corpus: a small shop's stock,
/// weather, currency and order desks, each answering from a fixed table.
///
/// Exists so a tool-calling eval has ground truth: what a tool returns for
/// given arguments never changes, so the facts an answer must repeat
/// (`17` units, `21 °C`) are known when the corpus is generated. Keys are
/// compared as ``ShopTables/key(_:)`` reduces them (case, spacing and
/// punctuation ignored), the same comparison the scorer makes on the
/// model's arguments. The examples in the tools' guides (`XY-100`, `Paris`,
/// `A-1000`) are in no table, so a call that copies one is never right.
package enum ShopTables {
    /// Units in stock by SKU.
    package static let stock: [(sku: String, units: Int, name: String)] = [
        ("ABC-123", 17, "desk lamp"),
        ("KB-204", 42, "mechanical keyboard"),
        ("MS-310", 8, "wireless mouse"),
        ("HD-550", 3, "noise-cancelling headphones"),
        ("CB-017", 126, "USB-C cable"),
        ("MN-270", 11, "27-inch monitor"),
        ("WC-090", 25, "webcam"),
        ("BP-400", 64, "laptop backpack"),
        ("SD-128", 230, "128 GB memory card"),
        ("CH-800", 5, "office chair"),
    ]

    /// Today's weather by city: degrees Celsius, sky, wind in km/h.
    package static let weather: [(city: String, celsius: Int, sky: String, wind: Int)] = [
        ("Lisbon", 21, "sunny", 12),
        ("Oslo", 4, "light snow", 18),
        ("Tokyo", 16, "cloudy", 9),
        ("Nairobi", 24, "partly cloudy", 14),
        ("Chicago", 9, "rain", 27),
        ("Madrid", 19, "clear", 6),
        ("Berlin", 7, "overcast", 15),
        ("Sydney", 27, "sunny", 22),
        ("Toronto", 2, "fog", 8),
        ("Cairo", 31, "hazy", 11),
    ]

    /// Units of each currency one US dollar buys.
    package static let perDollar: [(code: String, rate: Double)] = [
        ("USD", 1), ("EUR", 0.92), ("GBP", 0.79), ("JPY", 151.2), ("CHF", 0.88), ("CAD", 1.36),
    ]

    /// Orders by id: status, carrier, date, total in dollars.
    package static let orders: [(id: String, status: String, carrier: String, date: String, total: Double)] = [
        ("A-1042", "shipped", "DHL", "March 6", 84.20),
        ("A-1077", "delivered", "UPS", "March 2", 129.99),
        ("A-1103", "processing", "FedEx", "March 11", 45.50),
        ("A-1150", "shipped", "UPS", "March 8", 310.00),
        ("A-1189", "delayed", "DHL", "March 14", 62.75),
        ("A-1214", "delivered", "USPS", "February 27", 18.40),
        ("A-1236", "shipped", "FedEx", "March 9", 215.30),
        ("A-1261", "processing", "DHL", "March 12", 97.10),
    ]

    /// The form keys and string arguments are compared in: letters and
    /// digits only, lowercased (`"abc 123"` is `ABC-123`).
    package static func key(_ text: String) -> String { Scoring.normalized(text) }

    /// What `getStock` returns.
    package static func stockOutput(sku: String) -> String {
        guard let row = stock.first(where: { key($0.sku) == key(sku) }) else { return "No item \(sku) in the catalog." }
        return "\(row.sku) (\(row.name)): \(row.units) units in stock."
    }

    /// What `getWeather` returns.
    package static func weatherOutput(city: String) -> String {
        guard let row = weather.first(where: { key($0.city) == key(city) }) else { return "No weather station for \(city)." }
        return "\(row.city): \(row.celsius) °C, \(row.sky), wind \(row.wind) km/h."
    }

    /// `amount` converted, rounded to the cent; nil for an unknown currency.
    package static func converted(_ amount: Double, from: String, to: String) -> Double? {
        guard let source = perDollar.first(where: { key($0.code) == key(from) }),
            let target = perDollar.first(where: { key($0.code) == key(to) })
        else { return nil }
        return ((amount / source.rate * target.rate) * 100).rounded() / 100
    }

    /// What `convertCurrency` returns.
    package static func currencyOutput(amount: Double, from: String, to: String) -> String {
        guard let value = converted(amount, from: from, to: to) else {
            return "Unknown currency: use one of \(perDollar.map(\.code).joined(separator: ", "))."
        }
        return "\(money(amount)) \(from.uppercased()) = \(money(value)) \(to.uppercased())"
    }

    /// What `lookupOrder` returns.
    package static func orderOutput(orderID: String) -> String {
        guard let row = orders.first(where: { key($0.id) == key(orderID) }) else { return "No order \(orderID)." }
        let when = row.status == "delivered" ? "delivered on \(row.date)" : "expected \(row.date)"
        return "Order \(row.id): \(row.status), carrier \(row.carrier), \(when), total $\(money(row.total))."
    }

    /// An amount with two decimals (`84.20`).
    package static func money(_ value: Double) -> String { String(format: "%.2f", value) }
}

/// `getStock(sku)`: units in stock.
package struct GetStockTool: Tool {
    package let name = "getStock"
    package let description = "Returns how many units of a product are in stock, by its SKU."

    @Generable
    package struct Arguments: Sendable, Equatable {
        @Guide(description: "The product's SKU, such as XY-100")
        package var sku: String
    }

    package init() {}

    package func call(arguments: Arguments) async throws -> String {
        ShopTables.stockOutput(sku: arguments.sku)
    }
}

/// `getWeather(city)`: today's weather.
package struct GetWeatherTool: Tool {
    package let name = "getWeather"
    package let description = "Returns today's weather in a city: temperature in °C, sky and wind."

    @Generable
    package struct Arguments: Sendable, Equatable {
        @Guide(description: "The city's name, such as Paris")
        package var city: String
    }

    package init() {}

    package func call(arguments: Arguments) async throws -> String {
        ShopTables.weatherOutput(city: arguments.city)
    }
}

/// `convertCurrency(amount, from, to)`: an amount in another currency at
/// today's fixed rates.
package struct ConvertCurrencyTool: Tool {
    package let name = "convertCurrency"
    package let description = "Converts an amount of money from one currency to another at today's rate. Currencies: USD, EUR, GBP, JPY, CHF, CAD."

    @Generable
    package struct Arguments: Sendable, Equatable {
        @Guide(description: "The amount to convert")
        package var amount: Double
        @Guide(description: "The three-letter code of the amount's currency, such as USD")
        package var from: String
        @Guide(description: "The three-letter code of the currency to convert to, such as EUR")
        package var to: String
    }

    package init() {}

    package func call(arguments: Arguments) async throws -> String {
        ShopTables.currencyOutput(amount: arguments.amount, from: arguments.from, to: arguments.to)
    }
}

/// `lookupOrder(orderID)`: an order's status, carrier, date and total.
package struct LookupOrderTool: Tool {
    package let name = "lookupOrder"
    package let description = "Looks up a customer's order by its id: status, carrier, delivery date and total."

    @Generable
    package struct Arguments: Sendable, Equatable {
        @Guide(description: "The order id, such as A-1000")
        package var orderID: String
    }

    package init() {}

    package func call(arguments: Arguments) async throws -> String {
        ShopTables.orderOutput(orderID: arguments.orderID)
    }
}
