#if LlamaCpp
import Foundation
import GuidedGeneration
import LlamaKit

/// How a transcript becomes the model's input: chat messages rendered by the
/// model's own chat template, then tokens.
///
/// Instructions are the system turn, prompts user turns, responses assistant
/// turns; tool calls are written as the block the model generates them in
/// (see ``ToolCallRouter``) and outputs as the template expects them.
/// Rendering is deterministic, so the tokens of an earlier request are a
/// prefix of the next one's and its KV cache can be reused.
///
/// Tools follow the model's own format where its template has one
/// (``ToolCallFormat/hermes``, Qwen2.5 and Hermes-style templates: the
/// tools as JSON function signatures in `<tools>`, calls in `<tool_call>`
/// blocks, outputs in `<tool_response>` inside a user turn, closed by a
/// line that asks for the answer, ``toolResultsNote``). llama.cpp's C
/// API renders templates without tools, so that part is written here, in
/// the template's own words. Other models get the tools described line by
/// line and calls as a compact JSON array (``ToolCallFormat/toolCallTags``).
struct ChatRendering: Sendable {
    let model: LlamaModel
    let toolFormat: ToolCallFormat
    /// How a response schema is described in a prompt turn that includes it.
    var schemaStyle = SchemaPromptStyle.standard
    var schemaPlacement = SchemaPromptPlacement.standard
    /// The most tokens a schema's description may take; past it, a shorter
    /// one (``schemaDescription(_:)``). Nil: no limit.
    var schemaTokenBudget: Int?
    /// A detail every schema is described at, one field a line, whatever
    /// its size (measurements only); nil: by ``schemaTokenBudget``.
    var forcedSchemaDetail: SchemaPromptDetail?
    /// The most tokens the list of tools may take; past it, shorter
    /// descriptions of the tools (``ToolListBudget``). Nil: no limit.
    var toolsTokenBudget: Int?

    /// The tool format for `model`: `forced` when given (measurements),
    /// else its template's own where it has the Hermes-style
    /// `<tools>`/`<tool_call>` format, else the JSON-array block.
    static func toolFormat(for model: LlamaModel, forced: ToolCallFormat? = nil) -> ToolCallFormat {
        if let forced { return forced }
        guard let template = model.chatTemplate else { return .toolCallTags }
        return template.contains("<tools>") && template.contains("<tool_call>") && template.contains("<tool_response>")
            ? .hermes : .toolCallTags
    }

    func messages(for transcript: Transcript) -> [LlamaChatMessage] {
        var messages: [LlamaChatMessage] = []
        for entry in transcript {
            guard let message = message(for: entry) else { continue }
            // Hermes-style templates put consecutive outputs in one user turn.
            if toolFormat.style == .hermes, case .toolOutput = entry,
                let last = messages.last, last.role == "user", last.content.hasSuffix(Self.toolResultsNote)
            {
                messages[messages.count - 1].content.removeLast(Self.toolResultsNote.count)
                messages[messages.count - 1].content += "\n" + message.content
            } else {
                messages.append(message)
            }
        }
        return messages
    }

    /// Closes a Hermes-style turn of tool outputs. Without it, Qwen2.5
    /// (1.5B, and llama-server with the model's own template alike) answers
    /// a result it has just received by writing the same call again as
    /// text, in every variant tried (tools offered or `tool_choice` none);
    /// with it, it answers from the result ("We have 17 units of ABC-123 in
    /// stock.", two results added up), and still calls on when a result
    /// leaves it a step to take. Worded to send the model back to the
    /// question before it answers: on the eval's tools corpus (`fm eval
    /// tools`) 9 of 16 tool items right against 8 with "Use this to answer
    /// the question, in a complete sentence (or call another function if
    /// you still need one)", which a second turn copied as its answer; a
    /// question that needs two different tools still gets one call, the
    /// rest of the answer invented. Repeating the question in the note
    /// ("The question: …") does not change that (two-tools items still 0
    /// of 4) and loses a multi-turn item: 8 of 16.
    static let toolResultsNote =
        "\nIf the question asks for something this does not give, call the function for it first; otherwise use this to answer the question in a complete sentence."

    func message(for entry: Transcript.Entry) -> LlamaChatMessage? {
        switch entry {
        case .instructions(let instructions):
            return .system(systemText(instructions))
        case .prompt(let prompt):
            return .user(userText(prompt))
        case .response(let response):
            return .assistant(response.segments.renderedText)
        case .toolCalls(let calls):
            return .assistant(
                ToolCallRouter.block(calls.map { ToolCallRouter.Call(name: $0.toolName, arguments: $0.arguments.jsonString) }, format: toolFormat))
        case .toolOutput(let output):
            switch toolFormat.style {
            case .jsonArray: return LlamaChatMessage(role: "tool", content: output.segments.renderedText)
            case .hermes: return .user("<tool_response>\n" + output.segments.renderedText + "\n</tool_response>" + Self.toolResultsNote)
            }
        case .reasoning:
            return nil
        #if DataAttachments
        case .data(let entry):
            return Self.dataEntryMessage(entry)
        #endif
        }
    }

    /// The instructions, followed by the session's tools and how to call
    /// them, in the very format the turn grammar enforces, so the model is
    /// told what it will be held to. Tools whose `includesSchemaInInstructions`
    /// is false are enforced but not described.
    ///
    /// The Hermes-style text is the template's own, word for word. Advice
    /// added after it trades the questions that need no tool for those that
    /// need two (`fm eval tools`, Qwen2.5-Coder-1.5B; tool items right and
    /// plain questions answered without a call, corpus then held-out, against
    /// 9/16, 3/4 and 7/16, 2/4 without): "Make every function call the query
    /// needs before you answer: one <tool_call></tool_call> block for each
    /// item it asks about. Never make up a function's result." 12/16, 1/4
    /// and 10/16, 0/4 (the capital of Japan looked up as Tokyo's weather);
    /// the same with "If it needs none, answer directly" 12/16, 1/4 and
    /// 12/16, 0/4; "Call a function only to get what the query asks for and
    /// the function returns; answer anything else yourself…" 10/16, 2/4 and
    /// 9/16, 1/4; "Before you answer, call every function whose result the
    /// query needs. Never make up a function's result." 9/16, 3/4 and 8/16,
    /// 2/4. Measured again with introduced calls read as calls and plain
    /// questions judged on their answers (against 10/16, 1/4 and 8/16, 1/4
    /// without), the first advice gives 12/16, 1/4 and 10/16, 0/4, but the
    /// capital of Japan gets no answer within 60 s on either sample and a
    /// follow-up ("And in Sydney?") calls getWeather(Sydney) eight times in
    /// one block: not taken.
    func systemText(_ instructions: Transcript.Instructions) -> String {
        let text = instructions.segments.renderedText
        guard !instructions.toolDefinitions.isEmpty else { return text }
        switch toolFormat.style {
        case .jsonArray:
            let tools = toolsWithinBudget(instructions.toolDefinitions.map(\.promptDescriptionLevels))
            // In the layout the turn grammar writes calls in (ConstraintCache's turnLayout).
            let usage =
                "To call tools, reply with only \(toolFormat.open)[{\"name\": \"<tool name>\", \"arguments\": {…}}]\(toolFormat.close). "
                + "Each tool's output comes back to you; then answer."
            return (text.isEmpty ? "" : text + "\n\n") + "Tools:\n" + tools.joined(separator: "\n") + "\n" + usage
        case .hermes:
            let signatures = toolsWithinBudget(instructions.toolDefinitions.map(\.signatureLevels))
            return (text.isEmpty ? "" : text + "\n\n")
                + "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
                + "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n"
                + signatures.joined(separator: "\n")
                + "\n</tools>\n\nFor each function call, return a json object with function name and arguments within "
                + "\(toolFormat.open)\(toolFormat.close) XML tags:\n\(toolFormat.open)\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n\(toolFormat.close)"
        }
    }

    /// Each tool's rendering: the whole ones (each level list's last) while
    /// they fit ``toolsTokenBudget`` together, else what ``ToolListBudget``
    /// keeps.
    func toolsWithinBudget(_ levels: [[String]]) -> [String] {
        guard let budget = toolsTokenBudget else { return levels.map { $0.last ?? "" } }
        return ToolListBudget.fill(levels: levels, separator: "\n", budget: budget, tokenCount: countTokens)
    }

    /// Tokens `text` takes in this model's vocabulary.
    func countTokens(_ text: String) -> Int {
        (try? Self.tokens(of: text, vocabulary: model.vocabulary).count) ?? Int.max
    }

    /// The prompt's text, followed by the description of its response
    /// schema when the request asked for it (`includeSchemaInPrompt`). Both
    /// are stored in the transcript, so a later turn renders this one the
    /// same way and reuses its cached tokens.
    func userText(_ prompt: Transcript.Prompt) -> String {
        let text = prompt.segments.renderedText
        guard let format = prompt.responseFormat, prompt.contextOptions.includeSchemaInPrompt != false else { return text }
        let description = schemaDescription(format.schema)
        if text.isEmpty { return description }
        switch schemaPlacement {
        case .after: return text + "\n\n" + description
        case .before: return description + "\n\n" + text
        }
    }

    /// The schema's description in the configured style, or a shorter one
    /// where that is long or would take more than ``schemaTokenBudget`` tokens
    /// (``GenerationSchema/promptDescription(style:budget:tokenCount:)``).
    func schemaDescription(_ schema: GenerationSchema) -> String {
        schemaRendering(schema).text
    }

    /// ``schemaDescription(_:)`` and the detail it was shortened to (nil:
    /// whole, in the configured style).
    func schemaRendering(_ schema: GenerationSchema) -> (text: String, detail: SchemaPromptDetail?) {
        if forcedSchemaDetail == .bounded {
            return (
                schema.boundedPromptDescription(budget: schemaTokenBudget ?? SchemaPromptDetail.standardTokenBudget, tokenCount: countTokens),
                .bounded
            )
        }
        if let forcedSchemaDetail { return (schema.promptDescription(detail: forcedSchemaDetail), forcedSchemaDetail) }
        guard let budget = schemaTokenBudget else { return (schema.promptDescription(style: schemaStyle), nil) }
        return schema.promptRendering(style: schemaStyle, budget: budget, tokenCount: countTokens)
    }

    /// The model input for generating the next assistant turn.
    func prompt(for transcript: Transcript) throws -> String {
        try model.applyChatTemplate(messages(for: transcript), addAssistantPrefix: true)
    }

    /// The model input up to the end of the last entry's text, without the
    /// template's closing of that turn: what `prewarm(promptPrefix:)`
    /// evaluates, so a prompt that starts with the prefix reuses it.
    func openPrefix(for transcript: Transcript) throws -> String {
        let messages = messages(for: transcript)
        let rendered = try model.applyChatTemplate(messages, addAssistantPrefix: false)
        guard let last = messages.last, !last.content.isEmpty,
            let range = rendered.range(of: last.content, options: .backwards)
        else {
            return rendered
        }
        return String(rendered[..<range.upperBound])
    }

    static func tokens(of text: String, vocabulary: LlamaVocabulary) throws -> [LlamaToken] {
        try vocabulary.tokenize(text, addSpecial: true, parseSpecial: true)
    }
}
#endif
