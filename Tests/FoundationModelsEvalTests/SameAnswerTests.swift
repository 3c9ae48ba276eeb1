import Foundation
import FoundationModels
import Testing

@testable import FoundationModelsEval

/// The doubled mode's comparison (no model): bytes decide "identical", and
/// a difference is named by the first field where the answers part.
@Suite("Eval answers at twice the tokens")
struct SameAnswerTests {
    static let triage = #"{"queue":"billing","priority":"urgent","summary":"Charged twice for the March invoice."}"#

    @Test func identicalOutputsHaveNoDifference() {
        #expect(SameAnswer.firstDifference(unbudgeted: Self.triage, budgeted: Self.triage) == nil)
        let comparison = BudgetComparison(maximumResponseTokens: 60, unbudgetedTokens: 30, difference: nil)
        #expect(comparison.identical)
    }

    @Test func theFirstDifferingFieldIsNamedWithBothValues() {
        let shorter = #"{"queue":"billing","priority":"urgent","summary":"Charged twice."}"#
        let difference = SameAnswer.firstDifference(unbudgeted: Self.triage, budgeted: shorter)
        #expect(
            difference == OutputDifference(path: "summary", unbudgeted: #""Charged twice for the March invoice.""#, budgeted: #""Charged twice.""#))
        #expect(BudgetComparison(maximumResponseTokens: 60, unbudgetedTokens: 30, difference: difference).identical == false)
        // Two fields differ: the first in the unbudgeted answer's order is named.
        let both = #"{"queue":"billing","priority":"normal","summary":"Charged twice."}"#
        #expect(SameAnswer.firstDifference(unbudgeted: Self.triage, budgeted: both)?.path == "priority")
    }

    @Test func nestedFieldsAndListsArePathed() {
        let deck =
            #"{"cards":[{"question":"Who?","answer":"Neil Armstrong was the first person to walk on the Moon."},{"question":"Where?","answer":"The Sea of Tranquility."}]}"#
        let cut =
            #"{"cards":[{"question":"Who?","answer":"Neil Armstrong was the first person to walk on the"},{"question":"Where?","answer":"The Sea of Tranquility."}]}"#
        #expect(SameAnswer.firstDifference(unbudgeted: deck, budgeted: cut)?.path == "cards[0].answer")
        let fewer = #"{"cards":[{"question":"Who?","answer":"Neil Armstrong was the first person to walk on the Moon."}]}"#
        #expect(
            SameAnswer.firstDifference(unbudgeted: deck, budgeted: fewer)
                == OutputDifference(
                    path: "cards[1]", unbudgeted: #"{"question":"Where?","answer":"The Sea of Tranquility."}"#, budgeted: nil))
        #expect(SameAnswer.firstDifference(unbudgeted: fewer, budgeted: deck)?.unbudgeted == nil)
    }

    @Test func sameValuesInAnotherShapeStillDiffer() {
        // Byte for byte: the same keys in another order are not the same answer.
        let reordered = #"{"priority":"urgent","queue":"billing","summary":"Charged twice for the March invoice."}"#
        let order = SameAnswer.firstDifference(unbudgeted: Self.triage, budgeted: reordered)
        #expect(order?.path == "(key order)")
        #expect(order?.unbudgeted == "queue, priority, summary")
        // A key only the budgeted answer has.
        let extra = #"{"queue":"billing","priority":"urgent","summary":"Charged twice for the March invoice.","note":"x"}"#
        #expect(
            SameAnswer.firstDifference(unbudgeted: Self.triage, budgeted: extra) == OutputDifference(path: "note", unbudgeted: nil, budgeted: #""x""#)
        )
        // The same content spelled otherwise (`1.0`, spaces) differs only in layout.
        #expect(SameAnswer.firstDifference(unbudgeted: #"{"a":1}"#, budgeted: #"{"a": 1}"#)?.path == "(layout)")
        #expect(SameAnswer.firstDifference(unbudgeted: #""done""#, budgeted: #""don""#)?.path == "(value)")
    }

    @Test func noAnswerDiffersAsAWhole() {
        #expect(
            SameAnswer.firstDifference(unbudgeted: Self.triage, budgeted: "")
                == OutputDifference(path: "(answer)", unbudgeted: Self.triage, budgeted: nil))
        #expect(SameAnswer.firstDifference(unbudgeted: Self.triage, budgeted: #"{"queue":"bil"#)?.path == "(answer)", "unfinished JSON")

        var reference = EvalRunner.Produced()
        reference.output = Self.triage
        reference.outputTokens = 31
        var failed = EvalRunner.Produced()
        failed.status = .failed
        failed.problem = "the response reached its limit of 62 tokens before the Triage value was complete"
        let comparison = EvalRunner.compare(failed, with: reference, budget: 62)
        #expect(
            comparison
                == BudgetComparison(
                    maximumResponseTokens: 62, unbudgetedTokens: 31,
                    difference: OutputDifference(path: "(answer)", unbudgeted: Self.triage, budgeted: nil)))
        var same = EvalRunner.Produced()
        same.output = Self.triage
        #expect(EvalRunner.compare(same, with: reference, budget: 62).identical)
    }

    @Test func theLogLineSaysWhetherItIsTheGuidedAnswer() {
        var record = ReportTests.answer("ticket-01", right: true, seconds: 1.5)
        record.comparison = BudgetComparison(maximumResponseTokens: 62, unbudgetedTokens: 31, difference: nil)
        #expect(EvalRunner.summary(record) == "identical to guided (62 tokens); all right, 1.5 s")
        record.comparison = BudgetComparison(
            maximumResponseTokens: 62, unbudgetedTokens: 31,
            difference: OutputDifference(path: "summary", unbudgeted: "\"a b\"", budgeted: "\"a\""))
        #expect(EvalRunner.summary(record) == "differs from guided at summary (62 tokens); all right, 1.5 s")
    }

    @Test func recordsWithAComparisonRoundTripAndOldOnesReadAsNone() throws {
        var record = ReportTests.answer("ticket-01", right: true, seconds: 1.5)
        record.comparison = BudgetComparison(
            maximumResponseTokens: 62, unbudgetedTokens: 31,
            difference: OutputDifference(path: "summary", unbudgeted: "\"a b\"", budgeted: "\"a\""))
        let data = try JSONEncoder().encode(record)
        #expect(try JSONDecoder().decode(AnswerRecord.self, from: data).comparison == record.comparison)
        record.comparison = nil
        #expect(try JSONDecoder().decode(AnswerRecord.self, from: JSONEncoder().encode(record)).comparison == nil)
    }
}
