import Foundation
import FoundationModels
import Testing

@testable import FoundationModelsEval

/// The tools corpus, its tools and its scorer, without a model: the
/// generator is deterministic and in step with the committed files, the
/// tools answer from their tables, and the scorer tells a right call and a
/// used result from a wrong argument, a missing fact and an unwanted call.
@Suite("Tools eval")
struct ToolsTests {
    static let heldOut = CorpusTests.committed.deletingLastPathComponent().appendingPathComponent("heldout")

    // MARK: Corpus

    @Test func committedFilesAreTheGeneratorsOutput() throws {
        let file = try Data(contentsOf: CorpusTests.committed.appendingPathComponent(ToolsCorpus.fileName))
        #expect(
            file == (try ToolsCorpus.encode()),
            "eval/corpora/tools.json differs from its generator: write it with ToolsCorpus.write(to:) and commit it")
        let heldOut = try Data(contentsOf: Self.heldOut.appendingPathComponent(ToolsCorpus.fileName))
        #expect(heldOut == (try ToolsCorpus.encode(seed: ToolsCorpus.heldOutSeed)))
        #expect(try ToolsCorpus.load(from: CorpusTests.committed) == ToolsCorpus.generate())
    }

    @Test func generationIsDeterministicAndSeeded() {
        #expect(ToolsCorpus.generate(seed: 1) == ToolsCorpus.generate(seed: 1))
        #expect(ToolsCorpus.generate(seed: 1) != ToolsCorpus.generate(seed: 2))
        #expect(ToolsCorpus.generate() != ToolsCorpus.generate(seed: ToolsCorpus.heldOutSeed))
    }

    @Test func everyKindIsThereWithDistinctIDs() {
        let items = ToolsCorpus.generate()
        #expect(items.count == ToolsCorpus.size)
        #expect((16...24).contains(items.count))
        #expect(Set(items.map(\.id)).count == items.count)
        for kind in ToolsCorpus.kinds {
            #expect(items.filter { $0.kind == kind }.count == ToolsCorpus.perKind, "\(kind)")
        }
        for item in items {
            switch item.kind {
            case "no-tool":
                #expect(item.forbidsCalls && !item.needsCalls, "\(item.id)")
            case "two-tools":
                #expect(item.turns.count == 1 && item.turns[0].calls.count == 2, "\(item.id)")
            case "multi-turn":
                #expect(item.turns.count == 2 && !item.turns[0].calls.isEmpty, "\(item.id)")
            default:
                #expect(item.turns.count == 1 && item.turns[0].calls.count == 1 && !item.turns[0].facts.isEmpty, "\(item.id)")
            }
        }
        #expect(Set(items.filter { $0.kind == "no-tool" }.map { $0.turns[0].prompt }).count == ToolsCorpus.perKind)
    }

    /// Each needed call, run on the real tool, returns a text that holds
    /// the facts its turn expects (the first turn of each multi-turn item
    /// whose second turn reuses its result too): the ground truth holds.
    @Test func theToolsOutputsHoldTheExpectedFacts() async throws {
        let tools: [String: any Tool] = Dictionary(uniqueKeysWithValues: ToolsEval.tools.map { ($0.name, $0) })
        for item in ToolsCorpus.generate() + ToolsCorpus.generate(seed: ToolsCorpus.heldOutSeed) {
            for turn in item.turns where !turn.calls.isEmpty {
                var outputs = ""
                for call in turn.calls {
                    let tool = try #require(tools[call.tool], "\(item.id): \(call.tool)")
                    outputs += try await Self.output(of: tool, arguments: call.arguments) + "\n"
                }
                for fact in turn.facts {
                    #expect(ToolsScoring.answerContains(outputs, fact: fact), "\(item.id): \(fact) not in \(outputs)")
                }
            }
        }
    }

    static func output(of tool: any Tool, arguments: [String: String]) async throws -> String {
        func run<T: Tool>(_ tool: T) async throws -> String {
            let json = try JSONSerialization.data(
                withJSONObject: arguments.mapValues { value -> Any in Double(value) ?? value }, options: .sortedKeys)
            let parsed = try T.Arguments(GeneratedContent(json: String(decoding: json, as: UTF8.self)))
            return "\(try await tool.call(arguments: parsed))"
        }
        return try await run(tool)
    }

    @Test func toolsAnswerFromTheirTables() async throws {
        #expect(try await GetStockTool().call(arguments: .init(sku: "ABC-123")) == "ABC-123 (desk lamp): 17 units in stock.")
        #expect(try await GetStockTool().call(arguments: .init(sku: "abc 123")) == "ABC-123 (desk lamp): 17 units in stock.")
        #expect(try await GetStockTool().call(arguments: .init(sku: "ZZ-999")) == "No item ZZ-999 in the catalog.")
        // The guides' examples are in no table: a copied example is never right.
        #expect(try await GetStockTool().call(arguments: .init(sku: "XY-100")).hasPrefix("No item"))
        #expect(try await GetWeatherTool().call(arguments: .init(city: "Paris")).hasPrefix("No weather station"))
        #expect(try await LookupOrderTool().call(arguments: .init(orderID: "A-1000")).hasPrefix("No order"))
        #expect(try await GetWeatherTool().call(arguments: .init(city: "lisbon")) == "Lisbon: 21 °C, sunny, wind 12 km/h.")
        #expect(try await ConvertCurrencyTool().call(arguments: .init(amount: 100, from: "USD", to: "EUR")) == "100.00 USD = 92.00 EUR")
        #expect(try await ConvertCurrencyTool().call(arguments: .init(amount: 92, from: "eur", to: "gbp")) == "92.00 EUR = 79.00 GBP")
        #expect(try await ConvertCurrencyTool().call(arguments: .init(amount: 5, from: "USD", to: "XYZ")).hasPrefix("Unknown currency"))
        #expect(
            try await LookupOrderTool().call(arguments: .init(orderID: "A-1042"))
                == "Order A-1042: shipped, carrier DHL, expected March 6, total $84.20.")
        #expect(
            try await LookupOrderTool().call(arguments: .init(orderID: "A-1077"))
                == "Order A-1077: delivered, carrier UPS, delivered on March 2, total $129.99.")
    }

    // MARK: Scoring

    static let stockItem = ToolsItem(
        id: "t", kind: "single",
        turns: [
            .init(prompt: "How many ABC-123?", calls: [.init(tool: "getStock", arguments: ["sku": "ABC-123"])], forbidsCalls: false, facts: ["17"])
        ])
    static let plainItem = ToolsItem(
        id: "p", kind: "no-tool",
        turns: [
            .init(prompt: "What is the capital of Japan?", calls: [], forbidsCalls: true, facts: ["Tokyo"])
        ])
    static let currencyItem = ToolsItem(
        id: "c", kind: "numbers",
        turns: [
            .init(
                prompt: "1000 USD in JPY?", calls: [.init(tool: "convertCurrency", arguments: ["amount": "1000", "from": "USD", "to": "JPY"])],
                forbidsCalls: false, facts: ["151200.00"])
        ])

    @Test func aRightCallAndAnswerScoreRight() {
        let score = ToolsScoring.score(
            Self.stockItem,
            turns: [
                TurnRecord(calls: [MadeCall(tool: "getStock", arguments: #"{"sku":"abc-123"}"#)], answer: "We have 17 units of ABC-123 in stock.")
            ])
        #expect(score == ToolsScore(callsRight: true, answerUsesResult: true, noCallRight: nil, problems: []))
        #expect(score.both == true && score.allRight)
        // Numbers by value: 1000 as 1000.0, 151200.00 printed as 151,200.
        let currency = ToolsScoring.score(
            Self.currencyItem,
            turns: [
                TurnRecord(
                    calls: [MadeCall(tool: "convertCurrency", arguments: #"{"amount":1000.0,"from":"usd","to":"JPY"}"#)], answer: "That is ¥151,200.")
            ])
        #expect(currency.allRight, "\(currency.problems)")
    }

    @Test func aWrongArgumentFailsTheCall() {
        let score = ToolsScoring.score(
            Self.stockItem,
            turns: [
                TurnRecord(calls: [MadeCall(tool: "getStock", arguments: #"{"sku":"ABC-124"}"#)], answer: "We have 17 units.")
            ])
        #expect(score.callsRight == false && score.answerUsesResult == true && score.both == false)
        #expect(score.problems == [#"expected getStock(sku: ABC-123), got getStock({"sku":"ABC-124"})"#])
        let wrongTool = ToolsScoring.score(
            Self.stockItem,
            turns: [
                TurnRecord(calls: [MadeCall(tool: "lookupOrder", arguments: #"{"sku":"ABC-123"}"#)], answer: "17")
            ])
        #expect(wrongTool.callsRight == false)
        let noCall = ToolsScoring.score(Self.stockItem, turns: [TurnRecord(calls: [], answer: "I think 17.")])
        #expect(noCall.callsRight == false && noCall.problems.first?.hasSuffix("got no call") == true)
    }

    @Test func anAnswerWithoutTheFactFailsTheAnswer() {
        let score = ToolsScoring.score(
            Self.stockItem,
            turns: [
                // The call written again as text instead of an answer; 170 is not 17.
                TurnRecord(
                    calls: [MadeCall(tool: "getStock", arguments: #"{"sku":"ABC-123"}"#)],
                    answer: #"<tool_call>{"name": "getStock", "arguments": {"sku": "ABC-123"}}</tool_call> 170"#)
            ])
        #expect(score.callsRight == true && score.answerUsesResult == false && score.both == false)
        #expect(score.problems == ["answer lacks 17", "answer writes out a call or its markup instead of answering"])
    }

    @Test func aCallWhereNoneWasNeededFailsTheNoCallScore() {
        let called = ToolsScoring.score(
            Self.plainItem,
            turns: [
                TurnRecord(calls: [MadeCall(tool: "getWeather", arguments: #"{"city":"Tokyo"}"#)], answer: "Tokyo.")
            ])
        #expect(called.noCallRight == false && called.callsRight == nil && called.answerUsesResult == nil)
        #expect(called.problems.count == 1 && called.problems[0].contains("where no call was needed"))
        let plain = ToolsScoring.score(Self.plainItem, turns: [TurnRecord(calls: [], answer: "Tokyo.")])
        #expect(plain.noCallRight == true && plain.allRight)
    }

    /// A plain question answered without a call is still wrong when the
    /// answer does not say what answers it, or shows a call instead (both
    /// seen on the default model: a json fence calling getWeather for
    /// "What is the capital of Japan?", and `<tools>` around a call for
    /// "Suggest a name for a coffee shop.").
    @Test func aPlainQuestionNeedsItsAnswer() {
        let tutorial = ToolsScoring.score(
            Self.plainItem,
            turns: [
                TurnRecord(
                    calls: [],
                    answer: "I'll use the `getWeather` function:\n```json\n{\"name\": \"getWeather\", \"arguments\": {\"city\": \"Kyoto\"}}\n```")
            ])
        #expect(tutorial.noCallRight == false)
        #expect(tutorial.problems == ["answer lacks Tokyo", "answer writes out a call or its markup instead of answering"])
        let tagged = ToolsScoring.score(
            Self.plainItem, turns: [TurnRecord(calls: [], answer: "Tokyo <tools>\n{\"name\": \"lookupOrder\"}\n</tools>")])
        #expect(tagged.noCallRight == false && tagged.problems.count == 1)
        #expect(!ToolsScoring.showsCallMarkup("The name of the shop: \"Bean There\"."))
        let facts = ToolsCorpus.generate().filter { $0.kind == "no-tool" }.map { $0.turns[0].facts }
        #expect(facts.contains { !$0.isEmpty }, "the corpus's plain questions check their answers")
    }

    @Test func anErrorOrAMissingTurnFailsEverything() {
        let failed = ToolsScoring.score(Self.stockItem, turns: [], failure: "timed out: no answer within 60 s")
        #expect(failed.callsRight == false && failed.answerUsesResult == false)
        #expect(failed.problems == ["timed out: no answer within 60 s", "not answered"])
        let item = ToolsCorpus.generate().first { $0.kind == "multi-turn" }!
        let firstOnly = ToolsScoring.score(item, turns: [TurnRecord(calls: [], answer: "")])
        #expect(firstOnly.problems.contains("turn 2: not answered"))
    }

    @Test func factsCompareNumbersByValueAndWordsWhole() {
        #expect(ToolsScoring.answerContains("Total: $84.2", fact: "84.20"))
        #expect(ToolsScoring.answerContains("about 1,512.00 yen", fact: "1512"))
        #expect(!ToolsScoring.answerContains("order 17001", fact: "17"))
        #expect(ToolsScoring.answerContains("It is Partly  Cloudy today", fact: "partly cloudy"))
        #expect(!ToolsScoring.answerContains("It is cloudy", fact: "partly cloudy"))
        #expect(!ToolsScoring.answerContains("sunnyside", fact: "sunny"))
    }

    @Test func theTranscriptsCallsAreRecorded() throws {
        let entries: [Transcript.Entry] = [
            .prompt(Transcript.Prompt(segments: [.text(.init(content: "Go"))])),
            .toolCalls(
                Transcript.ToolCalls([
                    Transcript.ToolCall(toolName: "getStock", arguments: try GeneratedContent(json: #"{"sku":"ABC-123"}"#)),
                    Transcript.ToolCall(toolName: "getWeather", arguments: try GeneratedContent(json: #"{"city":"Oslo"}"#)),
                ])),
        ]
        let calls = ToolsEval.calls(in: entries)
        #expect(calls.map(\.tool) == ["getStock", "getWeather"])
        #expect(ToolsScoring.matches(calls[0], .init(tool: "getStock", arguments: ["sku": "ABC-123"])))
        #expect(ToolsScoring.matches(calls[1], .init(tool: "getWeather", arguments: ["city": "oslo"])))
    }

    // MARK: Report and server model

    @Test func theReportHasARowPerRunAndTheMisses() {
        let right = ToolsScoring.score(
            Self.stockItem, turns: [TurnRecord(calls: [MadeCall(tool: "getStock", arguments: #"{"sku":"ABC-123"}"#)], answer: "17 units")])
        let wrong = ToolsScoring.score(
            Self.plainItem, turns: [TurnRecord(calls: [MadeCall(tool: "getWeather", arguments: #"{"city":"Tokyo"}"#)], answer: "Tokyo")])
        let run = ToolsRun(
            label: "Model", mode: ToolsEval.libraryMode, timeLimit: 60,
            records: [
                ToolsRecord(
                    id: "tools-01", kind: "single",
                    turns: [TurnRecord(calls: [MadeCall(tool: "getStock", arguments: #"{"sku":"ABC-123"}"#)], answer: "17 units")], score: right,
                    error: nil, timedOut: false, seconds: 2),
                ToolsRecord(
                    id: "tools-13", kind: "no-tool",
                    turns: [TurnRecord(calls: [MadeCall(tool: "getWeather", arguments: #"{"city":"Tokyo"}"#)], answer: "Tokyo")], score: wrong,
                    error: nil, timedOut: false, seconds: 4),
            ], seconds: 6, date: "2026-12-07T06:00:00Z", revision: "6c9c30a")
        let text = ToolsReport.markdown([run])
        #expect(text.hasPrefix("## Tools\n"))
        #expect(
            text.contains(
                "| Model | library | 2 | 100 % (1/1) | 100 % (1/1) | **100 % (1/1)** | 0 % (0/1) | 0 | 0 | 3.00 s | 2026-12-07 | 6c9c30a |"),
            "\(text)")
        #expect(text.contains("| no-tool | 1 | 0/1 |"))
        #expect(
            text.contains(
                #"- tools-13 (no-tool): called getWeather({"city":"Tokyo"}) where no call was needed — calls: `getWeather({"city":"Tokyo"})` — answer: `Tokyo`"#
            ), "\(text)")
        #expect(!text.contains("- tools-01"))
        let timedOut = ToolsRecord(
            id: "tools-02", kind: "single", turns: [],
            score: ToolsScoring.score(Self.stockItem, turns: [], failure: "timed out: no answer within 60 s"),
            error: "timed out: no answer within 60 s", timedOut: true, seconds: 60)
        #expect(ToolsReport.missLine(timedOut) == "- tools-02 (single): timed out: no answer within 60 s; not answered")
    }

    @Test func theServerModelIsBuiltFromAURL() throws {
        let model = try ToolsEval.serverModel(baseURL: "http://127.0.0.1:8080/v1", model: "qwen2.5-coder-1.5b")
        #expect(model.baseURL.absoluteString == "http://127.0.0.1:8080/v1" && model.modelName == "qwen2.5-coder-1.5b")
        #expect(throws: ToolsEvalError.self) { try ToolsEval.serverModel(baseURL: "not a url", model: "m") }
        #expect(throws: ToolsEvalError.self) { try ToolsEval.serverModel(baseURL: "http://example.com/v1", model: "m") }
    }
}
