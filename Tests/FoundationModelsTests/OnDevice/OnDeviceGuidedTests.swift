import Foundation
import Testing
@testable import FoundationModels

@Generable(description: "A city and facts about it")
struct GuidedCity: Equatable {
    @Guide(description: "The city's name")
    var name: String
    @Guide(description: "Population in millions", .range(0...40))
    var population: Int
    @Guide(.anyOf(["Europe", "Asia", "Africa", "Americas", "Oceania"]))
    var continent: String
    @Guide(.count(2))
    var landmarks: [String]
    var isCapital: Bool
}

extension OnDeviceTests {
    @Suite("On-device guided generation")
    struct Guided {
        @Test func generatesAGenerableType() async throws {
            try OnDevice.requireModel()
            let session = LanguageModelSession(instructions: "You describe cities.")
            let response = try await session.respond(
                to: "Describe Paris.",
                generating: GuidedCity.self,
                options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 200)
            )
            print(response.rawContent.jsonString, response.usage)
            #expect((0...40).contains(response.content.population))
            #expect(response.content.landmarks.count == 2)
        }
    }
}
