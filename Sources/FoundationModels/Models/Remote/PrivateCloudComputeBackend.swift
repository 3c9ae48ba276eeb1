import Foundation
import Synchronization

/// The server behind ``PrivateCloudComputeLanguageModel``: an
/// OpenAI-compatible endpoint, and what the last requests learned about it
/// (unreachable, quota used up), shared by every model instance on the same
/// server so `availability` and `quotaUsage` follow what happened.
package struct PrivateCloudComputeBackend: Sendable, Hashable {
    package let chat: OpenAIChatConfiguration
    package let contextSize: Int?

    package init(chat: OpenAIChatConfiguration, contextSize: Int?) {
        self.chat = chat
        self.contextSize = contextSize
    }

    package var state: ServiceState { ServiceState.for(chat.endpoint.baseURL.absoluteString) }

    /// The configuration the environment describes, or why it cannot be used.
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Result<Self, ServerModelError> {
        guard let text = environment["FOUNDATION_MODELS_PCC_URL"], !text.isEmpty else {
            return .failure(ServerModelError(PrivateCloudComputeLanguageModel.unconfiguredReason))
        }
        guard let url = URL(string: text) else {
            return .failure(ServerModelError("FOUNDATION_MODELS_PCC_URL is not a URL: \(text)"))
        }
        guard let model = environment["FOUNDATION_MODELS_PCC_MODEL"], !model.isEmpty else {
            return .failure(ServerModelError("FOUNDATION_MODELS_PCC_URL is set but FOUNDATION_MODELS_PCC_MODEL (the model name) is not"))
        }
        let key = environment["FOUNDATION_MODELS_PCC_API_KEY"].flatMap { $0.isEmpty ? nil : APIKey($0) }
        let contextSize = environment["FOUNDATION_MODELS_PCC_CONTEXT_SIZE"].flatMap { Int($0) }
        return Result { () throws(ServerModelError) in
            PrivateCloudComputeBackend(
                chat: OpenAIChatConfiguration(endpoint: try RemoteEndpoint(url), model: model, apiKey: key, options: ServerOptions()),
                contextSize: contextSize
            )
        }
    }

    /// The context size the server reports: the model's `max_model_len` in
    /// `GET /v1/models` (vLLM, fm serve), else llama-server's `/props`
    /// (beside the API root).
    func serverContextSize() async throws -> Int {
        var headers: [(String, String)] = []
        if let key = chat.apiKey { headers.append(("Authorization", "Bearer \(key.value)")) }
        var root = chat.endpoint.baseURL
        if root.lastPathComponent == "v1" { root.deleteLastPathComponent() }
        let props = try RemoteEndpoint(root).url("props")
        let answers: [(status: Int, body: String)]
        do {
            let models = try await ServerHTTP.get(chat.endpoint.url("models"), headers: headers, options: chat.options)
            let listed = (try? GeneratedContent(json: models.1))?[wire: "data"]?.wireArray?.first { $0[wire: "id"]?.wireString == chat.model }
            if models.0 == 200, let size = listed?[wire: "max_model_len"]?.wireInt { return size }
            answers = [models, try await ServerHTTP.get(props, headers: headers, options: chat.options)]
        } catch {
            state.record(error)
            throw RemoteErrorFamily.privateCloudCompute.error(for: error)
        }
        let settings = (try? GeneratedContent(json: answers[1].body))?[wire: "default_generation_settings"]
        guard answers[1].status == 200, let size = settings?[wire: "n_ctx"]?.wireInt else {
            throw PrivateCloudComputeLanguageModel.Error.serviceUnavailable(
                .init(
                    debugDescription:
                        "The server does not report its context size (GET /v1/models answered \(answers[0].status) without max_model_len, GET /props \(answers[1].status)); set FOUNDATION_MODELS_PCC_CONTEXT_SIZE or pass contextSize."
                ))
        }
        return size
    }

    /// What requests have learned about one server.
    package final class ServiceState: Sendable {
        private struct Facts {
            var unreachable = false
            var quotaReset: Date?
        }

        private let facts = Mutex(Facts())
        private static let all = Mutex<[String: ServiceState]>([:])

        static func `for`(_ server: String) -> ServiceState {
            all.withLock { all in
                if let state = all[server] { return state }
                let state = ServiceState()
                all[server] = state
                return state
            }
        }

        /// Whether the last request could not reach the server.
        var isUnreachable: Bool { facts.withLock { $0.unreachable } }

        /// When the quota resets, while it is used up.
        var quotaReset: Date? {
            facts.withLock { facts in
                if let reset = facts.quotaReset, reset <= Date() { facts.quotaReset = nil }
                return facts.quotaReset
            }
        }

        /// Records a request's outcome: `nil` when it reached the server and succeeded.
        func record(_ failure: ServerFailure?) {
            facts.withLock { facts in
                switch failure {
                case nil:
                    facts.unreachable = false
                case .connection?, .timeout?:
                    facts.unreachable = true
                case .rateLimited(let reset, _)?:
                    facts.unreachable = false
                    // Without a date the limit is reported once, not held.
                    facts.quotaReset = reset
                default:
                    facts.unreachable = false
                }
            }
        }
    }
}
