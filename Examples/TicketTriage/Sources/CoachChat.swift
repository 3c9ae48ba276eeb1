import FoundationModels
import FoundationModelsTiers

/// A small chat with a running coach whose facts come from tools the app
/// serves: the model asks ``TrainingLogTool`` for the athlete's sessions
/// instead of the log riding along in every prompt. Routed like triage
/// (`.cloudFree`): the router gives each tier's session the same tools, so
/// the answer is grounded in the same log on the server and on device.
public struct CoachChat: Sendable {
    /// The feature's name in the router's declared policies.
    public static let feature = "coachChat"

    public let router: ModelRouter
    let options: GenerationOptions

    public init(
        privateCloud: (any LanguageModel)?,
        onDevice: any LanguageModel = SystemLanguageModel.default,
        log: [LoggedSession] = LoggedSession.sampleWeek,
        onToolCall: (@Sendable (String) -> Void)? = nil
    ) {
        router = ModelRouter(
            onDevice: onDevice, privateCloud: privateCloud,
            tools: [TrainingLogTool(log: log, onCall: onToolCall)],
            features: [Self.feature: .cloudFree])
        var options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 80)
        // Every question is about the log: the first round looks it up.
        options.toolCallingMode = .required
        self.options = options
    }

    static let instructions = """
        You are a running coach. Look the athlete's sessions up with the trainingLog tool, \
        then answer in one or two short sentences using its numbers.
        """

    /// The coach's answer to `question`, and the tier that gave it.
    ///
    /// Typed rather than text: with a tool call required, a small model's
    /// free-text answer after the tool's output is often one more call
    /// written as JSON; guided into ``CoachAnswer`` it is prose.
    public func ask(_ question: String) async throws -> RoutedResponse<CoachAnswer> {
        try await router.respond(to: question, as: CoachAnswer.self, instructions: Self.instructions, feature: Self.feature, options: options)
    }
}

/// What the coach says back.
@Generable(description: "The coach's answer")
public struct CoachAnswer: Sendable, Equatable {
    @Guide(description: "The answer in one or two sentences, with the numbers from the training log")
    public var answer: String
}

/// One session of the athlete's log, as the app's server stores it.
public struct LoggedSession: Sendable, Equatable {
    public var day: String
    public var kind: Kind
    public var kilometres: Double
    public var minutes: Int

    public enum Kind: String, Sendable, CaseIterable {
        case easy, intervals, long
    }

    public init(day: String, kind: Kind, kilometres: Double, minutes: Int) {
        self.day = day
        self.kind = kind
        self.kilometres = kilometres
        self.minutes = minutes
    }

    /// Minutes per kilometre, as runners write it ("6:08").
    public var pace: String {
        let seconds = Int((Double(minutes * 60) / kilometres).rounded())
        return "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
    }

    public static let sampleWeek = [
        LoggedSession(day: "Monday", kind: .easy, kilometres: 6, minutes: 36),
        LoggedSession(day: "Wednesday", kind: .intervals, kilometres: 8, minutes: 42),
        LoggedSession(day: "Friday", kind: .easy, kilometres: 5, minutes: 31),
        LoggedSession(day: "Sunday", kind: .long, kilometres: 16, minutes: 98),
    ]
}

/// The athlete's sessions of one kind (or all), with distance, time and
/// pace: a tool the chat's sessions call. The kind is an enumeration in the
/// schema, so the model cannot ask for something the log does not file.
public struct TrainingLogTool: Tool {
    public let name = "trainingLog"
    public let description = "Lists the athlete's runs this week of one kind (easy, intervals, long, or all) with distance, time and pace."

    @Generable
    public struct Arguments {
        @Guide(description: "Which runs", .anyOf(["easy", "intervals", "long", "all"]))
        public var kind: String
    }

    let log: [LoggedSession]
    let onCall: (@Sendable (String) -> Void)?

    public init(log: [LoggedSession], onCall: (@Sendable (String) -> Void)? = nil) {
        self.log = log
        self.onCall = onCall
    }

    public func call(arguments: Arguments) async throws -> String {
        onCall?(arguments.kind)
        return lookUp(kind: arguments.kind)
    }

    /// What the model reads back for `kind`.
    func lookUp(kind: String) -> String {
        let found = log.filter { kind == "all" || $0.kind.rawValue == kind }
        guard !found.isEmpty else { return "No \(kind) runs this week." }
        let total = found.reduce(0) { $0 + $1.kilometres }
        return found.map { "- \($0.day): \($0.kind.rawValue) run, \(Self.format($0.kilometres)) km in \($0.minutes) min (\($0.pace) per km)" }
            .joined(separator: "\n") + "\nTotal: \(Self.format(total)) km."
    }

    static func format(_ kilometres: Double) -> String {
        kilometres == kilometres.rounded() ? String(Int(kilometres)) : String(kilometres)
    }
}
