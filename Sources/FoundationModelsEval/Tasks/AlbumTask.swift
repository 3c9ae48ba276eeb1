import FoundationModels
import VinylCollection

/// Album insights, asked for as the vinyl example's album screen asks
/// (``VinylPrompts``' instructions and prompt, its ``AlbumInsight``): a
/// summary within its word limit, a fit that uses the counts the prompt
/// gives, distinct moods — and nothing the input contradicts.
///
/// "Nothing the input contradicts" is a semantic judgement; its checkable
/// proxy (`facts`) is what the prompt and the collection fix: a year the
/// answer states is the album's (or its decade), no other album or artist
/// of the collection is attributed to the owner's record, and an
/// instrument named for a player the catalogue knows is one they play
/// ("Kind of Blue … his mastery of the piano" is wrong: Miles Davis played
/// the trumpet). It misses what no table here holds: a song placed on the
/// wrong album, a wrong producer, praise that fits another record.
package enum AlbumTask: EvalTask {
    package static let corpus = Corpus.albums

    package static var instructions: String { VinylPrompts.albumInsightInstructions }

    package static func prompt(for item: AlbumItem) -> String {
        VinylPrompts.albumInsight(item.albumAskedAbout, in: CollectionStats(item.shelves.collection))
    }

    package static let fields = ["summary", "fit", "moods", "facts"]

    /// The summary's guide asks for at most this many words.
    package static let summaryWordLimit = 30
    /// Each mood's guide: "one or two words".
    package static let moodWordLimit = 2

    package static func score(_ answer: AlbumInsight, for item: AlbumItem) -> [FieldScore] {
        let album = item.albumAskedAbout
        let summary = WordLimit.check(answer.summary, limit: summaryWordLimit)
        let counts = item.countsGiven
        let stated = Scoring.numbersAndNumberWords(in: answer.fit)
        let cited = stated.filter { counts.contains($0) }
        let printed = counts.union([Double(album.year), Double(album.year / 10 * 10)])
        let invented = stated.filter { !printed.contains($0) }
        let moods = answer.moods.map(Scoring.normalized)
        let distinct = Set(moods).count == moods.count
        let longMoods = answer.moods.filter { !WordLimit.check($0, limit: moodWordLimit).kept }
        let contradictions = contradicted(answer.summary + " " + answer.fit, item: item)
        return [
            FieldScore("summary", summary.kept, summary.detail),
            FieldScore(
                "fit", !cited.isEmpty && invented.isEmpty,
                cited.isEmpty
                    ? "uses none of the counts given (\(counts.sorted().map(Scoring.number)))"
                    : invented.isEmpty ? "" : "states counts the prompt does not give: \(invented.map(Scoring.number))"),
            FieldScore(
                "moods", (2...3).contains(moods.count) && distinct && longMoods.isEmpty,
                "\(moods.count) moods\(distinct ? "" : " (repeated)")\(longMoods.isEmpty ? "" : ", too long: \(longMoods)"): \(answer.moods)"),
            FieldScore("facts", contradictions.isEmpty, contradictions.joined(separator: "; ")),
        ]
    }

    /// What `text` says that the item contradicts (see the type's comment).
    static func contradicted(_ text: String, item: AlbumItem) -> [String] {
        let album = item.albumAskedAbout
        var found: [String] = []
        let years = Scoring.numbersAndNumberWords(in: text).filter { (1900...2030).contains($0) && $0 == $0.rounded() }
        let wrongYears = years.filter { $0 != Double(album.year) && $0 != Double(album.year / 10 * 10) }
        if !wrongYears.isEmpty { found.append("years \(wrongYears.map(Scoring.number)), the album is from \(album.year)") }
        let catalogue = RecordCollection.sample.albums
        let otherArtists = Set(catalogue.map(\.artist)).filter {
            $0 != album.artist && Scoring.contains(text, phrase: $0) && !Scoring.contains(album.artist, phrase: $0)
        }
        if !otherArtists.isEmpty { found.append("names other artists: \(otherArtists.sorted())") }
        let otherAlbums = catalogue.filter {
            $0.title != album.title && Scoring.words($0.title).count >= 2 && Scoring.contains(text, phrase: $0.title)
        }
        if !otherAlbums.isEmpty { found.append("names other albums: \(otherAlbums.map(\.title))") }
        if let plays = instruments[album.artist] {
            let named = Scoring.words(text).compactMap { instrumentWords[$0] }
            let wrong = Set(named).subtracting(plays)
            if !wrong.isEmpty { found.append("\(album.artist) is not known for the \(wrong.sorted().joined(separator: ", "))") }
        }
        return found
    }

    /// The instruments of the catalogue's players and groups where a
    /// summary is likely to name one (the jazz and bossa nova records): an
    /// artist not listed is not checked.
    static let instruments: [String: Set<String>] = [
        "Miles Davis": ["trumpet"],
        "John Coltrane": ["saxophone"],
        "Bill Evans Trio": ["piano", "bass", "drums"],
        "Herbie Hancock": ["piano", "keyboards", "synthesizer"],
        "Thelonious Monk": ["piano"],
        "Dave Brubeck Quartet": ["piano", "saxophone", "bass", "drums"],
        "Charles Mingus": ["bass", "piano"],
        "Art Blakey and the Jazz Messengers": ["drums", "trumpet", "saxophone", "piano", "bass"],
        "Nina Simone": ["piano", "vocals"],
        "Stan Getz and João Gilberto": ["saxophone", "guitar", "vocals"],
        "Antônio Carlos Jobim": ["piano", "guitar", "vocals"],
        "Kraftwerk": ["synthesizer", "keyboards", "drums", "vocals"],
        "Brian Eno": ["synthesizer", "keyboards", "piano"],
    ]

    /// A word of an answer → the instrument it names.
    static let instrumentWords: [String: String] = [
        "trumpet": "trumpet", "trumpeter": "trumpet", "horn": "trumpet",
        "saxophone": "saxophone", "sax": "saxophone", "saxophonist": "saxophone", "tenor": "saxophone",
        "piano": "piano", "pianist": "piano",
        "bass": "bass", "bassist": "bass",
        "drums": "drums", "drummer": "drums",
        "guitar": "guitar", "guitarist": "guitar",
        "keyboards": "keyboards", "keyboard": "keyboards", "organ": "keyboards",
        "synthesizer": "synthesizer", "synthesizers": "synthesizer", "synth": "synthesizer", "synths": "synthesizer",
        "violin": "violin", "clarinet": "clarinet", "flute": "flute", "vibraphone": "vibraphone",
    ]

    package static func groups(of item: AlbumItem) -> [String] { [item.albumAskedAbout.genre] }

    package static let seed = ShelfCorpus.albumSeed
    package static func generate(seed: UInt64) -> [AlbumItem] { ShelfCorpus.albums(seed: seed) }

    // MARK: The example's feature

    package static let hasPipeline = true

    /// ``VinylInsights/albumInsight(for:)`` on the item's collection, with
    /// the feature's own options (greedy, 320 tokens) and its repeated
    /// moods dropped.
    package static func pipeline(for item: AlbumItem, model: SystemLanguageModel) async throws -> PipelineAnswer<AlbumInsight> {
        let insights = VinylInsights(collection: item.shelves.collection, model: model)
        guard let insight = try await insights.albumInsight(for: item.albumAskedAbout) else {
            throw CorpusError("\(item.id): the collection is too small for an album insight")
        }
        return PipelineAnswer(answer: insight, output: "\(insight.summary) / \(insight.fit) / \(insight.moods)", requests: 1)
    }

    package static func exampleOptions(model: SystemLanguageModel) -> GenerationOptions? {
        ExampleOptions.of(VinylInsights(collection: RecordCollection(albums: []), model: model))
    }
}

extension AlbumItem {
    /// The album the item asks about, as the example holds it.
    var albumAskedAbout: Album { shelves.collection.albums[album] }

    /// The counts the example's prompt gives: the album's plays, the
    /// collection's size, the albums by the album's artist and of its genre.
    var countsGiven: Set<Double> {
        let album = albumAskedAbout
        let stats = CollectionStats(shelves.collection)
        let byArtist = stats.artists.first { $0.name == album.artist }?.albums ?? 1
        let inGenre = stats.genres.first { $0.name == album.genre }?.albums ?? 1
        return [Double(album.plays), Double(stats.albumCount), Double(byArtist), Double(inGenre)]
    }
}
