import FoundationModels
import FoundationModelsEval
import TerminalSupport

// Linked into each example's Demo folder: one file, compiled into each
// program.

/// What the tour says after an answer: complete (or right, where the
/// program knows the truth), cut short, or wrong — judged by the rules
/// `make eval` counts, not by the program.
///
/// Exists because a program that prints every answer the same way presents
/// a headline "Maya's" or a flashcard answer "…walk on the" as a success. The
/// verdict uses the eval's own scorers: ``CutShort`` for every free string
/// of the answer (mid-word, mid-sentence) and the example's task scorer
/// (`CoachingTask`, `FlashcardTask`, …) where the program has an item for it.
struct Verdict {
    /// The free strings that are cut short.
    var cuts: [CutString] = []
    /// What a scorer found wrong, one reason each.
    var wrong: [String] = []
    /// The word for an answer with nothing found: "complete" when only its
    /// strings are checked, "right" when its values are checked against the truth.
    var success = "complete"

    /// Nothing found yet: the program adds cuts and reasons itself.
    init() {}

    /// `answer`'s free strings checked against `input` (the instructions and
    /// the prompt the model was given: a word of the input is not a broken
    /// word), plus what `wrong` adds.
    init(_ answer: some Generable, input: String, wrong: [String] = [], success: String = "complete") {
        self.init(answer.generatedContent, schema: type(of: answer).generationSchema, input: input, wrong: wrong, success: success)
    }

    init(_ content: GeneratedContent, schema: GenerationSchema, input: String, wrong: [String] = [], success: String = "complete") {
        cuts = CutShort.cuts(in: content, schema: schema, input: input)
        self.wrong = wrong
        self.success = success
    }

    /// The answer as `Task`'s scorer judges it for `item` (the fields it
    /// counts; its informational ones are left out), its free strings
    /// checked against the item's instructions and prompt.
    init<Task: EvalTask>(_ answer: Task.Answer, as task: Task.Type, for item: Task.Item, success: String = "complete") {
        let input = Task.instructions(for: item) + "\n" + Task.prompt(for: item)
        self.init(answer.generatedContent, schema: Task.answerSchema(for: item), input: input, success: success)
        // A task's own "complete" field is the same cut-short rule: shown once, as cut short.
        wrong = Verdict.failures(Task.score(answer, for: item).filter { !Task.informational.contains($0.field) && $0.field != "complete" })
    }

    /// "field: detail" for each score that is not right.
    static func failures(_ scores: [FieldScore]) -> [String] {
        scores.filter { $0.counts && !$0.right }.map { $0.detail.isEmpty ? $0.field : "\($0.field): \($0.detail)" }
    }

    var isGood: Bool { cuts.isEmpty && wrong.isEmpty }

    /// The verdict's lines, unstyled: "✓ complete", or one line for what
    /// was cut short and one for what is wrong.
    var lines: [String] {
        if isGood { return ["✓ " + success] }
        var lines: [String] = []
        if !cuts.isEmpty {
            lines.append(
                "✗ cut short: "
                    + cuts.map { "\($0.path) \(Scoring.quote($0.text, limit: 40)) (\($0.kinds.map(\.rawValue).joined(separator: ", ")))" }.joined(
                        separator: "; "))
        }
        if !wrong.isEmpty {
            lines.append("✗ wrong: " + wrong.joined(separator: "; "))
        }
        return lines
    }

    /// Prints the verdict under the answer, indented like the answer's
    /// lines: green when nothing was found, red otherwise.
    func print() {
        let out = TerminalStream.output
        for line in lines {
            out.line("   " + out.styled(line, isGood ? .green : .red))
        }
    }
}
