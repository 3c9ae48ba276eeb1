import Foundation
import FoundationModels
import FoundationModelsKit

/// The collection app's three model-backed features — album insights,
/// crate insights, recommendations — each behind its own cache.
///
/// The caches follow what each answer depends on:
/// - **album insights** are filed under a key built from the album and the
///   collection's composition (``CollectionStats/composition``): a record of
///   a new genre or decade makes a new key, so the insight about how the
///   album fits the collection is written again; nothing else expires it.
/// - **crate insights** live 7 days, and only while the fingerprint of the
///   crate's records (the ones its prompt names) is the one they were made
///   from: a changed crate is stale at once, an unchanged one is refreshed
///   weekly.
/// - **recommendations** live a day, and only while the collection is the
///   one they were made for (a fingerprint of every album's identifier): a
///   record bought today must not be recommended today.
///
/// Below a minimum size a feature quietly returns `nil` (a collection of
/// three records has nothing to say about itself); the model is not called.
public final class VinylInsights: Sendable {
    /// Albums a collection needs before it gets album insights and recommendations.
    public static let minimumCollectionSize = 5
    /// Albums a crate needs before it gets an insight.
    public static let minimumCrateSize = 3
    /// Recommendations per request.
    public static let recommendationCount = 3

    public let collection: RecordCollection
    public let stats: CollectionStats
    let model: SystemLanguageModel
    let options: GenerationOptions
    let albumInsights: ResponseCache<AlbumInsight>
    let crateInsights: ResponseCache<CrateInsight>
    let recommendationCache: ResponseCache<[AlbumRecommendation]>
    let onToolCall: (@Sendable (String) -> Void)?

    /// - Parameters:
    ///   - cacheDirectory: where the three caches persist, or `nil` for memory only.
    ///   - options: the generation options of every request (greedy by
    ///     default: the same collection gets the same insight; 320 tokens,
    ///     room for three recommendations' reasons from the default model,
    ///     which writes longer ones than a smaller model).
    ///   - now: the caches' clock.
    ///   - onToolCall: told each collection lookup the model makes.
    public init(
        collection: RecordCollection,
        model: SystemLanguageModel = .default,
        cacheDirectory: URL? = nil,
        options: GenerationOptions = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 320),
        now: @escaping @Sendable () -> Date = { Date() },
        onToolCall: (@Sendable (String) -> Void)? = nil
    ) {
        self.onToolCall = onToolCall
        self.collection = collection
        self.stats = CollectionStats(collection)
        self.model = model
        self.options = options
        albumInsights = ResponseCache(file: cacheDirectory?.appendingPathComponent("album-insights.json"), now: now)
        crateInsights = ResponseCache(file: cacheDirectory?.appendingPathComponent("crate-insights.json"), now: now)
        recommendationCache = ResponseCache(file: cacheDirectory?.appendingPathComponent("recommendations.json"), now: now)
    }

    /// What to show instead of the features, or `nil` when the model can be used.
    public var unavailableMessage: UserFacingMessage? { UserFacingMessage(model.availability) }

    // MARK: Album insights

    /// The insight about `album`, or `nil` for a collection too small to
    /// say how the album fits it.
    public func albumInsight(for album: Album) async throws -> AlbumInsight? {
        guard stats.albumCount >= Self.minimumCollectionSize else { return nil }
        let key = albumInsightKey(for: album)
        let (model, options, prompt) = (model, options, VinylPrompts.albumInsight(album, in: stats))
        return try await albumInsights.value(for: key) {
            let session = LanguageModelSession(model: model, instructions: VinylPrompts.albumInsightInstructions)
            var insight = try await session.respond(to: prompt, generating: AlbumInsight.self, options: options).content
            insight.moods = Self.distinct(insight.moods)
            return insight
        }
    }

    /// The album, its fields as the prompt shows them, and the collection's composition.
    func albumInsightKey(for album: Album) -> CacheKey {
        CacheKey("albumInsight", album.id, album.artist, album.title, stats.composition.hex)
    }

    // MARK: Crate insights

    /// The insight about `crate`, or `nil` for a crate with fewer than
    /// ``minimumCrateSize`` albums.
    public func crateInsight(for crate: Crate) async throws -> CrateInsight? {
        guard crate.albums.count >= Self.minimumCrateSize else { return nil }
        let (model, options, prompt) = (model, options, VinylPrompts.crateInsight(crate))
        return try await crateInsights.value(for: CacheKey("crateInsight", crate.name), expiry: .days(7), fingerprint: Self.fingerprint(of: crate)) {
            let session = LanguageModelSession(model: model, instructions: VinylPrompts.crateInsightInstructions)
            var insight = try await session.respond(to: prompt, generating: CrateInsight.self, options: options).content
            insight.tags = Self.distinct(insight.tags)
            return insight
        }
    }

    /// The insight about `crate` as it is generated, for a card that fills
    /// in while the user watches: each element is a
    /// `CrateInsight.PartiallyGenerated` snapshot, the last one whole.
    /// Not cached (the finished value goes through ``crateInsight(for:)``'s
    /// cache when the card asks again); `nil` for a crate too small.
    public func streamCrateInsight(for crate: Crate) -> LanguageModelSession.ResponseStream<CrateInsight>? {
        guard crate.albums.count >= Self.minimumCrateSize else { return nil }
        let session = LanguageModelSession(model: model, instructions: VinylPrompts.crateInsightInstructions)
        return session.streamResponse(to: VinylPrompts.crateInsight(crate), generating: CrateInsight.self, options: options)
    }

    /// The records the crate's prompt is made from (its first ones, in
    /// order) and how many it has.
    static func fingerprint(of crate: Crate) -> Fingerprint {
        Fingerprint(
            ["\(crate.albums.count)"] + crate.albums.prefix(VinylPrompts.Limits.crateAlbums).map { "\($0.id)|\($0.artist)|\($0.title)|\($0.genre)" })
    }

    /// `tags` without repeats (case ignored), in order: a small model
    /// sometimes writes one tag twice, and a card shows each once.
    static func distinct(_ tags: [String]) -> [String] {
        var seen = Set<String>()
        return tags.filter { seen.insert(RecordCollection.folded($0)).inserted }
    }

    // MARK: Recommendations

    /// Up to ``recommendationCount`` albums from the user's shelves to play
    /// next, in one request whose answer is an array of
    /// ``AlbumRecommendation`` — or `nil` for a collection too small to
    /// recommend from. The model looks the collection up through
    /// ``SearchCollectionTool`` rather than reading it inline; a
    /// recommendation of an album the collection does not have is dropped,
    /// and the others are spelled as the collection spells them.
    public func recommendations() async throws -> [AlbumRecommendation]? {
        guard stats.albumCount >= Self.minimumCollectionSize else { return nil }
        let (model, options, collection, stats, onToolCall) = (model, options, collection, stats, onToolCall)
        return try await recommendationCache.value(
            for: CacheKey("recommendations"), expiry: .days(1), fingerprint: Fingerprint(unordered: collection.albums.map(\.id))
        ) {
            let session = LanguageModelSession(
                model: model, tools: [try SearchCollectionTool(collection: collection, onCall: onToolCall)],
                instructions: VinylPrompts.recommendationInstructions)
            // The first round must look the collection up; the next answers.
            var options = options
            options.toolCallingMode = .required
            let response = try await session.respond(
                to: VinylPrompts.recommendations(stats, count: Self.recommendationCount),
                schema: try Self.recommendationSchema(for: collection),
                options: options
            )
            // Only albums the collection has, as it spells them, once each.
            var seen = Set<String>()
            return try [AlbumRecommendation](response.content).compactMap { recommendation in
                guard let album = collection.album(titled: recommendation.title, by: recommendation.artist),
                    seen.insert(album.id).inserted
                else { return nil }
                return AlbumRecommendation(title: album.title, artist: album.artist, reason: recommendation.reason)
            }
        }
    }

    /// `[AlbumRecommendation]` with exactly ``recommendationCount`` elements,
    /// each titled and credited as one of the albums the tool can list
    /// (``SearchCollectionTool/listable(in:)``: each genre's less played
    /// half).
    ///
    /// The instructions ask for albums the tool returned; the schema makes
    /// it so. Asked in words only, the default model named albums it knows
    /// of, on the shelves or not: The Dark Side of the Moon, played more
    /// than most of its genre, from the sample collection.
    public static func recommendationSchema(for collection: RecordCollection) throws -> GenerationSchema {
        func unique(_ names: [String]) -> [String] {
            var seen = Set<String>()
            return names.filter { seen.insert($0).inserted }
        }
        let albums = SearchCollectionTool.listable(in: collection)
        let recommendation = DynamicGenerationSchema(
            name: "AlbumRecommendation", description: "An album to play next",
            properties: [
                .init(
                    name: "title", description: "The album's title, as the collection lists it",
                    schema: DynamicGenerationSchema(name: "Title", anyOf: unique(albums.map(\.title)))),
                .init(
                    name: "artist", description: "The album's artist",
                    schema: DynamicGenerationSchema(name: "Artist", anyOf: unique(albums.map(\.artist)))),
                .init(name: "reason", description: "One sentence on why to play it now", schema: DynamicGenerationSchema(type: String.self)),
            ])
        return try GenerationSchema(
            root: DynamicGenerationSchema(arrayOf: recommendation, minimumElements: recommendationCount, maximumElements: recommendationCount),
            dependencies: []
        )
    }
}
