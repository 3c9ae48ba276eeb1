import Foundation
import LlamaKit

/// How a transcript becomes the model's input: chat messages rendered by the
/// model's own chat template, then tokens.
///
/// Instructions are the system turn, prompts user turns, responses assistant
/// turns; tool calls and outputs are written as JSON in assistant and tool
/// turns. Rendering is deterministic, so the tokens of an earlier request are
/// a prefix of the next one's and its KV cache can be reused.
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
            let rendered = calls.map { "{\"name\":\(GeneratedContent($0.toolName).jsonString),\"arguments\":\($0.arguments.jsonString)}" }
            return .assistant(rendered.joined(separator: "\n"))
        case .toolOutput(let output):
            return LlamaChatMessage(role: "tool", content: output.segments.renderedText)
        case .reasoning:
            return nil
        }
    }

    /// The instructions, followed by the definitions of the session's tools
    /// (name, description and JSON Schema of the arguments).
    static func systemText(_ instructions: Transcript.Instructions) -> String {
        let text = instructions.segments.renderedText
        guard !instructions.toolDefinitions.isEmpty else { return text }
        let tools = instructions.toolDefinitions.map { tool in
            "- \(tool.name): \(tool.description) Arguments: \(tool.parameters.jsonSchema.jsonString)"
        }
        return (text.isEmpty ? "" : text + "\n\n") + "Tools you can call:\n" + tools.joined(separator: "\n")
    }

    /// The prompt's text, followed by the description of its response
    /// schema when the request asked for it (`includeSchemaInPrompt`). Both
    /// are stored in the transcript, so a later turn renders this one the
    /// same way and reuses its cached tokens.
    static func userText(_ prompt: Transcript.Prompt) -> String {
        let text = prompt.segments.renderedText
        guard let format = prompt.responseFormat, prompt.contextOptions.includeSchemaInPrompt else { return text }
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
