import FoundationModels
import Hummingbird

extension ChatCompletionsServer {

    /// `POST /v1/responses`: the chat machinery's answer in the Responses
    /// API's wire format (``ResponsesRequest``, ``ResponsesWire``).
    func responses(_ request: Request) async -> Response {
        let prepared: Prepared<ResponsesRequest>
        do {
            prepared = try await prepare(request)
        } catch {
            return Self.error(error)
        }
        let (parsed, completion) = (prepared.request, prepared.completion)
        let events = completion.events(for: parsed.chat)
        let modelName = completion.modelName
        if !parsed.chat.stream {
            return await collect(events) { events in
                ResponsesWire(request: parsed, modelName: modelName).collected(events)
            }
        }
        return await stream(events) { events, write in
            let wire = ResponsesWire(request: parsed, modelName: modelName)
            for event in wire.opening() { try await write(wire.sse(event)) }
            do {
                for try await event in events {
                    for written in wire.events(for: event) { try await write(wire.sse(written)) }
                }
            } catch let error where !(error is CancellationError) {
                try await write(wire.sse(wire.failure(APIError.from(error, gateway: configuration.isGateway))))
            }
        }
    }
}
