import Foundation
import Testing

@testable import FoundationModels

@Suite struct PromptTests {
    @Test func singleStringIsPlainText() {
        let prompt = Prompt { "Name three rivers." }
        #expect(prompt.text == "Name three rivers.")
        #expect(segmentKinds(prompt.segments) == ["text"])
    }

    @Test func stringRepresentationIsNotJSONQuoted() {
        #expect("say \"hi\"".promptRepresentation.text == "say \"hi\"")
    }

    @Test func blockJoinsComponentsWithNewlines() {
        let prompt = Prompt {
            "First line."
            "Second line."
            42
        }
        #expect(prompt.text == "First line.\nSecond line.\n42")
        #expect(segmentKinds(prompt.segments) == ["text", "text", "structure"])
    }

    @Test func emptyBlockIsEmpty() {
        let prompt = Prompt {}
        #expect(prompt.segments.isEmpty)
        #expect(prompt.text == "")
    }

    @Test(arguments: [true, false])
    func ifElseTakesOneBranch(formal: Bool) {
        let prompt = Prompt {
            "Write a greeting."
            if formal {
                "Use a formal tone."
            } else {
                "Be casual."
            }
        }
        #expect(prompt.text == (formal ? "Write a greeting.\nUse a formal tone." : "Write a greeting.\nBe casual."))
    }

    @Test(arguments: [true, false])
    func optionalBranchAddsNothingWhenFalse(include: Bool) {
        let prompt = Prompt {
            "Summarize."
            if include {
                "Keep it short."
            }
        }
        #expect(prompt.text == (include ? "Summarize.\nKeep it short." : "Summarize."))
        #expect(prompt.segments.count == (include ? 2 : 1))
    }

    @Test func switchUsesEitherBranches() {
        func prompt(for level: Int) -> Prompt {
            Prompt {
                switch level {
                case 0: "Easy."
                case 1: "Medium."
                default: "Hard."
                }
            }
        }
        #expect(prompt(for: 0).text == "Easy.")
        #expect(prompt(for: 1).text == "Medium.")
        #expect(prompt(for: 7).text == "Hard.")
    }

    @Test func loopAppendsEveryIteration() {
        let topics = ["rivers", "mountains", "lakes"]
        let prompt = Prompt {
            "Topics:"
            for topic in topics {
                "- \(topic)"
            }
        }
        #expect(prompt.text == "Topics:\n- rivers\n- mountains\n- lakes")
        #expect(prompt.segments.count == 4)
    }

    @Test func availabilityCheckKeepsItsContent() {
        let prompt = Prompt {
            if #available(macOS 15, iOS 18, *) {
                "Available."
            }
        }
        #expect(prompt.text == "Available.")
    }

    @Test func arraysContributeEachElement() {
        let prompt = Prompt {
            ["one", "two"]
            "three"
        }
        #expect(prompt.text == "one\ntwo\nthree")
        #expect(["a", "b"].promptRepresentation.segments.count == 2)
    }

    @Test func generableValueBecomesStructuredSegment() throws {
        let city = PromptCity(name: "Lyon", population: 520_000)
        let prompt = Prompt {
            "Describe this city:"
            city
        }
        #expect(segmentKinds(prompt.segments) == ["text", "structure"])
        guard case .structure(let structure) = prompt.segments[1] else {
            Issue.record("expected a structured segment")
            return
        }
        #expect(structure.source == "PromptCity")
        #expect(try PromptCity(structure.content) == city)
        #expect(prompt.text == "Describe this city:\n\(city.generatedContent.jsonString)")
        #expect(prompt.text.contains("\"name\""))
    }

    @Test func nestedPromptsKeepTheirSegments() {
        let inner = Prompt {
            "inner one"
            "inner two"
        }
        let outer = Prompt {
            inner
            "outer"
        }
        #expect(outer.text == "inner one\ninner two\nouter")
        #expect(outer.segments.map(\.id) == inner.segments.map(\.id) + [outer.segments[2].id])
    }

    @Test func throwingBuilderRethrows() {
        func failing() throws -> String { throw PromptBuilderFailure() }
        #expect(throws: PromptBuilderFailure.self) {
            _ = try Prompt { try failing() }
        }
    }

    @Test func customRepresentableType() {
        struct Recipe: PromptRepresentable {
            var dish: String
            var promptRepresentation: Prompt {
                "Recipe for \(dish):"
                "List the ingredients."
            }
        }
        let prompt = Prompt { Recipe(dish: "ratatouille") }
        #expect(prompt.text == "Recipe for ratatouille:\nList the ingredients.")
    }

    @Test func segmentsGetDistinctUUIDs() {
        let prompt = Prompt {
            "a"
            "b"
        }
        let ids = prompt.segments.map(\.id)
        #expect(Set(ids).count == 2)
        #expect(ids.allSatisfy { UUID(uuidString: $0) != nil })
    }
}
