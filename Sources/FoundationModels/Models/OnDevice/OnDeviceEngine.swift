import Foundation
import LlamaKit
import Synchronization

/// The in-process model: weights loaded once per process and shared by every
/// session, plus the pool of contexts requests run in.
///
/// One engine exists per configuration (``shared(for:)``). Loading is lazy —
/// on the first request, `prewarm` or token count — and happens once even when
/// many sessions ask at the same time.
final class OnDeviceEngine: Sendable {
    /// The loaded model and its contexts.
    final class Loaded: Sendable {
        let model: LlamaModel
        let vocabulary: LlamaVocabulary
        let contextSize: Int
        let pool: ContextPool

        init(model: LlamaModel, configuration: OnDeviceConfiguration) {
            self.model = model
            self.vocabulary = model.vocabulary
            let trained = model.trainingContextLength
            let contextSize = trained > 0 ? min(configuration.contextSize, trained) : configuration.contextSize
            self.contextSize = contextSize
            let gate = ComputeGate()
            self.pool = ContextPool(capacity: configuration.contexts, maximumWaiting: configuration.maximumQueuedRequests) { number in
                let parameters = LlamaContext.Parameters(contextLength: contextSize, threads: configuration.threads)
                return ContextSlot(context: try LlamaContext(model: model, parameters: parameters), gate: gate, label: "foundation-models.context.\(number)")
            }
        }
    }

    let configuration: OnDeviceConfiguration
    private let loading = Mutex<Task<Loaded, any Error>?>(nil)

    private init(configuration: OnDeviceConfiguration) {
        self.configuration = configuration
    }

    private static let engines = Mutex<[OnDeviceConfiguration: OnDeviceEngine]>([:])

    /// The engine for `configuration`, created on first use.
    static func shared(for configuration: OnDeviceConfiguration) -> OnDeviceEngine {
        engines.withLock { engines in
            if let engine = engines[configuration] { return engine }
            let engine = OnDeviceEngine(configuration: configuration)
            engines[configuration] = engine
            return engine
        }
    }

    /// The loaded model, loading it on first use. A failed load is not
    /// remembered: the next call tries again (the file may have appeared).
    func loaded() async throws -> Loaded {
        let task = loading.withLock { loading -> Task<Loaded, any Error> in
            if let task = loading { return task }
            let configuration = self.configuration
            let task = Task.detached(priority: .userInitiated) {
                try Loaded(model: LlamaModel(path: configuration.modelPath), configuration: configuration)
            }
            loading = task
            return task
        }
        do {
            return try await task.value
        } catch {
            loading.withLock { if $0 == task { $0 = nil } }
            throw LanguageModelSession.GenerationError.assetsUnavailable(.init(
                debugDescription: "The on-device model at \(configuration.modelPath) could not be loaded: \(error)"
            ))
        }
    }

    /// Runs one job in a pooled context, delivering text to `onText` as it
    /// is decoded. Cancelling the calling task stops the job within one
    /// decoding step and throws `CancellationError`.
    func run(_ job: ContextSlot.Job, in loaded: Loaded, onText: @escaping ContextSlot.TextHandler) async throws -> ContextSlot.Outcome {
        let slot = try await loaded.pool.acquire(for: job.promptTokens)
        // Cleared before the cancellation handler is installed, so a
        // cancellation that already happened still raises it.
        slot.abortFlag.reset()
        let pool = loaded.pool
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    slot.run(job, onText: onText) { result in
                        // Back to the pool before the caller hears the end,
                        // so the conversation's next turn finds this context.
                        pool.release(slot)
                        continuation.resume(with: result)
                    }
                }
            } onCancel: {
                slot.abortFlag.requestAbort()
            }
        } catch LlamaError.aborted {
            throw CancellationError()
        }
    }
}
