// A tool from the record-collection app: the model looks albums up in the
// user's collection while it answers.

import Foundation
import FoundationModels

struct FindAlbumTool: Tool {
    let name = "findAlbum"
    let description = "Finds albums in the user's record collection by artist, optionally narrowed by decade."

    @Generable
    struct Arguments: Sendable, Equatable {
        @Guide(description: "The artist to search for")
        var artist: String

        @Guide(description: "The decade, for example 1970", .range(1900...2030))
        var decade: Int?

        @Guide(description: "How many albums to return at most", .range(1...10))
        var limit: Int
    }

    struct Album: Sendable {
        var artist: String
        var title: String
        var year: Int
    }

    let collection: [Album]

    func call(arguments: Arguments) async throws -> String {
        let matches =
            collection
            .filter { $0.artist.localizedCaseInsensitiveContains(arguments.artist) }
            .filter { album in arguments.decade.map { album.year / 10 * 10 == $0 } ?? true }
            .prefix(arguments.limit)
        guard !matches.isEmpty else {
            return "No albums by \(arguments.artist) in the collection."
        }
        return matches.map { "\($0.artist) - \($0.title) (\($0.year))" }.joined(separator: "\n")
    }
}

/// A tool that fails, as network-backed tools do.
struct PriceLookupTool: Tool {
    let description = "Looks up the current market price of a release."

    @Generable
    struct Arguments {
        @Guide(description: "The release id")
        var releaseId: Int
    }

    struct MarketplaceUnavailable: Error {}

    func call(arguments: Arguments) async throws -> String {
        throw MarketplaceUnavailable()
    }
}

extension FindAlbumTool {
    static let sample = FindAlbumTool(collection: [
        Album(artist: "Miles Davis", title: "Kind of Blue", year: 1959),
        Album(artist: "Miles Davis", title: "Bitches Brew", year: 1970),
        Album(artist: "Joni Mitchell", title: "Blue", year: 1971),
    ])
}
