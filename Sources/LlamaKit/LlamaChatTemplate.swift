import CLlama
import Foundation

/// One turn of a conversation, as chat templates see it.
package struct LlamaChatMessage: Sendable, Equatable {
    /// "system", "user" or "assistant".
    package var role: String
    package var content: String

    package init(role: String, content: String) {
        self.role = role
        self.content = content
    }

    package static func system(_ content: String) -> Self { .init(role: "system", content: content) }
    package static func user(_ content: String) -> Self { .init(role: "user", content: content) }
    package static func assistant(_ content: String) -> Self { .init(role: "assistant", content: content) }
}

/// `llama_chat_apply_template`: llama.cpp recognizes the common template
/// families (ChatML, Llama 3, Gemma, ...) from the template's source; it does
/// not run arbitrary Jinja.
package enum LlamaChatTemplate {
    /// Renders `messages` with `template` (a model's Jinja source, or a
    /// built-in name such as "chatml").
    /// - Parameter addAssistantPrefix: end with the tokens that open the assistant's turn.
    /// - Throws: `LlamaError.chatTemplateUnavailable` when llama.cpp does not
    ///   recognize the template.
    package static func apply(template: String, messages: [LlamaChatMessage], addAssistantPrefix: Bool = true) throws -> String {
        LlamaBackend.initialize()
        // C copies of every string, alive for the duration of the calls.
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer { strings.forEach { free($0) } }
        func copy(_ string: String) -> UnsafePointer<CChar> {
            let pointer = strdup(string)!
            strings.append(pointer)
            return UnsafePointer(pointer)
        }
        let chat = messages.map { llama_chat_message(role: copy($0.role), content: copy($0.content)) }
        let templateCopy = copy(template)
        let totalLength = messages.reduce(0) { $0 + $1.role.utf8.count + $1.content.utf8.count }
        var buffer = [CChar](repeating: 0, count: 2 * totalLength + 512)
        var length = llama_chat_apply_template(templateCopy, chat, chat.count, addAssistantPrefix, &buffer, Int32(buffer.count))
        if length < 0 {
            throw LlamaError.chatTemplateUnavailable("llama.cpp does not support this chat template")
        }
        if Int(length) > buffer.count {
            buffer = [CChar](repeating: 0, count: Int(length))
            length = llama_chat_apply_template(templateCopy, chat, chat.count, addAssistantPrefix, &buffer, Int32(buffer.count))
            if length < 0 || Int(length) > buffer.count {
                throw LlamaError.chatTemplateUnavailable("llama_chat_apply_template returned \(length)")
            }
        }
        return string(from: buffer, length: Int(length))
    }

    /// The names of the templates llama.cpp has built in ("chatml", "llama3", ...).
    package static var builtinNames: [String] {
        LlamaBackend.initialize()
        let count = llama_chat_builtin_templates(nil, 0)
        guard count > 0 else { return [] }
        var names = [UnsafePointer<CChar>?](repeating: nil, count: Int(count))
        let written = llama_chat_builtin_templates(&names, names.count)
        return names.prefix(Int(max(0, written))).compactMap { $0.map { String(cString: $0) } }
    }
}
