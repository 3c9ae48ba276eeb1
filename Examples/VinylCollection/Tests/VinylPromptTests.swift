import Foundation
import FoundationModels
import FoundationModelsKit
import Testing

@testable import VinylCollection

@Suite("Vinyl collection: prompts, sizes and cache keys (no model)")
struct VinylPromptTests {
    /// 500 records (the size where inlining them would not fit a context).
    static let large = RecordCollection(
        albums: (0..<500).map { index in
            Album(
                id: "id-\(index)", artist: "Artist \(index % 70) " + String(repeating: "long name ", count: index % 3 * 10),
                title: "Title \(index)", year: 1950 + index % 70, genre: ["jazz", "soul", "rock", "folk", "techno", "dub"][index % 6],
                plays: index % 40)
        })

    @Test func everyPromptIsBoundedWhateverTheCollection() {
        let stats = CollectionStats(Self.large)
        let crate = Crate(name: String(repeating: "crate ", count: 100), albums: Self.large.albums)
        let prompts = [
            VinylPrompts.albumInsight(Self.large.albums[2], in: stats),
            VinylPrompts.crateInsight(crate),
            VinylPrompts.recommendations(stats, count: 3),
        ]
        for prompt in prompts {
            #expect(prompt.count < 1_600, "\(prompt.count) characters: \(prompt)")
        }
        #expect(VinylPrompts.crateInsight(crate).contains("(and 488 more)"))
        #expect(VinylPrompts.recommendations(stats, count: 3).contains("500 albums"))
    }

    @Test func promptsNameWhatTheyAreAbout() {
        let collection = RecordCollection.sample
        let stats = CollectionStats(collection)
        let album = collection.albums[0]
        let prompt = VinylPrompts.albumInsight(album, in: stats)
        #expect(prompt.contains("\"Kind of Blue\" by Miles Davis, 1959, jazz"))
        #expect(prompt.contains("The owner has \(collection.albums.count) albums: 1 by Miles Davis and 8 of jazz."))
        #expect(stats.genres.first?.name == "jazz")
    }

    @Test func theToolOffersTheCollectionsGenresAndCapsItsAnswer() async throws {
        let tool = try SearchCollectionTool(collection: Self.large)
        let schema = String(decoding: try JSONEncoder().encode(tool.parameters), as: UTF8.self)
        for genre in ["jazz", "soul", "rock", "folk", "techno", "dub"] { #expect(schema.contains("\"\(genre)\"")) }
        let found = try await tool.call(arguments: GeneratedContent(properties: ["genre": "jazz"]))
        #expect(found.hasPrefix("The jazz albums the owner has played least, least played first:"))
        // The less played half of 84 jazz albums: 42, of which 8 are listed.
        #expect(found.contains("(and 34 more)"))
        #expect(found.components(separatedBy: "\n").count == SearchCollectionTool.maximumResults + 2)
        #expect(found.contains("played 0 times"), "least played first")
        #expect(try await tool.call(arguments: GeneratedContent(properties: ["genre": "polka"])).contains("no polka albums"))
        #expect(throws: (any Error).self) { try SearchCollectionTool(collection: RecordCollection(albums: [])) }
    }

    /// The recommendations' schema names the albums a lookup can list, and
    /// those only: each offered genre's less played half, at most
    /// ``SearchCollectionTool/maximumResults`` of it.
    @Test func recommendationsCanOnlyNameAlbumsTheToolLists() throws {
        let sample = RecordCollection.sample
        let listable = SearchCollectionTool.listable(in: sample)
        let titles = Set(listable.map(\.title))
        #expect(!listable.isEmpty)
        #expect(!titles.contains("The Dark Side of the Moon"), "played 31 times, above its genre's median")
        let schema = String(decoding: try JSONEncoder().encode(try VinylInsights.recommendationSchema(for: sample)), as: UTF8.self)
        for album in listable { #expect(schema.contains("\"\(album.title)\"")) }
        for album in sample.albums where !titles.contains(album.title) { #expect(!schema.contains("\"\(album.title)\""), "\(album.title)") }
        // 84 albums of each of six genres: the 8 least played of each.
        #expect(SearchCollectionTool.listable(in: Self.large).count == 6 * SearchCollectionTool.maximumResults)
        #expect(SearchCollectionTool.listable(in: Self.large).allSatisfy { $0.plays <= 3 })
    }

    @Test func recommendationsAreOnlyAlbumsTheCollectionHas() {
        let collection = RecordCollection.sample
        #expect(collection.album(titled: "kind of blue", by: "MILES DAVIS")?.id == "lp-1")
        #expect(collection.album(titled: "Homogenic", by: "Bjork")?.artist == "Björk")
        #expect(collection.album(titled: "Kind of Blue", by: "someone else")?.artist == "Miles Davis", "the title decides")
        #expect(collection.album(titled: "Not an album", by: "Miles Davis") == nil)
        #expect(VinylInsights.distinct(["Jazz", "blue", "jazz", "Blue Note"]) == ["Jazz", "blue", "Blue Note"])
    }

    @Test func belowTheMinimumSizeTheFeaturesAreNilWithoutAModel() async throws {
        // A model file that does not exist: any call to it would throw.
        let missing = SystemLanguageModel(modelFile: URL(fileURLWithPath: "/nonexistent/model.gguf"))
        let tiny = VinylInsights(collection: RecordCollection(albums: Array(RecordCollection.sample.albums.prefix(4))), model: missing)
        #expect(try await tiny.recommendations() == nil)
        #expect(try await tiny.albumInsight(for: RecordCollection.sample.albums[0]) == nil)
        let smallCrate = Crate(name: "two", albums: Array(RecordCollection.sample.albums.prefix(2)))
        #expect(try await tiny.crateInsight(for: smallCrate) == nil)
        #expect(tiny.unavailableMessage?.action == .retry)
    }

    @Test func theCacheKeysFollowWhatTheAnswersDependOn() {
        var albums = RecordCollection.sample.albums
        let before = VinylInsights(collection: RecordCollection(albums: albums))
        let album = albums[0]
        // Re-sorting the collection changes nothing.
        let shuffled = VinylInsights(collection: RecordCollection(albums: albums.reversed()))
        #expect(before.albumInsightKey(for: album) == shuffled.albumInsightKey(for: album))
        // A record of a new genre changes the composition, and the key.
        albums.append(Album(id: "new", artist: "Alice Coltrane", title: "Journey in Satchidananda", year: 1971, genre: "spiritual jazz"))
        let after = VinylInsights(collection: RecordCollection(albums: albums))
        #expect(before.albumInsightKey(for: album) != after.albumInsightKey(for: album))

        let crate = Crate(name: "c", albums: Array(albums.prefix(4)))
        var edited = crate
        edited.albums[1].title += " (remaster)"
        #expect(VinylInsights.fingerprint(of: crate) != VinylInsights.fingerprint(of: edited))
        #expect(VinylInsights.fingerprint(of: crate) == VinylInsights.fingerprint(of: Crate(name: "renamed", albums: crate.albums)))
    }
}
