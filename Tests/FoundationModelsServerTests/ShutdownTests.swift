// After its HTTP server has stopped, fm serve waits for the engines it
// serves to finish the decode step an answer cancelled by the shutdown is
// in, so the process never exits under it (a SIGTERM mid-answer once
// ended in SIGSEGV). Scripted occupancy; the spawned server's SIGTERM test
// is FMServeTests.sigtermMidAnswerEndsWithinTheBound.

import Foundation
import FoundationModels
import Logging
import Synchronization
import TestSupport
import Testing

@testable import FoundationModelsServer

@Suite("fm serve: shutdown")
struct ShutdownTests {
    static func server(_ occupancy: @escaping @Sendable () -> EngineOccupancy?) -> ChatCompletionsServer {
        var model = ChatCompletionsServer.ServedModel(name: "m", model: ScriptedModel([]))
        model.occupancy = occupancy
        let quiet = Logger(label: "fm.serve.test") { _ in SwiftLogNoOpLogHandler() }
        return ChatCompletionsServer(models: [model], configuration: .init(modelName: "m"), logger: quiet)
    }

    static func occupancy(inUse: Int, waiting: Int = 0) -> EngineOccupancy {
        EngineOccupancy(sequencesInUse: inUse, sequences: 1, waiting: waiting, maximumWaiting: 4, cachedTokens: 0, tokenCapacity: 4096)
    }

    // No bound on how long a wait takes: under a full test run the
    // cooperative pool can be starved for seconds; what is asserted is
    // how often the engines were read.

    @Test func itWaitsUntilTheLastDecodeHasEnded() async {
        let reads = Mutex(0)
        // Busy (a sequence in use, then a request waiting) for the first reads.
        let server = Self.server {
            let read = reads.withLock { value in
                value += 1
                return value
            }
            return read < 5 ? Self.occupancy(inUse: 1) : read < 8 ? Self.occupancy(inUse: 0, waiting: 1) : Self.occupancy(inUse: 0)
        }
        await server.enginesStopped(within: .seconds(600))
        #expect(reads.withLock { $0 } == 8, "returned at the first idle reading")
    }

    @Test func anEngineThatNeverStopsIsWaitedForOnlyUntilTheLimit() async {
        let start = ContinuousClock.now
        await Self.server { Self.occupancy(inUse: 1) }.enginesStopped(within: .milliseconds(200))
        #expect(ContinuousClock.now - start >= .milliseconds(200))
    }

    @Test func aModelWithoutOccupancyIsNotWaitedFor() async {
        let reads = Mutex(0)
        let server = Self.server {
            reads.withLock { $0 += 1 }
            return nil
        }
        await server.enginesStopped(within: .seconds(600))
        #expect(reads.withLock { $0 } == 1)
    }
}
