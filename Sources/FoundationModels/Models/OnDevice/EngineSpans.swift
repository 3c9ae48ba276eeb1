#if LlamaCpp
import Synchronization
import Tracing

/// The tracing spans of one job's run in the in-process engine, one per
/// phase, as children of the caller's span (`ServiceContext.current`):
///
/// - `queue wait`: from the request to the sequence (``ContextPool``) it
///   runs in; `foundation_models.sequence` is that sequence.
/// - `prefill`: the prompt's evaluation, with `foundation_models.prompt_tokens`,
///   `foundation_models.cached_tokens` (found in the sequence's cache) and
///   `foundation_models.evaluated_tokens`.
/// - `decode`: the answer's generation, with `foundation_models.generated_tokens`
///   (forced ones included), `foundation_models.forced_tokens`,
///   `foundation_models.model_steps` and `foundation_models.maximum_tokens`;
///   none for a job that only evaluates its prompt (a prewarm).
///
/// The tracer is the task's (`withTracer`), else the one bootstrapped
/// (`InstrumentationSystem.bootstrap`). With none, the default no-op
/// tracer, no ``EngineSpans`` is made and a job costs one look-up of the
/// tracer. No span is started per token: a phase's span starts and ends
/// once, at its edges. A failed phase records the error (with an error
/// status, unless cancelled) and ends; the phases after it get no span.
final class EngineSpans: Sendable {
    private let tracer: any Tracer
    private let parent: ServiceContext
    private let promptTokens: Int
    private let maximumTokens: Int
    /// The phase running now, nil once the last one ended.
    private let open: Mutex<(any Span)?>

    /// Starts the queue-wait span; nil where no tracer is configured.
    init?(promptTokens: Int, maximumTokens: Int) {
        let tracer = InstrumentationSystem.tracer
        if tracer is NoOpTracer { return nil }
        self.tracer = tracer
        self.parent = ServiceContext.current ?? .topLevel
        self.promptTokens = promptTokens
        self.maximumTokens = maximumTokens
        self.open = Mutex(tracer.startAnySpan("queue wait", context: parent, ofKind: .internal))
    }

    /// The job has its sequence: the wait ends, the prompt's evaluation begins.
    func acquired(sequence: Int) {
        let prompt = promptTokens
        next("prefill") { waited in
            waited.attributes["foundation_models.sequence"] = sequence
        } starting: { prefill in
            prefill.attributes["foundation_models.prompt_tokens"] = prompt
        }
    }

    /// The prompt is evaluated, `cachedTokens` of it found in the cache:
    /// the generation begins (on the slot's queue, once per job).
    func promptEvaluated(cachedTokens: Int) {
        let (prompt, maximum) = (promptTokens, maximumTokens)
        next(maximum > 0 ? "decode" : nil) { prefill in
            prefill.attributes["foundation_models.cached_tokens"] = cachedTokens
            prefill.attributes["foundation_models.evaluated_tokens"] = prompt - cachedTokens
        } starting: { decode in
            decode.attributes["foundation_models.maximum_tokens"] = maximum
        }
    }

    /// The job ended with `outcome`.
    func finished(_ outcome: ContextSlot.Outcome) {
        next(nil) { decode in
            decode.updateAttributes { attributes in
                attributes["foundation_models.generated_tokens"] = outcome.generatedTokens
                attributes["foundation_models.forced_tokens"] = outcome.forcedTokens
                attributes["foundation_models.model_steps"] = outcome.modelSteps
                if outcome.contextFull { attributes["foundation_models.context_full"] = true }
                if outcome.incomplete { attributes["foundation_models.incomplete"] = true }
            }
        }
    }

    /// The job failed with `error` in the phase running now.
    func failed(_ error: any Error) {
        next(nil) { span in
            span.recordError(error)
            if !(error is CancellationError) { span.setStatus(SpanStatus(code: .error)) }
        }
    }

    /// Ends the open span, after `ending` has updated it, then starts the
    /// phase `name` (none: nil), which `starting` sets up: each phase
    /// begins where the one before it ended.
    private func next(_ name: String?, ending: (any Span) -> Void, starting: (any Span) -> Void = { _ in }) {
        open.withLock { open in
            if let span = open {
                ending(span)
                span.end()
            }
            open = name.map { name in
                let span = tracer.startAnySpan(name, context: parent, ofKind: .internal)
                starting(span)
                return span
            }
        }
    }
}
#endif
