/// Folds the events of one executor call into the text and tool calls they
/// describe.
///
/// Executors send deltas; the session needs the accumulated state after each
/// one (for snapshots) and at the end (for the transcript). Usage reports
/// replace earlier ones, as the contract says.
struct TurnAccumulator {
    /// One text segment of the response, in the order segments were opened.
    struct TextSegment {
        var id: String?
        var text: String
    }

    /// One tool call, in the order calls were opened.
    struct ToolCall {
        var id: String
        var name: String
        var arguments: String
    }

    private(set) var segments: [TextSegment] = []
    private(set) var toolCalls: [ToolCall] = []
    /// The latest usage report, whichever entry it came with: each report
    /// covers the whole turn and replaces the one before.
    private(set) var usageReport: LanguageModelExecutorGenerationChannel.UsageReport?
    private(set) var reasoningText = ""

    /// The response text so far: all segments, in order. Kept up to date as
    /// deltas arrive (appending to the last segment is the common case), so
    /// a snapshot per token does not re-join the whole response.
    private(set) var text = ""

    /// Applies one event; returns whether the response text changed.
    mutating func apply(_ event: LanguageModelExecutorGenerationChannel.Event) -> Bool {
        switch event.kind {
        case .response(let response):
            switch response.action.storage {
            case .appendText(let delta, let segmentID, _):
                if let segmentID, let index = segments.firstIndex(where: { $0.id == segmentID }) {
                    segments[index].text += delta
                    if index == segments.count - 1 { text += delta } else { rejoin() }
                } else if segmentID != nil || segments.isEmpty {
                    segments.append(TextSegment(id: segmentID, text: delta))
                    text += delta
                } else {
                    segments[segments.count - 1].text += delta
                    text += delta
                }
                return !delta.isEmpty
            case .replaceTextSegment(let replacement, let segmentID, _):
                if let index = segments.firstIndex(where: { $0.id == segmentID }) {
                    segments[index].text = replacement
                } else {
                    segments.append(TextSegment(id: segmentID, text: replacement))
                }
                rejoin()
                return true
            case .updateMetadata:
                return false
            case .updateUsage(let report):
                usageReport = report
                return false
            }
        case .toolCalls(let calls):
            switch calls.action.storage {
            case .toolCall(let call):
                let index: Int
                if let existing = toolCalls.firstIndex(where: { $0.id == call.id }) {
                    index = existing
                } else {
                    toolCalls.append(ToolCall(id: call.id, name: call.name, arguments: ""))
                    index = toolCalls.count - 1
                }
                if case .appendArguments(let delta, _) = call.action.storage {
                    toolCalls[index].arguments += delta
                }
            case .removeToolCall(let id):
                toolCalls.removeAll { $0.id == id }
            case .updateUsage(let report):
                usageReport = report
            }
            return false
        case .reasoning(let reasoning):
            switch reasoning.action.storage {
            case .appendText(let delta, _, _):
                reasoningText += delta
            case .updateUsage(let report):
                usageReport = report
            case .updateSignature, .updateMetadata:
                break
            }
            return false
        }
    }

    private mutating func rejoin() {
        text = segments.map(\.text).joined()
    }

    /// This turn's usage.
    var usage: LanguageModelSession.Usage {
        var usage = LanguageModelSession.Usage()
        if let usageReport { usage.add(usageReport) }
        return usage
    }
}
