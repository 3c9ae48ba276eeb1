/// The stream an executor writes its output into: text deltas, tool-call
/// argument deltas, reasoning, usage and metadata.
///
/// The session reads the channel while the executor writes to it, so deltas
/// reach streaming callers as soon as they are produced. Sending never blocks
/// on the reader; events are buffered in order.
public struct LanguageModelExecutorGenerationChannel: AsyncSequence, Sendable {
    public typealias Element = Event
    public typealias Failure = any Error

    private let stream: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation

    /// Creates an open channel.
    public init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        self.stream = stream
        self.continuation = continuation
    }

    /// Sends one event to the session.
    nonisolated(nonsending)
        public func send(_ event: Event) async
    {
        continuation.yield(event)
    }

    /// Sends one event without suspending, from any thread: for executors
    /// whose generation runs outside Swift concurrency.
    package func yield(_ event: Event) {
        continuation.yield(event)
    }

    /// Closes the channel; the reader sees the end of the sequence.
    package func finish() {
        continuation.finish()
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator())
    }

    /// The events sent on a channel, in order, until it is closed.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<Event>.Iterator

        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Event? {
            await base.next(isolation: actor)
        }

        public mutating func next() async throws -> Event? {
            await base.next(isolation: nil)
        }
    }
}
