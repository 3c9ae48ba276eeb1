import CoachingReport
import Foundation
import FoundationModels

/// Training weeks, reported on as the coaching example reports them
/// (``WeeklyCoach``'s bundled `coaching.yaml` instructions and prompt,
/// filled from the week; its ``CoachingReport``): a report whose every
/// string is finished, whose plan is the one the type asks for, and whose
/// reasons come from the log rather than from nowhere.
///
/// The task that catches what a budget does to a long nested answer: the
/// example's 400 tokens once printed the headline "Maya's" and every
/// reason "The".
package enum CoachingTask: EvalTask {
    package static let corpus = Corpus.coaching

    /// The example's templates, read once from its bundle.
    static let templates = Result { () throws(PromptTemplateError) -> PromptTemplates in try WeeklyCoach.bundledTemplates() }

    /// The instructions template, unfilled (the sent instructions name the
    /// athlete and the goal: ``instructions(for:)``).
    package static var instructions: String { (try? templates.get().instructions.text) ?? "" }

    package static func instructions(for item: CoachingItem) -> String {
        (try? prompts(for: item).instructions) ?? ""
    }

    package static func prompt(for item: CoachingItem) -> String {
        (try? prompts(for: item).prompt) ?? ""
    }

    /// ``WeeklyCoach/prompts(for:)``: the templates filled from the week.
    static func prompts(for item: CoachingItem) throws -> (instructions: String, prompt: String) {
        try WeeklyCoach(templates: templates.get()).prompts(for: item.trainingWeek)
    }

    /// Fails the run before the first answer when the example's templates
    /// cannot be read or filled from a week (the prompts would be empty).
    package static func prepare(_ items: [CoachingItem], log: @escaping @Sendable (String) -> Void) async throws -> [CoachingItem] {
        for item in items {
            do {
                _ = try prompts(for: item)
            } catch {
                throw CorpusError("the coaching example's templates do not fill for \(item.id): \(error)")
            }
        }
        return items
    }

    package static let fields = ["complete", "parts", "plan", "citing", "distinct", "numbers"]
    /// Whether every number the report states is one the log prints:
    /// reported, not counted (a pace the report works out is a fair
    /// number the log does not print).
    package static let informational: Set<String> = ["numbers"]

    /// A report's answer is several times a triage's: it gets three times
    /// the run's time limit.
    package static let timeLimitMultiple = 3.0

    package static func score(_ answer: CoachingReport, for item: CoachingItem) -> [FieldScore] {
        let input = instructions(for: item) + "\n" + prompt(for: item)
        let cut = CutShort.cuts(in: answer.generatedContent, schema: CoachingReport.generationSchema, input: input)
            .filter { $0.kinds.contains(.midWord) || $0.kinds.contains(.midSentence) }
        let counts = (answer.strengths.count, answer.focusAreas.count, answer.nextWeek.count)
        let days = answer.nextWeek.map(\.day)
        let undated = answer.nextWeek.filter { !statesDistanceOrDuration($0.workout) }
        let observations = answer.strengths + answer.focusAreas
        let uncited = observations.filter { !cites($0.reason, item) }
        let printed = loggedNumbers(item)
        let stated = ([answer.headline] + observations.flatMap { [$0.title, $0.reason] }).flatMap { numbers(in: $0) }
        let invented = stated.filter { !printed.contains($0) }
        let repeated = answer.focusAreas.filter { focus in answer.strengths.contains { repeatsReason(focus, of: $0) } }
        return [
            FieldScore(
                "complete", cut.isEmpty,
                cut.isEmpty ? "" : "cut short: " + cut.map { "\($0.path) \(Scoring.quote($0.text, limit: 40))" }.joined(separator: ", ")),
            FieldScore(
                "parts", counts == (2, 2, 3), "\(counts.0) strengths, \(counts.1) focus areas, \(counts.2) planned sessions (expected 2, 2, 3)"),
            FieldScore(
                "plan", Set(days).count == days.count && undated.isEmpty && !days.isEmpty,
                Set(days).count == days.count
                    ? (undated.first.map { "no distance or duration: \(Scoring.quote($0.workout))" } ?? "") : "repeated days: \(days.map(\.rawValue))"
            ),
            FieldScore(
                "citing", !observations.isEmpty && uncited.isEmpty,
                uncited.first.map {
                    "\(uncited.count) of \(observations.count) reasons cite no session, day or number of the log, e.g. \(Scoring.quote($0.reason))"
                } ?? ""),
            FieldScore(
                "distinct", repeated.isEmpty,
                repeated.first.map { "a focus area repeats a strength's reason: \(Scoring.quote($0.reason))" } ?? ""),
            FieldScore("numbers", invented.isEmpty, invented.isEmpty ? "" : "numbers the log does not print: \(invented.map(Scoring.number))"),
        ]
    }

    /// Whether a focus area gives a strength's reason again (letter case
    /// and surrounding spaces aside): a report that says the same thing of
    /// what went well and of what to work on tells a reader nothing to act
    /// on. The titles may match: one session seen from two sides.
    static func repeatsReason(_ focusArea: Observation, of strength: Observation) -> Bool {
        func normal(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }
        return normal(focusArea.reason) == normal(strength.reason)
    }

    /// Whether a reason cites the log: it mentions a number the log prints
    /// (a distance, a duration, a rep count, the total or the number of
    /// sessions), the day of a logged session, or a logged session by name
    /// (`long run`, `intervals`, `tempo run`; plurals alike). A proxy: a
    /// reason that quotes a logged number about the wrong session still
    /// cites; one that paraphrases a session ("your Sunday outing" for a
    /// logged Sunday does cite, "the weekend" does not) may not.
    package static func cites(_ reason: String, _ item: CoachingItem) -> Bool {
        let printed = loggedNumbers(item)
        if numbers(in: reason).contains(where: printed.contains) { return true }
        let words = stems(reason)
        if item.sessions.contains(where: { words.contains($0.day.rawValue) }) { return true }
        return item.sessions.contains { session in
            let name = stems(sessionName(session.kind))
            guard !name.isEmpty, name.count <= words.count else { return false }
            return (0...(words.count - name.count)).contains { Array(words[$0..<($0 + name.count)]) == name }
        }
    }

    /// A workout that states how far or how long (`8 km easy`, `45 min
    /// tempo`, `6 x 800 m`), as its guide asks.
    package static func statesDistanceOrDuration(_ workout: String) -> Bool {
        workout.contains(/(?i)\d+(?:[.,]\d+)?\s*(?:km|kilomet|k\b|m\b|metres|meters|mi\b|mile|min|minute|h\b|hr|hour|x\b|×)/)
    }

    /// The numbers the log prints: each session's distance, duration and
    /// the numbers of its kind (`5 x 800 m`), the week's total and its
    /// number of sessions.
    static func loggedNumbers(_ item: CoachingItem) -> Set<Double> {
        var printed: Set<Double> = [item.trainingWeek.totalKilometres, Double(item.sessions.count)]
        for session in item.sessions {
            printed.insert(session.kilometres)
            printed.insert(Double(session.minutes))
            printed.formUnion(numbers(in: session.kind))
        }
        return printed
    }

    static func numbers(in text: String) -> [Double] {
        text.matches(of: /\d+(?:[.,]\d+)?/).compactMap { Double($0.output.replacingOccurrences(of: ",", with: ".")) }
    }

    /// A kind's name without its numbers: `intervals 5 x 800 m` → `intervals`.
    static func sessionName(_ kind: String) -> String {
        String(kind.prefix { !$0.isNumber }).trimmingCharacters(in: .whitespaces)
    }

    /// Words with a plural "s" dropped, for matching names.
    static func stems(_ text: String) -> [String] {
        Scoring.words(text).map { $0.count > 3 && $0.hasSuffix("s") ? String($0.dropLast()) : $0 }
    }

    package static let seed = CoachingCorpus.seed
    package static func generate(seed: UInt64) -> [CoachingItem] { CoachingCorpus.generate(seed: seed) }

    // MARK: The example's feature

    package static let hasPipeline = true

    /// ``WeeklyCoach/report(for:)`` with the bundled templates: the
    /// finished report, with the feature's own options (greedy, 400 tokens).
    package static func pipeline(for item: CoachingItem, model: SystemLanguageModel) async throws -> PipelineAnswer<CoachingReport> {
        let report = try await WeeklyCoach(templates: templates.get(), model: model).report(for: item.trainingWeek)
        let observations = (report.strengths.map { "+ \($0.title): \($0.reason)" } + report.focusAreas.map { "→ \($0.title): \($0.reason)" })
        let plan = report.nextWeek.map { "\($0.day.rawValue) \($0.workout)" }
        return PipelineAnswer(answer: report, output: ([report.headline] + observations + plan).joined(separator: " / "), requests: 1)
    }

    /// ``WeeklyCoach``'s options (greedy, 400 tokens).
    package static func exampleOptions(model: SystemLanguageModel) -> GenerationOptions? {
        (try? templates.get()).flatMap { ExampleOptions.of(WeeklyCoach(templates: $0, model: model)) }
    }
}
