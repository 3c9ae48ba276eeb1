import FoundationModels

/// A hand-written Generable type (no macro), so prompt and transcript tests
/// depend only on the protocols.
struct PromptCity: Generable, Equatable {
    var name: String
    var population: Int

    init(name: String, population: Int) {
        self.name = name
        self.population = population
    }

    static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: PromptCity.self, description: "A city",
            properties: [
                GenerationSchema.Property(name: "name", description: "Its name", type: String.self),
                GenerationSchema.Property(name: "population", type: Int.self),
            ])
    }

    init(_ content: GeneratedContent) throws {
        name = try content.value(forProperty: "name")
        population = try content.value(forProperty: "population")
    }

    var generatedContent: GeneratedContent {
        GeneratedContent(properties: ["name": name, "population": population])
    }
}

struct PromptBuilderFailure: Error, Equatable {}

/// The kinds of a list of segments, for compact assertions.
func segmentKinds(_ segments: [Transcript.Segment]) -> [String] {
    segments.map { segment in
        switch segment {
        case .text: "text"
        case .structure: "structure"
        case .attachment: "attachment"
        }
    }
}
