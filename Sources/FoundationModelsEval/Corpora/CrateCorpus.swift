/// A crate of records from a user's collection.
package struct CrateItem: Codable, Sendable, Identifiable, Equatable {
    package var id: String
    package var name: String
    package var records: [Record]

    package struct Record: Codable, Sendable, Equatable {
        package var artist: String
        package var title: String
        package var year: Int
        package var genre: String
    }
}

/// Generates the crate corpus: one crate per style of a small catalogue of
/// well-known albums, four or five records each, sometimes with one record
/// from another style, under a crate name a user would give it.
package enum CrateCorpus {
    package static let seed: UInt64 = 0xC4A7_E5
    package static let size = 8

    typealias Record = CrateItem.Record

    static let styles: [[Record]] = [
        [
            Record(artist: "Miles Davis", title: "Kind of Blue", year: 1959, genre: "Jazz"),
            Record(artist: "John Coltrane", title: "A Love Supreme", year: 1965, genre: "Jazz"),
            Record(artist: "Dave Brubeck Quartet", title: "Time Out", year: 1959, genre: "Jazz"),
            Record(artist: "Art Blakey", title: "Moanin'", year: 1958, genre: "Hard bop"),
            Record(artist: "Bill Evans Trio", title: "Waltz for Debby", year: 1962, genre: "Jazz"),
            Record(artist: "Charles Mingus", title: "Mingus Ah Um", year: 1959, genre: "Jazz"),
        ],
        [
            Record(artist: "Marvin Gaye", title: "What's Going On", year: 1971, genre: "Soul"),
            Record(artist: "Stevie Wonder", title: "Songs in the Key of Life", year: 1976, genre: "Soul"),
            Record(artist: "Curtis Mayfield", title: "Superfly", year: 1972, genre: "Funk"),
            Record(artist: "Al Green", title: "Let's Stay Together", year: 1972, genre: "Soul"),
            Record(artist: "Bill Withers", title: "Still Bill", year: 1972, genre: "Soul"),
        ],
        [
            Record(artist: "Fleetwood Mac", title: "Rumours", year: 1977, genre: "Rock"),
            Record(artist: "Pink Floyd", title: "The Dark Side of the Moon", year: 1973, genre: "Progressive rock"),
            Record(artist: "David Bowie", title: "Hunky Dory", year: 1971, genre: "Rock"),
            Record(artist: "Neil Young", title: "Harvest", year: 1972, genre: "Folk rock"),
            Record(artist: "The Rolling Stones", title: "Exile on Main St.", year: 1972, genre: "Rock"),
        ],
        [
            Record(artist: "Kraftwerk", title: "Trans-Europe Express", year: 1977, genre: "Electronic"),
            Record(artist: "Brian Eno", title: "Music for Airports", year: 1978, genre: "Ambient"),
            Record(artist: "Massive Attack", title: "Mezzanine", year: 1998, genre: "Trip hop"),
            Record(artist: "Boards of Canada", title: "Music Has the Right to Children", year: 1998, genre: "Electronic"),
            Record(artist: "Daft Punk", title: "Discovery", year: 2001, genre: "House"),
        ],
        [
            Record(artist: "A Tribe Called Quest", title: "The Low End Theory", year: 1991, genre: "Hip hop"),
            Record(artist: "Nas", title: "Illmatic", year: 1994, genre: "Hip hop"),
            Record(artist: "De La Soul", title: "3 Feet High and Rising", year: 1989, genre: "Hip hop"),
            Record(artist: "Lauryn Hill", title: "The Miseducation of Lauryn Hill", year: 1998, genre: "Hip hop"),
            Record(artist: "Kendrick Lamar", title: "To Pimp a Butterfly", year: 2015, genre: "Hip hop"),
        ],
        [
            Record(artist: "Joni Mitchell", title: "Blue", year: 1971, genre: "Folk"),
            Record(artist: "Nick Drake", title: "Pink Moon", year: 1972, genre: "Folk"),
            Record(artist: "Bob Dylan", title: "Blood on the Tracks", year: 1975, genre: "Folk rock"),
            Record(artist: "Simon & Garfunkel", title: "Bridge over Troubled Water", year: 1970, genre: "Folk rock"),
            Record(artist: "Leonard Cohen", title: "Songs of Leonard Cohen", year: 1967, genre: "Folk"),
        ],
        [
            Record(artist: "Stan Getz & João Gilberto", title: "Getz/Gilberto", year: 1964, genre: "Bossa nova"),
            Record(artist: "Antônio Carlos Jobim", title: "Wave", year: 1967, genre: "Bossa nova"),
            Record(artist: "Jorge Ben", title: "África Brasil", year: 1976, genre: "Samba funk"),
            Record(artist: "Caetano Veloso", title: "Transa", year: 1972, genre: "MPB"),
            Record(artist: "Marcos Valle", title: "Previsão do Tempo", year: 1973, genre: "MPB"),
        ],
        [
            Record(artist: "Ramones", title: "Ramones", year: 1976, genre: "Punk"),
            Record(artist: "The Clash", title: "London Calling", year: 1979, genre: "Punk"),
            Record(artist: "Joy Division", title: "Unknown Pleasures", year: 1979, genre: "Post-punk"),
            Record(artist: "Talking Heads", title: "Remain in Light", year: 1980, genre: "New wave"),
            Record(artist: "Television", title: "Marquee Moon", year: 1977, genre: "Post-punk"),
        ],
    ]

    static let names = [
        "Sunday morning", "Late-night drive", "Rainy afternoon", "Dinner party", "Deep focus", "Road trip", "Friday night", "Slow burn",
    ]

    package static func generate(seed: UInt64 = seed) -> [CrateItem] {
        var random = CorpusRandom(seed: seed)
        let order = random.shuffled(Array(styles.indices)).prefix(size)
        let crateNames = random.shuffled(names)
        return order.enumerated().map { number, style in
            var records = random.sample(styles[style], count: random.int(in: 4...5))
            if random.chance(0.4) {
                let other = (style + 1 + random.below(styles.count - 1)) % styles.count
                records.insert(random.pick(styles[other]), at: random.below(records.count + 1))
            }
            return CrateItem(id: "crate-0\(number + 1)", name: crateNames[number], records: records)
        }
    }
}
