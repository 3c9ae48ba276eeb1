import Foundation
import FoundationModels

/// A failed request as OpenAI's API reports one: an HTTP status and the
/// `{"error": {"message", "type", "param", "code"}}` body its clients parse.
/// Every failure the server answers with is one of these, so a client's
/// error handling works unchanged.
struct APIError: Error, Equatable {
    var status: Int
    var message: String
    /// `invalid_request_error`, `authentication_error`, `rate_limit_error`, `server_error`.
    var type: String
    var param: String?
    var code: String?
    /// Seconds a client should wait before trying again (429 and 503).
    var retryAfter: Int?

    static func invalid(_ message: String, param: String?, code: String? = nil) -> APIError {
        APIError(status: 400, message: message, type: "invalid_request_error", param: param, code: code)
    }

    /// The JSON body (`param` and `code` are null when not set, as OpenAI's are).
    var body: String {
        let null = ChatCompletionsServer.null
        return WireJSON.object([("error", WireJSON.object([
            ("message", WireJSON.string(message)),
            ("type", WireJSON.string(type)),
            ("param", param.map(WireJSON.string) ?? null),
            ("code", code.map(WireJSON.string) ?? null),
        ]))]).jsonString
    }

    /// The error a session's failure is reported as.
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case LanguageModelError.rateLimited(let info):
            let wait = info.resetDate.map { max(1, Int($0.timeIntervalSinceNow.rounded(.up))) } ?? 1
            return APIError(status: 429, message: "The server is busy: \(info.debugDescription)", type: "rate_limit_error", param: nil, code: "rate_limit_exceeded", retryAfter: wait)
        case LanguageModelError.contextSizeExceeded(let info):
            return .invalid(
                "The conversation and answer need \(info.tokenCount) tokens; the model's context holds \(info.contextSize).",
                param: "messages", code: "context_length_exceeded"
            )
        case SystemLanguageModel.Error.assetsUnavailable(let info):
            return APIError(status: 503, message: "The model is unavailable: \(info.debugDescription)", type: "server_error", param: nil, code: "model_unavailable", retryAfter: 30)
        case let error as GeneratedContent.ParsingError:
            return APIError(status: 500, message: "The model's answer could not be completed: \(error.debugDescription)", type: "server_error", param: nil, code: nil)
        default:
            return APIError(status: 500, message: "The model could not answer: \(error)", type: "server_error", param: nil, code: nil)
        }
    }
}
