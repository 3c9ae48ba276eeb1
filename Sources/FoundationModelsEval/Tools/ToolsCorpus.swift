import Foundation

/// One conversation of the tools corpus: one or more prompts in the same
/// session, each with the calls it needs and the facts its answer must
/// repeat.
package struct ToolsItem: Codable, Sendable, Identifiable, Equatable {
    package var id: String
    /// single, numbers, two-tools, no-tool or multi-turn (``ToolsCorpus/kinds``).
    package var kind: String
    package var turns: [Turn]

    /// One prompt and what its answer needs.
    package struct Turn: Codable, Sendable, Equatable {
        package var prompt: String
        /// The calls the prompt needs, in any order; empty when it needs none.
        package var calls: [ExpectedCall]
        /// The prompt must be answered without any call (a plain question).
        package var forbidsCalls: Bool
        /// What the answer must contain (from the tools' outputs, or for a
        /// plain question what answers it): numbers compared as numbers,
        /// words case-insensitively.
        package var facts: [String]
    }

    /// A call the prompt needs: the tool and the values of its arguments
    /// (strings as ``ShopTables/key(_:)`` reduces them, numbers by value).
    package struct ExpectedCall: Codable, Sendable, Equatable {
        package var tool: String
        package var arguments: [String: String]
    }

    /// The item needs at least one call.
    package var needsCalls: Bool { turns.contains { !$0.calls.isEmpty } }
    /// The item is a plain question that must be answered without a call.
    package var forbidsCalls: Bool { turns.contains { $0.forbidsCalls } }
}

/// Generates the tools corpus: conversations with a shop assistant that has
/// ``ShopTables``'s four tools, four of each kind —
///
/// - **single**: one call, then an answer that repeats its result;
/// - **numbers**: one call whose numbers the answer must give (a converted
///   amount, an order's total, a temperature);
/// - **two-tools**: one request that needs two calls;
/// - **no-tool**: a plain question the model must answer without a call;
/// - **multi-turn**: a second prompt in the same session that needs another
///   call, or uses the first result.
///
/// The seed picks the rows of the tables and the wordings; the tools are
/// the same for every seed, so a held-out corpus (another seed) asks about
/// other rows of the same tables.
package enum ToolsCorpus {
    package static let seed: UInt64 = 0x7001_5EED
    package static let fileName = "tools.json"
    package static let kinds = ["single", "numbers", "two-tools", "no-tool", "multi-turn"]
    package static let perKind = 4
    package static var size: Int { kinds.count * perKind }

    /// The seed of the held-out sample: every bit of ``seed`` flipped, as
    /// ``CorpusFiles/heldOutSeed(for:)`` does for the other corpora.
    package static var heldOutSeed: UInt64 { ~seed }

    package static func generate(seed: UInt64 = seed) -> [ToolsItem] {
        var random = CorpusRandom(seed: seed)
        var decks = Decks()
        var items: [ToolsItem] = []
        for kind in kinds {
            for slot in 0..<perKind {
                let turns: [ToolsItem.Turn]
                switch kind {
                case "single": turns = single(slot, &random, &decks)
                case "numbers": turns = numbers(slot, &random, &decks)
                case "two-tools": turns = twoTools(slot, &random, &decks)
                case "no-tool": turns = noTool(slot, &random)
                default: turns = multiTurn(slot, &random, &decks)
                }
                let number = items.count + 1
                items.append(ToolsItem(id: "tools-\(number < 10 ? "0" : "")\(number)", kind: kind, turns: turns))
            }
        }
        return items
    }

    /// The corpus as its file holds it: pretty-printed, sorted keys, as
    /// ``CorpusFiles`` writes the others.
    package static func encode(seed: UInt64 = seed) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(generate(seed: seed)) + Data("\n".utf8)
    }

    /// Writes `tools.json` into `directory` (from the held-out seed with `heldOut`).
    package static func write(to directory: URL, heldOut: Bool = false) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try encode(seed: heldOut ? heldOutSeed : seed).write(to: directory.appendingPathComponent(fileName), options: .atomic)
    }

    /// The items of `tools.json` in `directory`.
    package static func load(from directory: URL) throws(CorpusError) -> [ToolsItem] {
        let url = directory.appendingPathComponent(fileName)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CorpusError(
                "cannot read \(url.path): \(error.localizedDescription) (run from the repository root, or write it with ToolsCorpus.write)")
        }
        do {
            return try JSONDecoder().decode([ToolsItem].self, from: data)
        } catch {
            throw CorpusError("\(url.path) is not a tools corpus: \(error)")
        }
    }

    // MARK: Calls and facts

    typealias Call = ToolsItem.ExpectedCall

    static func stockCall(_ sku: String) -> Call { Call(tool: "getStock", arguments: ["sku": sku]) }
    static func weatherCall(_ city: String) -> Call { Call(tool: "getWeather", arguments: ["city": city]) }
    static func orderCall(_ id: String) -> Call { Call(tool: "lookupOrder", arguments: ["orderID": id]) }
    static func currencyCall(_ amount: Int, _ from: String, _ to: String) -> Call {
        Call(tool: "convertCurrency", arguments: ["amount": "\(amount)", "from": from, "to": to])
    }

    static func turn(_ prompt: String, _ calls: [Call], facts: [String], forbidsCalls: Bool = false) -> ToolsItem.Turn {
        ToolsItem.Turn(prompt: prompt, calls: calls, forbidsCalls: forbidsCalls, facts: facts)
    }

    // MARK: Kinds

    static func single(_ slot: Int, _ random: inout CorpusRandom, _ decks: inout Decks) -> [ToolsItem.Turn] {
        switch slot % 3 {
        case 0:
            let row = decks.stock(&random)
            let prompt = random.pick([
                "How many units of {sku} do we have in stock?", "Is {sku} in stock? How many?", "Check the stock of {sku} for me.",
            ])
            return [turn(prompt.replacingOccurrences(of: "{sku}", with: row.sku), [stockCall(row.sku)], facts: ["\(row.units)"])]
        case 1:
            let row = decks.weather(&random)
            let prompt = random.pick([
                "What's the weather in {city} today?", "How is the weather in {city} right now?",
                "Do I need a coat in {city} today? What's the weather there?",
            ])
            return [turn(prompt.replacingOccurrences(of: "{city}", with: row.city), [weatherCall(row.city)], facts: [row.sky])]
        default:
            let row = decks.orders(&random)
            let prompt = random.pick(["What is the status of order {id}?", "Where is my order {id}?", "Has order {id} shipped yet?"])
            return [turn(prompt.replacingOccurrences(of: "{id}", with: row.id), [orderCall(row.id)], facts: [row.status])]
        }
    }

    static func numbers(_ slot: Int, _ random: inout CorpusRandom, _ decks: inout Decks) -> [ToolsItem.Turn] {
        switch slot {
        case 0, 1:
            let (from, to) = currencyPair(from: slot == 0 ? ["USD"] : ["EUR", "GBP"], &random)
            let amount = random.pick([20, 50, 75, 120, 250, 400, 1000])
            let value = ShopTables.converted(Double(amount), from: from, to: to)!
            let prompt = random.pick([
                "How much is {amount} {from} in {to}?", "Convert {amount} {from} to {to}.", "I have {amount} {from}. What is that in {to}?",
            ])
            .replacingOccurrences(of: "{amount}", with: "\(amount)")
            .replacingOccurrences(of: "{from}", with: from)
            .replacingOccurrences(of: "{to}", with: to)
            return [turn(prompt, [currencyCall(amount, from, to)], facts: [ShopTables.money(value)])]
        case 2:
            let row = decks.orders(&random)
            let prompt = random.pick(["How much did order {id} cost?", "What was the total of order {id}?"])
            return [turn(prompt.replacingOccurrences(of: "{id}", with: row.id), [orderCall(row.id)], facts: [ShopTables.money(row.total)])]
        default:
            let row = decks.weather(&random)
            let prompt = random.pick(["What's the temperature in {city} today?", "How warm is it in {city} today, in degrees?"])
            return [turn(prompt.replacingOccurrences(of: "{city}", with: row.city), [weatherCall(row.city)], facts: ["\(row.celsius)"])]
        }
    }

    static func twoTools(_ slot: Int, _ random: inout CorpusRandom, _ decks: inout Decks) -> [ToolsItem.Turn] {
        switch slot % 3 {
        case 0:
            let stock = decks.stock(&random), place = decks.weather(&random)
            return [
                turn(
                    "How many units of \(stock.sku) are in stock, and what's the weather in \(place.city)?",
                    [stockCall(stock.sku), weatherCall(place.city)], facts: ["\(stock.units)", place.sky])
            ]
        case 1:
            let order = decks.orders(&random), stock = decks.stock(&random)
            return [
                turn(
                    "What is the status of order \(order.id)? Also, how many \(stock.sku) do we have in stock?",
                    [orderCall(order.id), stockCall(stock.sku)], facts: [order.status, "\(stock.units)"])
            ]
        default:
            let pair = decks.weatherPair(&random)
            return [
                turn(
                    "Compare today's weather in \(pair[0].city) and \(pair[1].city).",
                    [weatherCall(pair[0].city), weatherCall(pair[1].city)], facts: [pair[0].sky, pair[1].sky])
            ]
        }
    }

    /// Questions none of the tools answers, each with what its answer must
    /// say where one answer is right (none where many are: a note, a name,
    /// a synonym). Every answer is also checked for calls written out
    /// instead of an answer (``ToolsScoring``).
    static let plainQuestions: [(question: String, facts: [String])] = [
        ("What is the capital of Japan?", ["Tokyo"]),
        ("Write a one-sentence thank-you note to a customer.", []),
        ("What is 12 times 7?", ["84"]),
        ("Translate \"good morning\" into Spanish.", ["buenos"]),
        ("How many days are there in a leap year?", ["366"]),
        ("Suggest a name for a coffee shop.", []),
        ("What does the abbreviation SKU stand for?", ["stock keeping unit"]),
        ("Give me a synonym for \"quick\".", []),
    ]

    static func noTool(_ slot: Int, _ random: inout CorpusRandom) -> [ToolsItem.Turn] {
        // Two draws from each half, so no question repeats within a corpus.
        let half = plainQuestions.count / 2
        let pool = Array(plainQuestions[(slot / 2 * half)..<(slot / 2 * half + half)])
        let question = pool[(slot % 2) * 2 + random.below(2)]
        return [turn(question.question, [], facts: question.facts, forbidsCalls: true)]
    }

    static func multiTurn(_ slot: Int, _ random: inout CorpusRandom, _ decks: inout Decks) -> [ToolsItem.Turn] {
        switch slot {
        case 0:
            // Another call of the same tool, the argument implied.
            let pair = decks.weatherPair(&random)
            return [
                turn("What's the weather in \(pair[0].city)?", [weatherCall(pair[0].city)], facts: [pair[0].sky]),
                turn("And in \(pair[1].city)?", [weatherCall(pair[1].city)], facts: [pair[1].sky]),
            ]
        case 1:
            // The second call's argument comes from the first result.
            let order = decks.orders(&random)
            let to = random.pick(["EUR", "GBP", "CHF"])
            let value = ShopTables.converted(order.total, from: "USD", to: to)!
            return [
                turn("What was the total of order \(order.id)?", [orderCall(order.id)], facts: [ShopTables.money(order.total)]),
                turn(
                    "What is that total in \(to)?",
                    [Call(tool: "convertCurrency", arguments: ["amount": ShopTables.money(order.total), "from": "USD", "to": to])],
                    facts: [ShopTables.money(value)]),
            ]
        case 2:
            // The first result reused, no call needed.
            let row = decks.stock(&random, where: { $0.units > 5 })
            let sold = random.int(in: 2...5)
            return [
                turn("How many units of \(row.sku) are in stock?", [stockCall(row.sku)], facts: ["\(row.units)"]),
                turn("If we sell \(sold) of them, how many are left?", [], facts: ["\(row.units - sold)"]),
            ]
        default:
            // A different tool in the second turn.
            let order = decks.orders(&random), stock = decks.stock(&random)
            return [
                turn("Where is order \(order.id)?", [orderCall(order.id)], facts: [order.status]),
                turn("Thanks. Do we still have \(stock.sku) in stock?", [stockCall(stock.sku)], facts: ["\(stock.units)"]),
            ]
        }
    }

    /// From one of `sources` (dollars in one item, euros or pounds in the
    /// other, so the two never ask the same; never yen, whose amounts
    /// convert to odd numbers) to any other currency.
    static func currencyPair(from sources: [String], _ random: inout CorpusRandom) -> (String, String) {
        let from = random.pick(sources)
        return (from, random.pick(ShopTables.perDollar.map(\.code).filter { $0 != from }))
    }

    /// The tables' rows dealt like cards, each table shuffled once per pass,
    /// so a corpus asks about as many different rows as it can.
    struct Decks {
        var dealt: [String: [Int]] = [:]

        mutating func deal(_ table: String, count: Int, _ random: inout CorpusRandom, where allowed: (Int) -> Bool = { _ in true }) -> Int {
            for _ in 0..<2 {
                if let index = dealt[table, default: []].firstIndex(where: allowed) {
                    return dealt[table]!.remove(at: index)
                }
                dealt[table, default: []] += random.shuffled(Array(0..<count))
            }
            preconditionFailure("no row of \(table) allowed")
        }

        mutating func stock(_ random: inout CorpusRandom, where allowed: (((sku: String, units: Int, name: String)) -> Bool) = { _ in true }) -> (
            sku: String, units: Int, name: String
        ) {
            ShopTables.stock[deal("stock", count: ShopTables.stock.count, &random) { allowed(ShopTables.stock[$0]) }]
        }

        mutating func weather(_ random: inout CorpusRandom, excluding excluded: String? = nil) -> (city: String, celsius: Int, sky: String, wind: Int)
        {
            ShopTables.weather[deal("weather", count: ShopTables.weather.count, &random) { ShopTables.weather[$0].city != excluded }]
        }

        /// Two different cities.
        mutating func weatherPair(_ random: inout CorpusRandom) -> [(city: String, celsius: Int, sky: String, wind: Int)] {
            let first = weather(&random)
            return [first, weather(&random, excluding: first.city)]
        }

        mutating func orders(_ random: inout CorpusRandom) -> (id: String, status: String, carrier: String, date: String, total: Double) {
            ShopTables.orders[deal("orders", count: ShopTables.orders.count, &random)]
        }
    }
}
