import Synchronization

/// A flag that stops a running ``LlamaBatchContext/decode(_:)`` from any
/// thread.
///
/// llama.cpp polls it between graph nodes of the CPU backend (its abort
/// callback), so a decode stops within one step of the flag being raised,
/// even in the middle of a long prompt. Sendable: its only state is an atomic.
package final class LlamaAbortFlag: Sendable {
    private let raised = Atomic<Bool>(false)

    package init() {}

    /// Asks the decode running now (or the next one) to stop with `LlamaError.aborted`.
    package func requestAbort() { raised.store(true, ordering: .releasing) }
    /// Lowers the flag so that later decodes run.
    package func reset() { raised.store(false, ordering: .releasing) }
    package var isAbortRequested: Bool { raised.load(ordering: .acquiring) }
}
