// `fm serve` under load: the fm-serve program (built beside this test
// bundle) on 127.0.0.1 with the small model, `--parallel 4 --max-queue 8`,
// and fm_serve_load.py driving it with the official `openai` Python client
// (in the virtual environment scripts/openai_env.sh keeps under the cache).
// About 40 seconds on two free CPU cores. It runs alone (its `.runAlone`
// need; `make test` gives the timing tests a run of their own): with other
// work on the same cores, llama.cpp's threads (one per core) wait on each
// other and decoding gets many times slower, and its memory figures must be
// its own.
//
// What it measures: waves of 32 concurrent streaming clients, 500 requests
// in all, each ending in a complete answer or a 429 with Retry-After and none
// hanging; the server's resident memory (VmRSS of its pid) after 500 requests
// within 64 MiB of after the first 50; 16 clients that close their streams
// mid-answer free their sequences (the next request's first token comes
// within seconds, then 4 concurrent requests are answered to the end).
//
// The second test (issue 58) runs the load and bad-input suites twice over
// one server with 2 sequences and a queue of 4: waves of 64 streaming
// openai clients, wrk's 64 connections (Debian's wrk, fm_serve_wrk.lua) and
// malformed requests; nothing but answers and 429s, and memory flat from
// one pass to the next.

import Foundation
import TestSupport
import Testing

@Suite("fm serve under load", .serialized, .tags(.model, .timing), .needs(.smallModel, .runAlone))
struct FMServeLoadTests {
    @Test func thirtyTwoStreamingClientsAreAnsweredOrTurnedAwayAndNothingLeaks() throws {
        // Later flags win: these replace FMServeProcess's --parallel 2 --max-queue 4,
        // and its 3 s idle timeout (for the slow-client check): fm serve closes a
        // kept-alive connection after the idle timeout, and the openai client
        // (httpx) reuses idle connections for up to 5 s, so a wave starting about
        // 3 s after a client's 429 could send on a connection being closed and
        // see a connection error. The default, 30 s, is past httpx's expiry.
        let server = try FMServeProcess(arguments: ["--parallel", "4", "--max-queue", "8", "--idle-timeout", "30"])
        // The figures (`info: ` lines) are printed, for the log.
        try PythonChecks.run(
            "fm_serve_load.py",
            [server.baseURL, FMServeProcess.apiKey, FMServeProcess.modelName, String(server.process.processIdentifier)],
            expecting: 9, info: .printed(label: "fm serve under load")
        )
        // SIGTERM still ends it cleanly after the load.
        #expect(server.stop() == 0)
    }

    /// Issue 58: the load and bad-input suites twice over one server with 2
    /// sequences and a queue of 4 (FMServeProcess's): each pass 10 waves of
    /// 64 streaming openai clients, wrk's 64 connections for 10 s
    /// (fm_serve_wrk.lua) and the bad inputs; every request a complete
    /// answer or a 429 with Retry-After (no connection error, no socket
    /// error, no 5xx), and resident memory after the second pass within
    /// 32 MiB of after the first. About a minute and a half on two free cores.
    ///
    /// The idle timeout is above httpx's 5 s pool expiry, as for the test
    /// above: with FMServeProcess's 3 s, a client that reuses a connection
    /// idle for about 3 s races the server closing it, and the server, with
    /// the request unread in its socket, resets the connection (measured: 12
    /// of 384 requests sent 3.0 ± 0.05 s after the last on their connection
    /// ended in `APIConnectionError` with httpx's `ReadError: Connection reset
    /// by peer`; 0 of 384 with 30 s, sent 0 to 6 s apart).
    @Test(.enabled(if: LoadTool.wrk != nil, Comment(rawValue: LoadTool.absence)))
    func sixtyFourStreamingClientsAndWrkAreAnsweredOrTurnedAwayAndAPassLeavesNoMemoryBehind() throws {
        let wrk = try #require(LoadTool.wrk)
        let server = try FMServeProcess(arguments: ["--idle-timeout", "30"])
        try PythonChecks.run(
            "fm_serve_load.py",
            [
                server.baseURL, FMServeProcess.apiKey, FMServeProcess.modelName, String(server.process.processIdentifier),
                "passes", wrk, PythonChecks.folder.appendingPathComponent("fm_serve_wrk.lua").path,
            ],
            expecting: 13, info: .printed(label: "fm serve under load, two passes")
        )
        #expect(server.stop() == 0)
    }
}

/// wrk, the HTTP benchmarking tool, where installed (`make setup` installs Debian's `wrk`).
enum LoadTool {
    static let wrk: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/wrk" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let absence = "needs wrk on PATH (`make setup` installs Debian's wrk)"
}
