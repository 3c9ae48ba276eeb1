#if LlamaCpp && DataAttachments
import Foundation
import LlamaKit

extension ChatRendering {
    /// A data entry (Apple 27.2) as the model reads it: a user turn that
    /// names the content type, then the bytes as text. The in-process model
    /// takes only textual types (``SystemLanguageModel/supportsDataEntryType(_:)``),
    /// so the bytes are text; chat templates have no role for data, and a
    /// user turn is the one every template renders. Other types never get
    /// here: the session refuses them before the executor is called.
    static func dataEntryMessage(_ entry: Transcript.DataEntry) -> LlamaChatMessage? {
        guard TextualContentType.isTextual(entry.contentType) else { return nil }
        return .user("Data (\(entry.contentType.identifier)):\n" + String(decoding: entry.content, as: UTF8.self))
    }
}
#endif
