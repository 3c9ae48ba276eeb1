import Foundation
import TestSupport
import Testing

@testable import FoundationModels

extension SchemaTests {
    /// The shorter descriptions a large schema gets in the prompt.
    @Suite("A schema's description at each detail")
    struct PromptDetail {
        @Test func briefKeepsFirstSentencesAndOutlineOnlyNamesAndTypes() throws {
            let schema = try GenerationSchema(jsonSchema: GeneratedContent(json: SchemaFixtures.documentedSchema(paragraphs: 3)))
            let full = schema.promptDescription(style: .fieldLines)
            let brief = schema.promptDescription(detail: .brief)
            let outline = schema.promptDescription(detail: .outline)
            #expect(full.contains("admission policies"))
            #expect(brief.contains(#""replicas": an integer from 0 to 20. Number of desired pods, between 0 and 20"#), "\(brief)")
            #expect(!brief.contains("admission policies"))
            #expect(outline.contains(#""strategy": one of "Recreate", "RollingUpdate""#), "\(outline)")
            #expect(!outline.contains("desired pods"))
            #expect(full.count > 10 * brief.count && brief.count > outline.count, "\(full.count), \(brief.count), \(outline.count)")
        }

        /// The whole description while it is short; past
        /// ``GenerationSchema/wholeDescriptionTokenLimit`` tokens the first
        /// sentences, however large the budget; past the budget names and
        /// types alone.
        @Test func theWholeDescriptionIsKeptOnlyWhileItIsShort() throws {
            let schema = try GenerationSchema(jsonSchema: GeneratedContent(json: SchemaFixtures.documentedSchema(paragraphs: 1)))
            let full = schema.promptDescription(style: .fieldLines)
            let brief = schema.promptDescription(detail: .brief)
            let outline = schema.promptDescription(detail: .outline)
            // Four bytes a token, as a stand-in for a tokenizer.
            func tokens(_ text: String) -> Int { text.utf8.count / 4 }
            let limit = GenerationSchema.wholeDescriptionTokenLimit
            #expect(tokens(full) > limit && tokens(brief) < limit, "\(tokens(full)), \(tokens(brief))")
            #expect(schema.promptDescription(style: .fieldLines, budget: 100_000, tokenCount: tokens) == brief)
            #expect(schema.promptDescription(style: .fieldLines, budget: tokens(brief), tokenCount: tokens) == brief)
            #expect(schema.promptDescription(style: .fieldLines, budget: tokens(brief) - 1, tokenCount: tokens) == outline)
            // A rendering other than field lines (chosen for measurements)
            // stays whole while it fits the budget.
            let typeScript = schema.promptDescription(style: .typeScript)
            #expect(tokens(typeScript) > limit)
            #expect(schema.promptDescription(style: .typeScript, budget: 100_000, tokenCount: tokens) == typeScript)
            #expect(schema.promptDescription(style: .typeScript, budget: tokens(brief), tokenCount: tokens) == brief)
            // Below the limit the whole one is sent, and a description of one
            // sentence is whole at any size.
            let short = try GenerationSchema(
                jsonSchema: GeneratedContent(
                    json: #"{"type":"object","properties":{"name":{"type":"string","description":"The name. It is unique."}},"required":["name"]}"#))
            #expect(short.promptDescription(style: .fieldLines, budget: 100_000, tokenCount: tokens).contains("It is unique."))
            let fields = (1...60).map { #""field\#($0)":{"type":"string","description":"What the form's field number \#($0) holds"}"# }
            let wide = try GenerationSchema(
                jsonSchema: GeneratedContent(json: #"{"type":"object","properties":{"# + fields.joined(separator: ",") + "}}"))
            let whole = wide.promptDescription(style: .fieldLines)
            #expect(tokens(whole) > limit)
            #expect(wide.promptDescription(style: .fieldLines, budget: 100_000, tokenCount: tokens) == whole)
        }

        @Test func aLongChoiceListIsShortenedInTheOutlineOnly() throws {
            let choices = (1...30).map { "\"c\($0)\"" }.joined(separator: ",")
            let schema = try GenerationSchema(
                jsonSchema: GeneratedContent(json: #"{"type":"object","properties":{"code":{"enum":["# + choices + "]}},\"required\":[\"code\"]}"))
            #expect(schema.promptDescription(detail: .brief).contains("\"c30\""))
            let outline = schema.promptDescription(detail: .outline)
            #expect(outline.contains(#""c6", … (30 in all)"#), "\(outline)")
            #expect(!outline.contains("\"c7\""))
        }
    }
}
