import Foundation

extension Transcript.Segment {
    /// The segment as text for a model that reads text: the text itself,
    /// structured content as JSON, an attachment as a short placeholder.
    package var text: String {
        switch self {
        case .text(let segment): segment.content
        case .structure(let segment): segment.content.jsonString
        case .attachment(let segment): segment.description
        }
    }
}

extension Sequence<Transcript.Segment> {
    /// The segments as text, joined by newlines.
    package var renderedText: String {
        map(\.text).joined(separator: "\n")
    }
}

extension Transcript.Entry {
    /// The entry's segments (tool calls have none: their arguments are
    /// structured content of their own).
    package var segments: [Transcript.Segment] {
        switch self {
        case .instructions(let value): value.segments
        case .prompt(let value): value.segments
        case .toolCalls: []
        case .toolOutput(let value): value.segments
        case .response(let value): value.segments
        case .reasoning(let value): value.segments
        #if DataAttachments
        case .data: []
        #endif
        }
    }

    /// The entry's content as text.
    package var text: String {
        switch self {
        case .toolCalls(let calls): calls.map(\.description).joined(separator: "\n")
        default: segments.renderedText
        }
    }
}

extension GenerationSchema {
    /// Whether two schemas describe the same thing, judged by their JSON
    /// Schema form (the schema type itself is not `Equatable`).
    package static func sameSchema(_ lhs: GenerationSchema, _ rhs: GenerationSchema) -> Bool {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let left = try? encoder.encode(lhs), let right = try? encoder.encode(rhs) else {
            return false
        }
        return left == right
    }
}
