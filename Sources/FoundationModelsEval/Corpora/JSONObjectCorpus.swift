/// A request for a JSON object with named keys, and what the answer must
/// hold.
package struct JSONObjectItem: Codable, Sendable, Identifiable, Equatable {
    /// One requested key.
    package struct Key: Codable, Sendable, Equatable {
        package enum Kind: String, Codable, Sendable {
            case string, number, boolean, list, object
        }

        /// Where the key is: `city`, or `country.capital` inside an object.
        package var path: String
        package var kind: Kind
        /// The value the request fixes, when it does: a string's words
        /// (`Paris`), a number (`79`), `true` or `false`, or an element a
        /// list must hold. A path may be listed more than once (a list that
        /// must hold two elements).
        package var value: String?

        package init(_ path: String, _ kind: Kind, _ value: String? = nil) {
            self.path = path
            self.kind = kind
            self.value = value
        }
    }

    package var id: String
    /// The request's shape, for the report's breakdown: `one key`, `two
    /// keys`, `three keys`, `nested`, `list`.
    package var shape: String
    package var prompt: String
    package var keys: [Key]
}

/// Generates the JSON-object corpus: the request users send most
/// ("Give a JSON object with a key 'city' for the capital of France.")
/// first, then requests drawn from templates of every shape (one, two or
/// three keys, a nested object, a list, a number and a boolean) filled
/// with facts whose answers are fixed (capitals, chemical symbols, sums,
/// books' authors and years).
package enum JSONObjectCorpus {
    package static let seed: UInt64 = 0x0B1E_C7
    package static let size = 21

    struct Country {
        var name: String, capital: String, continent: String
    }

    static let countries = [
        Country(name: "Japan", capital: "Tokyo", continent: "Asia"),
        Country(name: "Italy", capital: "Rome", continent: "Europe"),
        Country(name: "Egypt", capital: "Cairo", continent: "Africa"),
        Country(name: "Canada", capital: "Ottawa", continent: "North America"),
        Country(name: "Kenya", capital: "Nairobi", continent: "Africa"),
        Country(name: "Peru", capital: "Lima", continent: "South America"),
        Country(name: "Norway", capital: "Oslo", continent: "Europe"),
        Country(name: "Australia", capital: "Canberra", continent: "Oceania"),
        Country(name: "Germany", capital: "Berlin", continent: "Europe"),
        Country(name: "Spain", capital: "Madrid", continent: "Europe"),
        Country(name: "Argentina", capital: "Buenos Aires", continent: "South America"),
        Country(name: "Thailand", capital: "Bangkok", continent: "Asia"),
        Country(name: "Portugal", capital: "Lisbon", continent: "Europe"),
        Country(name: "India", capital: "New Delhi", continent: "Asia"),
    ]

    static let elements: [(name: String, symbol: String, number: Int)] = [
        ("gold", "Au", 79), ("iron", "Fe", 26), ("oxygen", "O", 8), ("sodium", "Na", 11), ("silver", "Ag", 47),
        ("helium", "He", 2), ("carbon", "C", 6), ("copper", "Cu", 29), ("neon", "Ne", 10), ("calcium", "Ca", 20),
    ]

    static let books: [(title: String, author: String, year: Int)] = [
        ("Pride and Prejudice", "Jane Austen", 1813), ("Moby-Dick", "Herman Melville", 1851),
        ("Nineteen Eighty-Four", "George Orwell", 1949), ("The Hobbit", "J. R. R. Tolkien", 1937),
        ("Frankenstein", "Mary Shelley", 1818), ("Dracula", "Bram Stoker", 1897),
    ]

    static let people = ["Ana", "Ben", "Chloe", "David", "Farah", "Grace", "Ivan", "Julia"]
    static let things = [
        "a rainy autumn evening", "a busy train station", "a mountain lake at dawn", "a jazz club", "a desert road trip",
        "a children's birthday party",
    ]
    static let primes = [7, 13, 29, 31, 37, 41]
    static let composites = [9, 15, 21, 27, 35, 49]

    /// The request a template makes from the draws.
    typealias Template = @Sendable (inout CorpusRandom) -> (shape: String, prompt: String, keys: [JSONObjectItem.Key])

    static let templates: [Template] = [
        { random in
            let country = random.pick(countries)
            return ("one key", "Give a JSON object with a key 'city' for the capital of \(country.name).", [.init("city", .string, country.capital)])
        },
        { random in
            let country = random.pick(countries)
            return (
                "two keys", "Give a JSON object with the keys 'country' and 'capital' for \(country.name).",
                [.init("country", .string, country.name), .init("capital", .string, country.capital)]
            )
        },
        { random in
            let country = random.pick(countries)
            return (
                "three keys", "Return a JSON object about \(country.name) with the keys 'name', 'capital' and 'continent'.",
                [.init("name", .string, country.name), .init("capital", .string, country.capital), .init("continent", .string, country.continent)]
            )
        },
        { random in
            let country = random.pick(countries)
            return (
                "nested", "Give a JSON object with a key 'country' whose value is an object with the keys 'name' and 'capital', for \(country.name).",
                [.init("country", .object), .init("country.name", .string, country.name), .init("country.capital", .string, country.capital)]
            )
        },
        { random in
            let element = random.pick(elements)
            return (
                "two keys", "Give a JSON object with the keys 'element' and 'symbol' for the chemical element \(element.name).",
                [.init("element", .string, element.name), .init("symbol", .string, element.symbol)]
            )
        },
        { random in
            let element = random.pick(elements)
            return (
                "two keys",
                "Give a JSON object with a key 'symbol' for the chemical symbol of \(element.name) and a key 'atomicNumber' for its atomic number.",
                [.init("symbol", .string, element.symbol), .init("atomicNumber", .number, String(element.number))]
            )
        },
        { random in
            let a = random.int(in: 12...99), b = random.int(in: 12...99)
            return ("one key", "Give a JSON object with a key 'sum' for \(a) plus \(b).", [.init("sum", .number, String(a + b))])
        },
        { random in
            let prime = random.chance(0.5)
            let number = random.pick(prime ? primes : composites)
            return (
                "one key", "Give a JSON object with a key 'isPrime' saying whether \(number) is a prime number.",
                [.init("isPrime", .boolean, String(prime))]
            )
        },
        { random in
            let book = random.pick(books)
            return (
                "three keys",
                "Give a JSON object for the book \(book.title) by \(book.author), published in \(book.year), with the keys 'title', 'author' and 'year'.",
                [.init("title", .string, book.title), .init("author", .string, book.author), .init("year", .number, String(book.year))]
            )
        },
        { random in
            let name = random.pick(people), age = random.int(in: 19...78)
            return (
                "nested",
                "Give a JSON object with a key 'person' holding an object with the keys 'name' and 'age', for \(name), who is \(age) years old.",
                [.init("person", .object), .init("person.name", .string, name), .init("person.age", .number, String(age))]
            )
        },
        { random in
            let thing = random.pick(things)
            return ("list", "Give a JSON object with a key 'tags' listing three words that describe \(thing).", [.init("tags", .list)])
        },
        { random in
            let pair = random.sample(countries, count: 2)
            return (
                "list", "Give a JSON object with a key 'capitals' listing the capitals of \(pair[0].name) and \(pair[1].name).",
                [.init("capitals", .list, pair[0].capital), .init("capitals", .list, pair[1].capital)]
            )
        },
        { random in
            let pair = random.sample(countries, count: 2)
            return (
                "nested",
                "Give a JSON object with a key 'trip' holding an object with the keys 'from' and 'to' for a trip from \(pair[0].capital) to \(pair[1].capital), and a key 'stops' listing cities on the way.",
                [
                    .init("trip", .object), .init("trip.from", .string, pair[0].capital), .init("trip.to", .string, pair[1].capital),
                    .init("stops", .list),
                ]
            )
        },
    ]

    /// The request `fm respond --schema` users send first, always item 1.
    static let france = JSONObjectItem(
        id: "json-01", shape: "one key", prompt: "Give a JSON object with a key 'city' for the capital of France.",
        keys: [.init("city", .string, "Paris")])

    package static func generate(seed: UInt64 = seed) -> [JSONObjectItem] {
        var random = CorpusRandom(seed: seed)
        // Every template in a seeded order, then again, so every shape appears.
        let order = random.shuffled(Array(templates.indices))
        var items = [france]
        var index = 0
        while items.count < size {
            let (shape, prompt, keys) = templates[order[index % order.count]](&random)
            index += 1
            guard !items.contains(where: { $0.prompt == prompt }) else { continue }
            let number = items.count + 1
            items.append(JSONObjectItem(id: "json-\(number < 10 ? "0" : "")\(number)", shape: shape, prompt: prompt, keys: keys))
        }
        return items
    }
}
