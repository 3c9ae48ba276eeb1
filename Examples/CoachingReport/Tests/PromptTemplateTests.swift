import Foundation
import Testing

@testable import CoachingReport

/// The templates without a model: parsing, filling, and the errors.
struct PromptTemplateTests {
    @Test func placeholdersAreFilledAndOtherBracesAreText() throws {
        let template = PromptTemplate(name: "t", text: "Hi {name}, {name}! {not a placeholder} {} {x_1}{")
        #expect(template.placeholders == ["name", "x_1"])
        #expect(try template.filled(["name": "Maya", "x_1": "1", "unused": "?"]) == "Hi Maya, Maya! {not a placeholder} {} 1{")
    }

    @Test func aMissingPlaceholderIsNamed() {
        let template = PromptTemplate(name: "report", text: "Plan for {race} on {day}.")
        #expect(throws: PromptTemplateError.missingPlaceholder("race", template: "report")) {
            try template.filled(["day": "Sunday"])
        }
        #expect(
            PromptTemplateError.missingPlaceholder("race", template: "report").description
                == "the prompt template \"report\" uses {race}, but no value was given for it")
    }

    @Test func theBundledTemplatesFillFromTheSampleWeek() throws {
        let coach = WeeklyCoach(templates: try WeeklyCoach.bundledTemplates())
        let (instructions, prompt) = try coach.prompts(for: .sample)
        #expect(instructions.contains("Maya's weekly training report"))
        #expect(instructions.contains("a half marathon in four weeks"))
        #expect(prompt.contains("- Wednesday: intervals 5 x 800 m, 8 km in 42 min (last two were slow)"))
        #expect(prompt.contains("Total: 35 km over 4 sessions."))
        #expect(!prompt.contains("{") && !instructions.contains("{"))
    }

    @Test func filesOfTheWrongShapeAreClearErrors() throws {
        #expect(throws: PromptTemplateError.missingTemplate("instructions")) { try PromptTemplates(yaml: "report: Hi") }
        #expect(throws: PromptTemplateError.missingTemplate("report")) {
            try PromptTemplates(yaml: "instructions: Hi").prompt("report")
        }
        let error = try #require(throws: PromptTemplateError.self) { try PromptTemplates(yaml: "instructions: [a, b]") }
        guard case .invalidFile(let reason) = error else { Issue.record("\(error)"); return }
        #expect(reason.contains("instructions"), "\(reason)")
        #expect(throws: PromptTemplateError.self) { try PromptTemplates(yaml: "instructions: \"unterminated") }
        #expect(throws: PromptTemplateError.self) {
            try PromptTemplates(contentsOf: URL(fileURLWithPath: "/nonexistent/coaching.yaml"))
        }
    }
}
