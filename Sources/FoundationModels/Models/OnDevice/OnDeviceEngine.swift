#if LlamaCpp
import Foundation
import LlamaKit
import Logging
import Synchronization

/// The in-process model: weights loaded once per process and shared by every
/// session, plus the pool of contexts requests run in.
///
/// One engine exists per configuration (``shared(for:)``). Loading is lazy —
/// on the first request, `prewarm` or token count — and happens once even when
/// many sessions ask at the same time.
package final class OnDeviceEngine: Sendable {
    /// The loaded model and its contexts.
    package final class Loaded: Sendable {
        package let model: LlamaModel
        package let vocabulary: LlamaVocabulary
        package let contextSize: Int
        let pool: ContextPool
        /// Shares the forward passes of the pool's requests.
        package let scheduler: DecodeScheduler
        /// Guided generation's vocabulary and compiled schemas.
        package let constraints: ConstraintCache
        /// How transcripts are rendered for this model (its chat template,
        /// its tool format).
        let rendering: ChatRendering
        /// Rendered prompts to tokens, reusing the tokens of the turns and
        /// instructions earlier requests had.
        let promptTokenizer: LlamaPromptTokenizer

        /// - Throws: `LlamaError` when the context cannot be created.
        init(model: LlamaModel, configuration: SystemLanguageModel.Configuration) throws {
            self.model = model
            self.vocabulary = model.vocabulary
            self.promptTokenizer = LlamaPromptTokenizer(vocabulary: model.vocabulary)
            self.constraints = ConstraintCache(vocabulary: model.vocabulary, layout: configuration.jsonLayout)
            let trained = model.trainingContextLength
            let resolved = SystemModelRuntime.contextSize(configuration)
            let contextSize = trained > 0 ? min(resolved, trained) : resolved
            // A schema's description, and the list of tools, take at most
            // their configured budgets and never more than half the
            // context; the rest is the conversation's and the answer's.
            self.rendering = ChatRendering(
                model: model,
                toolFormat: ChatRendering.toolFormat(for: model, forced: configuration.forcedToolFormat),
                schemaStyle: configuration.schemaPromptStyle,
                schemaPlacement: configuration.schemaPromptPlacement,
                schemaTokenBudget: min(configuration.schemaPromptTokenBudget, contextSize / 2),
                forcedSchemaDetail: configuration.forcedSchemaDetail,
                toolsTokenBudget: min(configuration.toolsPromptTokenBudget, contextSize / 2)
            )
            // One context with a sequence per session served at once: their
            // steps are decoded together (``DecodeScheduler``).
            // An adapter is applied to every pass of the context; its
            // engine is apart from the base model's (the configuration holds it).
            let adapters = try configuration.adapter.map { [(adapter: try LlamaAdapter(path: $0.path, model: model), scale: $0.scale)] } ?? []
            let context = try LlamaBatchContext(
                model: model,
                parameters: configuration.contextParameters(contextLength: contextSize),
                sequences: configuration.parallelSequences,
                adapters: adapters
            )
            // Every layer on a GPU: decodes run on the requests' own
            // threads (``DecodeScheduler/thread``).
            let onGPU = model.offloadedLayers > model.layerCount
            let onRequestThreads = configuration.decodesOnRequestThreads ?? onGPU
            let scheduler = DecodeScheduler(context: context, thread: onRequestThreads ? nil : .shared)
            self.scheduler = scheduler
            self.contextSize = scheduler.sequenceLength
            let promptEndsAlone = configuration.promptEndsAlone ?? !onGPU
            self.pool = ContextPool(capacity: scheduler.sequenceCount, maximumWaiting: configuration.maximumQueuedRequests) { number in
                ContextSlot(
                    sequence: number - 1, scheduler: scheduler, promptEndsAlone: promptEndsAlone, label: "foundation-models.sequence.\(number)")
            }
        }
    }

    let configuration: SystemLanguageModel.Configuration
    /// Running totals over every job this engine ran, for benchmarks.
    package let statistics = Mutex(Statistics())
    private let loading = Mutex<Task<Loaded, any Error>?>(nil)
    /// The loaded model once a load has finished, for what only looks
    /// (``occupancy``) and must never start a load.
    private let ready = Mutex<Loaded?>(nil)

    private init(configuration: SystemLanguageModel.Configuration) {
        self.configuration = configuration
    }

    private static let engines = Mutex<[SystemLanguageModel.Configuration: OnDeviceEngine]>([:])

    /// Forgets `engine`, so the next request on its configuration creates
    /// (and loads) a new one; the old one is freed when the requests that
    /// hold it finish.
    package static func release(_ engine: OnDeviceEngine) {
        engines.withLock { engines in
            if engines[engine.configuration] === engine {
                engines[engine.configuration] = nil
            }
        }
    }

    /// Forgets the engine for `configuration`, if one exists: its weights
    /// and KV caches are freed once the requests in flight finish.
    package static func release(for configuration: SystemLanguageModel.Configuration) {
        _ = engines.withLock { $0.removeValue(forKey: configuration) }
    }

    /// How full the engine is now (``EngineOccupancy``); nil for an engine
    /// that has not loaded its model, or none for `configuration` yet:
    /// asking never creates or loads one.
    package static func occupancy(for configuration: SystemLanguageModel.Configuration) -> EngineOccupancy? {
        guard let engine = engines.withLock({ $0[configuration] }), let loaded = engine.ready.withLock({ $0 }) else { return nil }
        return loaded.pool.occupancy(tokensPerSequence: loaded.contextSize)
    }

    /// The engine for `configuration`, created on first use.
    package static func shared(for configuration: SystemLanguageModel.Configuration) -> OnDeviceEngine {
        engines.withLock { engines in
            if let engine = engines[configuration] { return engine }
            let engine = OnDeviceEngine(configuration: configuration)
            engines[configuration] = engine
            return engine
        }
    }

    /// The loaded model, loading it on first use. A failed load is not
    /// remembered: the next call tries again (the file may have appeared).
    package func loaded() async throws -> Loaded {
        let task = loading.withLock { loading -> Task<Loaded, any Error> in
            if let task = loading { return task }
            let configuration = self.configuration
            let task = Task.detached(priority: .userInitiated) {
                try Self.load(configuration)
            }
            loading = task
            return task
        }
        do {
            let loaded = try await task.value
            ready.withLock { $0 = loaded }
            return loaded
        } catch {
            loading.withLock { if $0 == task { $0 = nil } }
            // A file that is not there (or not a model): why, and what to run.
            if let unavailable = SystemModelRuntime.unavailabilityError(configuration) { throw unavailable }
            throw SystemLanguageModel.Error.assetsUnavailable(
                .init(
                    debugDescription: "The on-device model at \(configuration.modelPath) could not be loaded: \(error)"
                ))
        }
    }

    /// Loads the model and creates its context, offloaded as configured.
    /// Where an offloaded model or its cache does not fit the GPU, the
    /// model is loaded again on the CPU, with a warning that says so: a
    /// slower answer rather than none.
    static func load(_ configuration: SystemLanguageModel.Configuration) throws -> Loaded {
        let options = LlamaModel.Options(gpuLayers: configuration.gpuLayers, mainGPU: configuration.mainGPU)
        do {
            return try Loaded(model: LlamaModel(path: configuration.modelPath, options: options), configuration: configuration)
        } catch let error as LlamaError where options.requestedGPULayers > 0 {
            switch error {
            case .modelLoadFailed, .contextCreationFailed: return try loadOnCPU(configuration, after: error)
            default: throw error
            }
        }
    }

    private static func loadOnCPU(_ configuration: SystemLanguageModel.Configuration, after error: LlamaError) throws -> Loaded {
        let gpus = ComputeDevice.all.filter(\.isGPU).map(\.summary)
        logger.warning(
            "\(configuration.modelPath) did not load on the GPU (\(gpus.joined(separator: "; "))): \(error); loading it on the CPU instead (set gpuLayers, FOUNDATION_MODELS_GPU_LAYERS, to offload fewer layers)"
        )
        return try Loaded(
            model: LlamaModel(path: configuration.modelPath, options: LlamaModel.Options(gpuLayers: 0)),
            configuration: configuration
        )
    }

    static let logger = Logger(label: "FoundationModels.OnDeviceEngine")

    /// Totals over the jobs an engine has run.
    package struct Statistics: Sendable, Equatable {
        /// Tokens generated (forced ones included).
        package var generatedTokens = 0
        /// Generated tokens the schema forced.
        package var forcedTokens = 0
        /// Forward passes for generated tokens.
        package var modelSteps = 0
        /// Guided generations finished early to fit their budget.
        package var closedEarly = 0
    }

    /// Runs one job in a pooled context, delivering text to `onText` as it
    /// is decoded. Cancelling the calling task stops the job within one
    /// decoding step and throws `CancellationError`.
    ///
    /// Where a tracer is configured, the job's queue wait, prefill and
    /// decode are spans under the caller's (``EngineSpans``).
    func run(_ job: ContextSlot.Job, in loaded: Loaded, onText: @escaping ContextSlot.TextHandler) async throws -> ContextSlot.Outcome {
        let spans = EngineSpans(promptTokens: job.promptTokens.count, maximumTokens: job.maximumTokens)
        var job = job
        if let spans { job.promptEvaluated = { spans.promptEvaluated(cachedTokens: $0) } }
        let slot: ContextSlot
        do {
            slot = try await loaded.pool.acquire(for: job.promptTokens)
        } catch {
            spans?.failed(error)
            throw error
        }
        spans?.acquired(sequence: slot.sequence)
        // Begun before the cancellation handler is installed, so a
        // cancellation that already happened still stops the job.
        let lease = slot.beginLease()
        let pool = loaded.pool
        do {
            let outcome = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    slot.run(job, onText: onText) { result in
                        // The lease ends first: a cancellation arriving from
                        // now on must not stop the slot's next request.
                        slot.endLease()
                        // Back to the pool before the caller hears the end,
                        // so the conversation's next turn finds this context.
                        pool.release(slot)
                        continuation.resume(with: result)
                    }
                }
            } onCancel: {
                slot.abort(lease: lease)
            }
            statistics.withLock { totals in
                totals.generatedTokens += outcome.generatedTokens
                totals.forcedTokens += outcome.forcedTokens
                totals.modelSteps += outcome.modelSteps
                totals.closedEarly += outcome.closedEarly ? 1 : 0
            }
            spans?.finished(outcome)
            return outcome
        } catch LlamaError.aborted {
            spans?.failed(CancellationError())
            throw CancellationError()
        } catch {
            spans?.failed(error)
            throw error
        }
    }
}
extension SystemLanguageModel.Configuration {
    /// The llama.cpp context this configuration asks for, with sequences
    /// of `contextLength` positions.
    func contextParameters(contextLength: Int) -> LlamaBatchContext.Parameters {
        let cacheType: LlamaBatchContext.Parameters.CacheType =
            switch kvCacheType {
            case .f16: .f16
            case .bf16: .bf16
            case .f32: .f32
            case .q8_0: .q8_0
            case .q4_0: .q4_0
            }
        let flash: LlamaBatchContext.Parameters.FlashAttention =
            switch flashAttention {
            case .automatic: .automatic
            case .enabled: .enabled
            case .disabled: .disabled
            }
        return LlamaBatchContext.Parameters(
            contextLength: contextLength, threads: threads,
            flashAttention: flash, keyCacheType: cacheType, valueCacheType: cacheType
        )
    }
}
#endif
