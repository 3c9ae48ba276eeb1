import Foundation

extension Transcript {
    /// One entry of a transcript.
    ///
    /// The cases mirror who said what: the developer's instructions, the
    /// user's prompt, the model's tool calls, a tool's output, the model's
    /// reasoning and its response.
    public enum Entry: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// Instructions, typically provided by you, the developer.
        case instructions(Transcript.Instructions)
        /// A prompt, typically sourced from an end user.
        case prompt(Transcript.Prompt)
        /// Tool calls the model asked for.
        case toolCalls(Transcript.ToolCalls)
        /// A tool's output, fed back to the model.
        case toolOutput(Transcript.ToolOutput)
        /// A response from the model.
        case response(Transcript.Response)
        /// Reasoning from the model.
        case reasoning(Transcript.Reasoning)
        #if DataAttachments
        /// A top-level data entry (Apple 27.2): bytes and a content type a
        /// model produced or was given. Apple documents the case by name
        /// only (`Transcript.Entry.data`); its payload is taken to be
        /// ``Transcript/DataEntry``, as `Attachment.data` carries a
        /// ``Transcript/DataAttachment``. Under the `DataAttachments` trait,
        /// so the shipped SDK's exhaustive switches compile with it off.
        case data(Transcript.DataEntry)
        #endif

        /// The identifier of the wrapped entry.
        public var id: String {
            switch self {
            case .instructions(let value): value.id
            case .prompt(let value): value.id
            case .toolCalls(let value): value.id
            case .toolOutput(let value): value.id
            case .response(let value): value.id
            case .reasoning(let value): value.id
            #if DataAttachments
            case .data(let value): value.id
            #endif
            }
        }

        public var description: String {
            switch self {
            case .instructions(let value): value.description
            case .prompt(let value): value.description
            case .toolCalls(let value): value.description
            case .toolOutput(let value): value.description
            case .response(let value): value.description
            case .reasoning(let value): value.description
            #if DataAttachments
            case .data(let value): value.description
            #endif
            }
        }
    }
}
