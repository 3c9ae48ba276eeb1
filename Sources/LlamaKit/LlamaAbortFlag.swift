import Synchronization

/// A flag that stops a running ``LlamaBatchContext/decode(_:)`` from any
/// thread.
///
/// llama.cpp polls it between graph nodes of the CPU backend (its abort
/// callback), so a decode stops within one step of the flag being raised,
/// even in the middle of a long prompt. Sendable: its only state is an atomic.
public final class LlamaAbortFlag: Sendable {
    private let raised = Atomic<Bool>(false)

    public init() {}

    /// Asks the decode running now (or the next one) to stop with `LlamaError.aborted`.
    public func requestAbort() { raised.store(true, ordering: .releasing) }
    /// Lowers the flag so that later decodes run.
    public func reset() { raised.store(false, ordering: .releasing) }
    public var isAbortRequested: Bool { raised.load(ordering: .acquiring) }
}
