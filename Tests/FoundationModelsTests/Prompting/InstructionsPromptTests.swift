import Foundation
import Testing

@testable import FoundationModels

@Suite struct InstructionsPromptTests {
    @Test func blockJoinsComponentsWithNewlines() {
        let instructions = Instructions {
            "You are a travel guide."
            "Answer in one sentence."
        }
        #expect(instructions.text == "You are a travel guide.\nAnswer in one sentence.")
        #expect(segmentKinds(instructions.segments) == ["text", "text"])
    }

    @Test(arguments: [true, false])
    func conditionsAndOptionals(verbose: Bool) {
        let instructions = Instructions {
            "Base."
            if verbose {
                "Explain your reasoning."
            } else {
                "No explanations."
            }
            if !verbose {
                "Be brief."
            }
        }
        #expect(instructions.text == (verbose ? "Base.\nExplain your reasoning." : "Base.\nNo explanations.\nBe brief."))
    }

    @Test func loopsArraysAndAvailability() {
        let rules = ["Rule 1", "Rule 2"]
        let instructions = Instructions {
            for rule in rules {
                rule
            }
            ["Rule 3"]
            if #available(macOS 15, iOS 18, *) {
                "Rule 4"
            }
        }
        #expect(instructions.text == "Rule 1\nRule 2\nRule 3\nRule 4")
    }

    @Test func structuredExamplesStayStructured() throws {
        let example = PromptCity(name: "Kyoto", population: 1_460_000)
        let instructions = Instructions {
            "Answer like this example:"
            example
        }
        #expect(segmentKinds(instructions.segments) == ["text", "structure"])
        #expect(instructions.text.hasSuffix(example.generatedContent.jsonString))
        #expect("plain".instructionsRepresentation.text == "plain")
    }

    @Test func nestedAndEmpty() {
        let empty = Instructions {}
        #expect(empty.segments.isEmpty)
        let nested = Instructions {
            Instructions { "inner" }
            "outer"
        }
        #expect(nested.text == "inner\nouter")
    }

    @Test func throwingBuilderRethrows() {
        func failing() throws -> String { throw PromptBuilderFailure() }
        #expect(throws: PromptBuilderFailure.self) {
            _ = try Instructions { try failing() }
        }
    }
}
