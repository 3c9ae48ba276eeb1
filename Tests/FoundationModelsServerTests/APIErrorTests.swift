// How fm serve reports a session's failure over HTTP: the status, OpenAI's
// error type and code, and Retry-After, for the server's own model and for
// a model it answers through (`--server`).

import Foundation
import FoundationModels
import Testing

@testable import FoundationModelsServer

@Suite("fm serve's error statuses")
struct APIErrorTests {
    @Test func theLocalModelsFailuresAreThisServers() {
        let missing = APIError.from(SystemLanguageModel.Error.assetsUnavailable(.init(debugDescription: "no model file")))
        #expect(missing.status == 503 && missing.code == "model_unavailable" && missing.retryAfter == 30)
        let unfinished = APIError.from(GeneratedContent.ParsingError(rawContent: "{", debugDescription: "cut short"))
        #expect(unfinished.status == 500 && unfinished.type == "server_error")
        let long = APIError.from(LanguageModelError.contextSizeExceeded(.init(contextSize: 4096, tokenCount: 5000, debugDescription: "")))
        #expect(long.status == 400 && long.code == "context_length_exceeded" && long.param == "messages")
    }

    @Test func anUpstreamsFailuresAreBadGateways() {
        let down = APIError.from(SystemLanguageModel.Error.assetsUnavailable(.init(debugDescription: "connection refused")), gateway: true)
        #expect(down.status == 502 && down.code == "upstream_error" && down.message.contains("connection refused"))
        let unreadable = APIError.from(GeneratedContent.ParsingError(rawContent: "{", debugDescription: "cut short"), gateway: true)
        #expect(unreadable.status == 502)
        let slow = APIError.from(LanguageModelError.timeout(.init(debugDescription: "no byte for 120 s")), gateway: true)
        #expect(slow.status == 504 && slow.code == "upstream_error")
        // Private Cloud Compute's errors only ever come from a server.
        let unreachable = APIError.from(PrivateCloudComputeLanguageModel.Error.networkFailure(.init(debugDescription: "refused")))
        #expect(unreachable.status == 502)
        let refused = APIError.from(PrivateCloudComputeLanguageModel.Error.serviceUnavailable(.init(debugDescription: "HTTP 500: boom")))
        #expect(refused.status == 502 && refused.message.contains("HTTP 500"))
        // The body is OpenAI's shape.
        let body = try? JSONSerialization.jsonObject(with: Data(down.body.utf8)) as? [String: [String: Any]]
        #expect(body?["error"]?["code"] as? String == "upstream_error")
        #expect(body?["error"]?["type"] as? String == "server_error")
    }

    @Test func rateLimitsAndQuotasSayWhenToComeBack() {
        let busy = APIError.from(
            LanguageModelError.rateLimited(.init(resetDate: Date().addingTimeInterval(7.2), debugDescription: "")), gateway: true)
        #expect(busy.status == 429 && busy.retryAfter == 8)
        let quota = APIError.from(
            PrivateCloudComputeLanguageModel.Error.quotaLimitReached(.init(resetDate: Date().addingTimeInterval(60), debugDescription: "used up")))
        #expect(quota.status == 429 && (59...60).contains(quota.retryAfter ?? 0))
        let unknown = APIError.from(LanguageModelError.rateLimited(.init(resetDate: nil, debugDescription: "")))
        #expect(unknown.retryAfter == 1)
    }
}
