// Every request fm serve refuses before the model is asked, in process: the
// 400s naming the parameter (the chat and Responses readers' checks), 404
// for a model it does not serve, 413 beyond the body limit, a body that is
// not UTF-8. The model behind the router is scripted and never reached.

import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import FoundationModelsServer

@Suite("fm serve in process: refused requests")
struct RefusalTests {
    static let user = #"{"role": "user", "content": "Hi"}"#
    static let time = #"{"type": "function", "function": {"name": "get_time", "description": "The time now.", "parameters": {}}}"#
    static let unenforceable = #"{"type": "object", "properties": {"a": {"type": "array", "items": {"type": "object"}, "uniqueItems": true}}}"#

    /// fm_serve_client.py's malformed chat requests, each a 400 naming what is wrong.
    @Test(arguments: [
        (#"{"messages": [\#(user)], "n": 3}"#, "n"),
        (#"{"messages": [{"role": "robot", "content": "Hi"}]}"#, "messages[0].role"),
        (
            #"{"messages": [\#(user)], "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": \#(unenforceable)}}}"#,
            "response_format.json_schema.schema"
        ),
        (#"{"messages": [\#(user)], "temperature": 7}"#, "temperature"),
        (#"{"messages": [\#(user)], "top_logprobs": 2}"#, "top_logprobs"),
        (#"{"messages": [\#(user)], "logprobs": true, "top_logprobs": 21}"#, "top_logprobs"),
        (#"{"messages": [\#(user)], "logprobs": "yes"}"#, "logprobs"),
        (#"{"messages": "Hi"}"#, "messages"),
        (#"{"messages": []}"#, "messages"),
        (#"{"messages": [\#(user), {"role": "assistant", "content": "Hello"}]}"#, "messages[1].role"),
        (#"{"messages": [{"role": "user", "content": 42}]}"#, "messages[0].content"),
        (
            #"{"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "http://x/y.png"}}]}]}"#,
            "messages[0].content[0].type"
        ),
        (#"{"messages": [\#(user)], "tools": [{"type": "retrieval"}]}"#, "tools[0].type"),
        (#"{"messages": [\#(user)], "tools": [{"type": "function", "function": {"name": "get weather"}}]}"#, "tools[0].function.name"),
        (
            #"{"messages": [\#(user)], "tools": [{"type": "function", "function": {"name": "f", "parameters": \#(unenforceable)}}]}"#,
            "tools[0].function.parameters"
        ),
        (
            #"{"messages": [\#(user)], "tools": [\#(time)], "tool_choice": {"type": "function", "function": {"name": "nope"}}}"#,
            "tool_choice.function.name"
        ),
        (#"{"messages": [\#(user)], "tool_choice": "required"}"#, "tool_choice"),
        (
            #"{"messages": [\#(user), {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}]}, \#(user)], "tools": [\#(time)]}"#,
            "messages[2].role"
        ),
        (#"{"messages": [\#(user), {"role": "tool", "tool_call_id": "call_9", "content": "12:00"}]}"#, "messages[1].tool_call_id"),
        (
            #"{"messages": [\#(user), {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_time", "arguments": "{time"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "12:00"}]}"#,
            "messages[1].tool_calls[0].function.arguments"
        ),
        (#"{"messages": [\#(user)], "max_tokens": 0}"#, "max_tokens"),
        (#"{"messages": [\#(user)], "max_tokens": "many"}"#, "max_tokens"),
        (#"{"messages": [\#(user)], "top_p": 1.5}"#, "top_p"),
        (#"{"messages": [\#(user)], "stream_options": {"include_usage": true}}"#, "stream_options"),
        (#"{"messages": [\#(user)], "response_format": {"type": "xml"}}"#, "response_format.type"),
        (
            #"{"messages": [\#(user)], "response_format": {"type": "json_schema", "json_schema": {"name": "x"}}}"#,
            "response_format.json_schema.schema"
        ),
        (#"{"messages": [\#(user)], "temperatur": 0.5}"#, "temperatur"),
        (#"{"messages": [\#(user)], "stop": ["a", "b", "c", "d", "e"]}"#, "stop"),
        (#"{"messages": [{"content": "Hi"}]}"#, "messages[0].role"),
        (
            #"{"messages": [\#(user)], "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": {"$ref": "https://example.com/s.json"}}}}"#,
            "response_format.json_schema.schema"
        ),
    ])
    func aMalformedChatRequestIs400NamingTheParameter(body: String, param: String) async throws {
        let script = Script([])
        try await InProcessServer.test(model: ScriptedModel(script: script)) { client in
            let response = try await client.post("/v1/chat/completions", body)
            #expect(response.statusCode == 400, "\(response.text)")
            #expect(response.error?["param"] as? String == param, "\(response.text)")
            #expect(response.error?["type"] as? String == "invalid_request_error")
            #expect((response.error?["message"] as? String)?.isEmpty == false)
        }
        #expect(script.requests.isEmpty, "refused before the model is asked")
    }

    /// fm_serve_responses.py's refused requests, each naming what is wrong.
    @Test(arguments: [
        (#"{"input": "Hi", "previous_response_id": "resp_123"}"#, "previous_response_id"),
        (#"{"input": []}"#, "input"),
        (#"{"input": [\#(user), {"type": "function_call_output", "call_id": "call_9", "output": "x"}]}"#, "input[1].call_id"),
        (
            #"{"input": [\#(user), {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{}"}], "tools": [{"type": "function", "name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]}"#,
            "input"
        ),
        (#"{"input": [{"role": "user", "content": [{"type": "input_image", "image_url": "http://x/y.png"}]}]}"#, "input[0].content[0].type"),
        (#"{"input": "Hi", "text": {"format": {"type": "xml"}}}"#, "text.format.type"),
        (
            #"{"input": "Hi", "text": {"format": {"type": "json_schema", "name": "x", "schema": {"type": "array", "items": {"type": "object"}, "uniqueItems": true}}}}"#,
            "text.format.schema"
        ),
        (#"{"input": "Hi", "tool_choice": "required"}"#, "tool_choice"),
        (#"{"input": "Hi", "tools": [{"type": "web_search"}]}"#, "tools[0].type"),
        (#"{"input": "Hi", "max_output_tokens": 0}"#, "max_output_tokens"),
        (#"{"input": "Hi", "temperatur": 1}"#, "temperatur"),
        (#"{"input": "Hi", "top_logprobs": 21, "include": ["message.output_text.logprobs"]}"#, "top_logprobs"),
        (#"{"input": "Hi", "top_logprobs": -1}"#, "top_logprobs"),
        (#"{"input": "Hi", "include": ["file_search_call.results"]}"#, "include"),
    ])
    func aMalformedResponsesRequestIs400NamingTheParameter(body: String, param: String) async throws {
        try await InProcessServer.test { client in
            let response = try await client.post("/v1/responses", body)
            #expect(response.statusCode == 400, "\(response.text)")
            #expect(response.error?["param"] as? String == param, "\(response.text)")
        }
    }

    /// A body that is not JSON, or not an object, is refused the same way on both routes.
    @Test(arguments: ["/v1/chat/completions", "/v1/responses"])
    func aBodyThatIsNotAJSONObjectIs400(path: String) async throws {
        try await InProcessServer.test { client in
            let malformed = try await client.post(path, #"{"messages": ]}"#)
            #expect(malformed.statusCode == 400 && malformed.error?["code"] as? String == "invalid_json", "\(malformed.text)")
            #expect(malformed.error?["type"] as? String == "invalid_request_error")
            // A truncated body is not JSON either, though a parser of
            // streamed JSON would complete it.
            for truncated in [#"{"messages": ["#, #"{"model": "x", "messages": [{"role": "user", "content": "Hi"#, #"{"input": "Hi""#] {
                let response = try await client.post(path, truncated)
                #expect(response.statusCode == 400 && response.error?["code"] as? String == "invalid_json", "\(truncated): \(response.text)")
            }
            let array = try await client.post(path, "[1, 2]")
            #expect(array.statusCode == 400 && array.error?["message"] as? String == "The body must be a JSON object.", "\(array.text)")
        }
    }

    /// JSON is UTF-8: other bytes are a 400, not a question with replacement characters.
    @Test(arguments: ["/v1/chat/completions", "/v1/responses"])
    func aBodyThatIsNotUTF8Is400(path: String) async throws {
        try await InProcessServer.test { client in
            var bytes = ByteBuffer(string: #"{"model": "x", "messages": [{"role": "user", "content": "caf"#)
            bytes.writeBytes([0xE9, 0x20, 0xFF])
            bytes.writeString(#""}], "input": "x"}"#)
            let response = try await client.post(path, bytes: bytes)
            #expect(response.statusCode == 400 && response.error?["code"] as? String == "invalid_encoding", "\(response.text)")
        }
    }

    /// A model the server does not serve is 404 naming `model`, on both routes.
    @Test func anUnknownModelIs404() async throws {
        try await InProcessServer.test { client in
            let chat = try await client.post("/v1/chat/completions", #"{"model": "gpt-9", "messages": [\#(Self.user)]}"#)
            #expect(
                chat.statusCode == 404 && chat.error?["param"] as? String == "model" && chat.error?["code"] as? String == "model_not_found",
                "\(chat.text)")
            #expect((chat.error?["message"] as? String)?.contains(InProcessServer.modelName) == true, "the message names the served model")
            let responses = try await client.post("/v1/responses", #"{"model": "nope", "input": "Hi"}"#)
            #expect(responses.statusCode == 404 && responses.error?["param"] as? String == "model", "\(responses.text)")
        }
    }

    /// A body past the limit is 413 `request_too_large`, on both routes.
    @Test(arguments: ["/v1/chat/completions", "/v1/responses"])
    func aBodyOverTheLimitIs413(path: String) async throws {
        try await InProcessServer.test(configure: { $0.maximumBodyBytes = 1024 }) { client in
            let padding = String(repeating: " ", count: 2048)
            let response = try await client.post(path, #"{"messages": [\#(Self.user)], "input": "Hi"\#(padding)}"#)
            #expect(response.statusCode == 413 && response.error?["code"] as? String == "request_too_large", "\(response.text)")
            let within = try await client.post(path, #"{"messages": [\#(Self.user)]}"#)
            #expect(within.statusCode != 413)
        }
    }

    /// More messages than the server's limit is a 400 naming `messages`.
    @Test func moreMessagesThanTheLimitIs400() async throws {
        try await InProcessServer.test(configure: { $0.maximumMessages = 2 }) { client in
            let response = try await client.post(
                "/v1/chat/completions", #"{"messages": [\#(Self.user), {"role": "assistant", "content": "Hello"}, \#(Self.user)]}"#)
            #expect(response.statusCode == 400 && response.error?["param"] as? String == "messages", "\(response.text)")
        }
    }

    /// The server's token cap bounds what a request asks for, and stands in when it asks nothing.
    @Test func theTokenCapBoundsEachRequest() throws {
        let limits = ChatCompletionRequest.Limits(maximumMessages: 8, maximumTokens: 32)
        #expect(try ChatCompletionRequest(json: #"{"messages": [\#(Self.user)], "max_tokens": 100}"#, limits: limits).maximumTokens == 32)
        #expect(try ChatCompletionRequest(json: #"{"messages": [\#(Self.user)], "max_tokens": 10}"#, limits: limits).maximumTokens == 10)
        #expect(try ChatCompletionRequest(json: #"{"messages": [\#(Self.user)]}"#, limits: limits).maximumTokens == 32)
        #expect(try ResponsesRequest(json: #"{"input": "Hi", "max_output_tokens": 100}"#, limits: limits).chat.maximumTokens == 32)
    }
}
