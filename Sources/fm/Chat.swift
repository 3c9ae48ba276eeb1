import ArgumentParser
import Foundation
import FoundationModels
import FoundationModelsKit
import TerminalSupport

extension FM {
    /// `fm chat`: an interactive conversation with the on-device model.
    struct Chat: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Talk with the on-device model; the conversation is saved and can be resumed.",
            discussion: """
                Type a message and press Return: the answer is printed as it is generated. Ctrl-C stops an answer \
                (the conversation stays as it was before the question); Ctrl-D or /quit leaves; /new starts over; /help \
                lists the commands. Each conversation is saved after every answer: by default as a session named by the \
                time it started, in ${XDG_DATA_HOME:-~/.local/share}/swift-foundation-models/fm-sessions/, which \
                --resume NAME and --continue take up again; with --transcript FILE, in FILE (resumed when it exists). \
                When the conversation no longer fits the model's context, fm chat offers to start over or to let the \
                oldest turns go.
                """
        )

        @Option(name: [.customShort("i"), .long], help: "Instructions for a new conversation (a resumed one keeps its own).")
        var instructions: String?

        @Flag(name: .customLong("continue"), help: "Continue the session saved most recently.")
        var continueLatest = false

        @Option(
            name: [.customShort("r"), .long],
            help: ArgumentHelp(
                "Resume a saved session: its name (as fm chat printed it when it started), or a transcript file's path.", valueName: "name"))
        var resume: String?

        @Option(
            help: ArgumentHelp(
                "Resume the conversation from this JSON file when it exists; save it there after every answer.", valueName: "file.json"))
        var transcript: String?

        @Option(
            name: .customLong("set-default-model"),
            help: ArgumentHelp(
                "Store this model (system, or a GGUF file) as fm's default, in ${XDG_CONFIG_HOME:-~/.config}/swift-foundation-models/fm.json, and chat with it.",
                valueName: "system|file.gguf"))
        var setDefaultModel: String?

        @Option(
            name: .customLong("tool"),
            help: ArgumentHelp(
                "A built-in tool the model may call (repeatable): ocr (Tesseract reads an image's text), barcode (zbar reads its codes).",
                valueName: "ocr|barcode"))
        var tools: [BuiltInTool] = []

        @OptionGroup var generation: GenerationArguments

        @OptionGroup var model: ModelOptions

        func validate() throws {
            if [continueLatest, resume != nil, transcript != nil].filter({ $0 }).count > 1 {
                throw ValidationError("choose one of --continue, --resume and --transcript")
            }
            if let setDefaultModel {
                try ModelOptions.validateModelName(setDefaultModel, option: "--set-default-model")
                if setDefaultModel != ModelOptions.system, !FileManager.default.fileExists(atPath: setDefaultModel) {
                    throw ValidationError("--set-default-model \(setDefaultModel): no such file")
                }
            }
            let (file, mustExist, _) = try sessionFile()
            if mustExist, !FileManager.default.fileExists(atPath: file.path) {
                throw ValidationError("--resume \(resume ?? ""): no saved session at \(file.path)")
            }
            _ = try BuiltInTool.make(tools)
        }

        /// Where the conversation is resumed from and saved, and whether it
        /// must exist already.
        func sessionFile() throws -> (file: URL, mustExist: Bool, announce: String?) {
            if let transcript { return (URL(fileURLWithPath: transcript), false, nil) }
            if let resume { return (Settings.sessionFile(resume), true, nil) }
            if continueLatest {
                guard let latest = Settings.latestSession() else {
                    throw ValidationError(
                        "--continue: no saved session in \(Settings.sessionsFolder.path) (fm chat saves one after its first answer)")
                }
                return (latest, true, nil)
            }
            let name = Settings.newSessionName()
            return (Settings.sessionFile(name), false, "(this conversation is saved as \(name): fm chat --resume \(name))")
        }

        func run() async throws {
            let (file, _, announce) = try sessionFile()
            let tools = try BuiltInTool.make(self.tools)
            do {
                if let setDefaultModel {
                    var settings = try Settings.load()
                    settings.defaultModel = setDefaultModel
                    try settings.save()
                    Self.notice("default model: \(setDefaultModel) (saved in \(Settings.file.path))")
                    if ProcessInfo.processInfo.environment["FOUNDATION_MODELS_MODEL"].map({ !$0.isEmpty }) == true, model.path == nil {
                        Self.notice("FOUNDATION_MODELS_MODEL is set, and it comes before the stored default: this chat and later ones run it")
                    }
                }
                try generation.options.validate()
                if file.path.hasPrefix(Settings.sessionsFolder.path) {
                    try FileManager.default.createDirectory(at: Settings.sessionsFolder, withIntermediateDirectories: true)
                }
                let model = try await self.model.loadedModel()
                let conversation = try Conversation(model: model, tools: tools, instructions: instructions, file: file)
                if conversation.turnCount > 0 {
                    Self.notice(
                        "resumed \(conversation.turnCount) turn\(conversation.turnCount == 1 ? "" : "s") from \(transcript ?? resume ?? file.path)")
                    if instructions != nil { Self.notice("--instructions ignored: the resumed conversation keeps its own") }
                } else if let announce {
                    Self.notice(announce)
                }
                var loop = ChatLoop(conversation: conversation, options: generation.options)
                try await loop.run()
            } catch {
                throw Failure.exit(error)
            }
        }

        /// Remarks about the conversation (not part of it): standard error.
        static func notice(_ text: String) {
            let stream = TerminalStream.error
            stream.line(stream.styled(text, .dim))
        }
    }
}

/// The read–answer loop of `fm chat`.
struct ChatLoop {
    let conversation: Conversation
    let options: GenerationOptions
    private var input: AsyncStream<String>.Iterator
    private let interrupts: ChatInterrupts

    init(conversation: Conversation, options: GenerationOptions) {
        self.conversation = conversation
        self.options = options
        self.input = ChatInput().lines.makeAsyncIterator()
        self.interrupts = ChatInterrupts {
            FM.Chat.notice("\n(Ctrl-D or /quit leaves)")
            if ChatInput.isInteractive { ChatLoop.showPrompt() }
        }
    }

    static let help = """
        /new   start a new conversation (same instructions)
        /quit  leave (so does Ctrl-D)
        Ctrl-C stops an answer being generated
        """

    mutating func run() async throws {
        while true {
            if ChatInput.isInteractive { Self.showPrompt() }
            guard let line = await input.next() else {
                if ChatInput.isInteractive { TerminalStream.output.line() }
                return
            }
            let text = line.trimmingCharacters(in: .whitespaces)
            switch text {
            case "": continue
            case "/quit", "/exit": return
            case "/help": FM.Chat.notice(Self.help)
            case "/new":
                try conversation.startOver()
                FM.Chat.notice("(new conversation)")
            default:
                try await ask(text)
            }
        }
    }

    static func showPrompt() {
        let out = TerminalStream.output
        out.write(out.styled("> ", .bold))
    }

    /// Answers `text`; a context that has filled up is offered the ways out.
    mutating func ask(_ text: String) async throws {
        switch await answer(text) {
        case .answered:
            try conversation.save()
        case .stopped:
            FM.Chat.notice("(stopped: the conversation is as it was before the question)")
        case .failed(let error):
            ErrorReport.write(error)
        case .contextFull:
            try await contextFull(retrying: text)
        }
    }

    /// The conversation no longer fits: start over, drop the oldest turns
    /// until the question fits, or keep it as it is.
    mutating func contextFull(retrying text: String) async throws {
        FM.Chat.notice(
            """
            \(UserFacingMessage.conversationTooLong.title) for the model's context (\(conversation.model.contextSize) tokens).
            [n] start a new conversation and ask again  [d] drop the oldest turns and ask again  [k] keep it as it is
            """)
        if ChatInput.isInteractive { TerminalStream.output.write("n/d/k? ") }
        let choice = await input.next()?.trimmingCharacters(in: .whitespaces).lowercased()
        switch choice {
        case "n":
            try conversation.startOver()
            try await ask(text)
        case "d":
            while try conversation.dropOldestTurn() {
                switch await answer(text) {
                case .answered:
                    FM.Chat.notice("(the oldest turns were dropped: \(conversation.turnCount) left)")
                    try conversation.save()
                    return
                case .contextFull:
                    continue
                case .stopped:
                    FM.Chat.notice("(stopped)")
                    return
                case .failed(let error):
                    ErrorReport.write(error)
                    return
                }
            }
            FM.Chat.notice("(no turns left to drop: the question alone does not fit; ask something shorter)")
        default:
            FM.Chat.notice("(kept as it is)")
        }
    }

    enum Outcome {
        case answered, stopped, contextFull
        case failed(any Error)
    }

    /// Streams the answer to `text`; Ctrl-C cancels it.
    func answer(_ text: String) async -> Outcome {
        let session = conversation.session
        let options = options
        let entriesBefore = session.transcript.count
        let generation = Task {
            let out = TerminalStream.output
            var printed = ""
            for try await snapshot in session.streamResponse(to: text, options: options) {
                let content = snapshot.content
                if content.hasPrefix(printed) { out.write(String(content.dropFirst(printed.count))) }
                printed = content
            }
            if !printed.isEmpty { out.line() }
        }
        do {
            try await interrupts.during(onInterrupt: { generation.cancel() }) {
                try await generation.value
            }
            // A cancelled stream may end without an error; a Ctrl-C that came
            // after the last token leaves the answer whole and committed.
            if generation.isCancelled, session.transcript.count == entriesBefore {
                TerminalStream.output.line()
                return .stopped
            }
            return .answered
        } catch {
            if generation.isCancelled || error is CancellationError {
                TerminalStream.output.line()
                return .stopped
            }
            if UserFacingMessage(error).action == .startOver { return .contextFull }
            return .failed(error)
        }
    }
}
