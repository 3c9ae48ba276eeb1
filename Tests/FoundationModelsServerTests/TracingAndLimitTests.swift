import Foundation
import FoundationModels
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import TestSupport
import Testing
import Tracing

@testable import FoundationModelsServer

/// `fm serve --trace`'s tracer (``SpanLogTracer``) and the 400 for a
/// `max_tokens` too small for the answer's schema, without a model.
@Suite("fm serve: span lines and a limit too small for the schema")
struct SpanLinesAndLimitTests {
    /// A tracer whose lines are kept, one JSON object each.
    static func tracer() -> (SpanLogTracer, @Sendable () throws -> [[String: Any]]) {
        let lines = Mutex<[String]>([])
        let logger = Logger(label: "fm.serve.trace") { JSONLogHandler(label: $0) { line in lines.withLock { $0.append(line) } } }
        return (
            SpanLogTracer(logger: logger),
            {
                try lines.withLock { $0 }.map { line in
                    #expect(line.hasSuffix("\n") && !line.dropLast().contains("\n"))
                    return try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                }
            }
        )
    }

    @Test func eachFinishedSpanIsOneJSONLineUnderItsParent() throws {
        let (tracer, lines) = Self.tracer()
        withTracer(tracer) {
            withSpan("outer", ofKind: .server) { outer in
                outer.attributes["http.route"] = "/v1/x"
                withSpan("inner") { inner in
                    inner.attributes["foundation_models.prompt_tokens"] = 12
                    inner.attributes["foundation_models.context_full"] = true
                    inner.recordError(CancellationError())
                    inner.setStatus(.init(code: .error))
                }
            }
        }
        let written = try lines()
        #expect(written.map { $0["name"] as? String } == ["inner", "outer"], "ended inner first")
        let (inner, outer) = (written[0], written[1])
        #expect(written.allSatisfy { $0["message"] as? String == "span" && $0["label"] as? String == "fm.serve.trace" })
        let trace = try #require(outer["trace_id"] as? String)
        #expect(trace.count == 32 && inner["trace_id"] as? String == trace)
        #expect((outer["span_id"] as? String)?.count == 16 && outer["parent_id"] == nil)
        #expect(inner["parent_id"] as? String == outer["span_id"] as? String)
        #expect(outer["kind"] as? String == "server" && outer["status"] as? String == "ok")
        #expect(inner["status"] as? String == "error" && (inner["error"] as? String)?.contains("CancellationError") == true)
        #expect((outer["duration_ms"] as? Double ?? -1) >= 0 && (outer["start"] as? String)?.hasSuffix("Z") == true)
        let attributes = try #require(inner["attributes"] as? [String: Any])
        #expect(attributes["foundation_models.prompt_tokens"] as? Int == 12)
        #expect(attributes["foundation_models.context_full"] as? Bool == true)
        #expect((outer["attributes"] as? [String: Any])?["http.route"] as? String == "/v1/x")
    }

    /// A caller's W3C `traceparent` is the parent of the server's span.
    @Test func aTraceparentContinuesTheCallersTrace() {
        let parent = SpanLogTracer.parent(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        #expect(parent == .init(traceID: "4bf92f3577b34da6a3ce929d0e0e4736", spanID: "00f067aa0ba902b7"))
        for malformed in [
            "", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7", "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",
        ] {
            #expect(SpanLogTracer.parent(traceparent: malformed) == nil, "\(malformed)")
        }
    }

    static let limits = ChatCompletionRequest.Limits(maximumMessages: 8, maximumTokens: nil)
    static let schema = #""response_format": {"type": "json_schema", "json_schema": {"name": "T", "schema": {"type": "object"}}}"#

    /// The engine's failure to finish a typed answer within the limit is
    /// a 400 naming the field that set it; other parsing failures stay 500.
    @Test func aLimitTooSmallForTheSchemaIsTheClientsError() throws {
        let marked = GeneratedContent.ParsingError(rawContent: "", underlyingError: ResponseLimitTooSmall(limit: 5), debugDescription: "…")
        let described = GeneratedContent.ParsingError(
            rawContent: "",
            debugDescription:
                "the T value could not be finished within the response's limit of 5 tokens (5 written, and the shortest way to finish it needs more); raise maximumResponseTokens or shorten the conversation. Guided generation never returns a partial value."
        )
        let full = GeneratedContent.ParsingError(
            rawContent: "", debugDescription: "the context filled up (512 tokens) before the T value was complete; raise maximumResponseTokens")
        let messages = #""messages": [{"role": "user", "content": "hi"}]"#
        let chat = try ChatCompletionRequest(json: "{\(messages), \(Self.schema), \"max_tokens\": 5}", limits: Self.limits)
        let completion = try ChatCompletionRequest(json: "{\(messages), \(Self.schema), \"max_completion_tokens\": 5}", limits: Self.limits)
        let responses = try ResponsesRequest(
            json: #"{"input": "hi", "max_output_tokens": 5, "text": {"format": {"type": "json_schema", "name": "T", "schema": {"type": "object"}}}}"#,
            limits: Self.limits)
        for (request, param) in [(chat, "max_tokens"), (completion, "max_completion_tokens"), (responses.chat, "max_output_tokens")] {
            let mapped = try #require(APIError.limitTooSmall(marked, for: request))
            #expect(mapped.status == 400 && mapped.type == "invalid_request_error" && mapped.param == param)
            #expect(mapped.message.hasPrefix("\(param) (5) is too small for the answer's schema"), "\(mapped.message)")
            #expect(APIError.from(mapped) == mapped)
            // Read from the engine's marker, never from its wording.
            #expect(APIError.limitTooSmall(described, for: request) == nil)
            #expect(APIError.limitTooSmall(full, for: request) == nil)
            #expect(APIError.limitTooSmall(CancellationError(), for: request) == nil)
        }
        #expect(APIError.from(full).status == 500)
        // The server's cap set the limit: no field of the client's to name.
        let capped = try ChatCompletionRequest(
            json: "{\(messages), \(Self.schema), \"max_tokens\": 50}", limits: .init(maximumMessages: 8, maximumTokens: 5))
        let mapped = try #require(APIError.limitTooSmall(marked, for: capped))
        #expect(mapped.status == 400 && mapped.param == nil && mapped.message.hasPrefix("The server's --max-tokens (5)"))
        // No limit asked for, none applied: not the client's to raise.
        let unlimited = try ChatCompletionRequest(json: "{\(messages), \(Self.schema)}", limits: Self.limits)
        #expect(APIError.limitTooSmall(marked, for: unlimited) == nil)
    }
}

/// The same through fm serve's router on the small model: the spans of a
/// request, and the 400 on both answering routes.
@Suite("fm serve: spans and limits on the small model", .serialized, .tags(.model), .needs(.smallModel))
struct SpansAndLimitsOnTheSmallModelTests {
    static func model() -> SystemLanguageModel {
        var configuration = SystemLanguageModel.Configuration(modelFile: URL(fileURLWithPath: TestMachine.smallModel))
        configuration.contextSize = 1024
        configuration.parallelSequences = 1
        return SystemLanguageModel(configuration: configuration)
    }

    /// With tracing on, a request is a span (Hummingbird's
    /// `TracingMiddleware`) continuing the caller's `traceparent`, and the
    /// engine's queue wait, prefill and decode are its children.
    @Test func aTracedRequestIsItsSpanAndTheEnginesUnderIt() async throws {
        let (tracer, lines) = SpanLinesAndLimitTests.tracer()
        let body = #"{"messages": [{"role": "user", "content": "Name a colour."}], "max_tokens": 8, "temperature": 0}"#
        let traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        try await withTracer(tracer) {
            try await InProcessServer.test(model: Self.model(), configure: { $0.tracing = true }) { client in
                let response = try await client.post("/v1/chat/completions", body, headers: [.init("traceparent")!: traceparent])
                #expect(response.statusCode == 200, "\(response.text)")
                #expect(try await client.get("/health").statusCode == 200)
            }
        }
        let written = try lines()
        let names = written.compactMap { $0["name"] as? String }
        #expect(names.sorted() == ["/health", "/v1/chat/completions", "decode", "prefill", "queue wait"], "\(names)")
        let request = try #require(written.first { $0["name"] as? String == "/v1/chat/completions" })
        #expect(request["trace_id"] as? String == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(request["parent_id"] as? String == "00f067aa0ba902b7")
        #expect(request["kind"] as? String == "server")
        #expect((request["attributes"] as? [String: Any])?["http.response.status_code"] as? Int == 200)
        for phase in ["queue wait", "prefill", "decode"] {
            let span = try #require(written.first { $0["name"] as? String == phase })
            #expect(span["parent_id"] as? String == request["span_id"] as? String, "\(phase)")
            #expect(span["trace_id"] as? String == "4bf92f3577b34da6a3ce929d0e0e4736", "\(phase)")
        }
        let prefill = try #require(written.first { $0["name"] as? String == "prefill" }?["attributes"] as? [String: Any])
        #expect((prefill["foundation_models.prompt_tokens"] as? Int ?? 0) > 0)
        let decode = try #require(written.first { $0["name"] as? String == "decode" }?["attributes"] as? [String: Any])
        #expect((1...8).contains(decode["foundation_models.generated_tokens"] as? Int ?? 0), "\(decode)")

        // Tracing off (the default): no span, though a tracer is there.
        let (quiet, none) = SpanLinesAndLimitTests.tracer()
        try await withTracer(quiet) {
            try await InProcessServer.test(model: Self.model()) { client in
                let response = try await client.post("/v1/chat/completions", body)
                #expect(response.statusCode == 200)
            }
        }
        #expect(try none().compactMap { $0["name"] as? String } == ["queue wait", "prefill", "decode"], "the engine's, with no request span")
    }

    /// A schema whose shortest value takes dozens of tokens (five long keys), asked for
    /// within 5: a 400 naming the limit's field, streamed or not.
    @Test func aLimitTooSmallForTheSchemaIsA400OnBothRoutes() async throws {
        let fields = (1...5).map { "\"property_number_\($0)_with_a_long_name\"" }
        let schema =
            #"{"type": "object", "properties": {"# + fields.map { "\($0): {\"type\": \"string\"}" }.joined(separator: ", ")
            + #"}, "required": ["# + fields.joined(separator: ", ") + #"], "additionalProperties": false}"#
        let messages = #""messages": [{"role": "user", "content": "Fill it in."}]"#
        let chat =
            #"{\#(messages), "max_tokens": 5, "response_format": {"type": "json_schema", "json_schema": {"name": "Form", "schema": \#(schema)}}"#
        let responses =
            #"{"input": "Fill it in.", "max_output_tokens": 5, "text": {"format": {"type": "json_schema", "name": "Form", "schema": \#(schema)}}"#
        try await InProcessServer.test(model: Self.model()) { client in
            for (path, json, param) in [("/v1/chat/completions", chat + "}", "max_tokens"), ("/v1/responses", responses + "}", "max_output_tokens")] {
                let response = try await client.post(path, json)
                #expect(response.statusCode == 400, "\(path): \(response.text)")
                #expect(response.error?["type"] as? String == "invalid_request_error", "\(path): \(response.text)")
                #expect(response.error?["param"] as? String == param, "\(path): \(response.text)")
                #expect((response.error?["message"] as? String)?.contains("too small for the answer's schema") == true)
            }
            // Streamed: the same error, in the stream where text came first.
            let streamed = try await client.post("/v1/chat/completions", chat + #", "stream": true}"#)
            let failure =
                streamed.dataLines.compactMap { line in
                    ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["error"] as? [String: Any]
                }.first ?? streamed.error
            #expect(failure?["param"] as? String == "max_tokens", "\(streamed.statusCode) \(streamed.text)")
            // Room enough: the answer.
            let roomy = try await client.post(
                "/v1/chat/completions", chat.replacingOccurrences(of: #""max_tokens": 5"#, with: #""max_tokens": 300"#) + "}")
            #expect(roomy.statusCode == 200, "\(roomy.text)")
        }
    }
}
