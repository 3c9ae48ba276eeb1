import Foundation

/// A call the model made, as the transcript holds it.
package struct MadeCall: Codable, Sendable, Equatable {
    package var tool: String
    /// The arguments as JSON text.
    package var arguments: String

    package init(tool: String, arguments: String) {
        self.tool = tool
        self.arguments = arguments
    }

    /// `getStock({"sku":"ABC-123"})`.
    package var text: String { "\(tool)(\(arguments))" }
}

/// What happened in one turn: the calls, in order, and the final answer.
package struct TurnRecord: Codable, Sendable, Equatable {
    package var calls: [MadeCall]
    package var answer: String

    package init(calls: [MadeCall], answer: String) {
        self.calls = calls
        self.answer = answer
    }
}

/// An item's scores. A score is nil where the item does not test it:
/// `callsRight` and `answerUsesResult` on items that need a call,
/// `noCallRight` on plain questions.
package struct ToolsScore: Codable, Sendable, Equatable {
    /// Every needed call was made with the expected argument values, and
    /// no call where a turn forbids one.
    package var callsRight: Bool?
    /// Every turn's answer contains every fact it must, and none writes
    /// out a call instead of answering.
    package var answerUsesResult: Bool?
    /// A plain question was answered without any call, saying what
    /// answers it where the item knows, and not as a call written out.
    package var noCallRight: Bool?
    /// Why the item is not all right, one line each.
    package var problems: [String]

    /// The item passed everything it tests.
    package var allRight: Bool { problems.isEmpty }
    /// Both the calls and the answer right (nil where the item needs no call).
    package var both: Bool? {
        guard let callsRight, let answerUsesResult else { return callsRight }
        return callsRight && answerUsesResult
    }
}

/// The scorer of the tools corpus: pure functions of an item and what the
/// model did, so they are tested on handmade transcripts.
package enum ToolsScoring {
    /// Scores `turns` (what the model did, one per prompt answered; fewer
    /// than the item's when it stopped early) against `item`. An error
    /// (`failure`) fails every score the item tests.
    package static func score(_ item: ToolsItem, turns: [TurnRecord], failure: String? = nil) -> ToolsScore {
        var problems: [String] = []
        var callsRight = true, answerRight = true, noCall = true
        for (index, expected) in item.turns.enumerated() {
            let label = item.turns.count > 1 ? "turn \(index + 1): " : ""
            guard index < turns.count else {
                callsRight = false; answerRight = false; noCall = false
                problems.append("\(label)not answered")
                continue
            }
            let made = turns[index]
            if expected.forbidsCalls, !made.calls.isEmpty {
                noCall = false
                problems.append("\(label)called \(made.calls.map(\.text).joined(separator: ", ")) where no call was needed")
            }
            for call in expected.calls where !made.calls.contains(where: { matches($0, call) }) {
                callsRight = false
                let got = made.calls.isEmpty ? "no call" : made.calls.map(\.text).joined(separator: ", ")
                problems.append("\(label)expected \(describe(call)), got \(got)")
            }
            let missing = expected.facts.filter { !answerContains(made.answer, fact: $0) }
            if !missing.isEmpty {
                answerRight = false
                problems.append("\(label)answer lacks \(missing.joined(separator: ", "))")
            }
            if showsCallMarkup(made.answer) {
                answerRight = false
                problems.append("\(label)answer writes out a call or its markup instead of answering")
            }
        }
        if let failure { problems.insert(failure, at: 0) }
        let failed = failure != nil
        let hasFacts = item.turns.contains { !$0.facts.isEmpty }
        return ToolsScore(
            callsRight: item.needsCalls ? callsRight && !failed : nil,
            answerUsesResult: item.needsCalls && hasFacts ? answerRight && !failed : nil,
            noCallRight: item.forbidsCalls ? noCall && answerRight && !failed : nil,
            problems: problems
        )
    }

    /// Whether `answer` shows a call rather than answering: the chat
    /// template's tags (`<tools>`, `<tool_call>`, `<tool_response>`) or a
    /// call object (`"name"` and `"arguments"`), which a reader cannot use.
    package static func showsCallMarkup(_ answer: String) -> Bool {
        answer.contains("<tool") || (answer.contains("\"name\"") && answer.contains("\"arguments\""))
    }

    /// `getStock(sku: ABC-123)`.
    package static func describe(_ call: ToolsItem.ExpectedCall) -> String {
        "\(call.tool)(\(call.arguments.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")))"
    }

    /// The call is to the expected tool and each expected argument has the
    /// expected value: numbers by value, strings as ``ShopTables/key(_:)``
    /// reduces them. Extra arguments do not count.
    package static func matches(_ made: MadeCall, _ expected: ToolsItem.ExpectedCall) -> Bool {
        guard made.tool == expected.tool else { return false }
        guard let data = made.arguments.data(using: .utf8),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return false }
        return expected.arguments.allSatisfy { key, value in
            guard let got = object[key] else { return false }
            return sameValue(got, value)
        }
    }

    static func sameValue(_ got: Any, _ expected: String) -> Bool {
        let text: String
        switch got {
        case let string as String: text = string
        case let number as Int: text = String(number)
        case let number as Double: text = String(number)
        case let number as NSNumber: text = number.stringValue
        default: return false
        }
        if let want = Double(expected), let have = Double(text.trimmingCharacters(in: .whitespaces)) {
            return abs(want - have) < 0.005
        }
        return ShopTables.key(text) == ShopTables.key(expected)
    }

    /// Whether `answer` states `fact`: a number as any number printed in the
    /// answer (thousands separators, a currency sign or trailing zeros
    /// aside: `1,512.00` is `1512`), words whole and in order, case ignored.
    package static func answerContains(_ answer: String, fact: String) -> Bool {
        if let value = Double(fact) {
            return numbers(in: answer).contains { abs($0 - value) < 0.005 }
        }
        return Scoring.contains(answer, phrase: fact)
    }

    /// The numbers printed in `text`, thousands separators removed.
    package static func numbers(in text: String) -> [Double] {
        text.matches(of: /\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?/).compactMap { match in
            Double(match.output.replacingOccurrences(of: ",", with: ""))
        }
    }
}
