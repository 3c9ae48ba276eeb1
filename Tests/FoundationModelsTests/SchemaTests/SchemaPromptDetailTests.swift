import Foundation
import Testing
@testable import FoundationModels

extension SchemaTests {
    /// The shorter descriptions a large schema gets in the prompt.
    @Suite("A schema's description at each detail")
    struct PromptDetail {
        /// A configuration object as large schemas write them (Kubernetes,
        /// SchemaStore): few fields, each documented at length. `paragraphs`
        /// sets the length: each adds about 140 tokens to every field.
        static func documentedSchema(paragraphs: Int) -> String {
            let fields: [(name: String, type: String, summary: String)] = [
                ("name", #""type":"string","maxLength":30"#, "The name of the deployment, unique within its namespace."),
                ("replicas", #""type":"integer","minimum":0,"maximum":20"#, "Number of desired pods, between 0 and 20."),
                ("tier", #""enum":["frontend","backend","batch"]"#, "The tier the deployment belongs to."),
                ("paused", #""type":"boolean""#, "Whether the deployment is paused."),
                ("strategy", #""enum":["Recreate","RollingUpdate"]"#, "How existing pods are replaced by new ones."),
            ]
            let paragraph = "This field is read by the controller on every reconciliation and is validated against the cluster's admission policies before it is stored. "
                + "Changing it triggers a new rollout unless the deployment is paused, in which case the change is recorded and applied when the deployment resumes. "
                + "Operators should consult the platform documentation for the limits that apply in their cluster, which may be stricter than the ones stated here, "
                + "and for the interaction of this field with autoscalers, disruption budgets and the scheduler's placement constraints. "
                + "Values outside the documented range are rejected by the API server with a validation error naming the field. "
            let properties = fields.map { field in
                "\"\(field.name)\":{\(field.type),\"description\":\"\(field.summary) \(String(repeating: paragraph, count: paragraphs))\"}"
            }
            return #"{"type":"object","additionalProperties":false,"properties":{"# + properties.joined(separator: ",")
                + #"},"required":["name","replicas","tier","paused","strategy"]}"#
        }

        @Test func briefKeepsFirstSentencesAndOutlineOnlyNamesAndTypes() throws {
            let schema = try GenerationSchema(jsonSchema: GeneratedContent(json: Self.documentedSchema(paragraphs: 3)))
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
            let schema = try GenerationSchema(jsonSchema: GeneratedContent(json: Self.documentedSchema(paragraphs: 1)))
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
            let short = try GenerationSchema(jsonSchema: GeneratedContent(json: #"{"type":"object","properties":{"name":{"type":"string","description":"The name. It is unique."}},"required":["name"]}"#))
            #expect(short.promptDescription(style: .fieldLines, budget: 100_000, tokenCount: tokens).contains("It is unique."))
            let fields = (1...60).map { #""field\#($0)":{"type":"string","description":"What the form's field number \#($0) holds"}"# }
            let wide = try GenerationSchema(jsonSchema: GeneratedContent(json: #"{"type":"object","properties":{"# + fields.joined(separator: ",") + "}}"))
            let whole = wide.promptDescription(style: .fieldLines)
            #expect(tokens(whole) > limit)
            #expect(wide.promptDescription(style: .fieldLines, budget: 100_000, tokenCount: tokens) == whole)
        }

        @Test func aLongChoiceListIsShortenedInTheOutlineOnly() throws {
            let choices = (1...30).map { "\"c\($0)\"" }.joined(separator: ",")
            let schema = try GenerationSchema(jsonSchema: GeneratedContent(json: #"{"type":"object","properties":{"code":{"enum":["# + choices + "]}},\"required\":[\"code\"]}"))
            #expect(schema.promptDescription(detail: .brief).contains("\"c30\""))
            let outline = schema.promptDescription(detail: .outline)
            #expect(outline.contains(#""c6", … (30 in all)"#), "\(outline)")
            #expect(!outline.contains("\"c7\""))
        }
    }
}
