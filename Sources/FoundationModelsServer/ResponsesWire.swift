import Foundation
import FoundationModels

/// The Responses API's wire format for one answer: the response object
/// (its output items: a `message` with `output_text`, and `function_call`s)
/// and, streamed, OpenAI's typed events, numbered in order.
///
/// The answer itself comes from ``ChatCompletion``'s events, as the chat
/// route's does; this type only writes them down. It is a class because a
/// stream's events are numbered and its items opened and closed as the
/// answer grows, by the one task that writes the body.
final class ResponsesWire {
    let request: ResponsesRequest
    let modelName: String
    let id = "resp_" + ChatCompletion.randomID()
    let createdAt = Int(Date().timeIntervalSince1970)
    private let messageID = "msg_" + ChatCompletion.randomID()

    /// The items written so far, and the text of the message still open.
    private var output: [GeneratedContent] = []
    private var text: String?
    private var sequenceNumber = 0
    /// With `include: ["message.output_text.logprobs"]`: the open message's
    /// tokens, and those not yet carried by a delta event.
    private var logProbabilities: [TokenLogProbability] = []
    private var pendingLogProbabilities: [TokenLogProbability] = []
    private var recordsLogProbabilities: Bool { request.chat.logProbabilities != nil }

    init(request: ResponsesRequest, modelName: String) {
        self.request = request
        self.modelName = modelName
    }

    // MARK: The response object

    /// The response object: `in_progress` with nothing yet, or the whole
    /// answer, `completed` or (cut at `max_output_tokens`) `incomplete`.
    func response(reason: String?, usage: LanguageModelSession.Usage?) -> GeneratedContent {
        let null = ChatCompletionsServer.null
        let status = reason == nil ? "in_progress" : reason == "length" ? "incomplete" : "completed"
        let chat = request.chat
        return WireJSON.object([
            ("id", WireJSON.string(id)),
            ("object", WireJSON.string("response")),
            ("created_at", WireJSON.number(createdAt)),
            ("status", WireJSON.string(status)),
            ("background", WireJSON.bool(false)),
            ("error", null),
            ("incomplete_details", status == "incomplete" ? WireJSON.object([("reason", WireJSON.string("max_output_tokens"))]) : null),
            ("instructions", request.instructions.map(WireJSON.string) ?? null),
            ("max_output_tokens", request.maximumOutputTokens.map(WireJSON.number) ?? null),
            ("metadata", request.metadata),
            ("model", WireJSON.string(modelName)),
            ("output", WireJSON.array(reason == nil ? [] : output)),
            ("parallel_tool_calls", WireJSON.bool(request.parallelToolCalls)),
            ("previous_response_id", null),
            ("reasoning", WireJSON.object([("effort", null), ("summary", null)])),
            ("store", WireJSON.bool(false)),
            ("temperature", chat.temperature.map(WireJSON.number) ?? WireJSON.number(1)),
            ("text", WireJSON.object([("format", request.textFormat)])),
            ("tool_choice", request.toolChoice),
            ("tools", request.tools),
            ("top_logprobs", request.topLogProbabilities.map(WireJSON.number) ?? null),
            ("top_p", chat.topP.map(WireJSON.number) ?? WireJSON.number(1)),
            ("truncation", WireJSON.string("disabled")),
            ("usage", usage.map(Self.usage) ?? null),
            ("user", request.user.map(WireJSON.string) ?? null),
        ])
    }

    static func usage(_ usage: LanguageModelSession.Usage) -> GeneratedContent {
        let input = usage.input.totalTokenCount, output = usage.output.totalTokenCount
        return WireJSON.object([
            ("input_tokens", WireJSON.number(input)),
            ("input_tokens_details", WireJSON.object([("cached_tokens", WireJSON.number(usage.input.cachedTokenCount))])),
            ("output_tokens", WireJSON.number(output)),
            ("output_tokens_details", WireJSON.object([("reasoning_tokens", WireJSON.number(0))])),
            ("total_tokens", WireJSON.number(input + output)),
        ])
    }

    private func message(_ text: String, done: Bool) -> GeneratedContent {
        WireJSON.object([
            ("id", WireJSON.string(messageID)),
            ("type", WireJSON.string("message")),
            ("status", WireJSON.string(done ? "completed" : "in_progress")),
            ("role", WireJSON.string("assistant")),
            ("content", WireJSON.array(done ? [part(text, logProbabilities: logProbabilities)] : [])),
        ])
    }

    /// An `output_text` part, with its tokens' `logprobs` where they were asked for.
    private func part(_ text: String, logProbabilities: [TokenLogProbability] = []) -> GeneratedContent {
        WireJSON.object(
            [("type", WireJSON.string("output_text")), ("text", WireJSON.string(text)), ("annotations", WireJSON.array([]))]
                + (recordsLogProbabilities ? [("logprobs", ChatCompletionsServer.logProbabilityList(logProbabilities))] : []))
    }

    /// An event's `logprobs`: `values`, empty where none were asked for.
    private func eventLogProbabilities(_ values: [TokenLogProbability]) -> GeneratedContent {
        ChatCompletionsServer.logProbabilityList(recordsLogProbabilities ? values : [])
    }

    private static func call(_ call: Transcript.ToolCall, done: Bool) -> GeneratedContent {
        let callID = ChatCompletionsServer.callID(call.id)
        return WireJSON.object([
            ("id", WireJSON.string("fc_" + callID.replacingOccurrences(of: "call_", with: ""))),
            ("type", WireJSON.string("function_call")),
            ("status", WireJSON.string(done ? "completed" : "in_progress")),
            ("arguments", WireJSON.string(done ? call.arguments.jsonString : "")),
            ("call_id", WireJSON.string(callID)),
            ("name", WireJSON.string(call.toolName)),
        ])
    }

    // MARK: Building the answer

    /// The events `event` adds to a stream (none for a collected answer,
    /// which reads ``response(reason:usage:)`` at the end), each the SSE
    /// event's name and data.
    func events(for event: ChatCompletion.Event) -> [(String, GeneratedContent)] {
        switch event {
        case .logProbabilities(let values):
            // Carried by the next piece of text (the tokens before it),
            // and by the message's part.
            pendingLogProbabilities += values
            return []
        case .delta(let delta):
            var events: [(String, GeneratedContent)] = []
            if text == nil {
                text = ""
                events.append(("response.output_item.added", item(message("", done: false))))
                events.append(("response.content_part.added", inPart([("part", part(""))])))
            }
            text? += delta
            let carried = pendingLogProbabilities
            logProbabilities += carried
            pendingLogProbabilities = []
            events.append(
                ("response.output_text.delta", inPart([("delta", WireJSON.string(delta)), ("logprobs", eventLogProbabilities(carried))])))
            return events
        case .toolCalls(let calls):
            var events = closeMessage()
            for call in calls {
                let itemID = "fc_" + ChatCompletionsServer.callID(call.id).replacingOccurrences(of: "call_", with: "")
                let index = output.count
                let arguments = call.arguments.jsonString
                events.append(("response.output_item.added", item(Self.call(call, done: false), at: index)))
                // Whole, in one piece: the arguments are complete JSON once the grammar has closed them.
                events.append(
                    (
                        "response.function_call_arguments.delta",
                        WireJSON.object([
                            ("item_id", WireJSON.string(itemID)), ("output_index", WireJSON.number(index)), ("delta", WireJSON.string(arguments)),
                        ])
                    ))
                events.append(
                    (
                        "response.function_call_arguments.done",
                        WireJSON.object([
                            ("item_id", WireJSON.string(itemID)), ("output_index", WireJSON.number(index)),
                            ("name", WireJSON.string(call.toolName)), ("arguments", WireJSON.string(arguments)),
                        ])
                    ))
                let done = Self.call(call, done: true)
                output.append(done)
                events.append(("response.output_item.done", item(done, at: index)))
            }
            return events
        case .finished(let reason, let usage):
            var events = closeMessage()
            let name = reason == "length" ? "response.incomplete" : "response.completed"
            events.append((name, WireJSON.object([("response", response(reason: reason, usage: usage))])))
            return events
        }
    }

    /// The first events of a stream: the response, created and in progress.
    func opening() -> [(String, GeneratedContent)] {
        let response = WireJSON.object([("response", response(reason: nil, usage: nil))])
        return [("response.created", response), ("response.in_progress", response)]
    }

    /// A failure after the stream began: OpenAI's `error` event.
    func failure(_ error: APIError) -> (String, GeneratedContent) {
        let null = ChatCompletionsServer.null
        return (
            "error",
            WireJSON.object([
                ("code", error.code.map(WireJSON.string) ?? WireJSON.string(error.type)),
                ("message", WireJSON.string(error.message)),
                ("param", error.param.map(WireJSON.string) ?? null),
            ])
        )
    }

    /// One SSE event: its name, and its data with `type` and `sequence_number`.
    func sse(_ event: (String, GeneratedContent)) -> String {
        defer { sequenceNumber += 1 }
        guard case .structure(let fields, let order) = event.1.kind else { return "" }
        let data = WireJSON.object(
            [("type", WireJSON.string(event.0)), ("sequence_number", WireJSON.number(sequenceNumber))]
                + order.map { ($0, fields[$0]) }
        )
        return "event: \(event.0)\ndata: \(data.jsonString)\n\n"
    }

    /// The message, if one is open, done: its text, part and item.
    private func closeMessage() -> [(String, GeneratedContent)] {
        guard let text else { return [] }
        self.text = nil
        // The last tokens (a piece of text the answer's end flushed).
        logProbabilities += pendingLogProbabilities
        pendingLogProbabilities = []
        defer { logProbabilities = [] }
        let done = message(text, done: true)
        let index = output.count
        output.append(done)
        return [
            (
                "response.output_text.done",
                inPart([("text", WireJSON.string(text)), ("logprobs", eventLogProbabilities(logProbabilities))], at: index)
            ),
            ("response.content_part.done", inPart([("part", part(text, logProbabilities: logProbabilities))], at: index)),
            ("response.output_item.done", item(done, at: index)),
        ]
    }

    private func item(_ item: GeneratedContent, at index: Int? = nil) -> GeneratedContent {
        WireJSON.object([("output_index", WireJSON.number(index ?? output.count)), ("item", item)])
    }

    private func inPart(_ fields: [(String, GeneratedContent?)], at index: Int? = nil) -> GeneratedContent {
        WireJSON.object(
            [
                ("item_id", WireJSON.string(messageID)), ("output_index", WireJSON.number(index ?? output.count)),
                ("content_index", WireJSON.number(0)),
            ] + fields)
    }

    /// The whole answer, for a request that did not stream: every event
    /// folded in, then the response object (nil: it never finished).
    func collected(_ events: [ChatCompletion.Event]) -> String? {
        var final: GeneratedContent?
        for event in events {
            _ = self.events(for: event)
            if case .finished(let reason, let usage) = event { final = response(reason: reason, usage: usage) }
        }
        return final?.jsonString
    }
}
