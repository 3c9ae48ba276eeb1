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
        return WireJSON.object([
            (
                "error",
                WireJSON.object([
                    ("message", WireJSON.string(message)),
                    ("type", WireJSON.string(type)),
                    ("param", param.map(WireJSON.string) ?? null),
                    ("code", code.map(WireJSON.string) ?? null),
                ])
            )
        ]).jsonString
    }

    /// The error a session's failure is reported as. With `gateway`, the
    /// model answers through another server, and its failures to serve are
    /// that server's: 502 (504 for a time-out), code `upstream_error`.
    static func from(_ error: any Error, gateway: Bool = false) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case LanguageModelError.rateLimited(let info):
            return .busy("The server is busy: \(info.debugDescription)", resetDate: info.resetDate)
        case PrivateCloudComputeLanguageModel.Error.quotaLimitReached(let info):
            return .busy("The upstream server's quota is used up: \(info.debugDescription)", resetDate: info.resetDate)
        case LanguageModelError.contextSizeExceeded(let info):
            return .invalid(
                "The conversation and answer need \(info.tokenCount) tokens; the model's context holds \(info.contextSize).",
                param: "messages", code: "context_length_exceeded"
            )
        case PrivateCloudComputeLanguageModel.Error.networkFailure(let info):
            return .upstream(status: 502, "The upstream server could not be reached: \(info.debugDescription)")
        case PrivateCloudComputeLanguageModel.Error.serviceUnavailable(let info):
            return .upstream(status: 502, "The upstream server could not answer: \(info.debugDescription)")
        case LanguageModelError.timeout(let info) where gateway:
            return .upstream(status: 504, "The upstream server took too long: \(info.debugDescription)")
        case SystemLanguageModel.Error.assetsUnavailable(let info) where gateway:
            return .upstream(status: 502, "The upstream server could not answer: \(info.debugDescription)")
        case SystemLanguageModel.Error.assetsUnavailable(let info):
            return APIError(
                status: 503, message: "The model is unavailable: \(info.debugDescription)", type: "server_error", param: nil,
                code: "model_unavailable", retryAfter: 30)
        case let error as GeneratedContent.ParsingError where gateway:
            return .upstream(status: 502, "The upstream server's answer could not be read: \(error.debugDescription)")
        case let error as GeneratedContent.ParsingError:
            return APIError(
                status: 500, message: "The model's answer could not be completed: \(error.debugDescription)", type: "server_error", param: nil,
                code: nil)
        default:
            return APIError(status: 500, message: "The model could not answer: \(error)", type: "server_error", param: nil, code: nil)
        }
    }

    /// A typed answer (or a tool call) whose shortest valid value needs
    /// more tokens than the request's limit allows: the client's mistake,
    /// so a 400 naming the field that set the limit (`max_tokens`,
    /// `max_completion_tokens`, `max_output_tokens`; none where the
    /// server's `--max-tokens` set it), not the 500 of an answer that
    /// could not be completed. Nil for any other error.
    static func limitTooSmall(_ error: any Error, for request: ChatCompletionRequest) -> APIError? {
        guard let limit = request.maximumTokens, let error = error as? GeneratedContent.ParsingError, error.isResponseLimitTooSmall else {
            return nil
        }
        let what = request.schema != nil ? "the answer's schema" : "the tool call"
        let field = request.maximumTokensParameter
        return .invalid(
            "\(field ?? "The server's --max-tokens") (\(limit)) is too small for \(what): the shortest value it allows does not fit in \(limit) tokens. "
                + (field.map { "Raise \($0)." } ?? "Ask the server's operator for a higher limit."),
            param: field, code: "max_tokens_too_small")
    }

    /// 429 with `Retry-After` until `resetDate` (at least a second).
    static func busy(_ message: String, resetDate: Date?) -> APIError {
        let wait = resetDate.map { max(1, Int($0.timeIntervalSinceNow.rounded(.up))) } ?? 1
        return APIError(status: 429, message: message, type: "rate_limit_error", param: nil, code: "rate_limit_exceeded", retryAfter: wait)
    }

    /// A failure of the server the model answers through.
    static func upstream(status: Int, _ message: String) -> APIError {
        APIError(status: status, message: message, type: "server_error", param: nil, code: "upstream_error")
    }
}

extension GeneratedContent.ParsingError {
    /// Whether the engine could not finish the value within the request's
    /// own token limit: marked by its underlying error
    /// (``ResponseLimitTooSmall``, OnDeviceExecutor). The context filling
    /// up is not this.
    var isResponseLimitTooSmall: Bool {
        underlyingError is ResponseLimitTooSmall
    }
}
