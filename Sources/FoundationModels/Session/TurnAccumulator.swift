import Foundation

/// Folds the events of one executor call into the entries they describe:
/// reasoning entries (text, signature, metadata), the response (text
/// segments, attachments, metadata) or the tool calls (arguments, metadata),
/// and the turn's usage.
///
/// Executors send deltas; the session needs the accumulated state after each
/// one (for snapshots) and at the end (for the transcript). An event with an
/// `entryID` addresses the entry with that id (opening it); one without
/// addresses the entry of its kind the turn opened last (or opens one).
/// Usage and metadata reports replace earlier ones, as the contract says.
struct TurnAccumulator {
    /// One segment of a response or reasoning entry, in the order segments
    /// were opened. A segment the executor did not name gets an id when it
    /// is opened, so snapshots and the transcript agree.
    enum Segment {
        case text(id: String, text: String)
        case attachment(Transcript.AttachmentSegment)

        var id: String {
            switch self {
            case .text(let id, _): id
            case .attachment(let segment): segment.id
            }
        }
    }

    /// A response or reasoning entry being built.
    struct TextEntry {
        var id = UUID().uuidString
        var segments: [Segment] = []
        var metadata: [String: GeneratedContent] = [:]
        var signature: Data?
    }

    /// One tool call, in the order calls were opened.
    struct ToolCall {
        var id: String
        var name: String
        var arguments: String
        var metadata: [String: GeneratedContent]?
    }

    private(set) var response = TextEntry()
    private(set) var reasoning: [TextEntry] = []
    private(set) var toolCalls: [ToolCall] = []
    private(set) var toolCallsEntryID = UUID().uuidString
    /// Whether the response or tool-calls entry took its id from an event
    /// (the first explicit id wins).
    private var responseIDIsExplicit = false
    private var toolCallsIDIsExplicit = false
    private var toolCallsMetadata: [String: GeneratedContent] = [:]
    /// The latest usage report, whichever entry it came with: each report
    /// covers the whole turn and replaces the one before.
    private(set) var usageReport: LanguageModelExecutorGenerationChannel.Usage?
    #if DataAttachments
    /// The data entries the executor wrote this turn (Apple 27.2), in the
    /// order they were first sent; they go into the transcript after the
    /// turn's reasoning.
    private(set) var dataEntries: [Transcript.DataEntry] = []
    #endif

    /// The response text so far: all text segments, in order. Kept up to
    /// date as deltas arrive (appending to the last segment is the common
    /// case), so a snapshot per token does not re-join the whole response.
    private(set) var text = ""

    /// Applies one event; returns whether the response text changed.
    mutating func apply(_ event: LanguageModelExecutorGenerationChannel.Event) -> Bool {
        switch event.kind {
        case .response(let response):
            if let id = response.entryID, !responseIDIsExplicit {
                self.response.id = id
                responseIDIsExplicit = true
            }
            switch response.action.storage {
            case .appendText(let fragment):
                let changed = Self.append(fragment.content, to: fragment.segmentID, in: &self.response.segments)
                if changed == self.response.segments.count - 1 { text += fragment.content } else { rejoin() }
                return !fragment.content.isEmpty
            case .replaceTextSegment(let replacement):
                Self.replace(replacement.content, in: replacement.segmentID, of: &self.response.segments)
                rejoin()
                return true
            case .addAttachmentSegment(let segment):
                self.response.segments.append(.attachment(segment))
                return false
            case .removeAttachmentSegment(let id):
                self.response.segments.removeAll { if case .attachment(let segment) = $0 { segment.id == id } else { false } }
                return false
            case .updateMetadata(let metadata):
                self.response.metadata = metadata.values
                return false
            case .updateUsage(let usage):
                usageReport = usage
                return false
            }
        case .reasoning(let reasoning):
            let index = reasoningEntry(for: reasoning.entryID)
            switch reasoning.action.storage {
            case .appendText(let fragment):
                Self.append(fragment.content, to: fragment.segmentID, in: &self.reasoning[index].segments)
            case .replaceTextSegment(let replacement):
                Self.replace(replacement.content, in: replacement.segmentID, of: &self.reasoning[index].segments)
            case .updateSignature(let signature):
                self.reasoning[index].signature = signature.signature
            case .updateMetadata(let metadata):
                self.reasoning[index].metadata = metadata.values
            case .updateUsage(let usage):
                usageReport = usage
            }
            return false
        case .toolCalls(let calls):
            if let id = calls.entryID, !toolCallsIDIsExplicit {
                toolCallsEntryID = id
                toolCallsIDIsExplicit = true
            }
            switch calls.action.storage {
            case .toolCall(let call):
                let index: Int
                if let existing = toolCalls.firstIndex(where: { $0.id == call.id }) {
                    index = existing
                } else {
                    toolCalls.append(ToolCall(id: call.id, name: call.name, arguments: "", metadata: nil))
                    index = toolCalls.count - 1
                }
                switch call.action.storage {
                case .appendArguments(let fragment):
                    toolCalls[index].arguments += fragment.content
                case .updateMetadata(let metadata):
                    toolCalls[index].metadata = metadata.values
                }
            case .removeToolCall(let id):
                toolCalls.removeAll { $0.id == id }
            case .updateMetadata(let metadata):
                toolCallsMetadata = metadata.values
            case .updateUsage(let usage):
                usageReport = usage
            }
            return false
        #if DataAttachments
        case .data(let event):
            switch event.action.storage {
            case .update(let update):
                let entry = Transcript.DataEntry(
                    id: event.entryID ?? UUID().uuidString,
                    contentType: update.contentType,
                    content: update.content,
                    metadata: update.metadata
                )
                // Upsert: the entry with the same id is replaced where it stands.
                if let index = dataEntries.firstIndex(where: { $0.id == entry.id }) {
                    dataEntries[index] = entry
                } else {
                    dataEntries.append(entry)
                }
            }
            return false
        #endif
        }
    }

    /// The reasoning entry an event addresses, opened if needed.
    private mutating func reasoningEntry(for entryID: String?) -> Int {
        if let entryID {
            if let index = reasoning.firstIndex(where: { $0.id == entryID }) { return index }
            reasoning.append(TextEntry(id: entryID))
        } else if reasoning.isEmpty {
            reasoning.append(TextEntry())
        }
        return reasoning.count - 1
    }

    /// Appends to segment `segmentID` (opening it), or to the last text
    /// segment; returns the index of the segment that changed.
    @discardableResult
    private static func append(_ delta: String, to segmentID: String?, in segments: inout [Segment]) -> Int {
        if let segmentID {
            if let index = segments.firstIndex(where: { $0.id == segmentID }), case .text(let id, let text) = segments[index] {
                segments[index] = .text(id: id, text: text + delta)
                return index
            }
            segments.append(.text(id: segmentID, text: delta))
            return segments.count - 1
        }
        if let last = segments.indices.last, case .text(let id, let text) = segments[last] {
            segments[last] = .text(id: id, text: text + delta)
            return last
        }
        segments.append(.text(id: UUID().uuidString, text: delta))
        return segments.count - 1
    }

    /// Replaces the text of segment `segmentID` (opening it), or of the last text segment.
    private static func replace(_ text: String, in segmentID: String?, of segments: inout [Segment]) {
        let index =
            segmentID.flatMap { id in segments.firstIndex { $0.id == id } }
            ?? (segmentID == nil ? segments.lastIndex { if case .text = $0 { true } else { false } } : nil)
        if let index, case .text(let id, _) = segments[index] {
            segments[index] = .text(id: id, text: text)
        } else {
            segments.append(.text(id: segmentID ?? UUID().uuidString, text: text))
        }
    }

    private mutating func rejoin() {
        text = response.segments.map { if case .text(_, let text) = $0 { text } else { "" } }.joined()
    }

    /// This turn's usage.
    var usage: LanguageModelSession.Usage {
        usageReport.map(LanguageModelSession.Usage.init) ?? LanguageModelSession.Usage()
    }

    // MARK: Transcript entries

    /// The reasoning entries of the turn, in the order they were opened.
    var reasoningEntries: [Transcript.Entry] {
        reasoning.map { entry in
            .reasoning(
                Transcript.Reasoning(
                    id: entry.id,
                    metadata: entry.metadata,
                    segments: Self.transcriptSegments(entry.segments),
                    signature: entry.signature
                ))
        }
    }

    /// The tool calls as transcript calls, with the entry's metadata under
    /// each call's own.
    func transcriptToolCalls(arguments: [GeneratedContent]) -> Transcript.ToolCalls {
        let calls = zip(toolCalls, arguments).map { call, arguments in
            Transcript.ToolCall(
                id: call.id,
                metadata: toolCallsMetadata.merging(call.metadata ?? [:]) { _, own in own },
                toolName: call.name,
                arguments: arguments
            )
        }
        return Transcript.ToolCalls(id: toolCallsEntryID, calls)
    }

    /// The response entry: its text as the executor segmented it (or
    /// `content` as one structured segment for a typed response), its
    /// attachments, and its metadata.
    func responseEntry(structured content: GeneratedContent?, schemaName: String) -> Transcript.Response {
        var segments: [Transcript.Segment]
        if let content {
            segments = [.structure(Transcript.StructuredSegment(source: schemaName, content: content))]
            segments += response.segments.compactMap { if case .attachment(let segment) = $0 { .attachment(segment) } else { nil } }
        } else {
            segments = Self.transcriptSegments(response.segments)
            if segments.isEmpty { segments = [.text(Transcript.TextSegment(content: ""))] }
        }
        return Transcript.Response(id: response.id, metadata: response.metadata, segments: segments)
    }

    private static func transcriptSegments(_ segments: [Segment]) -> [Transcript.Segment] {
        segments.map { segment in
            switch segment {
            case .text(let id, let text): .text(Transcript.TextSegment(id: id, content: text))
            case .attachment(let attachment): .attachment(attachment)
            }
        }
    }
}
