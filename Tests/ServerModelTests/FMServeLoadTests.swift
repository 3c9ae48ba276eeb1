// `fm serve` under load: the fm-serve program (built beside this test
// bundle) on 127.0.0.1 with the small model, `--parallel 4 --max-queue 8`,
// and fm_serve_load.py driving it with the official `openai` Python client
// (in the virtual environment scripts/openai_env.sh keeps under the cache).
// Needs FOUNDATION_MODELS_SMALL_MODEL (source the setup's env.sh) and
// fm-serve built beside the tests (swift build --build-tests). About 40
// seconds on two free CPU cores. Best run alone (swift test --filter
// FMServeLoadTests), as the Makefile runs LoadSoakTests: with other work on
// the same cores, llama.cpp's threads (one per core) wait on each other and
// decoding gets many times slower; its deadlines (two minutes without a byte
// is a hang) leave room for that, and its memory figures are then its own.
//
// What it measures: waves of 32 concurrent streaming clients, 500 requests
// in all, each ending in a complete answer or a 429 with Retry-After and none
// hanging; the server's resident memory (VmRSS of its pid) after 500 requests
// within 64 MiB of after the first 50; 16 clients that close their streams
// mid-answer free their sequences (the next request's first token comes
// within seconds, then 4 concurrent requests are answered to the end).

import Foundation
import Testing

@Suite("fm serve under load", .serialized)
struct FMServeLoadTests {
    @Test func thirtyTwoStreamingClientsAreAnsweredOrTurnedAwayAndNothingLeaks() throws {
        let root = FMServeProcess.packageRoot
        let (envStatus, envOutput) = try FMServeTests.run(["bash", root.appendingPathComponent("scripts/openai_env.sh").path])
        try #require(envStatus == 0, "scripts/openai_env.sh failed: \(envOutput)")
        let python = try #require(envOutput.split(separator: "\n").last.map(String.init))
        // Later flags win: these replace FMServeProcess's --parallel 2 --max-queue 4.
        let server = try FMServeProcess(arguments: ["--parallel", "4", "--max-queue", "8"])
        let (status, output) = try FMServeTests.run([
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
