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

import Foundation
import Testing
import TestSupport

@Suite("fm serve under load", .serialized, .tags(.model, .timing), .needs(.smallModel, .runAlone))
struct FMServeLoadTests {
    @Test func thirtyTwoStreamingClientsAreAnsweredOrTurnedAwayAndNothingLeaks() throws {
        let root = TestMachine.packageRoot
        let python = try TestMachine.python(environment: "openai_env.sh")
        // Later flags win: these replace FMServeProcess's --parallel 2 --max-queue 4,
        // and its 3 s idle timeout (for the slow-client check): fm serve closes a
        // kept-alive connection after the idle timeout, and the openai client
        // (httpx) reuses idle connections for up to 5 s, so a wave starting about
        // 3 s after a client's 429 could send on a connection being closed and
        // see a connection error. The default, 30 s, is past httpx's expiry.
        let server = try FMServeProcess(arguments: ["--parallel", "4", "--max-queue", "8", "--idle-timeout", "30"])
        let (status, output) = try TestMachine.run([
            python, root.appendingPathComponent("Tests/ServerModelTests/fm_serve_load.py").path,
            server.baseURL, FMServeProcess.apiKey, FMServeProcess.modelName, String(server.process.processIdentifier),
        ])
        let lines = output.split(separator: "\n")
        let passed = lines.filter { $0.hasPrefix("ok: ") }
        for line in lines where !line.hasPrefix("ok: ") {
            if line.hasPrefix("info: ") {
                print("fm serve under load: \(line.dropFirst(6))")  // the figures, for the log
            } else {
                Issue.record("\(line)")
            }
        }
        #expect(status == 0)
        #expect(passed.count == 9, "\(passed.count) of 9 checks passed")
        // SIGTERM still ends it cleanly after the load.
        #expect(server.stop() == 0)
    }
}
