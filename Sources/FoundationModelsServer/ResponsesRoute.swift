import FoundationModels
import Hummingbird

extension ChatCompletionsServer {

    /// `POST /v1/responses`: the chat machinery's answer in the Responses
    /// API's wire format (``ResponsesRequest``, ``ResponsesWire``).
    func responses(_ request: Request) async -> Response {
        let start = ContinuousClock.now
        let parsed: ResponsesRequest
        let served: ServedModel
        do {
            let body = try await self.body(of: request)
            parsed = try ResponsesRequest(json: body, limits: limits)
            served = try self.served(parsed.chat.model)
        } catch {
            return Self.error(error)
        }
        let completion = ChatCompletion(model: served.model, modelName: served.name, observer: .init(metrics, start: start))
        let events = completion.events(for: parsed.chat)
        let modelName = served.name
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
