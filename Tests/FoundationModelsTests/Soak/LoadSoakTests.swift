import Foundation
import Synchronization
import TestSupport
import Testing

@testable import FoundationModels

#if canImport(Glibc)
import Glibc
#endif

/// A short typed answer, for the guided requests of the soak.
@Generable
struct SoakVerdict {
    @Guide(.anyOf(["yes", "no"]))
    var answer: String
}

/// Load and soak on the real model (FOUNDATION_MODELS_MODEL; `make test`
/// runs it alone on the small model, so no other test shares its cores or
/// its process's memory): many sessions at once, a storm of cancellations,
/// and a thousand requests with resident memory held flat. Every request
/// has a deadline, so a hang fails the test instead of stalling the run.
///
/// Each test frees its engine when it ends, so the next one starts on a
/// fresh engine and the pool it checks is the one its requests used.
@Suite("Load and soak", .serialized, .tags(.model, .timing), .needs(.model, .runAlone))
struct LoadSoakTests {
    /// How one request ended.
    enum Outcome: Sendable, CustomStringConvertible {
        case answered(String)
        case rateLimited
        case cancelled
        case failed(String)
        /// Its deadline passed first.
        case hung

        var description: String {
            switch self {
            case .answered(let text): "answered \(text.prefix(40).debugDescription)"
            case .rateLimited: "rateLimited"
            case .cancelled: "cancelled"
            case .failed(let error): "failed: \(error)"
            case .hung: "hung"
            }
        }

        var isAnswer: Bool { if case .answered = self { true } else { false } }
    }

    static func outcome(of error: any Error) -> Outcome {
        switch error {
        case LanguageModelSession.GenerationError.rateLimited, LanguageModelError.rateLimited: .rateLimited
        case is CancellationError: .cancelled
        default: .failed(String(describing: error))
        }
    }

    /// Runs `body` as a task of its own and gives up on it after `deadline`
    /// (cancelling it): a request that ignores cancellation still cannot
    /// stall the test, it is reported as `hung`. The timer ends with the
    /// request, so a thousand requests leave no thousand sleeping timers.
    static func outcome(within deadline: Duration, _ body: @escaping @Sendable () async throws -> String) async -> Outcome {
        let race = Race()
        let work = Task {
            let outcome: Outcome
            do { outcome = .answered(try await body()) } catch { outcome = Self.outcome(of: error) }
            race.finish(outcome)
        }
        let timer = Task {
            do { try await Task.sleep(for: deadline) } catch { return }
            if race.finish(.hung) { work.cancel() }
        }
        let outcome = await withCheckedContinuation { race.arm($0) }
        timer.cancel()
        return outcome
    }

    /// The first outcome of a request or its deadline, handed to the one
    /// waiter whether it arrives before or after the waiter does.
    final class Race: Sendable {
        private enum State {
            case waiting
            case armed(CheckedContinuation<Outcome, Never>)
            case finished(Outcome)
            case delivered
        }
        private let state = Mutex(State.waiting)

        func arm(_ continuation: CheckedContinuation<Outcome, Never>) {
            let early: Outcome? = state.withLock { state in
                switch state {
                case .waiting: state = .armed(continuation); return nil
                case .finished(let outcome): state = .delivered; return outcome
                case .armed, .delivered: preconditionFailure("a race has one waiter")
                }
            }
            if let early { continuation.resume(returning: early) }
        }

        /// Whether `outcome` is the first: later ones are dropped.
        @discardableResult
        func finish(_ outcome: Outcome) -> Bool {
            let (first, waiter): (Bool, CheckedContinuation<Outcome, Never>?) = state.withLock { state in
                switch state {
                case .waiting: state = .finished(outcome); return (true, nil)
                case .armed(let continuation): state = .delivered; return (true, continuation)
                case .finished, .delivered: return (false, nil)
                }
            }
            waiter?.resume(returning: outcome)
            return first
        }
    }

    /// A model with `contexts` contexts and room for `queue` waiting
    /// requests.
    static func model(contexts: Int, queue: Int, contextSize: Int = 1024) -> SystemLanguageModel {
        OnDevice.model(contexts: contexts, maximumQueuedRequests: queue, contextSize: contextSize)
    }

    /// How many contexts sit idle in the pool of the engine `model`'s
    /// requests run on (all of them, once every request has ended: none
    /// leaked). Read through the executor cache, as sessions reach it.
    static func idleContexts(_ model: SystemLanguageModel) async throws -> Int {
        let executor: SystemLanguageModel.Executor = try ExecutorCache.shared.executor(for: model.executorConfiguration)
        return try await OnDeviceEngine.shared(for: executor.configuration.engine).loaded().pool.idleCachedTokenCounts.count
    }

    /// Drops every cached executor, freeing the test's engine (its weights
    /// and contexts): the next test loads its own.
    static func release() {
        ExecutorCache.shared.removeAll()
    }

    /// Resident memory of this process (VmRSS), in bytes, after giving
    /// freed memory back to the system: what stays is what is held.
    static func residentBytes() throws -> Int {
        trimHeap()
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try #require(Int(line.split(separator: " ").dropFirst().first ?? ""))
        return kilobytes * 1024
    }

    /// `session`'s answer to `prompt`: the response, or the last snapshot
    /// of its stream.
    static func answer(_ session: LanguageModelSession, _ prompt: String, _ options: GenerationOptions, streamed: Bool) async throws -> String {
        guard streamed else { return try await session.respond(to: prompt, options: options).content }
        var last = ""
        for try await snapshot in session.streamResponse(to: prompt, options: options) { last = snapshot.content }
        return last
    }

    /// glibc's `malloc_trim(0)`, looked up at run time: Glibc's module map
    /// leaves out `malloc.h`. Freed pages the allocator still holds would
    /// otherwise count as resident.
    static func trimHeap() {
        #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }

    // MARK: - 48 sessions at once

    @Test(.timeLimit(.minutes(2)))
    func fortyEightSessionsAtOnceGetAnswersOrRateLimited() async throws {
        try OnDevice.requireModel()
        let model = Self.model(contexts: 2, queue: 16)
        defer { Self.release() }
        let sessions = (0..<48).map { _ in LanguageModelSession(model: model) }
        let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 8)
        let outcomes = await withTaskGroup(of: (Int, Outcome).self) { group in
            for (index, session) in sessions.enumerated() {
                group.addTask {
                    let outcome = await Self.outcome(within: .seconds(60)) {
                        try await Self.answer(session, "Say the number \(index).", options, streamed: !index.isMultiple(of: 2))
                    }
                    return (index, outcome)
                }
            }
            var outcomes = [Outcome](repeating: .hung, count: 48)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes
        }
        let answered = outcomes.filter(\.isAnswer).count
        let rateLimited = outcomes.filter { if case .rateLimited = $0 { true } else { false } }.count
        #expect(answered + rateLimited == 48, "only answers or rateLimited: \(outcomes.filter { !$0.isAnswer }.map(\.description))")
        // The two contexts and the sixteen places in line are all used; the
        // rest is turned away at once.
        #expect(answered >= 18, "\(answered) answered")
        #expect(rateLimited > 0, "48 requests on 2 contexts and 16 places in line: some must be turned away")
        for (session, outcome) in zip(sessions, outcomes) {
            #expect(!session.isResponding)
            #expect(session.transcript.count == (outcome.isAnswer ? 2 : 0), "\(outcome)")
        }
        #expect(try await Self.idleContexts(model) == 2, "a context was not given back")
        print("load-soak: 48 sessions at once: \(answered) answered, \(rateLimited) rateLimited")
    }

    // MARK: - Cancellation storm

    @Test(.timeLimit(.minutes(2)))
    func aCancellationStormDrainsAndTheModelStillAnswers() async throws {
        try OnDevice.requireModel()
        let model = Self.model(contexts: 2, queue: 64)
        defer { Self.release() }
        let long = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 400)
        // Load the weights first, so the storm hits the pool, the line and
        // running decodes rather than the load.
        _ = try await LanguageModelSession(model: model).respond(to: "Hi", options: OnDevice.greedy)

        let storm = (0..<24).map { _ in LanguageModelSession(model: model) }
        let tasks = storm.enumerated().map { index, session in
            Task { () async throws -> String in
                let prompt = "Write a very long story about lighthouse number \(index)."
                // Some short, so that cancellations also arrive as or just
                // after their answers end and their context moves on.
                let options = index.isMultiple(of: 3) ? GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 6) : long
                return try await Self.answer(session, prompt, options, streamed: !index.isMultiple(of: 2))
            }
        }
        // Requests nobody cancels, in line with the storm: a cancellation
        // must stop its own request only.
        let bystanders = (0..<4).map { index in
            Task {
                await Self.outcome(within: .seconds(60)) {
                    try await LanguageModelSession(model: model).respond(
                        to: "Name a colour, number \(index).", options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 12)
                    ).content
                }
            }
        }
        // Cancelled one after another over a second: waiting in line,
        // evaluating the prompt, decoding, finishing.
        let start = ContinuousClock.now
        for (index, task) in tasks.enumerated() {
            try await Task.sleep(until: start + .milliseconds(45 * index), clock: .continuous)
            task.cancel()
        }
        let lastCancel = ContinuousClock.now
        let drained = await Self.outcome(within: .seconds(3)) {
            for task in tasks { _ = await task.result }
            return "drained"
        }
        #expect(drained.isAnswer, "the cancelled requests did not end within 3 s of the last cancellation: \(drained)")
        let drainTime = ContinuousClock.now - lastCancel
        for (task, session) in zip(tasks, storm) {
            let outcome: Outcome
            switch await task.result {
            case .success(let text): outcome = .answered(text)
            case .failure(let error): outcome = Self.outcome(of: error)
            }
            switch outcome {
            case .answered:
                #expect(session.transcript.count == 2)
            case .cancelled:
                #expect(session.transcript.isEmpty, "a cancelled request left entries")
            default:
                Issue.record("a cancelled request ended as \(outcome)")
            }
            #expect(!session.isResponding)
        }
        for bystander in bystanders {
            let outcome = await bystander.value
            #expect(outcome.isAnswer, "a request nobody cancelled ended as \(outcome)")
        }
        #expect(try await Self.idleContexts(model) == 2, "a context was not given back")
        // And the model still answers.
        let after = await Self.outcome(within: .seconds(30)) {
            try await LanguageModelSession(model: model).respond(to: "Say hi.", options: OnDevice.greedy).content
        }
        #expect(after.isAnswer, "\(after)")
        print("load-soak: cancellation storm drained \(drainTime) after the last cancellation")
    }

    // MARK: - A thousand requests

    @Test(.timeLimit(.minutes(4)))
    func aThousandRequestsKeepResidentMemoryFlat() async throws {
        try OnDevice.requireModel()
        let model = Self.model(contexts: 2, queue: 16)
        defer { Self.release() }
        let short = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 4)
        let guided = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 24)
        let conversation = LanguageModelSession(model: model, instructions: "Answer in one word.")

        /// Request `number` of the mix: mostly plain answers on new
        /// sessions, some streamed, some typed, some turns of one
        /// conversation (which is started over before it fills the context).
        @Sendable func request(_ number: Int) async -> Outcome {
            await Self.outcome(within: .seconds(60)) {
                let prompt = "Reply with one word about item \(number)."
                switch number % 10 {
                case 3:
                    return try await Self.answer(LanguageModelSession(model: model), prompt, short, streamed: true)
                case 6:
                    return try await LanguageModelSession(model: model)
                        .respond(to: "Is \(number) even?", generating: SoakVerdict.self, options: guided).content.answer
                default:
                    return try await LanguageModelSession(model: model).respond(to: prompt, options: short).content
                }
            }
        }
        /// `count` requests from `first` on, four at a time.
        func run(_ first: Int, _ count: Int) async -> [Outcome] {
            await withTaskGroup(of: [Outcome].self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        var outcomes: [Outcome] = []
                        for number in stride(from: first + worker, to: first + count, by: 4) {
                            outcomes.append(await request(number))
                        }
                        return outcomes
                    }
                }
                return await group.reduce(into: []) { $0 += $1 }
            }
        }

        let warmUp = await run(0, 100)
        let warmUpFailures = warmUp.filter { !$0.isAnswer }
        #expect(warmUpFailures.isEmpty, "\(warmUpFailures.prefix(3))")
        let before = try Self.residentBytes()
        let started = ContinuousClock.now
        var outcomes: [Outcome] = []
        for batch in 0..<10 {
            outcomes += await run(1_000 + batch * 100, 100)
            // A conversation alongside, a few turns at a time.
            if conversation.transcript.count > 12 { conversation.transcript = Transcript() }
            _ = try? await conversation.respond(to: "Turn \(batch)?", options: short)
        }
        let elapsed = ContinuousClock.now - started
        let after = try Self.residentBytes()
        let failures = outcomes.filter { !$0.isAnswer }
        #expect(outcomes.count == 1_000)
        #expect(failures.isEmpty, "\(failures.count) of 1,000 requests did not answer: \(failures.prefix(5))")
        let growth = after - before
        #expect(abs(growth) <= 64 << 20, "resident memory moved by \(growth >> 20) MiB over 1,000 requests (\(before >> 20) -> \(after >> 20) MiB)")
        #expect(try await Self.idleContexts(model) == 2, "a context was not given back")
        print("load-soak: 1,000 requests in \(elapsed), resident memory \(before >> 20) MiB -> \(after >> 20) MiB")
    }
}
