import Foundation
import TestSupport
import Testing

@testable import FoundationModels

extension SchemaTests {
    /// The bounded description (``SchemaPromptDetail/bounded``) and the
    /// tool list's budget: within budget whatever the size, what helps most
    /// first, and the shorter levels untouched where they fit.
    @Suite("A schema's description within a token budget")
    struct PromptBudget {
        /// Four bytes a token, rounded up, as a stand-in for a tokenizer.
        static func tokens(_ text: String) -> Int { (text.utf8.count + 3) / 4 }

        static func schema(_ json: String) throws -> GenerationSchema {
            try GenerationSchema(jsonSchema: GeneratedContent(json: json))
        }

        static let sentence =
            "What this field holds, where it is printed, and the unit it is given in. "
            + "It is validated against the documentation before it is stored, and rejected when it does not match."

        /// 3,000 documented top-level fields.
        static func wide() throws -> GenerationSchema {
            let fields = (1...3000).map { #""field\#($0)":{"type":"string","description":"Field \#($0). \#(sentence)"}"# }
            return try schema(#"{"type":"object","properties":{"# + fields.joined(separator: ",") + "}}")
        }

        /// Inline objects nested 18 deep, 64 fields at each level.
        static func deep() throws -> GenerationSchema {
            var node = #"{"type":"string","description":"The innermost value."}"#
            for level in (1...18).reversed() {
                let many = (1...60).map { #""value\#(level)_\#($0)":{"type":"string"}"# }.joined(separator: ",")
                node =
                    #"{"type":"object","description":"Level \#(level). \#(sentence)","properties":{"name\#(level)":{"type":"string"},\#(many),"#
                    + #""count\#(level)":{"type":"integer","minimum":0},"kind\#(level)":{"enum":["a","b","c"]},"next":\#(node)},"#
                    + #""required":["name\#(level)","next"]}"#
            }
            return try schema(node)
        }

        /// 300 definitions of 20 documented fields, each referencing the next
        /// (a Kubernetes-like tree of named types), the same inline object
        /// repeated in each.
        static func manyDefinitions() throws -> GenerationSchema {
            let definitions = (1...300).map { index in
                let fields = (1...20).map { #""f\#($0)":{"type":"string","description":"Field \#($0) of type \#(index). \#(sentence)"}"# }
                let next = index < 300 ? ##","child":{"$ref":"#/$defs/Type\##(index + 1)"}"## : ""
                return #""Type\#(index)":{"type":"object","description":"Type \#(index)","properties":{"# + fields.joined(separator: ",")
                    + #","point":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}}}"# + next + "}}"
            }
            return try schema(
                ##"{"type":"object","properties":{"root":{"$ref":"#/$defs/Type1"},"note":{"type":"string"}},"##
                    + #""required":["root"],"$defs":{"# + definitions.joined(separator: ",") + "}}")
        }

        /// Two branches of 200 fields that differ in one required field (a
        /// `oneOf` of `required`s beside `properties`, as the Washington
        /// Post's schemas write it), and a choice list of 2,000.
        static func branches() throws -> GenerationSchema {
            let fields = (1...200).map { #""p\#($0)":{"type":"string","description":"Property \#($0). \#(sentence)"}"# }
            let codes = (1...2000).map { "\"code\($0)\"" }.joined(separator: ",")
            return try schema(
                #"{"type":"object","properties":{"code":{"enum":["# + codes + "]}," + fields.joined(separator: ",")
                    + #"},"oneOf":[{"required":["p1"]},{"required":["p2"]}]}"#)
        }

        static let budgets = [64, 128, 256, 512, 1024, 2048, 4096]

        @Test(arguments: ["wide", "deep", "manyDefinitions", "branches"])
        func theBoundedDescriptionFitsEveryBudget(_ name: String) throws {
            let schema = try [
                "wide": Self.wide, "deep": Self.deep, "manyDefinitions": Self.manyDefinitions, "branches": Self.branches,
            ][name]!()
            let whole = Self.tokens(schema.promptDescription(detail: .full))
            #expect(whole > 4096, "\(name): \(whole)")
            for budget in Self.budgets {
                let text = schema.boundedPromptDescription(budget: budget, tokenCount: Self.tokens)
                #expect(Self.tokens(text) <= budget, "\(name) at \(budget): \(Self.tokens(text))\n\(text)")
                #expect(text.hasPrefix("Respond with JSON only, no other text, in this shape:\n"))
                // Most of the budget is used: the fill stops at what does not
                // fit, not before (a deep one stops at its depth cut, and a
                // shape told as its difference needs less than its brief description).
                if budget >= 256, name == "wide" || name == "manyDefinitions" {
                    #expect(Self.tokens(text) >= budget * 3 / 4, "\(name) at \(budget): \(Self.tokens(text))")
                }
                // The chosen detail, through the one entry point the prompt uses.
                let rendering = schema.promptRendering(style: .fieldLines, budget: budget, tokenCount: Self.tokens)
                #expect(rendering.detail == .bounded && rendering.text == text)
            }
        }

        @Test func theTopLevelFieldsComeFirstInOrderAndTheRestIsCounted() throws {
            let text = try Self.wide().boundedPromptDescription(budget: 1024, tokenCount: Self.tokens)
            let lines = text.split(separator: "\n").map(String.init)
            #expect(lines[1] == "An object with these fields, in this order:")
            #expect(lines[2].hasPrefix(#"  "field1" (optional): a string"#), "\(lines[2])")
            #expect(lines[3].hasPrefix(#"  "field2" (optional): a string"#), "\(lines[3])")
            let shown = lines.filter { $0.hasPrefix("  \"field") }.count
            #expect(shown > 50)
            #expect(lines.last == "  … and \(3000 - shown) more fields", "\(lines.last ?? "")")
        }

        @Test func descriptionsAreShortenedBeforeTheyAreDropped() throws {
            let fields = (1...12).map { #""field\#($0)":{"type":"string","description":"\#(Self.sentence)"}"# }
            let schema = try Self.schema(#"{"type":"object","properties":{"# + fields.joined(separator: ",") + "}}")
            let roomy = schema.boundedPromptDescription(budget: 1024, tokenCount: Self.tokens)
            #expect(
                roomy.contains(#""field12" (optional): a string. What this field holds, where it is printed, and the unit it is given in\#n"#)
                    || roomy.hasSuffix("and the unit it is given in"), "\(roomy)")
            #expect(!roomy.contains("validated"))
            // Tighter: the first fields keep a sentence, later ones a clause, the last none.
            let tight = schema.boundedPromptDescription(budget: 260, tokenCount: Self.tokens)
            #expect(Self.tokens(tight) <= 260)
            #expect(tight.contains(#""field1" (optional): a string. What this field holds"#), "\(tight)")
            #expect(tight.contains(#""field12" (optional): a string"#), "\(tight)")
            #expect(!tight.contains(#""field12" (optional): a string. What"#))
            #expect(tight.contains("it is…") || tight.contains("where it…") || tight.contains("field…"), "a clause before none: \(tight)")
        }

        @Test func definitionsAreDescribedOnceNearestFirstAndRepeatedShapesByName() throws {
            let text = try Self.manyDefinitions().boundedPromptDescription(budget: 2048, tokenCount: Self.tokens)
            #expect(text.contains(#"  "root": Type1. Type 1"#), "\(text)")
            #expect(text.components(separatedBy: "\nType1: ").count == 2, "\(text)")
            let first = try #require(text.range(of: "\nType1: ")), second = try #require(text.range(of: "\nType2: "))
            #expect(first.lowerBound < second.lowerBound)
        }

        @Test func aRepeatedShapeIsDescribedOnceAndThenByName() throws {
            let address = #"{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"},"zip":{"type":"string"}}}"#
            let schema = try Self.schema(
                #"{"type":"object","properties":{"billing":\#(address),"shipping":\#(address),"#
                    + #""people":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"home":\#(address)}}}}}"#)
            let text = schema.boundedPromptDescription(budget: 256, tokenCount: Self.tokens)
            #expect(text.contains(#"  "billing" (optional): an object with these fields:\#n    "street" (optional): a string"#), "\(text)")
            #expect(text.contains(#"  "shipping" (optional): an object with the same fields as "billing""#), "\(text)")
            #expect(text.contains(#"    "home" (optional): an object with the same fields as "billing""#), "\(text)")
            #expect(text.components(separatedBy: "\"street\"").count == 2)
        }

        @Test func aBranchThatDiffersLittleIsWrittenAsTheDifference() throws {
            let text = try Self.branches().boundedPromptDescription(budget: 1024, tokenCount: Self.tokens)
            #expect(text.contains("One of these 2 shapes:"))
            #expect(text.contains(#"Shape 2: the fields of shape 1, except that "p1" is absent, "p2" is added, a string"#), "\(text)")
            #expect(text.contains(#""code" (optional): one of "code1", "code2", "code3", "code4", "code5", "code6", … (2000 in all)"#), "\(text)")
        }

        @Test func theBoundedDescriptionIsDeterministic() throws {
            for make in [Self.wide, Self.deep, Self.manyDefinitions, Self.branches] {
                let first = try make().boundedPromptDescription(budget: 700, tokenCount: Self.tokens)
                let second = try make().boundedPromptDescription(budget: 700, tokenCount: Self.tokens)
                #expect(first == second)
            }
        }

        /// The levels before the bounded one are what they were wherever
        /// they fit: the eval's measurements of each detail hold.
        @Test func theShorterLevelsAreKeptWhereTheyFit() throws {
            let small = try Self.schema(#"{"type":"object","properties":{"name":{"type":"string","description":"The name."}},"required":["name"]}"#)
            let whole = small.promptDescription(style: .fieldLines)
            let smallRendering = small.promptRendering(style: .fieldLines, budget: 1024, tokenCount: Self.tokens)
            #expect(smallRendering.text == whole && smallRendering.detail == nil)
            let documented = try Self.schema(SchemaFixtures.documentedSchema(paragraphs: 1))
            let brief = documented.promptDescription(detail: .brief), outline = documented.promptDescription(detail: .outline)
            let briefRendering = documented.promptRendering(style: .fieldLines, budget: 1024, tokenCount: Self.tokens)
            #expect(briefRendering.text == brief && briefRendering.detail == .brief)
            let outlineRendering = documented.promptRendering(style: .fieldLines, budget: Self.tokens(outline), tokenCount: Self.tokens)
            #expect(outlineRendering.text == outline && outlineRendering.detail == .outline)
            let bounded = documented.promptRendering(style: .fieldLines, budget: Self.tokens(outline) - 1, tokenCount: Self.tokens)
            #expect(bounded.detail == .bounded && Self.tokens(bounded.text) < Self.tokens(outline))
            #expect(bounded.text.contains(#""name": a string"#), "\(bounded.text)")
        }

        @Test func theBudgetIsAConfigurationValueWithAnEnvironmentDefault() {
            #expect(SystemLanguageModel.Configuration(environment: [:]).schemaPromptTokenBudget == SchemaPromptDetail.standardTokenBudget)
            let configured = SystemLanguageModel.Configuration(environment: [
                "FOUNDATION_MODELS_SCHEMA_BUDGET": "300", "FOUNDATION_MODELS_TOOLS_BUDGET": "900",
            ])
            #expect(configured.schemaPromptTokenBudget == 300 && configured.toolsPromptTokenBudget == 900)
            var tiny = configured
            tiny.schemaPromptTokenBudget = 1
            #expect(tiny.schemaPromptTokenBudget == 64)
            #expect(SystemLanguageModel.Configuration(environment: ["FOUNDATION_MODELS_SCHEMA_DETAIL": "bounded"]).forcedSchemaDetail == .bounded)
        }

        // MARK: Tools

        static func tools(_ count: Int) throws -> [Transcript.ToolDefinition] {
            try (1...count).map { index in
                let fields = (1...8).map { #""arg\#($0)":{"type":"string","description":"Argument \#($0). \#(sentence)"}"# }
                let parameters = try schema(#"{"type":"object","properties":{"# + fields.joined(separator: ",") + #"},"required":["arg1"]}"#)
                return Transcript.ToolDefinition(name: "tool\(index)", description: "Does task \(index). \(sentence)", parameters: parameters)
            }
        }

        @Test func toolsThatFitAreSentAsBefore() throws {
            let tools = try Self.tools(3)
            for levels in [tools.map(\.signatureLevels), tools.map(\.promptDescriptionLevels)] {
                let whole = levels.map { $0.last! }
                #expect(ToolListBudget.fill(levels: levels, separator: "\n", budget: 100_000, tokenCount: Self.tokens) == whole)
            }
            // The whole signature is the one the Hermes block always wrote.
            let tool = tools[0]
            let function = GeneratedContent(properties: [
                "name": tool.name, "description": tool.description, "parameters": tool.parameters.jsonSchema,
            ])
            #expect(tool.signatureLevels.last == GeneratedContent(properties: ["type": "function", "function": function]).jsonString)
            #expect(tool.promptDescriptionLevels.last == tool.promptDescription)
        }

        @Test func manyToolsKeepEveryNameAndTheFirstToolsParameters() throws {
            let tools = try Self.tools(64)
            for levels in [tools.map(\.signatureLevels), tools.map(\.promptDescriptionLevels)] {
                let whole = levels.map { $0.last! }.joined(separator: "\n")
                let budget = 4096
                #expect(Self.tokens(whole) > 3 * budget)
                let chosen = ToolListBudget.fill(levels: levels, separator: "\n", budget: budget, tokenCount: Self.tokens)
                #expect(Self.tokens(chosen.joined(separator: "\n")) <= budget)
                for (index, text) in chosen.enumerated() { #expect(text.contains("tool\(index + 1)")) }
                // Parameters go to the tools in order: the first has them, the last not whole.
                #expect(
                    chosen[0].contains("arg8") && chosen[0].count >= chosen[63].count && chosen[63] != levels[63].last,
                    "\(chosen[0])\n\(chosen[63])")
                #expect(ToolListBudget.fill(levels: levels, separator: "\n", budget: budget, tokenCount: Self.tokens) == chosen)
            }
        }
    }
}
