import Synchronization

extension LanguageModelSession {
    /// A response delivered as it is generated: an async sequence of
    /// cumulative snapshots (each holds everything generated so far, not a
    /// delta), ending with the complete response.
    ///
    /// Generation starts when iteration starts. Stopping iteration or
    /// cancelling the iterating task cancels generation, and the transcript
    /// stays as it was.
    public struct ResponseStream<Content>: AsyncSequence where Content: Generable {
        /// The content generated so far.
        public struct Snapshot {
            /// The content so far, as the type's partially generated form.
            public var content: Content.PartiallyGenerated
            /// The raw content so far (`isComplete` is `false` until the end).
            public var rawContent: GeneratedContent
            /// The entries the request has produced so far: its prompt,
            /// finished tool rounds, and the reasoning and response being
            /// generated.
            public var transcriptEntries: ArraySlice<Transcript.Entry>
            /// The tokens read and written so far.
            public var usage: Usage
        }

        public typealias Element = Snapshot
        public typealias Failure = any Swift.Error

        let run: StreamRun

        init(run: StreamRun) {
            self.run = run
        }

        /// A stream that yields the final content of an already finished request.
        package init(rawContent: GeneratedContent, transcriptEntries: ArraySlice<Transcript.Entry>) {
            let result = RequestResult(rawContent: rawContent, transcriptEntries: transcriptEntries, usage: .init())
            self.init(
                run: StreamRun { onSnapshot in
                    onSnapshot(RequestProgress(content: rawContent, text: rawContent.jsonString, entries: Array(transcriptEntries), usage: .init()))
                    return result
                })
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(run: run)
        }

        /// Iterates the stream to its end and returns the complete response.
        nonisolated(nonsending)
            public func collect() async throws -> sending Response<Content>
        {
            var iterator = makeAsyncIterator()
            while try await iterator.next(isolation: nil) != nil {}
            guard let result = run.result else {
                throw CancellationError()
            }
            return Response(
                content: try Content(result.rawContent),
                rawContent: result.rawContent,
                transcriptEntries: result.transcriptEntries,
                usage: result.usage
            )
        }

        /// Iterates snapshots, decoding each raw snapshot into the partially
        /// generated type in the caller's isolation.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let run: StreamRun
            private var events: AsyncThrowingStream<StreamRun.Event, any Swift.Error>.Iterator?
            private var finished = false

            init(run: StreamRun) {
                self.run = run
            }

            public mutating func next() async throws -> Snapshot? {
                try await next(isolation: nil)
            }

            public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(any Swift.Error) -> Snapshot? {
                if finished { return nil }
                if events == nil {
                    events = run.events().makeAsyncIterator()
                }
                while let event = try await events?.next(isolation: actor) {
                    switch event {
                    case .snapshot(let progress):
                        // Content that does not decode yet (an enum value
                        // half-written) is skipped; the next delta completes it.
                        if let partial: Content.PartiallyGenerated = try? .init(progress.content) {
                            return Snapshot(
                                content: partial,
                                rawContent: progress.content,
                                transcriptEntries: progress.entries[...],
                                usage: progress.usage
                            )
                        }
                    case .completed(let result):
                        finished = true
                        if let partial: Content.PartiallyGenerated = try? .init(result.rawContent) {
                            return Snapshot(
                                content: partial,
                                rawContent: result.rawContent,
                                transcriptEntries: result.transcriptEntries,
                                usage: result.usage
                            )
                        }
                        return nil
                    }
                }
                finished = true
                // The events end without the response only when the
                // iterating task was cancelled. The generation is stopping
                // (the stream's end cancelled it): wait for it, so the
                // session is free again once this throws, and say why the
                // response ended, instead of an end that looks complete.
                await run.ended()
                guard let result = run.result else { throw CancellationError() }
                // It finished as the cancellation arrived: the transcript
                // has it, so the caller gets it too.
                return (try? Content.PartiallyGenerated(result.rawContent)).map {
                    Snapshot(content: $0, rawContent: result.rawContent, transcriptEntries: result.transcriptEntries, usage: result.usage)
                }
            }
        }
    }
}

/// The generation behind a ``LanguageModelSession/ResponseStream``: started
/// once, on first iteration, and remembered when finished so `collect()` can
/// return the response after the stream was iterated.
final class StreamRun: Sendable {
    enum Event: Sendable {
        case snapshot(RequestProgress)
        case completed(RequestResult)
    }

    typealias Body = @Sendable (_ onSnapshot: @escaping @Sendable (RequestProgress) -> Void) async throws -> RequestResult

    private let body: Body
    private let state = Mutex<(started: Bool, result: RequestResult?, task: Task<Void, Never>?)>((false, nil, nil))

    init(_ body: @escaping Body) {
        self.body = body
    }

    /// The finished request, once the stream has completed.
    var result: RequestResult? { state.withLock { $0.result } }

    /// Starts the generation (or, when it already ran, replays its end).
    func events() -> AsyncThrowingStream<Event, any Swift.Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Event.self)
        let alreadyStarted = state.withLock { state -> Bool in
            defer { state.started = true }
            return state.started
        }
        if alreadyStarted {
            if let result {
                continuation.yield(.completed(result))
            }
            continuation.finish()
            return stream
        }
        let body = self.body
        let task = Task {
            do {
                let result = try await body { continuation.yield(.snapshot($0)) }
                self.state.withLock { $0.result = result }
                continuation.yield(.completed(result))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        state.withLock { $0.task = task }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Returns once the generation has ended (at once if it never started).
    func ended() async {
        await state.withLock { $0.task }?.value
    }
}

extension LanguageModelSession.ResponseStream.Snapshot: Sendable where Content.PartiallyGenerated: Sendable {}
