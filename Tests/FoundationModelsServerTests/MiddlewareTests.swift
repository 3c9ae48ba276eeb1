// What every route passes through, in process: the bearer key (401s, and
// the routes that need none), the request id, CORS, the 404 for an unknown
// path and the 405 for a known one asked with another method (both in
// OpenAI's shape), and the routes that describe the server.

import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import FoundationModelsServer

@Suite("fm serve in process: key, request id, CORS, descriptive routes")
struct MiddlewareTests {
    static let chat = #"{"messages": [{"role": "user", "content": "Say hi."}]}"#
    static let origin = "http://localhost:8000"

    static func bearer(_ key: String) -> HTTPFields { [.authorization: "Bearer \(key)"] }

    @Test func everyRouteButHealthAndTheContractNeedsTheKey() async throws {
        try await InProcessServer.test([[.text("Hi")]], configure: { $0.apiKey = "sesame" }) { client in
            let missing = try await client.get("/v1/models")
            #expect(missing.statusCode == 401 && missing.error?["code"] as? String == "invalid_api_key", "\(missing.text)")
            #expect((missing.error?["message"] as? String)?.contains("didn't provide") == true)
            let wrong = try await client.post("/v1/chat/completions", Self.chat, headers: Self.bearer("open"))
            #expect(wrong.statusCode == 401 && wrong.error?["type"] as? String == "authentication_error", "\(wrong.text)")
            #expect((wrong.error?["message"] as? String)?.contains("sesame") == false, "the key is never echoed")
            let notBearer = try await client.get("/metrics", headers: [.authorization: "sesame"])
            #expect(notBearer.statusCode == 401)
            for path in ["/v1/responses", "/v1/chat/completions"] {
                #expect(try await client.post(path, "{}").statusCode == 401, "\(path) before its body is read")
            }
            #expect(try await client.get("/health").statusCode == 200)
            #expect(try await client.get("/openapi.json").statusCode == 200)
            #expect(try await client.get("/v1/models", headers: Self.bearer("sesame")).statusCode == 200)
            #expect(try await client.post("/v1/chat/completions", Self.chat, headers: Self.bearer("sesame")).statusCode == 200)
        }
    }

    @Test func keysAreComparedWhole() {
        #expect(Authentication<BasicRequestContext>.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
        #expect(!Authentication<BasicRequestContext>.constantTimeEqual(Array("abc".utf8), Array("abcd".utf8)))
        #expect(!Authentication<BasicRequestContext>.constantTimeEqual(Array("".utf8), Array("a".utf8)))
        #expect(!Authentication<BasicRequestContext>.constantTimeEqual(Array("abd".utf8), Array("abc".utf8)))
    }

    @Test func everyResponseCarriesARequestID() async throws {
        try await InProcessServer.test { client in
            let unknown = try await client.get("/nowhere")
            #expect(unknown.statusCode == 404 && unknown.error != nil, "an unknown path is 404 with OpenAI's error body: \(unknown.text)")
            let generated = unknown.headers[.init("x-request-id")!] ?? ""
            #expect(generated.hasPrefix("req_") && generated.count == 36, "\(generated)")
            let kept = try await client.get("/v1/models", headers: [.init("x-request-id")!: "client-id-42"])
            #expect(kept.headers[.init("x-request-id")!] == "client-id-42")
            let replaced = try await client.get("/v1/models", headers: [.init("x-request-id")!: "two words"])
            #expect(replaced.headers[.init("x-request-id")!]?.hasPrefix("req_") == true)
            let wrongMethod = try await client.get("/v1/chat/completions")
            #expect(
                (400..<500).contains(wrongMethod.statusCode) && wrongMethod.error != nil,
                "another method: Hummingbird's 4xx, in OpenAI's shape: \(wrongMethod.text)")
        }
    }

    /// A GET route answers HEAD with its status and headers, and no body.
    @Test func aGetRouteAnswersHead() async throws {
        try await InProcessServer.test { client in
            for path in ["/health", "/v1/models", "/openapi.json", "/metrics"] {
                let get = try await client.execute(uri: path, method: .get)
                let head = try await client.execute(uri: path, method: .head)
                #expect(head.statusCode == get.statusCode && head.statusCode == 200, "HEAD \(path): \(head.statusCode)")
                #expect(head.headers[.contentType] == get.headers[.contentType], "HEAD \(path): \(head.headers)")
                #expect(head.text.isEmpty, "HEAD \(path) has no body: \(head.text.prefix(80))")
            }
        }
    }

    /// A known path asked with another method is 405 with `Allow`; an
    /// unknown path is 404; both in OpenAI's error shape, counted under a
    /// bounded route label, and past the key like every other route.
    @Test func aWrongMethodIs405AndAnUnknownPathIs404() async throws {
        try await InProcessServer.test { client in
            let wrong: [(HTTPRequest.Method, String, String)] = [
                (.get, "/v1/chat/completions", "POST"), (.post, "/v1/models", "GET, HEAD"), (.delete, "/v1/responses", "POST"),
                (.put, "/health", "GET, HEAD"), (.get, "/v1/responses/", "POST"), (.head, "/v1/chat/completions", "POST"),
            ]
            for (method, path, allow) in wrong {
                let answer = try await client.execute(uri: path, method: method)
                #expect(answer.statusCode == 405 && answer.headers[.allow] == allow, "\(method) \(path): \(answer.statusCode) \(answer.headers)")
                #expect(Self.isOpenAIError(answer, code: "method_not_allowed"), "\(answer.text)")
                #expect((answer.error?["message"] as? String)?.contains(allow) == true, "the message says what to send: \(answer.text)")
            }
            for (method, path) in [(HTTPRequest.Method.get, "/nowhere"), (.post, "/v1/chat"), (.delete, "/v1/chat/completions/x")] {
                let answer = try await client.execute(uri: path, method: method)
                #expect(answer.statusCode == 404 && answer.headers[.allow] == nil, "\(method) \(path): \(answer.statusCode)")
                #expect(Self.isOpenAIError(answer, code: nil), "\(answer.text)")
                #expect((answer.error?["message"] as? String)?.contains("\(method.rawValue) \(path)") == true, "\(answer.text)")
            }
            let metrics = try await client.get("/metrics").text
            for line in [
                #"fm_serve_requests_total{route="/v1/chat/completions",method="GET",status="405"} 1"#,
                #"fm_serve_requests_total{route="/v1/responses",method="GET",status="405"} 1"#,
                #"fm_serve_requests_total{route="NotFound",method="POST",status="404"} 1"#,
            ] {
                #expect(metrics.contains(line + "\n"), "\(line) in \(metrics)")
            }
            #expect(!metrics.contains("nowhere"), "an unknown path is no label")
        }
        try await InProcessServer.test(configure: { $0.apiKey = "sesame" }) { client in
            #expect(try await client.get("/v1/chat/completions").statusCode == 401, "no key: nothing said of the routes")
            #expect(try await client.get("/nowhere").statusCode == 401)
            let answer = try await client.get("/v1/chat/completions", headers: Self.bearer("sesame"))
            #expect(answer.statusCode == 405 && answer.headers[.allow] == "POST")
        }
    }

    /// `{"error": {"message", "type": "invalid_request_error", "param": null, "code"}}`, as the server's other errors.
    static func isOpenAIError(_ response: TestResponse, code: String?) -> Bool {
        guard let error = response.error, error.count == 4, error["message"] is String else { return false }
        return error["type"] as? String == "invalid_request_error" && error["param"] is NSNull
            && (code.map { error["code"] as? String == $0 } ?? (error["code"] is NSNull))
    }

    /// With CORS on, a preflight is still answered before any route, and
    /// a 405 an allowed page caused is one it can read.
    @Test func aPreflightIsNotAWrongMethod() async throws {
        try await InProcessServer.test(configure: { $0.cors = .origins([Self.origin]) }) { client in
            let preflight: HTTPFields = [.origin: Self.origin, .accessControlRequestMethod: "POST"]
            for path in ["/v1/chat/completions", "/v1/models"] {
                let answer = try await client.execute(uri: path, method: .options, headers: preflight)
                #expect(answer.statusCode == 204 && answer.headers[.accessControlAllowOrigin] == Self.origin, "\(path): \(answer.statusCode)")
            }
            let wrong = try await client.get("/v1/chat/completions", headers: [.origin: Self.origin])
            #expect(wrong.statusCode == 405 && wrong.headers[.accessControlAllowOrigin] == Self.origin)
            let bare = try await client.execute(uri: "/v1/chat/completions", method: .options)
            #expect(bare.statusCode == 405 && bare.headers[.allow] == "POST", "an OPTIONS that is no preflight meets the routes")
        }
    }

    /// fm_serve_ops.py's CORS checks: none by default; `*`; a list of origins.
    @Test func browsersAreRefusedUnlessTheirOriginIsAllowed() async throws {
        let preflight: HTTPFields = [
            .origin: Self.origin, .accessControlRequestMethod: "POST", .accessControlRequestHeaders: "authorization, content-type",
        ]
        try await InProcessServer.test([[.text("Hi")]]) { client in
            let answer = try await client.execute(uri: "/v1/chat/completions", method: .options, headers: preflight)
            #expect(answer.headers[.accessControlAllowOrigin] == nil, "cors off: no CORS headers")
            let chat = try await client.post("/v1/chat/completions", Self.chat, headers: [.origin: Self.origin])
            #expect(chat.statusCode == 200 && chat.headers[.accessControlAllowOrigin] == nil)
        }
        try await InProcessServer.test([[.text("Hi")]], configure: { $0.cors = .anyOrigin }) { client in
            var anywhere = preflight
            anywhere[.origin] = "https://anywhere.example"
            let answer = try await client.execute(uri: "/v1/chat/completions", method: .options, headers: anywhere)
            #expect(answer.statusCode == 204 && answer.headers[.accessControlAllowOrigin] == "*")
            #expect(answer.headers[.accessControlAllowCredentials] == nil)
            let chat = try await client.post("/v1/chat/completions", Self.chat, headers: [.origin: "https://anywhere.example"])
            #expect(chat.statusCode == 200 && chat.headers[.accessControlAllowOrigin] == "*")
        }
        try await InProcessServer.test(
            [[.text("Hi")]],
            configure: {
                $0.cors = .origins([Self.origin]); $0.apiKey = "sesame"
            }
        ) { client in
            let answer = try await client.execute(uri: "/v1/chat/completions", method: .options, headers: preflight)
            #expect(answer.statusCode == 204 && answer.headers[.accessControlAllowOrigin] == Self.origin, "answered without the key")
            #expect(answer.headers[.accessControlAllowHeaders]?.lowercased().contains("authorization") == true)
            var evil = preflight
            evil[.origin] = "http://evil.example"
            #expect(try await client.execute(uri: "/v1/chat/completions", method: .options, headers: evil).headers[.accessControlAllowOrigin] == nil)
            var headers = Self.bearer("sesame")
            headers[.origin] = Self.origin
            let chat = try await client.post("/v1/chat/completions", Self.chat, headers: headers)
            #expect(chat.statusCode == 200 && chat.headers[.accessControlAllowOrigin] == Self.origin)
            #expect(chat.headers[.accessControlExposeHeaders]?.contains("x-request-id") == true)
            let refused = try await client.get("/v1/models", headers: [.origin: Self.origin])
            #expect(refused.statusCode == 401 && refused.headers[.accessControlAllowOrigin] == Self.origin, "a 401 the page can read")
            let plain = try await client.get("/v1/models", headers: Self.bearer("sesame"))
            #expect(plain.headers[.accessControlAllowOrigin] == nil, "no Origin, no CORS headers")
        }
    }

    @Test func theServerDescribesItsModelAndHealth() async throws {
        try await InProcessServer.test(configure: { $0.contextSize = 4096 }) { client in
            let models = try await client.get("/v1/models").object()
            let model = try #require((models["data"] as? [[String: Any]])?.first)
            #expect(model["id"] as? String == InProcessServer.modelName && model["max_model_len"] as? Int == 4096)
            let health = try await client.get("/health")
            #expect(health.statusCode == 200 && health.text == #"{"status":"ok","models":[{"id":"scripted","available":true}]}"#, "\(health.text)")
            let contract = try await client.get("/openapi.json").object()
            #expect(contract["openapi"] != nil)
        }
        try await InProcessServer.test(configure: { $0.unavailability = { "the model file is gone" } }) { client in
            let health = try await client.get("/health")
            #expect(health.statusCode == 503, "a load balancer stops sending")
            let model = try #require((try health.object()["models"] as? [[String: Any]])?.first)
            #expect(model["available"] as? Bool == false && model["reason"] as? String == "the model file is gone")
        }
    }

    /// The 4xx a client caused are counted by route and status.
    @Test func refusalsAreCountedInTheMetrics() async throws {
        try await InProcessServer.test { client in
            for bad in [#"{"messages": []}"#, #"{"messages": "x"}"#] {
                _ = try await client.post("/v1/chat/completions", bad)
            }
            let metrics = try await client.get("/metrics")
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            #expect(metrics.text.contains(#"fm_serve_requests_total{route="/v1/chat/completions",method="POST",status="400"} 2"#), "\(metrics.text)")
        }
    }
}
