import FoundationModels

// Schema shapes no example's type has, measured beside the examples' types
// (GuidedCases): a regex pattern, an enum, a number range, an exact count
// and an optional in one object, and an enum with associated values. They
// belong to the benchmark, not to an app.

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
