import Foundation
import GuidedGeneration
import LlamaKit

/// How a transcript becomes the model's input: chat messages rendered by the
/// model's own chat template, then tokens.
///
/// Instructions are the system turn, prompts user turns, responses assistant
/// turns; tool calls are written as the block the model generates them in
/// (see ``ToolCallRouter``) and outputs as tool turns. Rendering is
/// deterministic, so the tokens of an earlier request are a prefix of the
/// next one's and its KV cache can be reused.
enum ChatRendering {
    static func messages(for transcript: Transcript) -> [LlamaChatMessage] {
        transcript.compactMap(message(for:))
    }

    static func message(for entry: Transcript.Entry) -> LlamaChatMessage? {
        switch entry {
        case .instructions(let instructions):
            return .system(systemText(instructions))
        case .prompt(let prompt):
            return .user(userText(prompt))
        case .response(let response):
            return .assistant(response.segments.renderedText)
        case .toolCalls(let calls):
            return .assistant(ToolCallRouter.block(calls.map { ToolCallRouter.Call(name: $0.toolName, arguments: $0.arguments.jsonString) }))
        case .toolOutput(let output):
            return LlamaChatMessage(role: "tool", content: output.segments.renderedText)
        case .reasoning:
            return nil
        }
    }

    /// The instructions, followed by the session's tools (name, description,
    /// arguments) and how to call them: a block in the very format the turn
    /// grammar enforces, so the model is told what it will be held to.
    /// (SmolLM2's chat template, like most small models', has no tool
    /// format of its own, so tools travel in the system turn.)
    static func systemText(_ instructions: Transcript.Instructions) -> String {
        let text = instructions.segments.renderedText
        guard !instructions.toolDefinitions.isEmpty else { return text }
        let format = ToolCallFormat.toolCallTags
        let tools = instructions.toolDefinitions.map(\.promptDescription)
        let usage = "To call tools, reply with only \(format.open)[{\"name\":\"<tool name>\",\"arguments\":{…}}]\(format.close). "
            + "Each tool's output comes back to you; then answer."
        return (text.isEmpty ? "" : text + "\n\n") + "Tools:\n" + tools.joined(separator: "\n") + "\n" + usage
    }

    /// The prompt's text, followed by the description of its response
    /// schema when the request asked for it (`includeSchemaInPrompt`). Both
    /// are stored in the transcript, so a later turn renders this one the
    /// same way and reuses its cached tokens.
    static func userText(_ prompt: Transcript.Prompt) -> String {
        let text = prompt.segments.renderedText
        guard let format = prompt.responseFormat, prompt.contextOptions.includeSchemaInPrompt != false else { return text }
        return (text.isEmpty ? "" : text + "\n\n") + format.schema.promptDescription
    }

    /// The model input for generating the next assistant turn.
    static func prompt(for transcript: Transcript, model: LlamaModel) throws -> String {
        try model.applyChatTemplate(messages(for: transcript), addAssistantPrefix: true)
    }

    /// The model input up to the end of the last entry's text, without the
    /// template's closing of that turn: what `prewarm(promptPrefix:)`
    /// evaluates, so a prompt that starts with the prefix reuses it.
    static func openPrefix(for transcript: Transcript, model: LlamaModel) throws -> String {
        let messages = messages(for: transcript)
        let rendered = try model.applyChatTemplate(messages, addAssistantPrefix: false)
        guard let last = messages.last, !last.content.isEmpty,
              let range = rendered.range(of: last.content, options: .backwards) else {
            return rendered
        }
        return String(rendered[..<range.upperBound])
    }

    static func tokens(of text: String, vocabulary: LlamaVocabulary) throws -> [LlamaToken] {
        try vocabulary.tokenize(text, addSpecial: true, parseSpecial: true)
    }
}
