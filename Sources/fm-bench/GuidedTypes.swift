import FoundationModels

// The shapes of the app types the acceptance tests generate
// (Tests/AppCompatibilityTests): the schemas guided generation is measured on.

@Generable(description: "A support ticket triaged by the model")
struct TicketSummary {
    @Guide(description: "The customer's problem in one line")
    var headline: String
    @Guide(description: "Urgency from 1 (low) to 5", .range(1...5))
    var urgency: Int
    @Guide(description: "Tags used to route the ticket", .minimumCount(2), .maximumCount(4))
    var tags: [String]
}

@Generable(description: "Values read from a fuel receipt")
struct ParsedFuelReceiptSchema {
    @Guide(description: "Litres or gallons dispensed")
    var volume: Double?
    @Guide(description: "Total amount paid")
    var totalCost: Double?
    @Guide(description: "Name of the fuel station")
    var stationName: String?
    @Guide(description: "Whether the tank was filled up completely")
    var isFullTank: Bool?
}

@Generable(description: "A suggestion for the coming week")
struct Recommendation {
    @Guide(description: "A short imperative title")
    var title: String
    @Guide(description: "Why this would help")
    var rationale: String
    @Guide(description: "Priority, 1 is highest", .range(1...3))
    var priority: Int
}

@Generable(description: "A summary of the user's week")
struct AISummary {
    @Guide(description: "Two or three sentences about the week")
    var overview: String
    @Guide(description: "Concrete suggestions", .maximumCount(3))
    var recommendations: [Recommendation]
}

@Generable(description: "AI-generated insights about a vinyl album")
struct AlbumAIInsight {
    @Guide(description: "Two sentences on the album's sound and its place in the artist's catalog")
    var summary: String
    @Guide(description: "What a collector should know about this pressing")
    var collectorNotes: String
    @Guide(description: "One album with a similar feel, written as 'Artist - Title'")
    var listenNext: String
}

@Generable(description: "AI-generated insights about a crate of records")
struct CrateAIInsight {
    @Guide(description: "A short, evocative title for the crate")
    var title: String
    @Guide(description: "Mood tags that describe the crate", .minimumCount(3), .maximumCount(5))
    var moodTags: [String]
    @Guide(description: "A paragraph describing how the records fit together")
    var narrative: String
}

@Generable(description: "An album from the user's collection worth playing next")
struct AlbumRecommendation {
    var releaseId: Int
    @Guide(description: "How the album connects to the one being played", .anyOf(["artist", "genre", "era", "label", "style"]))
    var connectionType: String
    @Guide(description: "Albums in the collection the recommendation is based on", .minimumCount(1), .maximumCount(3))
    var basedOn: [String]
    @Guide(description: "One sentence on why the user will like it")
    var reason: String
}

@Generable
struct DraftCard {
    @Guide(description: "The question on the front of the card")
    let question: String
    @Guide(description: "The answer on the back of the card, one or two sentences")
    let answer: String
}

@Generable
struct DraftCardSet {
    let cards: [DraftCard]
}

@Generable(description: "A plan for studying a deck")
struct StudyPlan {
    @Guide(description: "What to focus on first")
    var focus: String
    @Guide(description: "Minutes per session", .range(5...60))
    var minutesPerSession: Int
    var sessions: [String]
}

@Generable
enum ListeningMood {
    case calm, energetic, melancholy
}

@Generable(description: "A listening session planned for tonight")
struct ListeningSession {
    @Guide(description: "Catalog number, two capitals and four digits", /[A-Z]{2}[0-9]{4}/)
    var catalogNumber: String
    var mood: ListeningMood
    @Guide(description: "Playback speed", .range(0.5...2.0))
    var speed: Double
    @Guide(.count(3))
    var tracks: [String]
    var note: String?
}

@Generable
enum TrackReaction {
    case skip
    case replay(times: Int)
    case note(text: String)
}

/// The record-collection app's tool arguments (schemas only: no prompt).
@Generable
struct FindAlbumArguments {
    @Guide(description: "The artist to search for")
    var artist: String
    @Guide(description: "The decade, for example 1970", .range(1900...2030))
    var decade: Int?
    @Guide(description: "How many albums to return at most", .range(1...10))
    var limit: Int
}

@Generable
struct PriceLookupArguments {
    @Guide(description: "The release id")
    var releaseId: Int
}
